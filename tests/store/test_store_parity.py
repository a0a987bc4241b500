"""The dev questions get the same sources and media from a LanceDB folder and a PostgreSQL store."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from murar.answer.pipeline import PipelineConfig, load_pipeline
from murar.embed.fake import HashingEmbedder
from murar.ingest.index import build_index
from murar.schema import MediaBlock
from murar.store.hybrid import RetrieverOptions

pytestmark = [pytest.mark.integration, pytest.mark.slow]


def test_dev_questions_same_media_on_both_stores(tmp_path: Path, adobe_root: Path, eval_root: Path,
                                                 pg_url: str) -> None:
    emb = HashingEmbedder()
    m_lance, _ = build_index(adobe_root, tmp_path / "idx", embedder=emb)
    m_pg, _ = build_index(adobe_root, pg_url, embedder=emb)
    assert m_pg.counts == m_lance.counts
    # the dense retriever: the full-text scorers differ by backend by design (LanceDB BM25,
    # PostgreSQL ts_rank), so hybrid rankings may differ; the stores' own parity is tested here
    config = PipelineConfig(refine=False, display_captions=False, retriever=RetrieverOptions(kind="dense"))
    lance = load_pipeline(tmp_path / "idx", llm="extractive", embedder=emb, config=config)
    pg = load_pipeline(pg_url, llm="extractive", embedder=emb, config=config)
    questions = [json.loads(line)["question"] for line in (eval_root / "dev.jsonl").read_text().splitlines()
                 if line.strip()]
    with_media = 0
    for q in questions:
        a, b = lance.answer(q), pg.answer(q)
        assert [s.snippet.id for s in a.sources] == [s.snippet.id for s in b.sources], q
        media_a = [blk.item.id for blk in a.blocks if isinstance(blk, MediaBlock)]
        media_b = [blk.item.id for blk in b.blocks if isinstance(blk, MediaBlock)]
        assert media_a == media_b, q
        with_media += bool(media_a)
    assert with_media >= len(questions) // 2  # the comparison is about real media, not empty answers
