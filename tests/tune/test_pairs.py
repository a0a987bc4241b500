"""Question generation for embedder tuning: parsing, sampling, caching, with a scripted fake LLM."""

from __future__ import annotations

from pathlib import Path

import pytest

from murar.errors import LLMError
from murar.ingest.chunking import embedding_text
from murar.llm.fake import ScriptedChatModel
from murar.schema import ImageItem, Snippet
from murar.tune.pairs import (
    PairCache,
    build_prompt,
    generate_pairs,
    page_negatives,
    parse_questions,
    sample_snippets,
)


def _snip(i: int, section: str, page: str = "a.md", text: str | None = None) -> Snippet:
    body = text or f"To export report {i}, open the Reports panel, choose Export and pick CSV or PDF. " * 2
    return Snippet(id=f"s{i}", section_id=section, source_path=page, page_title="Reports",
                   heading_path=("Reports", f"Section {section}"), anchor=None, text=body, position=0,
                   n_tokens=40)


def test_parse_numbered_bulleted_and_inline_questions() -> None:
    reply = ('Here are some questions:\n1. How do I export a report as CSV?\n- "Can I pick PDF instead?"\n'
             "Q3: Where is the Reports panel? Why is Export greyed out?\n")
    assert parse_questions(reply, limit=3) == [
        "How do I export a report as CSV?", "Can I pick PDF instead?", "Where is the Reports panel?"]


def test_parse_drops_meta_short_duplicate_and_non_questions() -> None:
    reply = ("What does the passage say about exports?\nWhy?\nHow do I export a report?\n"
             "how do  I export a report?\nExport the report as CSV.\n")
    assert parse_questions(reply) == ["How do I export a report?"]
    assert parse_questions("") == []
    assert parse_questions("No questions here.") == []


def test_prompt_names_page_section_text_and_count() -> None:
    msgs = build_prompt(_snip(1, "x"), 2)
    user = msgs[-1].content
    assert "Page: Reports" in user and "Reports > Section x" in user and "Write 2 short questions" in user
    assert "open the Reports panel" in user


def test_sample_prefers_sections_with_media_and_spreads_sections() -> None:
    snippets = [_snip(i, f"sec{i % 4}", page=f"p{i % 2}.md") for i in range(12)]
    snippets.append(_snip(99, "tiny", text="Too short."))
    media = [ImageItem(id="m1", kind="image", section_id="sec3", source_path="p1.md", page_title="Reports",
                       heading_path=("Reports",), anchor=None, position=0)]
    picked = sample_snippets(snippets, media, count=4, seed=1)
    assert picked[0].section_id == "sec3"  # the section with an image first
    assert sorted(s.section_id for s in picked) == ["sec0", "sec1", "sec2", "sec3"]  # one per section first
    assert all(s.id != "s99" for s in sample_snippets(snippets, media, count=50))  # too short to ask about
    assert len(sample_snippets(snippets, media, count=50)) == 12
    assert [s.id for s in sample_snippets(snippets, media, count=6, seed=3)] == \
        [s.id for s in sample_snippets(snippets, media, count=6, seed=3)]


def test_generate_pairs_caches_replies_by_model_and_text(tmp_path: Path) -> None:
    snippets = [_snip(1, "a"), _snip(2, "b")]
    cache_path = tmp_path / "pairs.jsonl"
    fake = ScriptedChatModel(["1. How do I export report 1?\n2. Which formats can report 1 use?",
                              "What is Export for?\nnothing useful"], name="fake-a")
    pairs, stats = generate_pairs(snippets, fake, PairCache(cache_path), n_questions=2)
    assert [p.question for p in pairs] == ["How do I export report 1?", "Which formats can report 1 use?",
                                           "What is Export for?"]
    assert pairs[0].passage == embedding_text(snippets[0]) and pairs[0].snippet_id == "s1"
    assert (stats.calls, stats.cached, stats.pairs) == (2, 0, 3)
    # a re-run reuses every reply: the fake has none left and is not called
    again = ScriptedChatModel([], name="fake-a")
    pairs2, stats2 = generate_pairs(snippets, again, PairCache(cache_path), n_questions=2)
    assert [p.question for p in pairs2] == [p.question for p in pairs]
    assert (stats2.calls, stats2.cached) == (0, 2) and again.calls == []
    # another model, or another snippet text, is a miss
    other = ScriptedChatModel(["How do I print it?", "How do I share it?"], name="fake-b")
    _, stats3 = generate_pairs(snippets, other, PairCache(cache_path), n_questions=2)
    assert stats3.calls == 2


def test_cache_survives_a_torn_line(tmp_path: Path) -> None:
    path = tmp_path / "c.jsonl"
    cache = PairCache(path)
    cache.put("k1", "How do I do it?", model="m", snippet_id="s")
    with path.open("a") as fh:
        fh.write('{"key": "k2", "rep')  # a run killed mid-write
    assert PairCache(path).get("k1") == "How do I do it?" and len(PairCache(path)) == 1


def test_one_failed_call_is_counted_all_failed_is_an_error(tmp_path: Path) -> None:
    def flaky(messages: object) -> str:
        raise LLMError("model crashed")

    snippets = [_snip(1, "a"), _snip(2, "b")]
    with pytest.raises(LLMError, match="failed for all 2 snippets"):
        generate_pairs(snippets, ScriptedChatModel(responder=flaky), PairCache(tmp_path / "c.jsonl"))
    replies = iter(["How do I export report 1?"])

    def once(messages: object) -> str:
        try:
            return next(replies)
        except StopIteration:
            raise LLMError("out of memory") from None

    pairs, stats = generate_pairs(snippets, ScriptedChatModel(responder=once), PairCache(tmp_path / "d.jsonl"))
    assert len(pairs) == 1 and stats.failed == 1 and "out of memory" in stats.errors[0]


def test_hard_negatives_come_from_other_sections_of_the_same_page() -> None:
    snippets = [_snip(1, "a", "p.md"), _snip(2, "a", "p.md"), _snip(3, "b", "p.md"), _snip(4, "c", "q.md")]
    negs = page_negatives([snippets[0], snippets[3]], snippets)
    assert negs == {"s1": [embedding_text(snippets[2])]}
