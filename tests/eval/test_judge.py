"""Support judges and the judgment cache."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from murar.embed.fake import HashingEmbedder
from murar.eval.errors import JudgeError
from murar.eval.judge import (
    CachedJudge,
    EmbeddingJudge,
    LLMJudge,
    SupportJudge,
    judgment_key,
    parse_yes_no,
)
from murar.llm.fake import ScriptedChatModel


@pytest.mark.parametrize("raw,want", [("yes", True), (" Yes.", True), ("no", False),
                                      ("No, it is not.", False), ("Supported", True),
                                      ("False", False), ("maybe", None), ("", None),
                                      ("The answer is yes", True)])
def test_parse_yes_no(raw: str, want: bool | None) -> None:
    assert parse_yes_no(raw) is want


def test_llm_judge_prompt_and_verdicts() -> None:
    model = ScriptedChatModel(["yes", "no", "hmm"])
    judge = LLMJudge(model)
    assert isinstance(judge, SupportJudge)
    out = judge.judge_many([("c1", "E"), ("c2", "E"), ("c3", "E")])
    assert [j.supported for j in out] == [True, False, False]  # unparseable -> not supported
    assert out[2].raw == "hmm"
    last = model.calls[0][-1].content
    assert last.startswith("EVIDENCE:\nE") and "CLAIM: c1" in last  # evidence before claim


def test_llm_judge_wraps_model_errors() -> None:
    with pytest.raises(JudgeError, match="claim"):
        LLMJudge(ScriptedChatModel([])).judge("c", "e")


def test_embedding_judge_threshold() -> None:
    judge = EmbeddingJudge(HashingEmbedder(), threshold=0.9)
    ev = "The export button is on the toolbar. Cats sleep a lot."
    yes, no = judge.judge_many([("The export button is on the toolbar.", ev),
                                ("Quantum chromodynamics explains hadrons.", ev)])
    assert yes.supported and yes.score == pytest.approx(1.0, abs=1e-5)
    assert not no.supported and no.score < 0.5
    assert judge.judge("anything", "").supported is False


def test_cache_persists_and_skips_model(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    model = ScriptedChatModel(["yes", "no"])
    judge = CachedJudge(LLMJudge(model), path)
    first = judge.judge_many([("a", "E"), ("b", "E"), ("a", "E")])
    assert [j.supported for j in first] == [True, False, True]
    assert len(model.calls) == 2 and judge.misses == 2
    rows = [json.loads(x) for x in path.read_text().splitlines()]
    assert rows[0]["key"] == judgment_key("llm:scripted-fake", "support-yn-v1", "a", "E")
    # a new judge over the same file needs no model call
    again = CachedJudge(LLMJudge(ScriptedChatModel([])), path)
    j = again.judge("b", "E")
    assert j.cached and not j.supported and again.hits == 1


def test_cache_bad_file_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "j.jsonl"
    path.write_text("{not json\n")
    with pytest.raises(JudgeError, match="delete the file"):
        CachedJudge(LLMJudge(ScriptedChatModel([])), path).judge("a", "b")
