"""MirageScorer end to end with a deterministic judge."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from murar.eval.claims import claimed_answer_from_lists
from murar.eval.errors import EvalError
from murar.eval.judge import Judgment
from murar.eval.scorer import MirageScorer, Reference, Source
from murar.schema import ImageItem


class SubstringJudge:
    """Supported iff the claim (lowercased, no final period) occurs in the evidence."""

    name = "substring"
    prompt_version = "t"

    def judge(self, claim: str, evidence: str) -> Judgment:
        ok = claim.lower().rstrip(".") in evidence.lower()
        return Judgment(claim=claim, evidence_sha="", supported=ok, score=float(ok),
                        judge=self.name, prompt_version=self.prompt_version)

    def judge_many(self, pairs: Sequence[tuple[str, str]]) -> list[Judgment]:
        return [self.judge(c, e) for c, e in pairs]


ANSWER = claimed_answer_from_lists(
    ["Paris is in France and has a tower.", "The tower is red."],
    [["paris is in france", "paris has a tower"], ["the tower is red"]],
    [["d1"], []],
)


def test_reference_mode_hand_computed() -> None:
    ref = Reference(text="Paris is in France. Paris has a tower. The tower is iron.",
                    claims=["paris is in france", "the tower is iron"],
                    claim_sources={"paris is in france": ["d1"], "the tower is iron": ["d2"]})
    res = MirageScorer(SubstringJudge()).score(ANSWER, mode="reference", reference=ref)
    # InfoP: 2 of 3 predicted subclaims are in the reference; InfoR: 1 of 2 covered
    assert (res.info.precision, res.info.recall) == (pytest.approx(2 / 3), 0.5)
    assert res.info.f1 == pytest.approx(2 * (2 / 3) * 0.5 / (2 / 3 + 0.5))
    # CiteP: d1 stands for "paris is in france": only the first subclaim is supported by it;
    # the third subclaim cites nothing
    assert res.cite is not None and res.cite.precision == pytest.approx(1 / 3)
    # CiteR: "paris is in france" is stated in sentence 0 which cites d1 (attests it) -> 1/2
    assert res.cite.recall == 0.5
    preds = [r for r in res.records if r.role == "prediction"]
    assert [r.cite for r in preds] == [True, False, False]
    assert [r.sentence_index for r in preds] == [0, 0, 1]


def test_collection_mode_any_source_and_media_note() -> None:
    img = ImageItem(id="d2", section_id="s", source_path="p.md", page_title="P",
                    heading_path=("P",), anchor=None, position=0, caption="the tower is red")
    sources = [Source(id="d1", text="Paris is in France."), Source.from_media(img)]
    res = MirageScorer(SubstringJudge()).score(ANSWER, mode="collection", sources=sources)
    assert res.info.precision == pytest.approx(2 / 3)  # "paris has a tower" has no source
    assert res.info.recall is None  # no reference claims
    assert res.cite is not None and res.cite.precision == pytest.approx(1 / 3)
    assert res.records[2].supporting_sources == ["d2"]
    assert any("text representation" in n for n in res.notes)


def test_empty_answer_and_missing_inputs() -> None:
    empty = claimed_answer_from_lists([], [], [])
    ref = Reference(text="A b.", claims=["a b"])
    res = MirageScorer(SubstringJudge()).score(empty, mode="reference", reference=ref)
    assert (res.info.precision, res.info.recall, res.info.f1) == (0.0, 0.0, 0.0)
    assert res.cite is None  # nothing to check citations against
    with pytest.raises(EvalError):
        MirageScorer(SubstringJudge()).score(empty, mode="reference")
    with pytest.raises(EvalError):
        MirageScorer(SubstringJudge()).score(empty, mode="collection", sources=[])
