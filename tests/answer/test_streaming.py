"""Sentence-by-sentence assembly of a streamed answer (murar.answer.streaming)."""

from __future__ import annotations

import pytest

from murar.answer.attribute import split_answer
from murar.answer.streaming import Piece, SentenceAssembler, SentenceOutcome, blocks_of
from murar.schema import ImageItem, MediaBlock, TextBlock


def _block(n: int) -> MediaBlock:
    item = ImageItem(id=f"img{n}", section_id="s", source_path="p.md", page_title="P", heading_path=("P",),
                     anchor=None, position=n, path=f"img{n}.png")
    return MediaBlock(type="image", item=item, score=0.9)


def _run(chunks: list[str], media_after: set[int]) -> tuple[SentenceAssembler, list[Piece], list[tuple[int, str, int]]]:
    """Feed ``chunks``; a media block follows each sentence index in ``media_after``.
    Also records, per callback, how many text pieces were already released."""
    calls: list[tuple[int, str, int]] = []
    out: list[Piece] = []

    def on_sentence(i: int, sent: str) -> SentenceOutcome:
        calls.append((i, sent, sum(1 for p in out if p.media is None)))
        return SentenceOutcome(media=[_block(i)] if i in media_after else [])

    asm = SentenceAssembler(on_sentence, valid_citations={1, 2, 3})
    for c in chunks:
        out += asm.feed(c)
    out += asm.close()
    return asm, out, calls


def _tokens(text: str, size: int = 3) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)]


ANSWERS = [
    "Open Segments and select Create segment [1]. Drag attributes onto the canvas [1]. Select Save [2].",
    "Open the menu. [1] Then select Settings, e.g. the gear icon [2]. Sizes are 1.5 GB or more [3].",
    "To add an event:\n1. Open the journey canvas [1].\n2. Drag the custom event [1].\n3. Save the journey [2].",
    "Use the Debugger [1, 2]. It shows server calls [3][9].",
    "A single sentence without a final period [1]",
]


@pytest.mark.parametrize("answer", ANSWERS)
@pytest.mark.parametrize("size", [1, 3, 7, 1000])
def test_released_text_is_the_answer_and_sentences_match_split(answer: str, size: int) -> None:
    _asm, out, calls = _run(_tokens(answer, size), media_after=set())
    text = "".join(p.text for p in out)
    expected = answer.replace("[1, 2]", "[1][2]").replace("[9]", "")
    assert text == expected.strip()
    # the callback saw exactly the sentences of the final answer, in order
    assert [c[1] for c in calls] == split_answer(expected)
    assert [c[0] for c in calls] == list(range(len(calls)))


@pytest.mark.parametrize("size", [1, 2, 5])
def test_media_come_right_after_their_sentence_and_before_the_next_one(size: int) -> None:
    answer = ANSWERS[1]
    _asm, out, _calls = _run(_tokens(answer, size), media_after={0, 1})
    kinds = ["m" if p.media else "t" for p in out]
    assert kinds.count("m") == 2
    blocks = blocks_of(out)
    assert [type(b).__name__ for b in blocks] == ["TextBlock", "MediaBlock", "TextBlock", "MediaBlock", "TextBlock"]
    assert isinstance(blocks[0], TextBlock) and blocks[0].text == "Open the menu. [1]"
    assert isinstance(blocks[2], TextBlock) and blocks[2].text.startswith("Then select Settings, e.g. the gear icon")
    # media carry the citation of the text before them
    assert blocks[1].citations == [1] and blocks[3].citations == [2]  # type: ignore[union-attr]


@pytest.mark.parametrize("size", [1, 2, 3, 7])
def test_a_numbered_step_keeps_its_number_after_the_media_before_it(size: int) -> None:
    """The number opening a list item ("\n1") is not a citation nor a space: it was released
    before the sentence above was known complete, so that sentence's media split the step from
    its number ("To add an event:\n1" [image] ". Open the journey canvas")."""
    _asm, out, _calls = _run(_tokens(ANSWERS[2], size), media_after={0, 1})
    texts = [b.text if isinstance(b, TextBlock) else "IMG" for b in blocks_of(out)]
    assert texts[:4] == ["To add an event:", "IMG", "1. Open the journey canvas [1].", "IMG"]
    assert texts[4].startswith("2. Drag the custom event [1].")


def test_sentence_is_attributed_before_the_stream_ends() -> None:
    chunks = _tokens(ANSWERS[0], 4)
    seen: list[int] = []
    out: list[Piece] = []
    asm = SentenceAssembler(lambda i, s: seen.append(i) or SentenceOutcome(), valid_citations={1, 2})
    fed = 0
    for c in chunks:
        out += asm.feed(c)
        fed += 1
        if seen:
            break
    assert seen == [0] and fed < len(chunks)  # the first sentence completed mid-stream
    assert "".join(p.text for p in out).startswith("Open Segments and select Create segment [1].")


def test_first_text_is_released_with_the_first_tokens() -> None:
    asm = SentenceAssembler(lambda i, s: SentenceOutcome(), valid_citations={1})
    assert "".join(p.text for p in asm.feed("To add ")) == "To add "
    assert "".join(p.text for p in asm.feed("a custom")) == "a custom"


def test_a_start_that_may_be_the_not_found_marker_is_held_back() -> None:
    asm = SentenceAssembler(lambda i, s: SentenceOutcome(), valid_citations={1}, hold_prefix="NOT_FOUND")
    assert asm.feed(" NOT") == []
    assert asm.feed("_FOUND") == []


def test_any_other_start_is_released_with_the_first_token() -> None:
    # the first words show with the first model token, not after a fixed number of characters
    asm = SentenceAssembler(lambda i, s: SentenceOutcome(), valid_citations={1}, hold_prefix="NOT_FOUND")
    assert "".join(p.text for p in asm.feed("To")) == "To"
    asm = SentenceAssembler(lambda i, s: SentenceOutcome(), valid_citations={1}, hold_prefix="NOT_FOUND")
    assert asm.feed("NO") == []
    assert "".join(p.text for p in asm.feed("TE:")) == "NOTE:"


def test_partial_citation_is_held_until_complete() -> None:
    asm = SentenceAssembler(lambda i, s: SentenceOutcome(), valid_citations={1, 2})
    released = "".join(p.text for p in asm.feed("Select Save [") + asm.feed("1"))
    assert released.rstrip() == "Select Save"
    released += "".join(p.text for p in asm.feed("] now.") + asm.close())
    assert released == "Select Save [1] now."


def test_uncited_sentence_gets_the_citation_it_was_attributed_to() -> None:
    out: list[Piece] = []
    asm = SentenceAssembler(lambda i, s: SentenceOutcome(media=[_block(i)] if i == 0 else [], citation=2),
                            valid_citations={1, 2})
    for c in _tokens("Open the canvas. Then save it [1].", 4):
        out += asm.feed(c)
    out += asm.close()
    blocks = blocks_of(out)
    assert isinstance(blocks[0], TextBlock) and blocks[0].text == "Open the canvas. [2]"
    assert isinstance(blocks[1], MediaBlock) and blocks[1].citations == [2]
    assert isinstance(blocks[2], TextBlock) and blocks[2].text == "Then save it [1]."  # cited: left alone


@pytest.mark.parametrize("claimed", [False, True])
def test_held_media_wait_for_the_next_sentence_and_hold_its_text(claimed: bool) -> None:
    """A sentence whose outcome holds media (a screenshot of a step it does not describe): the
    next sentence's text is released only once that sentence is complete, after the held
    media when they stay (``before``), before them when it claims them (its ``media``)."""
    held = _block(0)
    calls: list[tuple[int, str]] = []
    out: list[Piece] = []

    def on_sentence(i: int, sent: str) -> SentenceOutcome:
        calls.append((i, "".join(p.text for p in out)))
        if i == 0:
            return SentenceOutcome(hold=True)
        if i == 1:
            return SentenceOutcome(media=[held]) if claimed else SentenceOutcome(before=[held])
        return SentenceOutcome()

    asm = SentenceAssembler(on_sentence, valid_citations={1, 2})
    checked = 0
    for c in _tokens("Open the menu [1]. Select the Copy icon [2]. Paste it [1].", 3):
        out += asm.feed(c)
        if len(calls) == 1:  # the second sentence is being written: none of it is out
            assert "".join(p.text for p in out) == "Open the menu [1]."
            checked += 1
    assert checked >= 5
    out += asm.close()
    assert calls[1][1].rstrip() == "Open the menu [1]."  # nothing of sentence 2 out when it completed
    blocks = blocks_of(out)
    texts = [b.text if isinstance(b, TextBlock) else "IMG" for b in blocks]
    if claimed:
        assert texts == ["Open the menu [1]. Select the Copy icon [2].", "IMG", "Paste it [1]."]
        assert [p.sentence_index for p in out if p.media] == [1]
    else:
        assert texts == ["Open the menu [1].", "IMG", "Select the Copy icon [2]. Paste it [1]."]
        assert [p.sentence_index for p in out if p.media] == [0]
    assert blocks[1].citations == ([2] if claimed else [1])  # type: ignore[union-attr]


@pytest.mark.parametrize("size", [1, 2, 7, 1000])
def test_text_held_at_every_sentence_is_all_released(size: int) -> None:
    """Every sentence holds (a screenshot chosen at each): the text held after a sentence goes
    out as soon as the next one completes, and the whole answer is out at close."""
    answer = ANSWERS[2]
    asm = SentenceAssembler(lambda i, s: SentenceOutcome(hold=True), valid_citations={1, 2})
    out: list[Piece] = []
    for c in _tokens(answer, size):
        out += asm.feed(c)
        if asm.sentences:  # the last complete sentence is out, nothing after it
            assert "".join(p.text for p in out).rstrip().endswith(asm.sentences[-1])
    out += asm.close()
    assert "".join(p.text for p in out) == answer
