"""Files murar writes at ingest (figures cropped from PDFs) travel with a PostgreSQL store."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from murar.answer.pipeline import load_pipeline
from murar.embed.fake import HashingEmbedder
from murar.ingest.index import build_index, open_index
from murar.schema import ImageItem

pytestmark = pytest.mark.integration


def test_pdf_figures_are_served_from_the_store(tmp_path: Path, pdf_root: Path, pg_url: str) -> None:
    pytest.importorskip("pypdfium2")
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    shutil.copy2(pdf_root / "s2orc" / "N18-3011.pdf", corpus / "literature-graph.pdf")
    build_index(corpus, pg_url, embedder=HashingEmbedder())
    opened = open_index(pg_url)
    figures = [m for m in opened.store.all_media()  # type: ignore[attr-defined]
               if isinstance(m, ImageItem) and m.stored_path]
    assert figures, "the PDF should give cropped figures"
    assert opened.assets_dir is not None
    for fig in figures:
        assert (opened.assets_dir / str(fig.stored_path)).is_file()
    # a replica on another machine has no such folder: it is written again from the database
    data = (opened.assets_dir / str(figures[0].stored_path)).read_bytes()
    shutil.rmtree(opened.assets_dir)
    pipeline = load_pipeline(pg_url, llm="extractive")
    path = pipeline.media_file(figures[0].id)
    assert path is not None and path.read_bytes() == data
