"""Sentence splitting and subclaim decomposition."""

from __future__ import annotations

from murar.eval.claims import (
    LLMDecomposer,
    SentenceDecomposer,
    claimed_answer_from_answer,
    decompose_text,
    parse_subclaims,
    split_sentences,
    strip_citation_markers,
)
from murar.llm.fake import ScriptedChatModel
from murar.schema import Answer, ScoredSnippet, Snippet, TextBlock, Trace


def test_split_sentences_handles_abbreviations_and_lists() -> None:
    text = "Open the menu, e.g. File. Click Save.\n\n- First step here.\n- Second step."
    assert split_sentences(text) == ["Open the menu, e.g. File.", "Click Save.",
                                     "First step here.", "Second step."]
    assert split_sentences("   ") == []


def test_strip_citation_markers() -> None:
    assert strip_citation_markers("Click Save [1][2, 3].") == ("Click Save.", [1, 2, 3])
    assert strip_citation_markers("No cites.") == ("No cites.", [])


def test_parse_bullets_numbers_json_and_noise() -> None:
    raw = "Here are the subclaims:\n- A is B.\n2. C is D.\n* a is b\n```"
    assert parse_subclaims(raw) == ["A is B.", "C is D."]
    assert parse_subclaims('```json\n["X runs.", "Y sleeps."]\n```') == ["X runs.", "Y sleeps."]
    # unusable output never loses the sentence
    assert parse_subclaims("- \n...", sentence="The sky is blue.") == ["The sky is blue."]


def test_llm_decomposer_uses_model_and_caps() -> None:
    model = ScriptedChatModel(["- One.\n- Two.\n- Three."])
    dec = LLMDecomposer(model, max_claims=2)
    assert dec.decompose("One, two and three.") == ["One.", "Two."]
    assert "One, two and three." in model.calls[0][-1].content
    assert dec.name == "llm:scripted-fake"
    assert dec.decompose("  ") == []


def test_decompose_text_maps_citations() -> None:
    ans = decompose_text("Click Save [1]. Then close it [2].", SentenceDecomposer(),
                         citation_ids={1: "s1"})
    assert [s.citations for s in ans.sentences] == [["s1"], ["[2]"]]
    assert ans.claims == ["Click Save.", "Then close it."]
    assert ans.claim_citations() == [["s1"], ["[2]"]]


def test_claimed_answer_from_answer() -> None:
    sn = Snippet(id="snip-a", section_id="sec", source_path="p.md", page_title="P",
                 heading_path=("P",), anchor=None, text="t", position=0, n_tokens=1)
    answer = Answer(question="q", blocks=[TextBlock(text="Do X [1]. Do Y.", citations=[1])],
                    sources=[ScoredSnippet(snippet=sn, score=0.9, citation=1)], found=True,
                    trace=Trace())
    ca = claimed_answer_from_answer(answer, SentenceDecomposer())
    # the second sentence inherits the block's single citation
    assert [s.citations for s in ca.sentences] == [["snip-a"], ["snip-a"]]
    assert ca.text == "Do X. Do Y."
