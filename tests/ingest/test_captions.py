"""Tests of murar.ingest.captions."""

from __future__ import annotations

from murar.ingest.captions import (
    caption_kind,
    clip_after,
    clip_before,
    collapse_whitespace,
    context_caption,
    fill_context,
)
from murar.schema import ImageItem


def _img(caption: str = "") -> ImageItem:
    return ImageItem(id="i", section_id="s", source_path="a.pdf", page_title="T", heading_path=("T",),
                     anchor=None, position=0, caption=caption)


def test_caption_kind() -> None:
    assert caption_kind("Figure 3: The pipeline") == "figure"
    assert caption_kind("Fig. 2. Results") == "figure"
    assert caption_kind("TABLE IV. Scores") == "table"
    assert caption_kind("Table 1: Results of the system.") == "table"
    assert caption_kind("Figure 3 shows the pipeline") is None
    assert caption_kind("Tables are useful") is None


def test_clip_at_word_boundaries() -> None:
    text = "alpha beta gamma delta epsilon"
    assert clip_before(text, 12) == "epsilon"
    assert clip_after(text, 12) == "alpha beta"
    assert clip_before("short", 200) == "short" and clip_after("x", 0) == ""


def test_clip_keeps_paragraph_breaks_and_joins_wrapped_lines() -> None:
    text = "Intro para.\n\nLog in to X\n\nNavigate to Y and\n  open Z\n\n\nEnsure the  thing."
    assert collapse_whitespace(text) == "Intro para.\nLog in to X\nNavigate to Y and open Z\nEnsure the thing."
    assert clip_before(text, 30) == "and open Z\nEnsure the thing."  # "Y" may be a cut word
    assert clip_after(text, 26) == "Intro para.\nLog in to X"


def test_fill_context_skips_other_media() -> None:
    a, b = _img("Figure 1: A"), _img("Figure 2: B")
    fill_context(["zero", "one two three", a, b, "four five"], max_chars=200)
    assert a.context_before == "zero\none two three" and a.context_after == "four five"
    assert b.context_before == "zero\none two three" and b.context_after == "four five"
    c = _img()
    fill_context(["x " * 300, c], max_chars=50)
    assert len(c.context_before) <= 50 and c.context_after == ""


def test_context_caption_joins_parts() -> None:
    item = _img("Figure 1: Pipeline")
    item.context_before, item.context_after = "before text", "after text"
    assert context_caption(item) == "Figure 1: Pipeline\nbefore text\nafter text"


def test_contexts_at_equals_clipping_each_side() -> None:
    import random

    from murar.ingest.captions import clip_after, clip_before, contexts_at

    rng = random.Random(3)
    alphabet = ["a", "word", " ", "  ", "\n", "\n\n", "\t", "\xa0", "\r\n", " \n \n "]
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30)))
        n = rng.choice([0, 1, 5, 10, 200])
        offsets = [rng.randint(-2, len(text) + 2) for _ in range(4)]
        expected = [(clip_before(text[:max(o, 0)], n), clip_after(text[max(o, 0):], n)) for o in offsets]
        assert contexts_at(text, offsets, n) == expected, (text, offsets, n)
