"""Real Docusaurus and MkDocs corpora: ingested by their generator's rules, a question is answered
with the screenshot of the step (hashing embedder: resolution and selection are under test, not MiniLM)."""

from __future__ import annotations

from pathlib import Path

import pytest

from murar.answer.generate import ExtractiveAnswerGenerator
from murar.answer.pipeline import Pipeline, PipelineConfig, load_pipeline
from murar.embed.fake import HashingEmbedder
from murar.ingest.index import build_index
from murar.schema import ImageItem

pytestmark = pytest.mark.integration


def _answer_images(index: Path, question: str) -> list[ImageItem]:
    base = load_pipeline(index, llm="extractive")
    p = Pipeline(store=base.store, embedder=base.embedder, generator=ExtractiveAnswerGenerator(base.embedder),
                 refiner=None, config=PipelineConfig(refine=False), corpus_root=base.corpus_root,
                 assets_dir=base.assets_dir)
    a = p.answer(question)
    assert a.found
    return [b.item for b in a.media if isinstance(b.item, ImageItem)]


def test_docusaurus_answer_shows_the_xcode_signing_screenshot(tmp_path: Path, docsites_root: Path) -> None:
    corpus = docsites_root / "docusaurus-ionic-docs"
    if not corpus.is_dir():
        pytest.skip("docusaurus corpus absent")
    _manifest, report = build_index(corpus, tmp_path / "idx", embedder=HashingEmbedder())
    assert report.site["generator"] == "docusaurus" and report.pages == 90
    assert report.assets.resolution_rate == 1.0
    images = _answer_images(tmp_path / "idx", "How do I fix the Xcode code signing error: failed to create "
                                               "provisioning profile? Where is the Signing section with "
                                               "Automatically manage signing?")
    paths = [i.path for i in images]
    assert "static/img/running/ios-xcode-signing-setup.png" in paths, paths
    assert all(i.exists and (corpus / str(i.path)).is_file() for i in images if i.path)


def test_mkdocs_answer_shows_the_light_screenshot_of_the_step(tmp_path: Path, docsites_root: Path) -> None:
    corpus = docsites_root / "mkdocs-material-nautobot"
    if not corpus.is_dir():
        pytest.skip("mkdocs corpus absent")
    _manifest, report = build_index(corpus, tmp_path / "idx", embedder=HashingEmbedder())
    assert report.site["generator"] == "mkdocs" and report.assets.resolution_rate == 1.0
    images = _answer_images(tmp_path / "idx", "How do I merge only a subset of duplicate IP addresses by "
                                               "unchecking the check-boxes?")
    paths = [i.path for i in images]
    assert paths and paths[0] == ("nautobot/docs/user-guide/feature-guides/images/ip-address-merge-tool/"
                                  "ss_unselect_ips_light.png"), paths
    assert not any("_dark" in str(p) for p in paths)
