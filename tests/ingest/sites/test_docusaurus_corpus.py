"""The real Docusaurus corpus (Ionic docs): pages, partials and every reference as SOURCE.md counts them."""

from __future__ import annotations

from pathlib import Path

import pytest

from murar.ingest.corpus import IngestReport, convert_corpus, walk_site
from murar.ingest.sites.detect import open_site

pytestmark = pytest.mark.integration


def test_ionic_docs_resolve_like_docusaurus(tmp_path: Path, docsites_root: Path) -> None:
    corpus = docsites_root / "docusaurus-ionic-docs"
    if not corpus.is_dir():
        pytest.skip("docusaurus corpus absent")
    sel = open_site(corpus)
    assert sel.site.config.generator == "docusaurus" and sel.site.config.base_url == "/docs/"
    walk = walk_site(sel.site)
    report = IngestReport()
    docs = convert_corpus(sel.site.config.root, assets_dir=tmp_path, report=report, site=sel.site, walk=walk)
    # SOURCE.md: 90 content pages, 53 partials, 62 image references (4 remote), 12 videos (9 local)
    assert len(docs) == 90 and not report.failed
    assert sum(1 for f in report.files if f.status == "include") == 53
    images = [r for r in report.asset_refs if r.kind == "image"]
    videos = [r for r in report.asset_refs if r.kind == "video"]
    assert len(images) == 62 and sum(r.status == "remote" for r in images) == 4
    assert len(videos) == 12 and sum(r.status == "resolved" for r in videos) == 9
    assert report.assets.resolution_rate == 1.0, report.unresolved
    media = [m for d in docs for m in d.media]
    assert sum(m.kind == "image" for m in media) == 62
