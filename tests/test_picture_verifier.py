"""The threshold table of benchmarks/picture_verifier.py (the per-picture model judge study)."""

from __future__ import annotations

import pytest
from benchmark_module import load_benchmark


@pytest.fixture(scope="module")
def verifier():  # type: ignore[no-untyped-def]
    return load_benchmark("picture_verifier")


def test_a_text_only_answer_is_cleared_only_when_all_its_pictures_fall_below(verifier) -> None:  # type: ignore[no-untyped-def]
    S = verifier.Shown
    rows = [S("a", "t1", True, False, 0.70), S("a", "t1", True, False, 0.90),  # one picture stays at 0.8
            S("a", "t2", True, False, 0.60),
            S("b", "t1", True, False, 0.79),  # same id in another set: another answer
            S("a", "m1", False, True, 0.95), S("a", "m1", False, True, 0.75), S("a", "m2", False, False, 0.10)]
    assert verifier.clearing(rows, 0.8) == (2, 3, 1, 2)
    assert verifier.clearing(rows, 0.5) == (0, 3, 0, 2)
    assert verifier.clearing(rows, 1.0) == (3, 3, 2, 2)  # a wrong picture of a media question is never counted


def test_the_prompt_is_one_chatml_turn_ending_where_the_reply_starts(verifier) -> None:  # type: ignore[no-untyped-def]
    text = verifier.prompt("Where is Save?", "Click Save [1].", "The toolbar; shown after: Open the editor.")
    assert text.startswith("<|im_start|>system\n") and text.endswith("<|im_start|>assistant\n")
    assert "Question: Where is Save?" in text and "Picture: The toolbar" in text
