"""Asset-reference accounting: every image/video link gets a status; the resolution rate."""

from __future__ import annotations

from pathlib import Path

from sample_png import PNG_64PX

from murar.ingest.assets import asset_stats, repository_copy, resolve_reference
from murar.ingest.markdown import convert_markdown
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


def test_a_repository_file_url_resolves_to_its_copy_in_the_corpus(tmp_path: Path) -> None:
    """A README shared with the docs writes its pictures as raw GitHub URLs (so that
    PyPI shows them); the copy in the corpus is the picture (starlette's contributing page)."""
    site = _site(tmp_path)
    root = site.config.root
    for url in ("https://raw.githubusercontent.com/owner/proj/main/img/a.png",
                "https://raw.githubusercontent.com/owner/proj/refs/heads/main/img/a.png",
                "https://github.com/owner/proj/raw/release/2.x/img/a.png",  # a branch name with a slash
                "https://github.com/owner/proj/blob/main/img/a.png?raw=true",
                "https://gitlab.example.org/group/sub/proj/-/raw/main/img/a.png",
                # the corpus is the repository's docs folder: the tail under it
                "https://raw.githubusercontent.com/owner/proj/main/docs/img/a.png"):
        ref = resolve_reference(site, url, page_rel="page.md")
        assert (ref.status, ref.path) == ("resolved", "img/a.png"), url
    for url in ("https://raw.githubusercontent.com/owner/proj/main/img/gone.png",  # no copy
                "https://github.com/owner/proj/issues/img/a.png",  # not a file URL
                "https://cdn.example.org/owner/proj/main/img/a.png",
                "https://raw.githubusercontent.com/owner/proj/main/../../img/a.png",
                "https://raw.githubusercontent.com/owner/proj/main/img/%2e%2e/img/a.png"):
        assert repository_copy(url, root) is None, url
        assert resolve_reference(site, url, page_rel="page.md").status == "remote", url
    (tmp_path.parent / "outside.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    assert repository_copy("https://raw.githubusercontent.com/o/p/main/%2E%2E/outside.png", root) is None


def test_a_page_shows_the_local_copy_of_its_repository_image_url(tmp_path: Path) -> None:
    site = _site(tmp_path)
    (tmp_path / "img" / "a.png").write_bytes(PNG_64PX)
    (tmp_path / "page.md").write_text(
        "# Checks\n\nA failing check looks like this:\n\n"
        '<img src="https://raw.githubusercontent.com/owner/proj/main/img/a.png" alt="Failing check">\n')
    doc = convert_markdown(tmp_path / "page.md", root=tmp_path, site=site)
    [image] = doc.media
    assert image.path == "img/a.png" and image.url is None and image.exists
