"""Asciidoctor block rules that asciidoc-py lacks, applied to preprocessed AsciiDoc lines.

asciidoc-py and Asciidoctor read most blocks alike. Where they differ in a way
the page text shows, the lines are rewritten here, before asciidoc-py renders
them, so that it builds what Asciidoctor (the converter Antora uses) would:

* **Implicit header row** (https://docs.asciidoctor.org/asciidoc/latest/tables/add-header-row/#implicit-header-row):
  a table with neither the ``header`` nor the ``noheader`` option whose first
  line is followed by a blank line gets ``options="...,header"``.
* **End of a compound block** (example ``====``, open ``--``): Asciidoctor
  reads a block's lines up to its closing delimiter, so a short last line such
  as ``Done.`` stays text. asciidoc-py reads that line and the delimiter under
  it as a two-line section title ("section title not permitted in delimited
  block"), losing the line and leaving the block unclosed; a blank line is put
  between them.
* **Auto-numbered callouts** (``<.>``, https://docs.asciidoctor.org/asciidoc/latest/verbatim/callouts/):
  Asciidoctor numbers each ``<.>`` of a listing and each ``<.>`` item of the
  callout list after it in order; asciidoc-py knows only ``<1>``, ``<2>``...,
  so they are numbered here. XML-comment callouts (``<!--1-->``, ``<!--.-->``)
  at the end of a verbatim line are read as ``<1>``/``<.>``. When the ``icons``
  attribute is set (Antora sets ``icons: font``), a line comment right before a
  line's callouts (``// <1>``, ``# <1>``, ``-- <1>``, ``;; <1>``) goes with them:
  Asciidoctor shows the callout's icon in place of the comment that guards it.
* **Cross reference text** (``<<id>>`` with no text): Asciidoctor shows the
  title of the section or block with that id (its ``reftext`` when given);
  asciidoc-py shows ``[id]``. Ids are the explicit ones (``[[id]]``, ``[#id]``,
  ``[id=...]``) and the section ids Asciidoctor generates (``_the_title``, or with
  the page's ``idprefix``/``idseparator``); an id found nowhere reads as its words.
  ``xrefstyle`` (``short``, ``full``, ``basic``) shapes the text as Asciidoctor's
  ``xreftext`` does (``Section 2.1``, ``Figure 3, “Title”``; :func:`xref_texts`).
* **Section ids**: a section title with no id of its own gets the id Asciidoctor
  generates, with the page's ``idprefix``/``idseparator`` (:func:`section_ids`);
  asciidoc-py made its own (``_what_8217_s_new``), and the id is the fragment of the
  section's address on the site.
* **Two-line (setext) section titles** (``Title`` over a line of ``=``, ``-``, ``~``,
  ``^`` or ``+``, https://docs.asciidoctor.org/asciidoc/latest/sections/titles-and-levels/):
  written as one-line titles (``= Title`` ... ``===== Title``) where Asciidoctor reads
  a two-line title (:func:`setext_titles`), before anything else looks at the
  lines: the preprocessor took a ``-----`` underline for the start of a listing
  block (the rest of the page was then verbatim to it), and the document title
  and ``<<id>>`` texts were found only in the one-line form.
* **Dangling list continuation** (a ``+`` line followed by a blank line, see
  https://docs.asciidoctor.org/asciidoc/latest/lists/continuation/): Asciidoctor 2
  still attaches the next block to the list item when exactly one blank line
  follows, and attaches nothing after two or more. asciidoc-py attaches in both
  cases, so the ``+`` is dropped where Asciidoctor attaches nothing.

* **Verbatim paragraphs** (``[source,shell]``, ``[listing]`` or ``[literal]`` over a
  paragraph): Asciidoctor reads the paragraph's lines as a listing (literal) block,
  ending at a blank line, a delimiter or attribute line and, attached to a list item,
  at the next item; asciidoc-py joined them into one line of text and took the next
  item for more of it. Written as the delimited block (:func:`styled_verbatim_paragraphs`).

* **Hard line breaks in a monospace span** running over lines: closed and opened
  again around each break (:func:`monospace_hard_breaks`), as Asciidoctor shows them.

Delimited verbatim blocks (listing ``----``, literal ``....``, passthrough
``++++``, comment ``////``, Markdown-style fences) and the content of tables
are left as written.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from html import escape as html_escape
from typing import Literal

__all__ = ["attached_paragraph_ends", "auto_callouts", "block_indents", "compound_block_ends", "continuation_runs",
           "dangling_continuations", "fenced_code_blocks",
           "implicit_table_headers", "level5_titles", "monospace_hard_breaks", "quoted_attribute_values", "section_ids", "setext_titles",
           "shorthand_tables", "styled_verbatim_paragraphs", "table_leading_blanks", "text_after_attached_blocks", "xref_texts"]

_VERBATIM_OPEN = re.compile(r"^(-{4,}|\.{4,}|\+{4,}|/{4,}|```)")
_TABLE_OPEN = re.compile(r"^([|,:!])={3,}$")
_ATTR_LINE = re.compile(r"^\[.*\]$")
_BLOCK_TITLE = re.compile(r"^\.[^\s.]")
# a block's metadata line: its title or its attribute list (an anchor too)
_BLOCK_META = re.compile(r"^(?:\.[^\s.]|\[.*\]\s*$)")
_LINE_COMMENT = re.compile(r"^//(?!/)")
_SECTION_TITLE = re.compile(r"^=+[ \t]+\S")
_NAMED_ATTR = re.compile(r'([\w-]+)\s*=\s*(?:"([^"]*)"|\'([^\']*)\'|([^,\]]*))')
_FORMATS = {"|": "psv", "!": "psv", ",": "csv", ":": "dsv"}
_SEPARATORS = {"psv": "|", "csv": ",", "dsv": ":", "tsv": "\t"}


@dataclass(frozen=True)
class _Block:
    """A delimited block: the index of its opening delimiter line and of its
    closing one (``len(lines)`` when it never closes)."""

    kind: Literal["verbatim", "table"]
    start: int
    end: int


def _closer(lines: list[str], start: int, delimiter: str) -> int:
    """The index of the first line after ``start`` equal to ``delimiter`` (trailing white
    space ignored): where the block opened at ``start`` closes, as in Asciidoctor; the
    block runs to the end (``len(lines)``) when no line closes it."""
    return next((j for j in range(start + 1, len(lines)) if lines[j].rstrip() == delimiter), len(lines))


def _delimited_blocks(lines: list[str]) -> list[_Block]:
    """The outermost verbatim blocks and tables of ``lines``, in order.

    A block closes at the first later line equal to its opening delimiter
    (a fence at a bare "```"), as in Asciidoctor; nothing inside is looked at.
    """
    blocks: list[_Block] = []
    i = 0
    while i < len(lines):
        line = lines[i].rstrip()
        verbatim = _VERBATIM_OPEN.match(line)
        table = _TABLE_OPEN.match(line)
        kind: Literal["verbatim", "table"]
        if verbatim and (verbatim.group(1) == "```" or line == verbatim.group(1)):
            closer, kind = verbatim.group(1), "verbatim"
        elif table:
            closer, kind = line, "table"
        else:
            i += 1
            continue
        end = _closer(lines, i, closer)
        blocks.append(_Block(kind, i, end))
        i = end + 1
    return blocks


def _in_blocks(lines: list[str], *, verbatim_only: bool = False, delimiters: bool = True) -> list[bool]:
    """One flag per line of ``lines``: True where the line belongs to one of the outermost
    verbatim blocks and tables of :func:`_delimited_blocks` (only the verbatim blocks when
    ``verbatim_only``), which the rewrites here leave alone. The opening and closing
    delimiter lines count as inside when ``delimiters``, else only the lines between them.
    Linear in the lines."""
    inside = [False] * len(lines)
    edge = 0 if delimiters else 1
    for block in _delimited_blocks(lines):
        if verbatim_only and block.kind != "verbatim":
            continue
        for j in range(block.start + edge, min(block.end + 1 - edge, len(lines))):
            inside[j] = True
    return inside


def _block_attributes(lines: list[str], start: int) -> tuple[list[str], dict[str, str]]:
    """The options and named attributes of the attribute lines right above line ``start``
    (block titles, anchors and line comments may sit among them; later lines win)."""
    options: list[str] = []
    named: dict[str, str] = {}
    i = start - 1
    above: list[str] = []
    while i >= 0:
        line = lines[i].strip()
        if _ATTR_LINE.match(line):
            above.append(line)
        elif not (_BLOCK_TITLE.match(line) or _LINE_COMMENT.match(line)):
            break
        i -= 1
    for line in reversed(above):
        if line.startswith("[["):
            continue
        body = line[1:-1]
        first = body.split(",", 1)[0]
        if "=" not in first:
            options += [o.strip() for o in re.findall(r"%([^%.#,]+)", first)]
        for m in _NAMED_ATTR.finditer(body):
            value = next((g for g in m.groups()[1:] if g is not None), "").strip()
            named[m.group(1)] = value
            if m.group(1) in ("options", "opts"):
                options += [o.strip() for o in value.split(",") if o.strip()]
            elif m.group(1).endswith("-option"):
                options.append(m.group(1).removesuffix("-option"))
    return options, named


def _has_implicit_header(body: list[str], fmt: str, separator: str) -> bool:
    """Asciidoctor's test: the first content line is followed by a blank line and,
    for a PSV table, the next line with content starts a new cell (the first row
    ends on its line). Line comments are not content."""
    rows = [ln.rstrip() for ln in body if not _LINE_COMMENT.match(ln)]
    if len(rows) < 2 or not rows[0].strip() or rows[1].strip():
        return False
    if fmt != "psv":
        return True
    following = next((ln for ln in rows[2:] if ln.strip()), None)
    cell_start = r"^[ \t]*(?:[\d.]+[*+])?[<^>]?(?:\.[<^>])?[a-z]?" + re.escape(separator)
    return following is None or re.match(cell_start, following) is not None


def implicit_table_headers(lines: list[str]) -> list[str]:
    """``lines`` with ``[options="...,header"]`` put right above every table that
    Asciidoctor gives an implicit header row (see module doc); the options already
    given are repeated, because asciidoc-py lets the last attribute line win.

    PSV (``|===``, ``!===``), CSV (``,===``, ``format=csv``) and DSV (``:===``)
    tables follow the same rule in Asciidoctor; asciidoc-py renders ``,===`` and
    ``:===`` as paragraphs, where the added line changes nothing.
    """
    out: list[str] = []
    done = 0
    for block in _delimited_blocks(lines):
        if block.kind != "table":
            continue
        options, named = _block_attributes(lines, block.start)
        if "header" in options or "noheader" in options:
            continue
        opener = lines[block.start].strip()
        fmt = named.get("format", _FORMATS[opener[0]])
        separator = named.get("separator") or (opener[0] if opener[0] == "!" else _SEPARATORS.get(fmt, "|"))
        if not _has_implicit_header(lines[block.start + 1:block.end], fmt, separator):
            continue
        out += lines[done:block.start]
        out.append(f'[options="{",".join([*options, "header"])}"]')
        done = block.start
    out += lines[done:]
    return out


def table_leading_blanks(lines: list[str]) -> list[str]:
    """``lines`` without the blank lines right after a table's opening delimiter.
    Asciidoctor counts the columns on the first line with content and skips blank
    lines before it (a leading blank line is also how authors keep the first row out
    of the implicit header, which :func:`implicit_table_headers` reads first); asciidoc-py
    counted the columns on the blank line, found none, and rendered every row empty
    (Neo4j's one-column '.Considerations' tables)."""
    drop: set[int] = set()
    for block in _delimited_blocks(lines):
        if block.kind != "table":
            continue
        i = block.start + 1
        while i < min(block.end, len(lines)) and not lines[i].strip():
            drop.add(i)
            i += 1
    return [line for i, line in enumerate(lines) if i not in drop] if drop else lines


def _next_content(lines: list[str], i: int) -> int:
    """The index of the first line from ``i`` on that is not blank (``len(lines)`` if none)."""
    while i < len(lines) and not lines[i].strip():
        i += 1
    return i


def _is_section_title(lines: list[str], i: int) -> bool:
    """Whether line ``i`` starts a section: its title, or the attribute lines, block
    titles and line comments above one."""
    while i < len(lines):
        line = lines[i].strip()
        if _SECTION_TITLE.match(line):
            return True
        if not (_ATTR_LINE.match(line) or _BLOCK_TITLE.match(line) or _LINE_COMMENT.match(line)):
            return False
        i += 1
    return False


def dangling_continuations(lines: list[str]) -> list[str]:
    """``lines`` with each list continuation ``+`` followed by a blank line (outside
    verbatim blocks and tables) rewritten to what Asciidoctor 2 attaches:

    * one blank line, then a block: kept; asciidoc-py attaches the block too;
    * one blank line, then another ``+``: the first ``+`` and the blank line go
      (asciidoc-py would read ``+`` and the next line as a paragraph);
    * two or more blank lines, or nothing after: the ``+`` goes (nothing attached);
    * one blank line, then a section title: the ``+`` goes. Asciidoctor renders
      that title as a paragraph of the list item, with what follows; asciidoc-py
      stops rendering the page there ("section title not allowed in list item"),
      so here the title stays a section;
    * a section title right under the ``+`` (no blank line): the ``+`` becomes a blank
      line, for the same reason (asciidoc-py lost the whole page), so the title stays
      a section here too.
    """
    skip: set[int] = set()
    blank: set[int] = set()
    ignored = _in_blocks(lines)
    for i, line in enumerate(lines):
        if ignored[i] or i in skip or line.strip() != "+":
            continue
        if i + 1 < len(lines) and lines[i + 1].strip():
            if _is_section_title(lines, i + 1):
                blank.add(i)
            continue
        nxt = _next_content(lines, i + 1)
        if nxt == len(lines) or nxt > i + 2 or _is_section_title(lines, nxt):
            skip.add(i)
        elif lines[nxt].strip() == "+":
            skip.update(range(i, nxt))
    return ["" if i in blank else line for i, line in enumerate(lines) if i not in skip]


def detached_continuations(lines: list[str]) -> list[str]:
    """``lines`` with the blank lines before a *detached* list continuation removed: a
    ``+`` on its own line after one or more blank lines, inside a list item (its paragraph
    starts with a list marker or is itself attached by a ``+``, or it ends a delimited
    block attached by one), and followed by content. Asciidoctor keeps reading the item
    there and attaches the next block to it (``detached_continuation`` in its list item
    reader, where a blank line otherwise ends the item); asciidoc-py ended the list at the
    blank line and showed the ``+`` as a paragraph. Outside verbatim blocks and tables.
    """
    ignored = _in_blocks(lines)
    blocks = {b.end: b.start for b in _delimited_blocks(lines)}
    drop: set[int] = set()
    for i, line in enumerate(lines):
        if ignored[i] or line.strip() != "+" or i == 0 or lines[i - 1].strip():
            continue
        if i + 1 >= len(lines) or not lines[i + 1].strip():
            continue  # nothing attached: dangling_continuations decides
        j = i - 1
        while j >= 0 and not lines[j].strip():
            j -= 1
        if j < 0 or lines[j].strip() == "+":
            continue  # "+", blank, "+": one continuation (dangling_continuations)
        if j in blocks:  # the item's last block: attached when a ``+`` stands above it
            start = blocks[j]
            while start > 0 and _BLOCK_META.match(lines[start - 1].strip()):
                start -= 1
            attached = start > 0 and lines[start - 1].strip() == "+"
        elif ignored[j]:
            continue
        else:
            start = j
            while start > 0 and lines[start - 1].strip() and not ignored[start - 1]:
                start -= 1
            attached = bool(_LIST_ITEM.match(lines[start])) or lines[start].strip() == "+" or (
                start > 0 and lines[start - 1].strip() == "+")
        if attached:
            drop.update(range(j + 1, i))
    return [line for i, line in enumerate(lines) if i not in drop] if drop else lines


def continuation_runs(lines: list[str]) -> list[str]:
    """``lines`` with the list continuations Asciidoctor reads across other lines
    joined where asciidoc-py would show a ``+`` as text (outside verbatim blocks and
    tables; checked with Asciidoctor 2.0):

    * ``+``, line comments, ``+``: Asciidoctor skips the comment lines and the
      second ``+`` continues the same item (Red Hat modular docs include a module
      that starts with its "Module included in ..." comments and a ``+`` right after
      a ``+``); the comments and the second ``+`` go;
    * ``+``, ``.Block title``, ``+``, block: the title stays pending across the
      second ``+`` and titles the block (``.Example ...`` over a paragraph); the
      second ``+`` goes. So do attribute lines (``+``, ``.Mac``, ``+``, ``[source,shell]``,
      ``+``, ``----``: hazelcast/hz-docs' binary quickstart): every ``+`` after one goes.
    * ``+``, line comments, a block: the comments are skipped and the block is
      attached (a partial's ``// tag::name[]`` marker line right after the ``+`` that
      attaches its paragraph); the comments go.
    * a line of the item (a closing delimiter too), line comments, ``+``: Asciidoctor's
      list item reader keeps the comment lines in the item, so the ``+`` still attaches
      the next block (redpanda-data/docs' test-step comments between a step's listing and
      the ``+`` over its output); the comments go. asciidoc-py ended the item at the
      comment after a delimited block and showed the ``+`` as text.

    asciidoc-py showed "+ .Example ..." and "+ In the following ..." as text."""
    ignored = _in_blocks(lines)
    skip: set[int] = set()
    for i, line in enumerate(lines):
        if ignored[i] or i in skip or line.strip() != "+":
            continue
        above = i - 1
        while above >= 0 and not ignored[above] and _LINE_COMMENT.match(lines[above]):
            above -= 1
        if 0 <= above < i - 1 and lines[above].strip():
            skip.update(range(above + 1, i))
        j = i + 1
        while j < len(lines) and not ignored[j] and _LINE_COMMENT.match(lines[j]):
            j += 1
        if j > i + 1 and j < len(lines) and not ignored[j] and lines[j].strip() == "+":
            skip.update(range(i + 1, j + 1))
            j += 1
            while j < len(lines) and not ignored[j] and _LINE_COMMENT.match(lines[j]):
                j += 1
        k, joined = j, False
        while k + 1 < len(lines) and not ignored[k] and not ignored[k + 1] and _BLOCK_META.match(lines[k]):
            if lines[k + 1].strip() == "+":  # a title or attribute line stays pending across the "+"
                skip.add(k + 1)
                k, joined = k + 2, True
            elif _BLOCK_META.match(lines[k + 1]):
                k += 1
            else:
                break
        if not joined and j < len(lines) and lines[j].strip() and lines[j].strip() != "+":
            skip.update(k for k in range(i + 1, j) if _LINE_COMMENT.match(lines[k]))
    return [line for i, line in enumerate(lines) if i not in skip]


_LIST_ITEM = re.compile(r"^[ \t]*(?:\*{1,5}|\.{1,5}|-|\d{1,9}\.|[a-zA-Z]\.|[ivxIVX]{1,6}\))[ \t]+\S")
_BLOCK_START = re.compile(r"^(?:-{2,}|={4,}|\*{4,}|\.{4,}|_{4,}|\+{4,}|/{4,}|```|\|===|,===|:===|!===)\s*$|^\[")


def attached_paragraph_ends(lines: list[str]) -> list[str]:
    """``lines`` with a blank line before a list item that follows, without a blank
    line, a paragraph attached to the previous item with ``+`` (outside verbatim
    blocks and tables). Asciidoctor ends the attached paragraph at the item's marker
    (``. First`` / ``+`` / ``Attached.`` / ``. Second``: two items); asciidoc-py read
    ``. Second`` as text of the attached paragraph. A blank line between list items
    keeps the list in both."""
    ignored = _in_blocks(lines)
    out: list[str] = []
    attached = False
    for i, line in enumerate(lines):
        if ignored[i] or not line.strip():
            attached = False if not line.strip() else attached
            out.append(line)
            continue
        if line.strip() == "+":
            nxt = lines[i + 1] if i + 1 < len(lines) else ""
            attached = bool(nxt.strip()) and not _BLOCK_START.match(nxt) and not _LIST_ITEM.match(nxt)
            out.append(line)
            continue
        if attached and _LIST_ITEM.match(line) and out and out[-1].strip() and out[-1].strip() != "+":
            out.append("")
            attached = False
        out.append(line)
    return out


_ATTACHABLE_DELIMITER = re.compile(r"^(?:={4,}|-{4,}|\.{4,}|\*{4,}|_{4,}|\+{4,}|--|\|===|```[\w+-]*)$")


def text_after_attached_blocks(lines: list[str]) -> list[str]:
    """``lines`` with a ``+`` put between an attached block's closing delimiter and a
    text line right under it. Asciidoctor reads a list item on to its first blank
    line, so that line is the item's next paragraph (and blocks attached to it with
    ``+`` follow in the item): ``. Step`` / ``+`` / ``====`` ... ``====`` /
    ``Optional: ...`` / ``+`` / ``.Title`` / ``|===`` is one item (checked with
    asciidoctor 2.0.18). asciidoc-py ended the item at the delimiter, so the text
    became a paragraph after the list and each later ``+`` and ``.Title`` showed as
    text. A line that starts a list item, a section, a comment or another block is
    left alone. Blocks not attached with ``+`` are not looked at; linear in the lines."""
    out: list[str] = []
    i, n = 0, len(lines)
    ignored = _in_blocks(lines, delimiters=False)  # inside a verbatim block or table: no closer of another block
    at: dict[str, list[int]] = {}  # each delimiter's lines, and the section titles, for a bisect lookup
    titles: list[int] = []
    for j, text in enumerate(lines):
        if ignored[j]:
            continue
        if _ATTACHABLE_DELIMITER.match(text.rstrip()):
            at.setdefault(text.rstrip(), []).append(j)
        elif re.match(r"={1,6}[ \t]+\S", text):
            titles.append(j)
    while i < n:
        line = lines[i]
        delim = line.rstrip()
        if not _ATTACHABLE_DELIMITER.match(delim):
            out.append(line)
            i += 1
            continue
        k = i - 1
        while k >= 0 and (_ATTR_LINE.match(lines[k].strip()) or _BLOCK_TITLE.match(lines[k].strip())):
            k -= 1
        closer = "```" if delim.startswith("```") else delim
        end = -1
        if k >= 0 and lines[k].strip() == "+" and not ignored[i]:
            ends = at.get(closer, [])
            pos = bisect_right(ends, i)
            end = ends[pos] if pos < len(ends) else -1
            title = bisect_right(titles, i)
            if end >= 0 and title < len(titles) and titles[title] < end and not _VERBATIM_OPEN.match(delim):
                end = -1  # a block left open before a section title: not read as closing after it
        if end < 0 or end >= n:
            out.append(line)
            i += 1
            continue
        out.extend(lines[i:end + 1])
        nxt = lines[end + 1] if end + 1 < n else ""
        if nxt.strip() and nxt.strip() != "+" and not _LIST_ITEM.match(nxt) and not _BLOCK_START.match(nxt) \
                and not _LINE_COMMENT.match(nxt) and not re.match(r"=+\s", nxt) and not _BLOCK_TITLE.match(nxt):
            out.append("+")
        i = end + 1
    return out


_FENCE_OPEN = re.compile(r"^```(?!`)(.*)$")
_LANGUAGE = re.compile(r"^[\w+#.-]+$")


def fenced_code_blocks(lines: list[str]) -> list[str]:
    """``lines`` with each Markdown-style fenced code block written as a source listing.

    Asciidoctor reads a line starting with three backticks (not four) as the start of a
    fenced code block, a source block whose language is the rest of the line up to a
    comma, closed by a line of exactly three backticks or, unclosed, running to the end
    of the document (Asciidoctor ``Parser.is_delimited_block?``/``next_block``
    ``:fenced_code``; https://docs.asciidoctor.org/asciidoc/latest/verbatim/source-blocks/#fenced-code-blocks).
    asciidoc-py has no such blocks: the fence and its code ran together as one paragraph
    (" ```bash curl ... ``` "). Written here as ``[source,lang]`` over a ``----`` listing
    (a ``....`` block when a line of the code is a dash delimiter, which asciidoc-py
    would take for the listing's end). Fences inside other verbatim
    blocks and in tables are left alone; linear in the lines. A ``----`` listing holding a
    line of four or more dashes (a ``....`` literal block holding one of dots) is written
    with the other delimiter for the same reason (hazelcast/hz-docs' command outputs framed
    by dash rules: the rest of the page was read as the listing's text)."""
    out: list[str] = []
    i, n = 0, len(lines)
    while i < n:
        line = lines[i].rstrip()
        fence = _FENCE_OPEN.match(line)
        if fence:
            end = _closer(lines, i, "```")
            body = lines[i + 1:end]
            # asciidoc-py ends a listing at any line of four or more dashes: a literal
            # block holds code that has one (and is verbatim alike)
            dashed = any(_VERBATIM_OPEN.fullmatch(b.rstrip()) and b.startswith("-") for b in body)
            delim = "...." if dashed else "----"
            lang = fence.group(1).split(",", 1)[0].strip()
            out += [f"[source,{lang}]"] if _LANGUAGE.match(lang) else []
            out += [delim, *body, delim]
            i = end + 1
            continue
        verbatim = _VERBATIM_OPEN.match(line)
        if (verbatim and line == verbatim.group(1)) or _TABLE_OPEN.match(line):
            end = _closer(lines, i, line)
            if verbatim and line[0] in "-." and end < n:
                # asciidoc-py ends a listing (literal) block at any line of four or more dashes
                # (dots), Asciidoctor at its own delimiter only: a block holding such a line is
                # written with the other delimiter when none of its lines is one of those
                runs = {b.rstrip()[0] for b in lines[i + 1:end] if _VERBATIM_OPEN.fullmatch(b.rstrip())
                        and b[:1] in "-."}
                other = "." if line[0] == "-" else "-"
                if line[0] in runs and other not in runs:
                    out += [other * 4, *lines[i + 1:end], other * 4]
                    i = end + 1
                    continue
            out += lines[i:end + 1]
            i = end + 1
            continue
        out.append(lines[i])
        i += 1
    return out


# a paragraph's verbatim style: the first positional attribute (``[source,shell]``, ``[listing]``,
# ``[literal]``, ``[source%linenums,java]``), and where Asciidoctor's paragraph reader stops
_VERBATIM_STYLE = re.compile(r"^\[(source|listing|literal)(?:[%#.][^,\]]*)?(?:,.*)?\]$")
_PARAGRAPH_BREAK = re.compile(
    r"^(?:-{4,}|={4,}|\*{4,}|\.{4,}|_{4,}|\+{4,}|/{4,}|--|```.*|[|,:!]===)\s*$|^\[(?:|[#.%\w{,\"'].*|\[(?:|[\w{].*)\])\]$")


def styled_verbatim_paragraphs(lines: list[str]) -> list[str]:
    """``lines`` with each paragraph styled ``[source,...]``, ``[listing]`` (a ``----``
    listing) or ``[literal]`` (a ``....`` literal block) written as that delimited block.

    Asciidoctor reads such a paragraph as a verbatim block whose lines are the
    paragraph's (https://docs.asciidoctor.org/asciidoc/latest/verbatim/source-blocks/,
    "source paragraph"): it ends at a blank line, a delimiter or block attribute line
    (Asciidoctor ``read_paragraph_lines``) and, attached to a list item with ``+``, at the
    next list item or ``+``. asciidoc-py joined its lines into one line of text and, in a
    list, took the next item for more of it (neo4j/docs-operations: ``[source, shell]``
    over ``---`` / ``sudo systemctl stop neo4j`` / ``---`` / ``. Delete ...``). Lines in
    verbatim blocks and tables are left alone; a paragraph holding a line that would close
    the block is left as written."""
    ignored = _in_blocks(lines)
    out: list[str] = []
    i, n = 0, len(lines)
    while i < n:
        line = lines[i]
        style = None if ignored[i] else _VERBATIM_STYLE.match(line.strip())
        if style is None:
            out.append(line)
            i += 1
            continue
        j = i + 1  # the block's other metadata lines (a title, more attributes, an anchor)
        while j < n and not ignored[j] and (_BLOCK_META.match(lines[j]) or _LINE_COMMENT.match(lines[j])):
            j += 1
        if j >= n or ignored[j] or not lines[j].strip() or _PARAGRAPH_BREAK.match(lines[j].strip()) \
                or _SECTION_TITLE.match(lines[j]):
            out += lines[i:j]
            i = j
            continue
        before = next((lines[k].strip() for k in range(i - 1, -1, -1) if lines[k].strip()
                       and not _BLOCK_META.match(lines[k])), "")
        in_list = before == "+" or bool(_LIST_ITEM.match(before))
        end = j
        while end < n and lines[end].strip() and not ignored[end] and not _PARAGRAPH_BREAK.match(lines[end].strip()) \
                and not (in_list and (lines[end].strip() == "+" or _LIST_ITEM.match(lines[end]))):
            end += 1
        delim = "...." if style.group(1) == "literal" else "----"
        body = lines[j:end]
        if any(b.rstrip() == delim for b in body):
            out += lines[i:end]
        else:
            out += [*lines[i:j], delim, *body, delim]
        i = end
    return out


# a whole backtick monospace span on one line, an opening backtick left over, a closing one
_MONO_WHOLE = re.compile(r"(?<![\w`\\])`(?=\S)[^`\n]*?(?<=\S)`(?![\w`])")
_MONO_OPENER = re.compile(r"(?<![\w`\\])`(?=\S)")
_MONO_CLOSER = re.compile(r"(?<=\S)`(?![\w`])")


def monospace_hard_breaks(lines: list[str]) -> list[str]:
    """``lines`` with a backtick monospace span that runs over lines ending in a hard
    line break (`` +``) closed before each break and opened again on the next line.

    Asciidoctor's monospace span may run over the lines of a paragraph, and its hard
    line breaks apply inside it (```Unable to reallocate 'db'. +`` / ``Required
    topology.``` shows two lines of code); asciidoc-py's backtick span is literal, so the
    `` +`` stayed in the text ("... 'db'. + Required topology."). Only where the span
    closes on a later line of the same paragraph; lines in verbatim blocks and tables
    are left alone (neo4j/docs-operations clustering/disaster-recovery.adoc)."""
    ignored = _in_blocks(lines)
    out = list(lines)
    # closes_from[j]: a backtick closes a span on line j or a later line of its paragraph run
    # (read once per line, from the end: a paragraph of lines that never close was quadratic)
    closes_from = [False] * (len(lines) + 1)
    for j in range(len(lines) - 1, -1, -1):
        stripped = lines[j].strip()
        if ignored[j] or not stripped or _BLOCK_START.match(stripped) or stripped == "+" or _LIST_ITEM.match(lines[j]):
            continue
        closes_from[j] = closes_from[j + 1] or ("`" in lines[j] and _MONO_CLOSER.search(lines[j]) is not None)
    reopen = False
    for i, line in enumerate(lines):
        if ignored[i] or not line.strip() or _BLOCK_START.match(line.strip()):
            reopen = False
            continue
        text = ("`" + line.lstrip()) if reopen else line
        if reopen:
            text = line[:len(line) - len(line.lstrip())] + text
        reopen = False
        body = text.rstrip()
        if body.endswith(" +") and "`" in body:
            rest = _MONO_WHOLE.sub("", body[:-2])
            opener = _MONO_OPENER.search(rest)
            if opener and not _MONO_CLOSER.search(rest, opener.end()) and closes_from[i + 1]:
                text = body[:-2].rstrip() + "` +"
                reopen = True
        out[i] = text
    return out


_MAX_BLOCK_INDENT = 80


def block_indents(lines: list[str]) -> list[str]:
    """``lines`` with each verbatim block that has an ``indent`` attribute (``[source,java,indent=0]``)
    re-indented as Asciidoctor does (Parser.adjust_indentation!): the indentation its non-blank
    lines share is removed and ``indent`` spaces put before each (at most 80). asciidoc-py
    ignores the attribute, so the code kept the indentation it had in its source file.
    Linear in the lines."""
    out = list(lines)
    for block in _delimited_blocks(lines):
        if block.kind != "verbatim":
            continue
        _, named = _block_attributes(lines, block.start)
        indent = named.get("indent", "")
        if not indent.isdigit():
            continue
        body = lines[block.start + 1:block.end]
        shared = min((len(ln) - len(ln.lstrip(" \t")) for ln in body if ln.strip()), default=0)
        pad = " " * min(int(indent[:3]), _MAX_BLOCK_INDENT)
        out[block.start + 1:block.end] = [pad + ln[shared:] if ln.strip() else "" for ln in body]
    return out


_SHORTHAND_TABLE = re.compile(r"^([,:])===$")


def shorthand_tables(lines: list[str]) -> list[str]:
    """``lines`` with each CSV (``,===``) and DSV (``:===``) table written as a ``|===`` table
    with ``[format=csv]``/``[format=dsv]`` (Asciidoctor: "the delimiter ,=== is shorthand for
    format=csv", docs: tables/data-format; checked with asciidoctor 2.0). asciidoc-py knows
    only ``|===`` (and ``!===`` inside a cell): the delimiters and the rows ran into one
    paragraph (",=== a,b 1,2 ,==="). The table closes at the same delimiter; verbatim blocks
    and ``|===`` tables are not looked into; linear in the lines."""
    out: list[str] = []
    i, n = 0, len(lines)
    while i < n:
        line = lines[i].rstrip()
        short = _SHORTHAND_TABLE.match(line)
        verbatim = _VERBATIM_OPEN.match(line)
        if short:
            end = _closer(lines, i, line)
            if end < n:
                fmt = f'format="{"csv" if short.group(1) == "," else "dsv"}"'  # quoted, as asciidoc-py needs
                above = out[-1].rstrip() if out else ""
                if _ATTR_LINE.match(above) and not above.startswith("[["):
                    # one attribute list: asciidoc-py lets a second list line drop the first's format
                    out[-1] = f"[{above[1:-1]},{fmt}]" if above[1:-1].strip() else f"[{fmt}]"
                else:
                    out.append(f"[{fmt}]")
                out += ["|===", *lines[i + 1:end], "|==="]
                i = end + 1
                continue
        elif (verbatim and (verbatim.group(1) == "```" or line == verbatim.group(1))) or line == "|===":
            closer = "```" if verbatim and verbatim.group(1) == "```" else line
            end = _closer(lines, i, closer)
            out += lines[i:end + 1]
            i = end + 1
            continue
        out.append(lines[i])
        i += 1
    return out


_QUOTE_MARKS = re.compile(r"^(?:>[ \t]?)+")


def markdown_quotes(lines: list[str]) -> list[str]:
    """``lines`` with each Markdown-style blockquote (Asciidoctor: lines starting
    with ``>`` at the start of a block, outside verbatim blocks) written as a
    ``____`` quote block, nested levels flattened into it. asciidoc-py has no such
    blocks: it failed on the first one ("unexpected error") and the rest of the
    page was lost."""
    ignored = _in_blocks(lines)
    out: list[str] = []
    i = 0
    while i < len(lines):
        if not ignored[i] and lines[i].startswith(">") and (i == 0 or not lines[i - 1].strip()):
            j = i
            while j < len(lines) and not ignored[j] and lines[j].startswith(">"):
                j += 1
            out += ["____", *(_QUOTE_MARKS.sub("", ln) for ln in lines[i:j]), "____"]
            i = j
            continue
        out.append(lines[i])
        i += 1
    return out


_COMPOUND = re.compile(r"^(={4,}|--)$")


def compound_block_ends(lines: list[str]) -> list[str]:
    """``lines`` with a blank line put before the closing delimiter of each example
    (``====``) and open (``--``) block whose last line is text (see module doc).

    A delimiter opens a block where a block may start (after a blank line, an
    attribute line, a block title, a comment or another delimiter); under a text
    line with no block open it is a two-line title's underline and left alone.
    Verbatim blocks and tables are not looked into.
    """
    ignored = _in_blocks(lines)
    out: list[str] = []
    stack: list[str] = []
    for i, line in enumerate(lines):
        delim = _COMPOUND.match(line.rstrip()) if not ignored[i] else None
        if delim:
            prev = out[-1].strip() if out else ""
            if stack and stack[-1] == delim.group(1):
                stack.pop()
                if prev and prev != "+" and not _COMPOUND.match(prev):
                    out.append("")
            elif not prev or _ATTR_LINE.match(prev) or _BLOCK_TITLE.match(prev) or _LINE_COMMENT.match(prev) \
                    or _COMPOUND.match(prev) or (i > 0 and ignored[i - 1]):
                stack.append(delim.group(1))
        out.append(line)
    return out


_AUTO_CALLOUT = re.compile(r"<\.>")
# one XML-comment callout ending where the search window ends (at most 12 characters)
_XML_CALLOUT_END = re.compile(r"<!--(\d{1,4}|\.)-->$")


def _xml_callouts(line: str) -> str:
    """``line`` with the XML-comment callouts at its end (each ``<!--1-->`` or ``<!--.-->``
    followed only by others, one blank or tab apart at most, and trailing blanks) read as
    ``<1>``/``<.>``. Peeled from the end, so linear (a lookahead from each callout over
    the rest of the line was quadratic: 20,000 on one line took 14 s)."""
    end = len(line.rstrip(" \t"))
    found: list[tuple[int, int, str]] = []
    while end > 0:
        m = _XML_CALLOUT_END.search(line, max(0, end - 12), end)
        if m is None:
            break
        found.append((m.start(), m.end(), m.group(1)))
        end = m.start() - (1 if m.start() > 0 and line[m.start() - 1] in " \t" else 0)
    if not found:
        return line
    pieces: list[str] = []
    pos = 0
    for start, stop, mark in reversed(found):  # left to right
        pieces += [line[pos:start], f"<{mark}>"]
        pos = stop
    pieces.append(line[pos:])
    return "".join(pieces)
_AUTO_CALLOUT_ITEM = re.compile(r"^<\.>(?=\s)")
# a callout ending where the search window ends (at most 7 characters), and the line comment
# Asciidoctor's CalloutScanRx takes in with it ("// <1>", "# <1>", "-- <1>", ";; <1>")
_CALLOUT_END = re.compile(r"(?<!\\)<(\d{1,4}|\.)>$")
_COMMENT_BEFORE_CALLOUT = re.compile(r"(?://|#|--|;;) ?$")
_COMMENT_CALLOUT_HINT = re.compile(r"(?://|#|--|;;) ?<(?:\d{1,4}|\.)>")


def _comment_callouts(line: str) -> str:
    """``line`` without the line comment before its callouts (``foo(); // <1>`` reads
    ``foo(); <1>``): Asciidoctor's CalloutScanRx takes the comment in with the callout
    and, with icons on, shows only the callout; asciidoc-py showed ``// (1)``. The
    callouts are peeled from the end of the line (linear)."""
    end = len(line.rstrip(" \t"))
    first = -1
    while end > 0:
        m = _CALLOUT_END.search(line, max(0, end - 7), end)
        if m is None:
            break
        first = m.start()
        end = first - (1 if first > 0 and line[first - 1] in " \t" else 0)
    if first < 0:
        return line
    comment = _COMMENT_BEFORE_CALLOUT.search(line, max(0, first - 3), first)
    return line if comment is None else line[:comment.start()] + line[first:]


def _icons_by_line(lines: list[str], icons: bool) -> list[bool]:
    """One flag per line of ``lines``: whether the ``icons`` attribute is set there. It
    starts as ``icons`` (the attributes the page is given); an attribute entry of the
    page sets it (``:icons: font``, ``:icons:``) or unsets it (``:icons!:``, ``:!icons:``,
    Asciidoctor's two unset forms) from its line on, in the header (the whole page) as
    in the body (the blocks after it: Asciidoctor plays a body entry back when it
    converts the blocks that follow). Entries inside verbatim blocks and tables are text."""
    flags: list[bool] = []
    ignored: list[bool] | None = None
    for i, line in enumerate(lines):
        if line.startswith((":icons", ":!icons")) and (entry := ATTR_ENTRY.match(line)) and entry.group(2) == "icons":
            if ignored is None:
                ignored = _in_blocks(lines)
            if not ignored[i]:
                icons = not (entry.group(1) or entry.group(3))
        flags.append(icons)
    return flags


def auto_callouts(lines: list[str], *, icons: bool = False) -> list[str]:
    """``lines`` with Asciidoctor's auto-numbered callouts (``<.>``) numbered: in each
    listing or literal block from 1, and the ``<.>`` items of the callout list after
    it from 1 (see module doc). XML-comment callouts at the end of a verbatim line
    (``<!--1-->``, ``<!--.-->``: Asciidoctor's CalloutScanRx, for code whose language
    would break on ``<1>``) are read as ``<1>``/``<.>``; asciidoc-py showed them as text.
    Where the ``icons`` attribute is set (any value; Antora sets it to ``font``), the line
    comment right before a line's callouts goes with them (Asciidoctor then shows the
    callout's icon, not the comment it guards); where it is unset, the comment stays, as
    Asciidoctor shows it. ``icons``: whether the page starts with it set; the page's own
    attribute entries (``:icons: font``, ``:icons!:``, ``:!icons:``) change it from their
    line on (:func:`_icons_by_line`). Lines without callouts of these forms are returned unchanged."""
    xml = any("<!--" in line for line in lines)
    icons_at = _icons_by_line(lines, icons)
    comments = any(icons_at) and any(">" in line and _COMMENT_CALLOUT_HINT.search(line) for line in lines)
    if not xml and not comments and not any("<.>" in line for line in lines):
        return lines
    out = list(lines)
    if xml or comments:
        for verbatim in _delimited_blocks(lines):
            if verbatim.kind != "verbatim" or out[verbatim.start].startswith(("////", "++++")):
                continue
            for j in range(verbatim.start + 1, min(verbatim.end, len(out))):
                if xml and "<!--" in out[j]:
                    out[j] = _xml_callouts(out[j])
                if comments and icons_at[verbatim.start] and ">" in out[j]:
                    out[j] = _comment_callouts(out[j])
    if not any("<.>" in line for line in out):
        return out
    item = 0
    blocks = {b.start: b for b in _delimited_blocks(lines) if b.kind == "verbatim"}
    i = 0
    while i < len(out):
        block = blocks.get(i)
        if block is not None:
            n = 0
            if not out[i].startswith(("////", "++++")):
                for j in range(block.start + 1, min(block.end, len(out))):
                    if "<.>" in out[j]:
                        def number(_m: re.Match[str]) -> str:
                            nonlocal n
                            n += 1
                            return f"<{n}>"
                        out[j] = _AUTO_CALLOUT.sub(number, out[j])
            item = 0
            i = block.end + 1
            continue
        if _AUTO_CALLOUT_ITEM.match(out[i]):
            item += 1
            out[i] = f"<{item}>" + out[i][3:]
        i += 1
    return out


_XREF_BARE = re.compile(r"<<([^<>,\n]{1,200})>>")  # an id, or a title (natural xref)
_XREF_ID = re.compile(r"[\w:.#/-]+")
_ANCHOR_LINE = re.compile(r"^\[\[([\w:.-]+)(?:,\s*([^\]]+))?\]\]$")
_ATTR_ID = re.compile(r"^\[[^\]]*?(?:#([\w:.-]+)|\bid\s*=\s*[\"']?([\w:.-]+))")
_SECTION_LINE = re.compile(r"^(=+)[ \t]+(\S(?:.*\S)?)\s*$")  # greedy: linear on a run of spaces
_INLINE_MARKS = re.compile(r"[*_`#]+")
# tried from a whitespace run's first character only, its reference text holding no bracket: linear
_TITLE_ANCHOR = re.compile(r"(?<!\s)\s*\[\[([\w:.-]+)(?:,[^\][]*)?\]\]\s*$")


def _auto_id(title: str, prefix: str = "_", separator: str = "_") -> str:
    """The section id Asciidoctor generates (``Section.generate_id``) with ``idprefix``
    ``prefix`` and ``idseparator`` ``separator`` (defaults ``_`` and ``_``): the lower-case
    title without markup, entities and characters other than word characters, spaces,
    ``-`` and ``.``; runs of spaces, ``.``, ``-`` (and the separator) become one separator,
    none at the end (nor at the start with an empty prefix); an empty separator just
    drops the spaces."""
    text = re.sub(r"<[^>]*>|&\w+;", "", _INLINE_MARKS.sub("", title)).lower()
    text = prefix + re.sub(r"[^\w\s.-]", "", text)
    if not separator:
        return re.sub(r"\s", "", text)
    sep = separator[0]
    text = re.sub("[" + re.escape(" .-" + sep) + r"\s]+", lambda _m: sep, text)  # sep is text, not a template
    text = text.removesuffix(sep)
    return text[1:] if not prefix and text.startswith(sep) else text


_ATTR_REF_IN_TITLE = re.compile(r"(\\)?\{([\w][\w-]*)\}")
# an id asciidoc-py's anchor line takes (its attributelist-pattern)
_BLOCK_ID = re.compile(r"[\w:][\w:.-]*")


def section_ids(lines: list[str], attrs: dict[str, str] | None = None) -> list[str]:
    """``lines`` with an anchor line (``[[id]]``) put above each section title that has no
    id of its own: the id Asciidoctor generates (``Section.generate_id``) from the title,
    with the page's ``idprefix``/``idseparator`` (``attrs`` and the page's attribute
    entries; an Antora playbook often sets ``idprefix: ''`` and ``idseparator: '-'``), a
    taken id getting ``<separator>2``, ``<separator>3``... None where ``sectids`` is unset.
    asciidoc-py generated its own ids ("What's new" read ``_what_8217_s_new``, a title with
    markup ``_using_the_strong_enterprise_strong_jar``), and a section's anchor is the
    fragment of its address on the site."""
    if not any(line.startswith("==") for line in lines):
        return lines
    doc = dict(attrs or {})
    sectids = "sectids" not in doc or doc["sectids"] is not None
    ignored = _in_blocks(lines, verbatim_only=True)
    taken: set[str] = set()
    counts: dict[tuple[str, str], int] = {}  # a taken id's next <separator>N
    explicit = False  # an id waits for the next block or section
    out: list[str] = []
    for i, raw in enumerate(lines):
        if ignored[i]:
            explicit = False
            out.append(raw)
            continue
        line = raw.strip()
        entry = ATTR_ENTRY.match(line)
        if entry:
            if entry.group(1) or entry.group(3):
                doc.pop(entry.group(2), None)
                sectids = sectids and entry.group(2) != "sectids"
            else:
                doc[entry.group(2)] = entry.group(4) or ""
                sectids = sectids or entry.group(2) == "sectids"
            out.append(raw)
            continue
        anchor = _ANCHOR_LINE.match(line)
        attr_id = _ATTR_ID.match(line) if not anchor and _ATTR_LINE.match(line) else None
        if anchor:
            taken.add(anchor.group(1))
        elif attr_id:
            taken.add(attr_id.group(1) or attr_id.group(2))
        explicit = explicit or bool(anchor or attr_id)
        section = _SECTION_LINE.match(raw)
        if section and len(section.group(1)) > 1:
            inline = _TITLE_ANCHOR.search(section.group(2))
            if inline:
                taken.add(inline.group(1))
            elif sectids and not explicit and (i == 0 or _block_may_start_after(lines[i - 1])):
                title = _ATTR_REF_IN_TITLE.sub(
                    lambda m: m.group(0)[1:] if m.group(1) else doc.get(m.group(2), m.group(0)), section.group(2))
                separator = doc.get("idseparator", "_")
                base = _auto_id(title, doc.get("idprefix", "_"), separator)
                found, count = base, counts.get((base, separator[:1]), 2)
                while found in taken:  # the next count is remembered per base: linear in the titles
                    found, count = f"{base}{separator[:1]}{count}", count + 1
                if found != base:
                    counts[(base, separator[:1])] = count
                taken.add(found)
                if _BLOCK_ID.fullmatch(found):  # else (an idseparator such as "\\") asciidoc-py's own id stays
                    out.append(f"[[{found}]]")
            explicit = False
        elif line and not anchor and not attr_id and not _ATTR_LINE.match(line) and not _BLOCK_TITLE.match(line) \
                and not _LINE_COMMENT.match(line):
            explicit = False
        out.append(raw)
    return out


@dataclass
class _RefTarget:
    """What Asciidoctor's ``xreftext`` builds a reference's text from: the ``title``,
    an explicit ``reftext`` and the ``label`` of a numbered section or captioned
    block (``Section 2.1``, ``Figure 3``; ``""`` when it has none)."""

    title: str
    reftext: str | None = None
    label: str = ""

    def text(self, style: str) -> str:
        """The reference text under ``xrefstyle`` ``style`` (``full``, ``short``,
        ``basic``, or anything else: the title)."""
        if self.reftext:
            return self.reftext
        if not self.label or style not in ("full", "short"):
            return self.title
        return self.label if style == "short" else f"{self.label}, \u201c{self.title}\u201d"


# block kind -> (caption attribute, its default value); listing captions are off by default
_CAPTIONS = {"figure": ("figure-caption", "Figure"), "table": ("table-caption", "Table"),
             "example": ("example-caption", "Example"), "listing": ("listing-caption", None)}
_ADMONITION_STYLES = frozenset({"NOTE", "TIP", "IMPORTANT", "WARNING", "CAUTION"})
#: an attribute entry line: ``:name: value``, ``:name!:``/``:!name:`` unset (groups: !, name, !, value)
ATTR_ENTRY = re.compile(r"^:(!?)([\w][\w-]*)(!?):(?:[ \t]+(.*?))?\s*$")
_CAPTION_ATTR = re.compile(r"""\bcaption\s*=\s*(?:"([^"]*)"|'([^']*)'|([^,\]]*))""")


def _block_kind(line: str, style: str) -> str | None:
    """The captioned kind (:data:`_CAPTIONS`) of the block that opens at ``line`` with
    the block style ``style``, else ``None``."""
    if line.startswith("image::"):
        return "figure"
    if _TABLE_OPEN.match(line):
        return "table"
    if re.fullmatch(r"={4,}", line):
        return None if style.upper() in _ADMONITION_STYLES else "example"
    return None


def xref_texts(lines: list[str], attrs: dict[str, str] | None = None) -> list[str]:
    """``lines`` with each ``<<id>>`` (no text) outside verbatim blocks replaced by
    the text Asciidoctor shows for it (see module doc): the reftext, else under
    ``xrefstyle`` (``attrs`` and attribute entries of the page; Asciidoctor's
    ``xreftext``) ``short``: ``Section 2.1`` / ``Figure 3``, ``full``: ``Section 2.1,
    “Title”`` / ``Figure 3, “Title”``, ``basic`` or unset: the title. Sections carry
    a number when ``sectnums`` is set (levels 1 to ``sectnumlevels``, default 3);
    titled images, tables and examples carry their caption's number (``figure-caption``,
    ``table-caption``, ``example-caption``; listings only with ``listing-caption``)."""
    if not any("<<" in line for line in lines):
        return lines
    doc = dict(attrs or {})
    ignored = _in_blocks(lines, verbatim_only=True)
    targets: dict[str, _RefTarget] = {}
    styles: list[str] = []  # the xrefstyle in effect at each line
    pending: list[tuple[str, str | None]] = []  # (id, reftext) waiting for their title
    block_title = ""
    block_style = ""
    caption: str | None = None  # a caption= given in the block's attribute list
    counters: dict[str, int] = {}
    sections: list[int] = []

    def label_for(kind: str | None) -> str:
        if kind is None or caption == "":
            return ""
        if caption is not None:
            return caption.removesuffix(". ").strip()
        name, default = _CAPTIONS[kind]
        prefix = doc.get(name, default)
        if prefix is None:
            return ""
        counters[kind] = counters.get(kind, 0) + 1
        return f"{prefix} {counters[kind]}".strip()

    def settle(title: str, label: str) -> None:
        for found, reftext in pending:
            targets.setdefault(found, _RefTarget(_INLINE_MARKS.sub("", title), reftext, label))

    for i, raw in enumerate(lines):
        styles.append(doc.get("xrefstyle", ""))
        if ignored[i]:  # a verbatim block: its title (if any) is the title of the ids above it
            if block_title and (i == 0 or not ignored[i - 1]):
                settle(block_title, label_for("listing"))
            if i == 0 or not ignored[i - 1]:
                pending, block_title, block_style, caption = [], "", "", None
            continue
        line = raw.strip()
        if not line:  # Asciidoctor's parse_block_metadata_lines skips blank lines: metadata waits
            continue
        entry = ATTR_ENTRY.match(line)
        if entry:
            if entry.group(1) or entry.group(3):
                doc.pop(entry.group(2), None)
            else:
                doc[entry.group(2)] = entry.group(4) or ""
            continue
        anchor = _ANCHOR_LINE.match(line)
        attr_id = _ATTR_ID.match(line) if not anchor and _ATTR_LINE.match(line) else None
        if anchor:
            pending.append((anchor.group(1), anchor.group(2).strip() if anchor.group(2) else None))
            continue
        if _ATTR_LINE.match(line) and not line.startswith("[["):
            body = line[1:-1]
            first = body.split(",", 1)[0].strip()
            if first and "=" not in first:
                block_style = re.split(r"[.#%]", first, maxsplit=1)[0]
            cap = _CAPTION_ATTR.search(body)
            if cap:
                caption = next((g for g in cap.groups() if g is not None), "")
        if attr_id:
            pending.append((attr_id.group(1) or attr_id.group(2), None))
            continue
        if _BLOCK_TITLE.match(line):
            block_title = line[1:].strip()
            continue
        if _ATTR_LINE.match(line) or _LINE_COMMENT.match(line):
            continue
        section = _SECTION_LINE.match(line)
        inline_anchor = _TITLE_ANCHOR.search(section.group(2)) if section else None
        if inline_anchor and section:  # "== Title [[id]]": the anchor is the section's id
            pending.append((inline_anchor.group(1), None))
        if section and block_style not in ("discrete", "float"):
            title = _TITLE_ANCHOR.sub("", section.group(2))
            level = len(section.group(1)) - 1
            label = ""
            if level >= 1 and ("sectnums" in doc or "numbered" in doc):
                del sections[level:]
                sections += [0] * (level - len(sections))
                sections[level - 1] += 1
                levels = doc.get("sectnumlevels", "3")
                if level <= (int(levels) if levels.isdigit() else 3):
                    number = ".".join(str(n) for n in sections[:level])
                    refsig = doc.get("section-refsig", "Section")
                    label = f"{refsig} {number}".strip()
            auto = _auto_id(title, doc.get("idprefix", "_"), doc.get("idseparator", "_"))
            targets.setdefault(auto, _RefTarget(_INLINE_MARKS.sub("", title), None, label))
            settle(title, label)
        elif section:
            settle(_TITLE_ANCHOR.sub("", section.group(2)), "")
        elif block_title:
            settle(block_title, label_for(_block_kind(line, block_style)))
        pending, block_title, block_style, caption = [], "", "", None

    by_title: dict[str, _RefTarget] = {}
    for target in targets.values():
        by_title.setdefault(target.title, target)

    def text(m: re.Match[str], style: str) -> str:
        ref = m.group(1)
        if _XREF_ID.fullmatch(ref):
            ref = ref.split("#")[-1]
            target = targets.get(ref)
            return target.text(style) if target else re.sub(r"[-_]+", " ", ref).strip()
        # a natural cross reference (a space or a capital in it): a section title
        # or block title; one found nowhere stays as written (asciidoc-py's "[ref]")
        target = by_title.get(ref.strip()) if ref.lower() != ref or " " in ref else None
        return target.text(style) if target else m.group(0)

    out = list(lines)
    for i, line in enumerate(lines):
        if not ignored[i] and "<<" in line:
            style = styles[i]
            out[i] = _XREF_BARE.sub(lambda m: text(m, style), line)  # noqa: B023 - used at once
    return out

_LEVEL5_TITLE = re.compile(r"^======[ \t]+(\S.*?)\s*$")


def level5_titles(lines: list[str]) -> list[str]:
    """``lines`` with each level-5 section title (``====== Title``, outside verbatim
    blocks, at the start of a block) written as the ``<h6>`` Asciidoctor renders for it,
    in a passthrough block. Asciidoctor has section levels 0 to 5; asciidoc-py stops at
    4 and read the title as a paragraph, ``====== Title`` showing in the text."""
    ignored = _in_blocks(lines)
    out: list[str] = []
    for i, line in enumerate(lines):
        m = _LEVEL5_TITLE.match(line) if not ignored[i] else None
        if m is None or not _block_may_start_after(lines[i - 1] if i else ""):
            out.append(line)
            continue
        title = _TITLE_ANCHOR.sub("", m.group(1))
        text = html_escape(_INLINE_MARKS.sub("", title), quote=False)
        above = lines[i - 1].strip() if i else ""
        anchor = _ANCHOR_LINE.match(above)  # the id given above the title, else the generated one
        attr = _ATTR_ID.match(above) if not anchor and _ATTR_LINE.match(above) else None
        ident = anchor.group(1) if anchor else (attr.group(1) or attr.group(2)) if attr else _auto_id(title)
        out += ["++++", f'<h6 id="{html_escape(ident)}">{text}</h6>', "++++"]
    return out


_NAMED_ENTRY = re.compile(r"\s*([A-Za-z_][\w-]*)\s*=\s*(.*?)\s*")
_PLAIN_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def _split_attribute_list(body: str) -> list[str] | None:
    """The entries of an attribute list ``body`` split at commas outside quotes,
    else ``None`` when a quote never closes."""
    entries: list[str] = []
    start, quote, last = 0, "", ""  # last: the entry's last non-space character so far
    for i, ch in enumerate(body):
        if quote:
            if ch == quote and body[i - 1] != "\\":
                quote = ""
        elif ch in "\"'" and last == "=":
            quote = ch
        elif ch == ",":
            entries.append(body[start:i])
            start, last = i + 1, ""
            continue
        if not ch.isspace():
            last = ch
    if quote:
        return None
    entries.append(body[start:])
    return entries


def quoted_attribute_values(lines: list[str]) -> list[str]:
    """``lines`` with the unquoted values of a block attribute line made only of named
    attributes quoted (``[id=setup_{context}]`` -> ``[id="setup_guide"]``), outside
    verbatim blocks. Asciidoctor's AttributeList reads an unquoted value to the next
    comma; asciidoc-py evaluates the list as Python keyword arguments, so one unquoted
    word made it read the whole line as one positional attribute: ``[id=x]`` over a
    section title lost the section ("missing section") and ``options=header`` was not
    an option."""
    ignored = _in_blocks(lines, verbatim_only=True, delimiters=False)
    out = list(lines)
    for i, raw in enumerate(lines):
        line = raw.rstrip()
        if ignored[i] or "=" not in line or not _ATTR_LINE.match(line) or line.startswith("[["):
            continue
        entries = _split_attribute_list(line[1:-1])
        if not entries:
            continue
        named = [_NAMED_ENTRY.fullmatch(entry) for entry in entries]
        if not all(named):
            continue
        changed = False
        parts: list[str] = []
        for m in named:
            assert m is not None
            name, value = m.group(1), m.group(2)
            if value[:1] not in ("\"", "'") and value and '"' not in value and not _PLAIN_NUMBER.fullmatch(value):
                value, changed = f'"{value}"', True
            parts.append(f"{name}={value}")
        if changed:
            out[i] = "[" + ",".join(parts) + "]"
    return out


_SETEXT_LEVELS = {"=": 0, "-": 1, "~": 2, "^": 3, "+": 4}
_SETEXT_TITLE = re.compile(r"^(?!\.)[^\n]*?[^\W_][^\n]*$")
_ATTR_ENTRY_LINE = re.compile(r"^:!?[\w][\w-]*!?:")
_DIRECTIVE_LINE = re.compile(r"^(?:include|ifdef|ifndef|ifeval|endif)::")


def _setext_level(title: str, underline: str) -> int | None:
    """The section level of the two-line title ``title`` over ``underline``, as
    Asciidoctor's ``is_two_line_section_title?`` decides it (the underline one of
    ``=-~^+`` repeated, its length within one of the title's, the title not starting
    with ``.`` and holding a letter or digit), else ``None``. An underline of one
    character is never one here (a ``+`` continuation under a one-letter line)."""
    title, underline = title.rstrip(), underline.rstrip()
    level = _SETEXT_LEVELS.get(underline[:1])
    if level is None or len(underline) < 2 or underline != underline[0] * len(underline):
        return None
    if abs(len(title) - len(underline)) >= 2 or not _SETEXT_TITLE.match(title) or title[:1].isspace():
        return None
    return level


def _block_may_start_after(line: str) -> bool:
    """Whether a block (or section) may start on the line after ``line``: a blank
    line, a block attribute line or anchor, a block title, a line comment, an
    attribute entry or a preprocessor directive is before it."""
    line = line.strip()
    return (not line or bool(_ATTR_LINE.match(line)) or bool(_BLOCK_TITLE.match(line))
            or bool(_LINE_COMMENT.match(line)) or bool(_ATTR_ENTRY_LINE.match(line))
            or bool(_DIRECTIVE_LINE.match(line)))


def setext_titles(lines: list[str]) -> list[str]:
    """``lines`` with each two-line section title Asciidoctor reads written as a
    one-line title (``Install`` over ``-------`` is ``== Install``). Only where a
    block may start (:func:`_block_may_start_after`), outside verbatim blocks,
    fences and tables (their delimiters are never titles: a title holds a letter
    or digit). Lines without any underline character come back unchanged."""
    out: list[str] = []
    closer: str | None = None  # the delimiter closing the open verbatim block or table
    prev = ""
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.rstrip()
        if closer is not None:
            if stripped == closer:
                closer = None
            out.append(line)
            prev = line
            i += 1
            continue
        # a line Asciidoctor reads as block metadata (attribute list, anchor, comment, attribute
        # entry) or a directive is never a title: "[TIP]" over "====" opens an example block
        if i + 1 < len(lines) and _block_may_start_after(prev) and not _block_may_start_after(stripped):
            level = _setext_level(stripped, lines[i + 1])
            if level is not None:
                out.append("=" * (level + 1) + " " + stripped.strip())
                prev = out[-1]
                i += 2
                continue
        verbatim = _VERBATIM_OPEN.match(stripped)
        if verbatim and (verbatim.group(1) == "```" or stripped == verbatim.group(1)):
            closer = verbatim.group(1)
        elif _TABLE_OPEN.match(stripped):
            closer = stripped
        out.append(line)
        prev = line
        i += 1
    return out
