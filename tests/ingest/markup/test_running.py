"""Running paragraph measures (murar.ingest.markup.running) equal the whole-text functions."""

from __future__ import annotations

import random

from murar.ingest.markup.builder import clean_text, paragraph_text
from murar.ingest.markup.running import LineJoiner, ParagraphLength, Pieces

_ALPHABET = ["a", "word", " ", "  ", "\n", "\n\n", "\t", "\xa0", "\u2003", "\r\n", "\v", " \n \n "]


def _chunks(rng: random.Random) -> list[str]:
    text = "".join(rng.choice(_ALPHABET) for _ in range(rng.randint(0, 30)))
    out = []
    while text:
        k = rng.randint(0, 4)
        out.append(text[:k])
        text = text[k:]
    return out


def test_paragraph_length_and_line_joiner_match_the_whole_text() -> None:
    rng = random.Random(7)
    for _ in range(3000):
        chunks = _chunks(rng)
        length, joiner, raw, joined = ParagraphLength(), LineJoiner(), "", ""
        for c in chunks:
            length.feed(c)
            raw += c
            joined += joiner.feed(c)
            assert length.value == len(paragraph_text(raw)), chunks
            assert joined == paragraph_text(clean_text(raw)), chunks


def test_pieces_count_every_change_but_appends() -> None:
    p = Pieces(["a"])
    p.append("b")
    p.extend(["c"])
    assert p.edits == 0
    p[:] = ["x"]
    del p[0:]
    p.append("y")
    p.clear()
    assert p.edits == 3 and p == []
