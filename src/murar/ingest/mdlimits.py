"""Bounds on markdown-it's work for hostile Markdown (used by every markdown-it based converter).

markdown-it (like the CommonMark reference parsers) looks for the closing
``]`` of every ``[`` it meets; a run of unmatched ``[``/``![`` makes that
quadratic in the length of the paragraph or table cell (issue 11: 2,000 table
rows of ``![![![...`` took 20 s). :func:`add_bracket_guard` adds a core rule
that runs after block parsing and before inline parsing: in an inline run
with more than :data:`MAX_UNMATCHED_BRACKETS` unmatched ``[``, those ``[``
are escaped (``\\[``). An unmatched ``[`` can never open a link or image, so
matched links keep parsing exactly as before; the text is unchanged.

Large pipe tables cost markdown-it about 30 tokens per row (a 10,000-row
table takes seconds on a shared 2-core machine) while MuRAR embeds only the
first rows of a table (its representation is bounded). :func:`cap_pipe_tables`
keeps the first :data:`MAX_TABLE_ROWS` body rows of every GFM pipe table before
parsing, in one linear pass, and says how many rows it dropped.

Converters for MDX/MyST that build their own ``MarkdownIt`` should call
:func:`add_bracket_guard` and :func:`cap_pipe_tables` too.
"""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore

from murar.ingest.markup.mdtext import FenceTracker

__all__ = [
    "MAX_TABLE_CELLS",
    "MAX_TABLE_ROWS",
    "MAX_UNMATCHED_BRACKETS",
    "add_bracket_guard",
    "bounded_int",
    "cap_nesting",
    "cap_pipe_tables",
    "escape_unmatched_brackets",
]

_INT = re.compile(r"\s*([+-]?)0*([0-9]+)\s*", re.ASCII)


def bounded_int(text: str, limit: int = 1_000_000_000) -> int | None:
    """The whole number ``text`` spells (ASCII digits, an optional sign, blanks
    around), its size clamped to ``limit``; None when ``text`` is no such number.
    For line numbers, ranges and indents read from pages: ``int()`` raises on 5,000
    digits (``ValueError``, Python's 4,300-digit limit) and on ``"²"`` (which
    ``str.isdigit`` accepts), and a number of ten digits as a list length or a
    repeat count costs gigabytes. Never raises."""
    m = _INT.fullmatch(text)
    if m is None:
        return None
    digits = m.group(2)
    value = limit if len(digits) > len(str(limit)) else min(int(digits), limit)
    return -value if m.group(1) == "-" else value


#: Unmatched ``[`` tolerated in one inline run before they are escaped.
MAX_UNMATCHED_BRACKETS = 16
#: Body rows kept per GFM pipe table.
MAX_TABLE_ROWS = 1000
#: Body cells kept per GFM pipe table (wide tables keep fewer rows).
MAX_TABLE_CELLS = 10_000

_DELIMITER_ROW = re.compile(r"^ {0,3}\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(?P<fence>`{3,}|~{3,})")


#: list/quote levels one line may open (markers on the line plus two columns of indentation each)
MAX_CONTAINER_DEPTH = 24
#: markdown-it's ``maxNesting`` for murar's parsers: room for MAX_CONTAINER_DEPTH lists (two levels each)
MAX_PARSER_NESTING = 100
# a list or quote marker, or a footnote definition's label (its content is a block too)
_CONTAINER_MARK = re.compile(r"[ \t]*(?:>|[-+*](?=[ \t]|$)|[0-9]{1,9}[.)](?=[ \t]|$)|\[\^[^\]\s]{1,100}\]:)[ \t]?")
_BREAK_LINE = re.compile(r"[ \t]*(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})")


def cap_nesting(text: str, *, max_depth: int = MAX_CONTAINER_DEPTH) -> tuple[str, list[str]]:
    """``text`` with list and block quote markers past ``max_depth`` levels on a line
    escaped (``\\-``, ``\\>``), so they read as text, and one warning when any was.

    markdown-it stops at ``maxNesting`` levels and *drops the rest of the page*
    (``"- " * 19 + "x"`` with the commonmark preset lost every later line). A
    line's depth is counted as its leading markers plus one per two columns of
    indentation; fenced code and thematic breaks are left alone. Use with
    :data:`MAX_PARSER_NESTING` (:func:`add_nesting_room`). One linear pass.
    """
    if " " * (2 * max_depth) not in text and "\t" not in text and not any(
            text.count(c) > max_depth for c in "-+*>.)^"):
        return text, []  # no line can be that deep
    out: list[str] = []
    fences = FenceTracker(_FENCE)
    escaped = 0
    for line in text.split("\n"):
        if fences.in_code(line) or _BREAK_LINE.fullmatch(line):
            out.append(line)
            continue
        indent = len(line) - len(line.lstrip(" \t"))
        depth = line[:indent].expandtabs(4).count(" ") // 2
        pos = 0
        while (m := _CONTAINER_MARK.match(line, pos)) and m.end() > pos:
            depth += 1
            if depth > max_depth:
                at = m.start() + len(m.group(0)) - len(m.group(0).lstrip(" \t"))
                line = line[:at] + "\\" + line[at:]
                escaped += 1
                break
            pos = m.end()
        out.append(line)
    if not escaped:
        return text, []
    warning = f"{escaped} line(s) nested deeper than {max_depth} list/quote levels: the deeper markers read as text"
    return "\n".join(out), [warning]


def add_nesting_room(md: MarkdownIt) -> MarkdownIt:
    """Set ``md``'s ``maxNesting`` to :data:`MAX_PARSER_NESTING` (the commonmark
    preset's 20 is about nine nested lists); returns ``md``."""
    md.options["maxNesting"] = MAX_PARSER_NESTING
    return md


def cap_pipe_tables(text: str, *, max_rows: int = MAX_TABLE_ROWS, max_cells: int = MAX_TABLE_CELLS,
                    ) -> tuple[str, list[str]]:
    """``text`` with every GFM pipe table cut to ``max_rows`` body rows (fewer for
    tables wider than ``max_cells / max_rows`` columns), and one warning per cut table.

    A table is a line holding ``|`` followed by a delimiter row (``|---|:--|``);
    its body runs to the first blank line or line without ``|``. Fenced code is
    left alone. One linear pass over the lines.
    """
    if text.count("\n") <= max_rows and text.count("|") <= max_cells:
        return text, []  # no table can exceed either limit
    lines = text.split("\n")
    out: list[str] = []
    warnings: list[str] = []
    fences = FenceTracker(_FENCE)
    i = 0
    n = len(lines)
    while i < n:
        line = lines[i]
        if fences.in_code(line):
            out.append(line)
            i += 1
            continue
        if "|" in line and i + 1 < n and "-" in lines[i + 1] and _DELIMITER_ROW.match(lines[i + 1]):
            out.append(line)
            out.append(lines[i + 1])
            j = i + 2
            while j < n and lines[j].strip() and "|" in lines[j]:
                j += 1
            body = j - (i + 2)
            columns = max(1, lines[i + 1].strip().strip("|").count("|") + 1)
            keep = min(max_rows, max(1, max_cells // columns))
            out.extend(lines[i + 2 : i + 2 + min(body, keep)])
            if body > keep:
                warnings.append(f"pipe table of {body} rows cut to its first {keep} rows")
            i = j
            continue
        out.append(line)
        i += 1
    return "\n".join(out), warnings


def escape_unmatched_brackets(text: str, *, limit: int = MAX_UNMATCHED_BRACKETS) -> str:
    """``text`` with its unmatched ``[`` escaped when there are more than ``limit`` of them.

    One linear pass; ``[`` already escaped by a backslash is left alone.
    """
    if text.count("[") <= limit:
        return text
    open_at: list[int] = []
    escaped_prev = False
    for i, ch in enumerate(text):
        if escaped_prev:
            escaped_prev = False
            continue
        if ch == "\\":
            escaped_prev = True
        elif ch == "[":
            open_at.append(i)
        elif ch == "]" and open_at:
            open_at.pop()
    if len(open_at) <= limit:
        return text
    out: list[str] = []
    last = 0
    for i in open_at:
        out.append(text[last:i])
        out.append("\\[")
        last = i + 1
    out.append(text[last:])
    return "".join(out)


def _guard(state: StateCore) -> None:
    for tok in state.tokens:
        if tok.type == "inline" and tok.content.count("[") > MAX_UNMATCHED_BRACKETS:
            tok.content = escape_unmatched_brackets(tok.content)


def add_bracket_guard(md: MarkdownIt) -> MarkdownIt:
    """Install the unmatched-bracket guard on ``md`` (idempotent); returns ``md``."""
    if "murar_bracket_guard" not in [r.name for r in md.core.ruler.__rules__]:
        md.core.ruler.before("inline", "murar_bracket_guard", _guard)
    return md
