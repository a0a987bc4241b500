"""Helpers the Markdown dialect rewriters share: fences and admonition labels."""

from __future__ import annotations

import re
from pathlib import Path

from murar.ingest.markup.mdtext import FenceTracker, admonition_label, label_lines
from murar.ingest.markup.mdx import mdx_to_markdown
from murar.ingest.sites.base import PlainSite


def test_fence_closes_only_on_the_same_character_at_least_as_long() -> None:
    fences = FenceTracker(re.compile(r"^ {0,3}(?P<fence>`{3,}|~{3,})"))
    lines = ["text", "````md", "```", "~~~~", "````", "after", "~~~", "x", "~~~~", "end"]
    assert [fences.in_code(ln) for ln in lines] == [False, True, True, True, True, False, True, True, True, False]


def test_admonition_label() -> None:
    assert admonition_label("note", "Before you start") == "Note: Before you start"
    assert admonition_label("tip") == "Tip:"
    assert admonition_label("note", "Note") == "Note:"  # a title that only repeats the kind
    assert admonition_label("see-also", " ") == "See also:"
    assert label_lines("Tip:", "  ") == ["", "  **Tip:**", ""]


def test_mdx_admonitions_read_like_every_other_dialect(tmp_path: Path) -> None:
    text, warnings = mdx_to_markdown(":::note\n\nPlain.\n\n:::\n\n:::tip[Fast path]\n\nQuick.\n\n:::\n",
                                     page_rel="p.mdx", site=PlainSite(tmp_path))
    assert "**Note:**" in text and "**Tip: Fast path**" in text and ":::" not in text and warnings == []
