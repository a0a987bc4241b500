"""Answers over a built index with the extractive generator and no refinement, for the
integration tests on real corpora: resolution and selection are under test, not an LLM."""

from __future__ import annotations

from pathlib import Path

import pytest

from murar.answer.generate import ExtractiveAnswerGenerator
from murar.answer.pipeline import Pipeline, PipelineConfig, load_pipeline
from murar.schema import Answer, ImageItem


def extractive_answer(index: Path, question: str) -> Answer:
    """The answer to ``question`` from the index folder ``index`` (its store and embedder),
    written by :class:`ExtractiveAnswerGenerator`, unrefined."""
    base = load_pipeline(index, llm="extractive")
    pipeline = Pipeline(store=base.store, embedder=base.embedder, generator=ExtractiveAnswerGenerator(base.embedder),
                        refiner=None, config=PipelineConfig(refine=False), corpus_root=base.corpus_root,
                        assets_dir=base.assets_dir)
    return pipeline.answer(question)


def answer_images(index: Path, question: str) -> list[ImageItem]:
    """The images of :func:`extractive_answer`, in answer order; fails the test when nothing is found."""
    answer = extractive_answer(index, question)
    assert answer.found
    return [b.item for b in answer.media if isinstance(b.item, ImageItem)]


def docsite_corpus(docsites_root: Path, name: str) -> Path:
    """The shared docsite corpus ``name`` under ``docsites_root``; skips the test when it is absent."""
    corpus = docsites_root / name
    if not corpus.is_dir():
        pytest.skip(f"{name} corpus absent")
    return corpus
