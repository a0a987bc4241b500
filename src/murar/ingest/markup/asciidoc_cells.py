"""AsciiDoc table cells (``a|``, or a column specifier with ``a``) as plain text.

Asciidoctor reads such a cell as a nested document ("Format Content by Cell", the
``a`` operator, https://docs.asciidoctor.org/asciidoc/latest/tables/format-cell-content/):
lists, delimited blocks, admonitions, block attributes and comments are blocks
there, as on the page. asciidoc-py renders the cell by running ``asciidoc`` as a
command, which murar never does, so the cell's lines are reduced to text here,
line by line, into what Asciidoctor shows:

- an inline formula (``latexmath:[...]``, ``asciimath:[...]``) reads as on the page,
  ``$...$`` or a monospace span;
- list markers become a dash; emphasis and monospace marks, hard line breaks
  (a line ending in `` +``) and the ``link:``/``xref:``/``kbd:``...
  macros are reduced to their text; block and inline images stay images (an
  ``<img>`` the Site resolves), a block title right above a block image being its
  caption;
- block attribute lines (``[source,yaml]``, ``[[id]]``, ``[#id.role]``), line
  comments and comment blocks (``////``), list continuations (``+``), attribute
  entries (``:name: value``) and the delimiter lines of blocks (``----``, ``....``,
  ``====``, ``****``, ``____``, ``--``, ``++++``, fences, a nested ``!===`` table
  and its ``!`` cell separators) are markup, not text;
- the lines of a listing or literal block are its text as written (no list or
  emphasis reading), their callouts (``<1>``, ``<.>``, numbered in order) shown as
  ``(1)``, as are the items of the callout list (``<1> Text``);
- an admonition (``NOTE: text`` or a ``[NOTE]`` block) reads ``Note: text``;
- the document's attributes are substituted (the cell inherits them), inline
  anchors (``[[id]]``) are not text, and a description list item
  (``term:: text``) reads as its term and text.

Every line returned is HTML-escaped text (the images excepted).
"""

from __future__ import annotations

import re
from html import escape as html_escape

__all__ = ["cell_lines"]

# (bounded, possessive runs: each macro name, '[[' or 'image:' of a line scanned to its end and back, a
# 200 KB cell line of them took 27-129 s)
_INLINE_MACRO = re.compile(r"\b(?:link|xref|mailto|https?|kbd|btn|menu)(?::|://)[^\[\s]{0,1000}+\[([^\]]{0,1000}+)\]")
# an inline formula (the page's stem:[] is already its latexmath:[]/asciimath:[] macro): shown as the
# page shows one, $...$ (LaTeX) or `...` (AsciiMath); it kept its macro name ('latexmath:[\frac{1}{2}]')
_MATH = re.compile(r"\b(latexmath|asciimath|stem):\[([^\]]{0,2000}+)\]")
_MONOSPACE = re.compile(r"(?<![\w`])`(?:\+([^`\n]+?)\+|([^`\n]+?))`(?![\w`])")
_INLINE_ANCHOR = re.compile(r"\[\[[\w:.-]{1,500}+(?:,[^\]\n]{0,500}+)?\]\]")
# a description list item (Asciidoctor DescriptionListRx): the term, its delimiter, the text after it
_DLIST_ITEM = re.compile(r"^([^\s].{0,2000}?)[ \t]?(::::|:::|::|;;)(?:[ \t]+(.*))?$")
_ATTR_REF = re.compile(r"(\\?)\{([\w][\w-]*)\}")
_HARD_BREAK = re.compile(r"[ \t]\+$")
_EMPHASIS = re.compile(r"(?<![\w*_`])[*_`#]{1,2}([^*_`#\n]+?)[*_`#]{1,2}(?![\w*_`])")
_CELL_IMAGE = re.compile(r"\bimage::?([^\s\[\]]{1,1000}+)\[([^\]]{0,1000}+)\]")
_BLOCK_TITLE = re.compile(r"^\.([^\s.].*)$")
_VERBATIM = re.compile(r"^(-{4,}|\.{4,}|\+{4,}|`{3}[^`]*)$")
_COMPOUND = re.compile(r"^(={4,}|\*{4,}|_{4,}|--)$")
_NESTED_TABLE = re.compile(r"^!={3,}$")
_NESTED_CELL = re.compile(r"(?:^|(?<=\s))(?:\d*[*+]?[<^>]?(?:\.[<^>])?[a-z]?)!")
_COMMENT_BLOCK = re.compile(r"^/{4,}$")
_LINE_COMMENT = re.compile(r"^//(?!/)")
_ATTR_LINE = re.compile(r"^\[(?P<body>|[\w.#%{,\"'][^\]\[]*|\[[^\]]*\])\]$")  # Asciidoctor BlockAttributeListRx
_ATTR_ENTRY = re.compile(r"^:!?[\w][\w-]*!?:(?:[ \t].*)?$")
_ADMONITIONS = ("NOTE", "TIP", "IMPORTANT", "WARNING", "CAUTION")
_ADMONITION_PARA = re.compile(r"^(NOTE|TIP|IMPORTANT|WARNING|CAUTION):[ \t]+(.*)$")
_CALLOUT = re.compile(r"<(\d+|\.)>")
_CALLOUT_TAIL = re.compile(r"(?:[ \t]*(?:(?://|#|--|;;?|%)[ \t]*)?<(?:\d+|\.)>)+[ \t]*$")
_MAX_LINE_CHARS = 100_000  # a text line after its attribute references are replaced
_TAIL_CHARS = 400  # a line's callouts are looked for in its last characters only (linear on long lines)
_CALLOUT_ITEM = re.compile(r"^<(\d+|\.)>[ \t]+(.*)$")


def cell_lines(lines: list[str], attrs: dict[str, str] | None = None) -> list[str]:
    """The lines of an AsciiDoc table cell as the text Asciidoctor shows (see the
    module doc), each HTML-escaped; an image is an ``<img>`` tag. ``lines`` are the
    cell's source lines (a line holding ``\\n`` counts as several); ``attrs`` the
    document's attributes, which the cell inherits (its text lines' ``{name}``
    references are replaced; an unknown one stays as written). Linear in the cell's
    size; never raises."""
    values = attrs or {}
    out: list[str] = []
    title = ""
    label = ""  # a [NOTE] style waiting for the paragraph or block it labels
    verbatim: str | None = None  # the delimiter of the listing/literal block the lines are in
    comment: str | None = None
    callout = 0
    item = 0
    nested = False  # inside a nested table (!===), whose cells are separated by "!"
    for raw in (part for line in lines for part in str(line).split("\n")):
        line = raw.rstrip()
        stripped = line.strip()
        if verbatim is None and comment is None and _NESTED_TABLE.match(stripped):
            nested = not nested
            continue
        if nested and verbatim is None and comment is None:
            line = _NESTED_CELL.sub("", line)
            stripped = line.strip()
        if comment is not None:
            if stripped == comment:
                comment = None
            continue
        if verbatim is not None:
            if stripped == verbatim or (verbatim.startswith("```") and stripped == "```"):
                verbatim = None
                continue

            cut = max(len(line) - _TAIL_CHARS, 0)
            tail = _CALLOUT_TAIL.search(line, cut) if line.endswith(">") else None
            if tail:
                marks: list[str] = []
                for c in _CALLOUT.finditer(tail.group(0)):
                    callout = callout + 1 if c.group(1) == "." else int(c.group(1))
                    marks.append(f"({callout})")
                line = line[:tail.start()] + " " + " ".join(marks)
            out.append(html_escape(line, quote=False))
            continue
        if _COMMENT_BLOCK.match(stripped):
            comment = stripped
            continue
        m = _VERBATIM.match(stripped)
        if m:
            verbatim = "```" if stripped.startswith("```") else stripped
            callout = item = 0
            title = ""
            continue
        if (_COMPOUND.match(stripped) or stripped == "+" or _LINE_COMMENT.match(stripped)
                or _ATTR_ENTRY.match(stripped)):
            continue
        attr = _ATTR_LINE.match(stripped)
        if attr:
            style = attr.group("body").split(",", 1)[0].strip()
            if style in _ADMONITIONS:
                label = style.capitalize() + ": "
            continue
        m = _BLOCK_TITLE.match(stripped)
        if m and not stripped.startswith(".."):
            title = m.group(1).strip()
            continue
        if not stripped:
            out.append("")
            continue
        if "{" in line:
            line = _substitute(line, values)
            stripped = line.strip()
        if "[[" in line:
            line = _INLINE_ANCHOR.sub("", line)
            stripped = line.strip()
        if "::" in line or ";;" in line:
            item_m = _DLIST_ITEM.match(stripped)
            if item_m and not stripped.startswith(("image::", "video::", "audio::", "include::", "toc::")):
                line = " ".join(p for p in (item_m.group(1), item_m.group(3) or "") if p)
                stripped = line.strip()
        adm = _ADMONITION_PARA.match(stripped)
        if adm:
            line = f"{adm.group(1).capitalize()}: {adm.group(2)}"
        co = _CALLOUT_ITEM.match(stripped)
        if co:
            item = item + 1 if co.group(1) == "." else int(co.group(1))
            out.append(html_escape(f"({item}) ", quote=False) + _plain_line(co.group(2)))
            continue
        if title:
            if stripped.startswith("image::"):
                out.append(_plain_line(line, title))
                title = ""
                continue
            out.append(html_escape(title, quote=False))  # not a figure title: it stays text
            title = ""
        if label:
            line, label = label + line.lstrip(), ""
        out.append(_plain_line(line))
    if title:
        out.append(html_escape(title, quote=False))
    return out


def _substitute(line: str, values: dict[str, str]) -> str:
    """``line`` with its ``{name}`` references to ``values`` replaced (``\\{name}`` is the
    reference as written, an unknown name stays), cut at :data:`_MAX_LINE_CHARS`
    characters without building more (a line of many references to a long value)."""
    parts: list[str] = []
    size = pos = 0
    for m in _ATTR_REF.finditer(line):
        value = m.group(0)[1:] if m.group(1) else values.get(m.group(2), m.group(0))
        parts += [line[pos:m.start()], value]
        size += m.start() - pos + len(value)
        pos = m.end()
        if size > _MAX_LINE_CHARS:
            return "".join(parts)[:_MAX_LINE_CHARS]
    parts.append(line[pos:])
    return "".join(parts)[:_MAX_LINE_CHARS]


def _plain_line(line: str, caption: str = "") -> str:
    """A text line of a cell as escaped plain text: list markers become a dash,
    emphasis marks and macros are reduced to their text. Block and inline images
    (``image::shot.png[Alt]``, ``image:icon.png[]``) stay images: an ``<img>`` built
    here from the target and alt (escaped), which the Site resolves; ``caption`` is
    the title of a block image."""
    parts: list[str] = []
    last = 0
    for m in _CELL_IMAGE.finditer(line):
        parts.append(_plain_text(line[last:m.start()]))
        alt = m.group(2).split(",", 1)[0].strip().strip('"')
        alt = "" if "=" in alt else alt
        title = f' title="{html_escape(caption)}"' if caption else ""
        parts.append(f'<img src="{html_escape(m.group(1))}" alt="{html_escape(alt)}"{title}>')
        last = m.end()
    parts.append(_plain_text(line[last:]))
    return "".join(parts)


def _plain_text(line: str) -> str:
    if ":[" in line and _MATH.search(line):  # a formula is not read for emphasis or macros
        parts: list[str] = []
        last = 0
        for m in _MATH.finditer(line):
            parts.append(_plain_text(line[last:m.start()]))
            mark = "$" if m.group(1) in ("latexmath", "stem") else "`"
            parts.append(html_escape(f"{mark}{m.group(2)}{mark}", quote=False))
            last = m.end()
        parts.append(_plain_text(line[last:]))
        return "".join(parts)
    line = re.sub(r"^\s*([*.\-]+)\s+", "- ", line)
    line = _HARD_BREAK.sub("", line)
    line = _INLINE_MACRO.sub(lambda m: m.group(1), line)
    line = _MONOSPACE.sub(lambda m: m.group(1) if m.group(1) is not None else m.group(2), line)
    line = _EMPHASIS.sub(lambda m: m.group(1), line)
    return html_escape(line, quote=False)
