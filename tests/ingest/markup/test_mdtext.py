"""Helpers the Markdown dialect rewriters share: fences and admonition labels."""

from __future__ import annotations

import re
from pathlib import Path

from murar.ingest.markup.mdtext import (
    FenceTracker,
    admonition_label,
    alert_markers,
    callout_label,
    callout_lead,
    directive_admonitions,
    label_lines,
    outside_code,
)
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
    # Knative: !!! tip "Tip: Clicking the icon shows the event." read "Tip: Tip: Clicking ..."
    assert admonition_label("tip", "Tip: Clicking the icon shows it.") == "Tip: Clicking the icon shows it."
    assert admonition_label("note", "Notes: more") == "Note: Notes: more"
    assert label_lines("Tip:", "  ") == ["", "  **Tip:**", ""]


def test_mdx_admonitions_read_like_every_other_dialect(tmp_path: Path) -> None:
    text, warnings = mdx_to_markdown(":::note\n\nPlain.\n\n:::\n\n:::tip[Fast path]\n\nQuick.\n\n:::\n",
                                     page_rel="p.mdx", site=PlainSite(tmp_path))
    assert "**Note:**" in text and "**Tip: Fast path**" in text and ":::" not in text and warnings == []


def test_admonition_title_attribute(tmp_path: Path) -> None:
    """Docusaurus' admonitions plugin passes a directive's title attribute on as its title
    (':::tip{title="Custom tip"}', read 'Tip:' before); a [label] wins over it, other attributes
    are no title. In MDX and in CommonMark pages alike."""
    page = ':::tip{title="Custom tip"}\nQuick.\n:::\n\n:::note[Label]{title="Attr"}\nA.\n:::\n\n::::info{#id .x}\nB.\n::::\n'
    text, _ = mdx_to_markdown(page, page_rel="p.mdx", site=PlainSite(tmp_path))
    assert "**Tip: Custom tip**" in text and "**Note: Label**" in text and "**Info:**" in text
    md = directive_admonitions(page, re.compile(r"^ {0,3}(?P<fence>`{3,}|~{3,})"))
    assert "**Tip: Custom tip**" in md and "**Note: Label**" in md and "**Info:**" in md


def test_callout_label_and_lead() -> None:
    assert callout_label("note") == "Note" and callout_label("see-also") == "See also"
    assert callout_label("note", "Before you start:") == "Before you start"  # an explicit title wins
    assert callout_label("Note:") == "Note"  # an i18n string with its colon
    # an anchor after a Hugo alert's title (Docsy: > [!NOTE] Below-navbar positioning <a id="x"></a>) is not seen
    assert callout_label("note", 'Below-navbar positioning <a id="td-below-navbar"></a>') == "Below-navbar positioning"
    assert callout_label("note", "Use <code>x</code>") == "Use <code>x</code>"
    assert callout_lead("Why?") == "**Why?** "  # a question needs no colon
    assert callout_lead("Tip") == "**Tip:** " and callout_lead("A & B", html_out=True) == "<strong>A &amp; B:</strong> "


def test_alert_markers_any_case_titles_and_fences() -> None:
    text = "> [!note]\n> Body.\n\n>[!Warning] Mind the gap.\n\n```md\n> [!TIP]\n```\n\n> [!DANGER]\n> Odd.\n"
    out = alert_markers(text)
    assert out.startswith("> **Note:** \n> Body.") and ">**Warning:** Mind the gap." in out
    assert "```md\n> [!TIP]\n```" in out and "> [!DANGER]" in out  # code stays; GitHub knows five kinds
    hugo = alert_markers("> [!TIP]+ Fast path\n> Body.\n\n> [!danger]\n> Odd.\n", titled=True, kinds=None)
    assert hugo == "> **Fast path:** \n> Body.\n\n> **Danger:** \n> Odd.\n"
    assert alert_markers("> [!NOTE]- folded\n") == "> [!NOTE]- folded\n"  # a fold sign is no GitHub alert


def test_outside_code_rewrites_text_only_outside_fences_and_code_spans() -> None:
    """outside_code leaves fenced lines (as its fence pattern reads them) and code spans of any
    backtick run as written, and rewrites only the other parts that hold the needle."""
    mdx_fence = re.compile(r"^[ \t]*(?P<fence>`{3,}|~{3,})")
    md_fence = re.compile(r"^\s{0,3}(?P<fence>`{3,}|~{3,})")
    lines = [":x: and `:x:` and ``:x:`` :x:", "    ```", ":x: fenced", "    ```", "plain"]
    upper = lambda part: part.replace(":x:", "X")
    assert outside_code(lines, upper, ":x:", mdx_fence) == [
        "X and `:x:` and ``:x:`` X", "    ```", ":x: fenced", "    ```", "plain"]
    # four spaces in is no fence for CommonMark: every line is text
    assert outside_code(lines, upper, ":x:", md_fence)[2] == "X fenced"
