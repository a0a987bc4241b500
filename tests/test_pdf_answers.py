"""Seed-001-style questions over a real PDF: the right figure comes back with a caption (slow: MiniLM)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from murar.answer.pipeline import PipelineConfig, load_pipeline
from murar.embed.minilm import MiniLMEmbedder
from murar.ingest.index import build_index
from murar.schema import ImageItem, TableItem

pytestmark = [pytest.mark.slow, pytest.mark.integration]


@pytest.fixture(scope="module")
def pdf_index(tmp_path_factory: pytest.TempPathFactory, pdf_root: Path) -> Path:
    corpus = tmp_path_factory.mktemp("pdfs")
    shutil.copy2(pdf_root / "s2orc" / "N18-3011.pdf", corpus / "N18-3011.pdf")
    (corpus / "notes.md").write_text("# Notes\n\nA page about journeys in Adobe Journey Optimizer.\n")
    idx = tmp_path_factory.mktemp("idx") / "index"
    manifest, report = build_index(corpus, idx, embedder=MiniLMEmbedder())
    assert not report.failed and manifest.counts["images"] >= 1 and manifest.counts["tables"] >= 1
    return idx


@pytest.mark.parametrize("strategy", ["answer", "hybrid"])
def test_figure_question_returns_the_figure(pdf_index: Path, strategy: str) -> None:
    p = load_pipeline(pdf_index, llm="extractive", config=PipelineConfig(media_strategy=strategy))
    a = p.answer("What does Figure 1 of the literature graph paper show?")
    assert a.found
    figures = [b for b in a.media if isinstance(b.item, ImageItem)]
    assert figures, [b.item.id for b in a.media]
    fig = figures[0]
    assert fig.item.page == 1 and "Figure 1" in fig.item.caption  # type: ignore[union-attr]
    assert fig.caption and len(fig.caption.split()) <= 16
    path = p.media_file(fig.item.id)
    assert path is not None and path.suffix == ".png" and path.stat().st_size > 0


def test_table_question_returns_the_table(pdf_index: Path) -> None:
    p = load_pipeline(pdf_index, llm="extractive", config=PipelineConfig(media_strategy="hybrid"))
    a = p.answer("How well does the ScienceParse system extract titles and authors (precision, recall, F1)?")
    tables = [b.item for b in a.media if isinstance(b.item, TableItem)]
    assert any("Precision" in " ".join(t.headers) for t in tables), [b.item.label for b in a.media]
