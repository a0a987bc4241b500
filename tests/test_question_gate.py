"""The operating points and vocabulary of benchmarks/question_gate.py (the question-level no-media study)."""

from __future__ import annotations

import numpy as np
import pytest
from benchmark_module import load_benchmark


@pytest.fixture(scope="module")
def gate():  # type: ignore[no-untyped-def]
    return load_benchmark("question_gate")


def test_an_operating_point_loses_no_more_media_questions_than_allowed(gate) -> None:  # type: ignore[no-untyped-def]
    prob = np.array([0.1, 0.2, 0.3, 0.35, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.97, 0.99])
    wants = np.array([False, False, True, False, True, True, True, True, True, True, True, True, True])
    (thr, caught, lost), = gate.operating_points(prob, wants, losses=(0.1,))
    # 10 media questions: one may be lost; the threshold is the second lowest media score
    assert thr == 0.4
    assert lost == pytest.approx(0.1)
    assert caught == pytest.approx(1.0)  # 0.1, 0.2 and 0.35 are all below 0.4
    (thr0, caught0, lost0), = gate.operating_points(prob, wants, losses=(0.0,))
    assert (thr0, lost0) == (0.3, 0.0) and caught0 == pytest.approx(2 / 3)


def test_the_shared_vocabulary_drops_words_of_fewer_corpora(gate) -> None:  # type: ignore[no-untyped-def]
    words = gate.shared_words(["How do I set the Kogito port?", "How do I open GLPI?", "Where is the GLPI menu?"],
                              ["kogito", "glpi", "glpi"], 2)
    assert words == ["do", "how", "the"]  # "kogito", "glpi", "port", "menu": one corpus each


def test_a_corpus_is_scored_by_a_model_that_never_saw_its_labels(gate) -> None:  # type: ignore[no-untyped-def]
    """Flipping every label of one corpus leaves that corpus's scores unchanged (and only its)."""
    see = ["where is the save button", "which menu opens the panel", "what does the screen look like"]
    fact = ["which property sets the port", "what is the default timeout", "can I run it without root"]
    text = [q + f" in product {c}" for c in "abc" for q in see + fact]
    corpus = np.array([c for c in "abc" for _ in see + fact])
    wants = np.array([True] * 3 + [False] * 3 + [True] * 3 + [False] * 3 + [True] * 3 + [False] * 3)
    prob = gate.held_out_scores(text, corpus, wants, shared_vocab=None, c=3.0)
    flipped = wants.copy()
    flipped[corpus == "a"] = ~wants[corpus == "a"]
    again = gate.held_out_scores(text, corpus, flipped, shared_vocab=None, c=3.0)
    assert np.allclose(prob[corpus == "a"], again[corpus == "a"])
    assert not np.allclose(prob[corpus == "b"], again[corpus == "b"])  # b's model saw a's labels
    assert (prob[corpus == "a"][:3] > prob[corpus == "a"][3:].max()).all()  # learned from b and c
