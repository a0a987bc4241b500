"""The docsite question files of benchmarks/docsites.py point at real pages and pictures.

A gold image that no longer exists (or a page renamed upstream) would score as a
miss for every selection and hide a regression; the held-out files must not
share pages with the tuning file they are meant to be independent of.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from murar.eval.media_metrics import load_gold

BENCH = Path(__file__).resolve().parents[1] / "benchmarks"
FILES = ["docsites_questions.jsonl", "docsites_heldout.jsonl", "docsites_heldout2.jsonl"]


def _corpus_of(path: Path) -> dict[str, str]:
    return {r["id"]: r["corpus"] for r in map(json.loads, path.read_text(encoding="utf-8").splitlines()) if r}


@pytest.mark.parametrize("name", FILES)
def test_every_question_names_an_existing_page_section_and_gold_images(name: str, docsites_root: Path) -> None:
    path = BENCH / name
    golds = load_gold(path)
    corpus = _corpus_of(path)
    assert len({g.id for g in golds}) == len(golds)
    for g in golds:
        root = docsites_root / corpus[g.id]
        page = root / g.page
        assert page.is_file(), f"{g.id}: page {g.page} is missing"
        text = page.read_text(encoding="utf-8", errors="replace").casefold()
        assert g.section and g.section[-1].casefold().split()[0] in text, f"{g.id}: section {g.section[-1]!r}"
        assert (g.kind == "text-only") == (not g.gold_images), f"{g.id}: kind {g.kind} vs gold images"
        for image in g.gold_images:
            assert (root / image).is_file(), f"{g.id}: gold image {image} is missing"


def test_held_out_questions_use_pages_the_tuning_questions_do_not() -> None:
    def pages(name: str) -> set[tuple[str, str]]:
        path = BENCH / name
        corpus = _corpus_of(path)
        return {(corpus[g.id], g.page) for g in load_gold(path)}

    tuning, held, held2 = (pages(n) for n in FILES)
    assert not tuning & held and not tuning & held2 and not held & held2
