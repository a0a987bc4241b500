"""Normalisation of Adobe Experience League Markdown extensions to plain Markdown.

Adobe's docs extend Markdown with ``[!UICONTROL x]``, ``[!DNL x]``, alert
blocks (``>[!NOTE]``), tabs (``>[!BEGINTABS]``/``>[!TAB x]``), attribute lists
(``{zoomable="yes"}``), ``{#anchor}`` heading ids and collapsible blocks
(a ``+++Title`` line opens one, a bare ``+++`` line closes it: the page shows
the title as the block's clickable header and its content when opened). This module rewrites
them to what they mean so a CommonMark parser sees ordinary Markdown. Fenced
code blocks are left untouched. Heading ``{#anchor}`` markers are kept for the
converter to read (see :func:`split_anchor`).
"""

from __future__ import annotations

import re

from markdown_it.common.html_blocks import block_names
from markdown_it.common.html_re import HTML_OPEN_CLOSE_TAG_STR

from murar.ingest.markup.tabs import set_close, set_open, tab_start

_FENCE = re.compile(r"^(\s{0,3})(`{3,}|~{3,})")
_ANY_INDENT_FENCE = re.compile(r"^([ \t]*)(`{3,}|~{3,})")  # MDX: no indented code, a fence at any indent
# HTML comments, except the tab-set markers written by murar's own line rewriters (markup.tabs)
_NOT_MARKER = r"<!--(?!\s*murar-tabs:[^\n]*?-->)"
_COMMENT = re.compile(_NOT_MARKER + r".*?-->", re.DOTALL)
_OPEN_COMMENT = re.compile(_NOT_MARKER)  # after _COMMENT: an unterminated comment
# where a comment stood (NUL and a private-use character, never in a page's text): a line of
# only these and white space is a comment line (:func:`_drop_comment_lines`), else they go
_COMMENT_LINE = "\x00\ue000"
# the lines that open a CommonMark HTML block ending at a blank line (spec 0.31 section 4.6,
# kinds 6 and 7; markdown-it's rules_block/html_block), at any indent (a list item's or
# admonition's HTML is indented); kind 7 cannot interrupt a paragraph
_HTML_BLOCK_6 = re.compile(r"^\s*</?(?:" + "|".join(block_names) + r")(?=\s|/?>|$)", re.IGNORECASE)
_HTML_BLOCK_7 = re.compile(r"^\s*(?:" + HTML_OPEN_CLOSE_TAG_STR.lstrip("^") + r")\s*$")
_INLINE_EXT = re.compile(r"\[!(?:UICONTROL|DNL|BADGE)\s+([^\]]*)\]")
# an attribute list {key="v" key2=v2}: each choice made once (atomic, possessive), so an unclosed list of
# many pairs fails in linear time (a value's comma is a separator when a name and "=" follow it; the
# unquoted value after a quoted one is its tail: '{a="x"y}', and holds no brace); names, values and
# pairs bounded, so the scan from each '{' stops at the next ('{a=b,' 16,000 times ran from each to the
# end of the text: 123 s)
_ATTR_NAME = r"[A-Za-z_][\w-]{0,100}"
_ATTR_PAIR = (_ATTR_NAME + r"\s{0,20}+=\s{0,20}+(?>\"[^\"]{0,1000}\"|'[^']{0,1000}'|)"
              r"(?:[^\s{},]|,(?![\s,]{0,20}" + _ATTR_NAME + r"\s{0,20}=)){0,1000}+")
_ATTR_LIST = re.compile(r"\{(?!#)\s{0,20}+" + _ATTR_PAIR + r"(?:[\s,]{1,20}+" + _ATTR_PAIR + r"){0,50}+\s{0,20}\}")
_ALERT = re.compile(r"^(\s*>\s*)\[!([A-Z]+)\]\s*$")
_TAB = re.compile(r"^\s*>\s*\[!TAB\s+([^\]]+)\]\s*$")
_SLIDE = re.compile(r"^\s*>\s*\[!SLIDE\]\(.*\)\s*$")
_KEYVAL = re.compile(r'^(\s*>\s*)(id|title|abstract|additional-url)\s*=\s*"(.*)"\s*$')
# a collapsible block's opening line (with its title, stripped of spaces and tabs) or closing line;
# not ``++++`` or longer
_COLLAPSIBLE = re.compile(r"^ {0,3}\+\+\+(?!\+)(.*)$")

_DROP_MARKERS = {"BEGINTABS", "ENDTABS", "BEGINSHADEBOX", "ENDSHADEBOX"}
_LABELS = {
    "NOTE": "Note:",
    "TIP": "Tip:",
    "IMPORTANT": "Important:",
    "CAUTION": "Caution:",
    "WARNING": "Warning:",
    "AVAILABILITY": "Availability:",
    "PREREQUISITES": "Prerequisites:",
    "SUCCESS": "",
    "MORELIKETHIS": "More like this:",
    "CONTEXTUALHELP": "",
    "INFO": "Info:",
}


def split_anchor(heading: str) -> tuple[str, str | None]:
    """``"Title {#my-id}"`` -> ``("Title", "my-id")``; no marker -> ``(heading, None)``.
    The marker is the first ``{#`` after the last white space or ``}`` before the closing
    ``}`` (what ``\\{#([^}\\s]+)\\}\\s*$`` finds, without its search re-scanning a
    heading's long run of spaces from every position: linear)."""
    body = heading.rstrip()
    if not body.endswith("}"):
        return heading.strip(), None
    body = body[:-1]
    stop = len(body) - 1
    while stop >= 0 and body[stop] != "}" and not body[stop].isspace():
        stop -= 1
    start = body.find("{#", stop + 1)
    if start == -1 or start + 2 == len(body):
        return heading.strip(), None
    return heading[:start].strip(), body[start + 2:]


def _normalise_line(line: str, *, attr_lists: bool = False) -> str | None:
    """Rewrite one non-code line; ``None`` drops the line. ``attr_lists``: the parser reads
    ``{key="value"}`` attribute lists itself (they are kept)."""
    m = _ALERT.match(line)
    if m:
        kind = m.group(2)
        if kind == "BEGINTABS":  # a tab set: its tabs' media are told apart (markup.tabs)
            return f"\n{set_open()}\n"
        if kind == "ENDTABS":
            return f"\n{set_close()}\n"
        if kind in _DROP_MARKERS:
            return ""
        label = _LABELS.get(kind, kind.capitalize() + ":")
        return f"{m.group(1)}**{label}**" if label else m.group(1).rstrip()
    m = _TAB.match(line)
    if m:
        # a tab label ends the previous tab's content; render it as a bold paragraph
        return f"\n{tab_start(m.group(1))}\n**{m.group(1).strip()}**\n"
    if _SLIDE.match(line):
        return ""
    m = _COLLAPSIBLE.match(line)
    if m:
        # the title is what a reader sees of a closed block: a bold paragraph, as a tab label;
        # the closing line shows nothing
        title = _INLINE_EXT.sub(r"\1", m.group(1).strip(" \t"))
        return f"\n**{title}**\n" if title else ""
    m = _KEYVAL.match(line)
    if m:
        if m.group(2) in ("id", "additional-url"):
            return m.group(1).rstrip()
        return f"{m.group(1)}{m.group(3)}"
    line = _INLINE_EXT.sub(r"\1", line)
    return line if attr_lists else _ATTR_LIST.sub("", line)


def _drop_comment_lines(lines: list[str]) -> list[str]:
    """``lines`` with each comment line (only :data:`_COMMENT_LINE` and white space) made blank, or left out
    where a CommonMark HTML block is open (kinds 6 and 7, which end at a blank line:
    there the comment is part of the block, and a blank in its place would end it, so
    the rest of the block, indented, read as a code block: 4-space indented
    ``<div>`` markup after a ``<!-- ... -->`` line showed as source). Elsewhere a
    comment line is a block of its own (kind 2), ending a paragraph as a blank does."""
    out: list[str] = []
    in_html = False
    for ln in lines:
        if _COMMENT_LINE in ln and not ln.replace(_COMMENT_LINE, "").strip():
            if not in_html:
                out.append(ln.replace(_COMMENT_LINE, ""))
            continue
        ln = ln.replace(_COMMENT_LINE, "")
        if not ln.strip():
            in_html = False
        elif ln.lstrip().startswith("<") and (
                _HTML_BLOCK_6.match(ln) or (_HTML_BLOCK_7.match(ln) and (not out or not out[-1].strip()))):
            in_html = True
        out.append(ln)
    return out


def normalise(markdown: str, *, attr_lists: bool = False, any_indent_fences: bool = False) -> str:
    """Rewrite Adobe extensions in ``markdown`` (HTML comments removed too; a comment on
    lines of its own goes with them inside an HTML block, else leaves a blank line:
    :func:`_drop_comment_lines`). ``{key="value"}``
    attribute lists go, unless ``attr_lists`` (the parser reads them: an image's
    ``{ width="20" }`` is the size it is drawn at).

    Code inside fenced blocks is returned unchanged. A fence is indented up to 3
    spaces, or any amount with ``any_indent_fences`` (Markdown without indented code,
    MDX: ``    ```html`` under ``1. Step`` opens a block whose ``<!-- -->`` lines are code).
    """
    fence_line = _ANY_INDENT_FENCE if any_indent_fences else _FENCE
    out: list[str] = []
    lines = markdown.split("\n")
    fence: str | None = None
    buf: list[str] = []

    def flush() -> None:
        if not buf:
            return
        text = "\n".join(buf)
        # comments end at or before the last "-->": searching only up to it keeps 20,000 unclosed
        # "<!--" linear (each was scanned to the end of the text: 9.7 s)
        last = text.rfind("-->") + 3
        text = _COMMENT.sub(_COMMENT_LINE, text[:last]) + text[last:] if last >= 3 else text
        # an unterminated comment hides the rest of the document in browsers; drop it the same way
        unterminated = _OPEN_COMMENT.search(text)
        if unterminated:
            text = text[:unterminated.start()]
        chunk = text.split("\n")
        for ln in _drop_comment_lines(chunk) if _COMMENT_LINE in text else chunk:
            new = _normalise_line(ln, attr_lists=attr_lists)
            if new is not None:
                out.append(new)
        buf.clear()

    for line in lines:
        m = fence_line.match(line)
        if fence is None:
            if m:
                flush()
                fence = m.group(2)[0] * len(m.group(2))
                out.append(line)
            else:
                buf.append(line)
        else:
            out.append(line)
            if m and m.group(2).startswith(fence) and line.strip().strip(fence[0]) == "":
                fence = None
    flush()
    return "\n".join(out)
