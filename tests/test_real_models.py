"""The whole pipeline with the real bundled models on a slice of the real corpus (slow, runs in CI)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from murar.answer.pipeline import load_pipeline
from murar.answer.render import file_media_url, render_markdown
from murar.embed.minilm import MiniLMEmbedder
from murar.ingest.index import build_index
from murar.schema import ImageItem

pytestmark = [pytest.mark.slow, pytest.mark.integration]

SLICE = [
    "AdobeDocs+experience-platform-docs/help/network.md",
    "AdobeDocs+experience-platform-docs/help/run-debugger.md",
    "AdobeDocs+experience-platform-docs/help/assets",
    "AdobeDocs+experience-platform-docs/developer/markdown/narrative/gdpr/gathering-your-ids.md",
]


@pytest.fixture(scope="module")
def real_index(tmp_path_factory: pytest.TempPathFactory, adobe_root: Path) -> Path:
    """A MiniLM index over a few real pages (copied with their images into a temp corpus)."""
    corpus = tmp_path_factory.mktemp("corpus")
    for rel in SLICE:
        src = adobe_root / rel
        dst = corpus / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        if src.is_dir():
            shutil.copytree(src, dst)
        else:
            shutil.copy2(src, dst)
    idx = tmp_path_factory.mktemp("idx") / "index"
    manifest, report = build_index(corpus, idx, embedder=MiniLMEmbedder())
    assert manifest.counts["pages"] == 3 and not report.failed
    return idx


def test_minilm_embeddings_are_normalised_and_meaningful() -> None:
    emb = MiniLMEmbedder()
    v = emb.embed(["copy the server call URL", "copy the URL of a server call", "bake a chocolate cake"])
    assert v.shape == (3, 384)
    assert abs(float((v[0] ** 2).sum()) - 1.0) < 1e-4
    assert float(v[0] @ v[1]) > float(v[0] @ v[2]) + 0.3
    assert emb.count_tokens("Journey Optimizer") >= 2


def test_extractive_pipeline_finds_the_screenshot(real_index: Path) -> None:
    p = load_pipeline(real_index, llm="extractive")
    a = p.answer("In the Experience Cloud Debugger, how do I copy the URL of a server call for a bug report?")
    assert a.found
    assert any(s.snippet.source_path.endswith("network.md") for s in a.sources[:3])
    images = [b.item for b in a.media if isinstance(b.item, ImageItem)]
    assert any(i.path and i.path.endswith((".jpg", ".png")) for i in images)
    assert all(p.media_file(i.id) is not None for i in images)


def test_bundled_llm_end_to_end(real_index: Path, tmp_path: Path) -> None:
    pytest.importorskip("llama_cpp", reason="install murar[llm] to run the bundled generator")
    p = load_pipeline(real_index, llm="bundled")
    a = p.answer("Which numeric ID and code does Experience Cloud use for ECID?")
    assert a.found, a.trace.text_answer
    assert a.trace.text_answer
    assert any(b.citations for b in a.blocks if b.type == "text")  # cited by the model or by attribution
    assert a.trace.refinement.used in ("llm", "fallback", "none")
    md = render_markdown(a, media_url=file_media_url(p.corpus_root, p.assets_dir, tmp_path))  # type: ignore[arg-type]
    assert "Sources" in md
    nf = p.answer("What is the boiling point of liquid nitrogen on Mars?")
    assert nf.media == []
