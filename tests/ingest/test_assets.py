"""Asset-reference accounting: every image/video link gets a status; the resolution rate."""

from __future__ import annotations

from pathlib import Path

from murar.ingest.assets import asset_stats, resolve_reference
from murar.ingest.sites.base import PlainSite
from murar.schema import AssetRef


def _site(tmp_path: Path) -> PlainSite:
    (tmp_path / "img").mkdir()
    (tmp_path / "img" / "a.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "b.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    return PlainSite(tmp_path)


def test_every_kind_of_reference_gets_a_status(tmp_path: Path) -> None:
    site = _site(tmp_path)
    page = "page.md"
    cases = {
        "img/a.png": "resolved",
        "img/missing.png": "missing",
        "https://cdn.example.org/x.png": "remote",
        "data:image/png;base64,AAAA": "inline",
        "../../etc/passwd.png": "escapes_root",
        "{useBaseUrl('img/a.png')}": "unsupported",
        "": "unsupported",
    }
    for link, status in cases.items():
        ref = resolve_reference(site, link, page_rel=page)
        assert ref.status == status, (link, ref)
        assert ref.source_path == page
    missing = resolve_reference(site, "img/missing.png", page_rel=page)
    assert missing.path == "img/missing.png" and "img/missing.png" in missing.reason


def test_resolution_rate_counts_only_targets_that_exist(tmp_path: Path) -> None:
    refs = [
        AssetRef(source_path="p.md", link="img/a.png", status="resolved", path="img/a.png"),
        AssetRef(source_path="p.md", link="b.png", status="missing", path="b.png"),      # b.png is elsewhere
        AssetRef(source_path="p.md", link="gone.png", status="missing", path="gone.png"),  # broken upstream
        AssetRef(source_path="p.md", link="https://x/y.png", status="remote"),
    ]
    stats = asset_stats(refs, {"a.png", "b.png"})
    assert stats.references == 4 and stats.resolved == 1
    assert stats.missing_in_corpus == 1 and stats.missing_absent == 1
    assert stats.resolvable == 2 and stats.resolution_rate == 0.5
    assert asset_stats([], set()).resolution_rate is None
