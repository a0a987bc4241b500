"""HTML tables to JSON rows and GitHub-flavoured Markdown.

MuRAR (seed 000, section 2.3) represents a table by its content as JSON rows
plus its context. This module turns an HTML ``<table>`` into ``headers`` and
``rows`` of plain-text cells with ``colspan``/``rowspan`` expanded (a spanning
cell's text is repeated in every grid slot it covers), and renders rows back as
a GFM pipe table.

Used by the HTML converter and by the Markdown converter for raw HTML tables.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from selectolax.lexbor import LexborHTMLParser, LexborNode

__all__ = [
    "ParsedTable",
    "cell_text",
    "parse_html_table",
    "parse_table_node",
    "rows_to_markdown",
]

# HTML limits (WHATWG "forming a table"): colspan 1..1000, rowspan 0..65534.
_MAX_COLSPAN = 1000
_MAX_ROWSPAN = 65534
# Guard against absurd grids from hostile markup (cells, not bytes).
_MAX_CELLS = 200_000

_SKIP_TAGS = frozenset({"script", "style", "noscript", "template", "-comment"})
_BREAK_TAGS = frozenset({
    "br", "p", "div", "li", "ul", "ol", "dl", "dt", "dd", "tr", "td", "th", "table",
    "h1", "h2", "h3", "h4", "h5", "h6", "pre", "blockquote", "section", "article",
    "figure", "figcaption", "hr", "caption", "thead", "tbody", "tfoot", "img",
})
_WS = re.compile(r"\s+")


@dataclass(slots=True)
class ParsedTable:
    """A table as plain-text cells.

    ``headers`` holds one string per column (empty list when the table has no
    header row); multi-row headers are merged per column as ``"Group / Sub"``.
    ``rows`` are the body rows, each padded to the table width. ``caption`` is
    the ``<caption>`` text ("" when absent).
    """

    headers: list[str] = field(default_factory=list)
    rows: list[list[str]] = field(default_factory=list)
    caption: str = ""


def cell_text(node: LexborNode) -> str:
    """Plain text of ``node`` on one line.

    Script/style/noscript/template content is dropped; block elements and
    ``<br>`` become word breaks, inline elements do not (``<b>4</b>2`` -> ``42``);
    whitespace is collapsed. ``<img>`` contributes its alt text.
    """
    parts: list[str] = []
    _collect_text(node, parts)
    return _WS.sub(" ", "".join(parts)).strip()


_ASCII_WS = re.compile(r"[ \t\r\n\f]+")


def inline_text(node: LexborNode) -> str:
    """Plain text of ``node`` as :func:`cell_text` reads it (inline elements join
    without a space, blocks and ``<br>`` break words), with only ASCII whitespace
    collapsed: a no-break space stays as written."""
    parts: list[str] = []
    _collect_text(node, parts)
    return _ASCII_WS.sub(" ", "".join(parts)).strip(" ")


def _collect_text(node: LexborNode, parts: list[str]) -> None:
    # an explicit stack, not recursion: hostile pages nest thousands of elements
    stack: list[LexborNode | str] = list(node.iter(include_text=True))
    stack.reverse()
    while stack:
        child = stack.pop()
        if isinstance(child, str):
            parts.append(child)
            continue
        tag = child.tag or ""
        if child.is_text_node:
            parts.append(child.text_content or "")
            continue
        if tag in _SKIP_TAGS or tag.startswith("-"):
            continue
        if tag == "img":
            alt = (child.attributes.get("alt") or "").strip()
            if alt:
                parts.append(f" {alt} ")
            continue
        breaks = tag in _BREAK_TAGS
        if breaks:
            stack.append(" ")
        kids = list(child.iter(include_text=True))
        kids.reverse()
        stack.extend(kids)
        if breaks:
            parts.append(" ")


def _span(value: str | None, default: int, upper: int) -> int:
    if value is None:
        return default
    m = re.match(r"\s*(\d+)", value)
    if not m:
        return default
    n = int(m.group(1))
    return min(n, upper)


def _row_groups(table: LexborNode) -> list[tuple[str, list[LexborNode]]]:
    """Direct row groups of ``table``: (group tag, its ``<tr>`` children).

    Rows of nested tables are never included. Loose ``<tr>`` children of the
    table form an implicit ``tbody`` group.
    """
    groups: list[tuple[str, list[LexborNode]]] = []
    loose: list[LexborNode] = []
    for child in table.iter():
        tag = child.tag
        if tag in ("thead", "tbody", "tfoot"):
            if loose:
                groups.append(("tbody", loose))
                loose = []
            groups.append((tag, [tr for tr in child.iter() if tr.tag == "tr"]))
        elif tag == "tr":
            loose.append(child)
    if loose:
        groups.append(("tbody", loose))
    # HTML renders <tfoot> last regardless of source order.
    return [g for g in groups if g[0] != "tfoot"] + [g for g in groups if g[0] == "tfoot"]


def _expand(rows: list[list[tuple[str, int, int, bool]]]) -> tuple[list[list[str]], list[bool]]:
    """Expand spans of one row group into a grid.

    ``rows`` holds per ``<tr>`` the cells as (text, colspan, rowspan, is_th);
    rowspan 0 means "to the end of the group". Returns the grid (ragged; the
    caller pads) and, per grid row, whether every cell is a ``<th>``.
    """
    n = len(rows)
    grid: list[dict[int, str]] = [{} for _ in range(n)]
    all_th = [True] * n
    has_cell = [False] * n
    for r, cells in enumerate(rows):
        col = 0
        for text, colspan, rowspan, is_th in cells:
            while col in grid[r]:
                col += 1
            span_rows = n - r if rowspan == 0 else min(rowspan, n - r)
            for dr in range(span_rows):
                for dc in range(colspan):
                    grid[r + dr].setdefault(col + dc, text)
                    has_cell[r + dr] = True
                    if not is_th:
                        all_th[r + dr] = False
            col += colspan
    out: list[list[str]] = []
    for row in grid:
        width = max(row) + 1 if row else 0
        out.append([row.get(c, "") for c in range(width)])
    return out, [a and h for a, h in zip(all_th, has_cell, strict=True)]


def parse_table_node(table: LexborNode) -> ParsedTable:
    """Parse a ``<table>`` element already in a lexbor tree.

    Header rows are the ``<thead>`` rows, else the leading rows made only of
    ``<th>`` cells. Rows whose cells are all empty are dropped. Cells of nested
    tables are flattened into the text of their outer cell.
    """
    caption_node = next((c for c in table.iter() if c.tag == "caption"), None)
    caption = cell_text(caption_node) if caption_node is not None else ""
    header_rows: list[list[str]] = []
    body_rows: list[list[str]] = []
    budget = _MAX_CELLS
    for group, trs in _row_groups(table):
        raw: list[list[tuple[str, int, int, bool]]] = []
        for r, tr in enumerate(trs):
            cells = []
            rows_left = len(trs) - r
            for cell in tr.iter():
                if cell.tag not in ("td", "th"):
                    continue
                attrs = cell.attributes
                colspan = max(1, _span(attrs.get("colspan"), 1, _MAX_COLSPAN))
                rowspan = _span(attrs.get("rowspan"), 1, _MAX_ROWSPAN)
                budget -= colspan * (rows_left if rowspan == 0 else min(rowspan, rows_left))
                if budget < 0:
                    break
                cells.append((cell_text(cell), colspan, rowspan, cell.tag == "th"))
            raw.append(cells)
        grid, th_rows = _expand(raw)
        for i, row in enumerate(grid):
            if not any(c.strip() for c in row):
                continue
            is_header = group == "thead" or (th_rows[i] and not body_rows)
            (header_rows if is_header else body_rows).append(row)
    width = max((len(r) for r in header_rows + body_rows), default=0)
    body = [r + [""] * (width - len(r)) for r in body_rows]
    headers = _merge_header_rows([r + [""] * (width - len(r)) for r in header_rows], width)
    return ParsedTable(headers=headers, rows=body, caption=caption)


def _merge_header_rows(rows: list[list[str]], width: int) -> list[str]:
    if not rows:
        return []
    merged = []
    for c in range(width):
        seen: list[str] = []
        for row in rows:
            if row[c] and row[c] not in seen:
                seen.append(row[c])
        merged.append(" / ".join(seen))
    return merged


def parse_html_table(html: str) -> tuple[list[str], list[list[str]]]:
    """Parse the first ``<table>`` in ``html`` into ``(headers, rows)``.

    ``headers`` has one plain-text string per column (``[]`` when the table has
    no header row); ``rows`` is a list of rows, each a list of ``len(headers)``
    (or table-width) cell strings, with ``colspan``/``rowspan`` expanded.
    Returns ``([], [])`` when ``html`` holds no table. Never raises on
    malformed markup (the HTML5 parser repairs it).
    """
    tree = LexborHTMLParser(html)
    table = tree.css_first("table")
    if table is None:
        return [], []
    parsed = parse_table_node(table)
    return parsed.headers, parsed.rows


def _md_cell(text: str) -> str:
    text = _WS.sub(" ", text).strip()
    return text.replace("\\", "\\\\").replace("|", "\\|")


def rows_to_markdown(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """Render a GitHub-flavoured Markdown pipe table.

    Pipes and backslashes in cells are escaped, newlines become spaces, rows are
    padded to the widest row. When ``headers`` is empty a header row of empty
    cells is emitted (GFM requires one). Returns "" for an empty table.
    """
    width = max([len(headers), *(len(r) for r in rows)], default=0)
    if width == 0:
        return ""

    def line(cells: Sequence[str]) -> str:
        padded = [_md_cell(c) for c in cells] + [""] * (width - len(cells))
        return "| " + " | ".join(padded) + " |"

    out = [line(list(headers)), "| " + " | ".join(["---"] * width) + " |"]
    out.extend(line(list(r)) for r in rows)
    return "\n".join(out)
