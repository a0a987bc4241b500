"""Real Docusaurus and MkDocs corpora: ingested by their generator's rules, a question is answered
with the screenshot of the step (hashing embedder: resolution and selection are under test, not MiniLM)."""

from __future__ import annotations

from pathlib import Path

import pytest
from extractive_answers import answer_images, docsite_corpus

from murar.embed.fake import HashingEmbedder
from murar.ingest.index import build_index

pytestmark = pytest.mark.integration


def test_docusaurus_answer_shows_the_xcode_signing_screenshot(tmp_path: Path, docsites_root: Path) -> None:
    corpus = docsite_corpus(docsites_root, "docusaurus-ionic-docs")
    _manifest, report = build_index(corpus, tmp_path / "idx", embedder=HashingEmbedder())
    assert report.site["generator"] == "docusaurus" and report.pages == 90
    assert report.assets.resolution_rate == 1.0
    images = answer_images(tmp_path / "idx", "How do I fix the Xcode code signing error: failed to create "
                                               "provisioning profile? Where is the Signing section with "
                                               "Automatically manage signing?")
    paths = [i.path for i in images]
    assert "static/img/running/ios-xcode-signing-setup.png" in paths, paths
    assert all(i.exists and (corpus / str(i.path)).is_file() for i in images if i.path)


def test_mkdocs_answer_shows_the_light_screenshot_of_the_step(tmp_path: Path, docsites_root: Path) -> None:
    corpus = docsite_corpus(docsites_root, "mkdocs-material-nautobot")
    _manifest, report = build_index(corpus, tmp_path / "idx", embedder=HashingEmbedder())
    assert report.site["generator"] == "mkdocs" and report.assets.resolution_rate == 1.0
    images = answer_images(tmp_path / "idx", "How do I merge only a subset of duplicate IP addresses by "
                                               "unchecking the check-boxes?")
    paths = [i.path for i in images]
    assert paths and paths[0] == ("nautobot/docs/user-guide/feature-guides/images/ip-address-merge-tool/"
                                  "ss_unselect_ips_light.png"), paths
    assert not any("_dark" in str(p) for p in paths)
