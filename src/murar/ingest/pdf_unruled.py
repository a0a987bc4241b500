"""Unruled tables without a caption: where they are on a PDF page.

pdfplumber's ``page.find_tables()`` builds cells from ruling lines (its default
``"lines"`` strategy), and :mod:`murar.ingest.pdf` looks for a borderless
(booktabs) table only next to a "Table N" caption. A table with neither — an
aligned grid of short cells such as a data sheet's value table or a table
whose caption style is not recognised — would otherwise be read as body text,
its cells interleaved into the paragraphs.

This module finds such tables from word positions alone, with the idea behind
pdfplumber's ``"text"`` table strategy (pdfplumber README, "Extracting tables"
→ "Table-extraction strategies": the ``"text"`` strategy deduces the imaginary
lines that connect words aligned in columns). A row is split into cells at
gaps wider than ~0.8 em (prose word spacing stays below ~0.5 em). A candidate
is a block of consecutive rows (at most ~2 em apart; whole page rows first, a
wide table can fake a two-column gutter, then each page column's pieces)
grown while every split of every row falls on a vertical white-space gutter
shared by the block; >= 3 columns over >= 3 rows. Short one-cell rows inside
or touching the block (wrapped header or cell lines) join when they fit
between the gutters. The block is then accepted only when its cells look like
table cells, not like prose set in columns:

* no column's median cell has more than 6 words (prose, or a text column
  next to a table in a two-column page);
* at least two columns hold mostly numbers (values, money, percentages,
  dates), one of them not just counting up (row or page numbers) — or every
  cell is short (<= 3 words) in a block of >= 4 columns and >= 4 rows;
* no row is in a monospaced font (code listings align too);
* it is not a table of contents (dot leaders ending in page numbers).

The caller (:mod:`murar.ingest.pdf`) extracts the cells of each region with
pdfplumber (explicit vertical lines at the gutters found here, ``"text"``
horizontal strategy) and removes the region's lines from the running text.

Coordinates are PDF points, top-left origin, as pdfplumber gives them.
"""

from __future__ import annotations

import itertools
import re
import statistics
from dataclasses import dataclass
from typing import Any

__all__ = ["UnruledTable", "find_unruled_tables", "is_numeric_cell", "merge_wrapped_rows", "split_at_gutter"]

Bbox = tuple[float, float, float, float]  # x0, top, x1, bottom
Word = dict[str, Any]  # a pdfplumber word with "fontname" and "size"

_MONO_RE = re.compile(r"mono|courier|consol|menlo|typewriter|cmtt|code", re.IGNORECASE)
_LEADER_RE = re.compile(r"(?:\.\s?){4,}")
_NUMERIC_RE = re.compile(
    r"^[\s$€£¥(+\-–−~<>≈±*]*(?:\d[\d.,:/\s]*|\.\d+)(?:[eE][-+]?\d+)?\s*[%)*]?\.?$|^[-–—]$|^n/?a$",
    re.IGNORECASE,
)
_PAGE_NO_RE = re.compile(r"^(?:\d{1,4}|[ivxlc]{1,6})$", re.IGNORECASE)

MIN_ROWS = 3
MIN_COLUMNS = 3


@dataclass(frozen=True, slots=True)
class UnruledTable:
    """One detected table region.

    ``bbox`` encloses every word of the table; ``separators`` are the x
    positions (points) of the column boundaries, left edge, gutter centres and
    right edge, ascending, so ``len(separators) - 1`` is the column count.
    """

    bbox: Bbox
    separators: tuple[float, ...]


@dataclass(slots=True)
class _Row:
    cells: list[tuple[float, float, str]]  # x0, x1, text
    top: float
    bottom: float
    size: float
    mono: bool


def _split_cells(words: list[Word]) -> _Row:
    """Join a row's words into cells: a gap wider than ~0.8 em starts a new cell."""
    ws = sorted(words, key=lambda w: w["x0"])
    size = statistics.median(float(w.get("size") or 10.0) for w in ws)
    cells: list[tuple[float, float, str]] = []
    x0, x1, parts = ws[0]["x0"], ws[0]["x1"], [ws[0]["text"]]
    for w in ws[1:]:
        if w["x0"] - x1 > max(3.0, 0.8 * size):
            cells.append((x0, x1, " ".join(parts)))
            x0, parts = w["x0"], []
        parts.append(w["text"])
        x1 = max(x1, w["x1"])
    cells.append((x0, x1, " ".join(parts)))
    mono = sum(1 for w in ws if _MONO_RE.search(str(w.get("fontname", "")))) > 0.5 * len(ws)
    return _Row(cells, min(w["top"] for w in ws), max(w["bottom"] for w in ws), size, mono)


def _inside(box: Bbox, skip: list[Bbox]) -> bool:
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return any(s[0] - 2 <= cx <= s[2] + 2 and s[1] - 2 <= cy <= s[3] + 2 for s in skip)


def _gutters(rows: list[_Row]) -> list[tuple[float, float]]:
    """Interior x-intervals that no cell of ``rows`` covers, left to right."""
    spans = sorted((c[0], c[1]) for r in rows for c in r.cells)
    out: list[tuple[float, float]] = []
    reach = spans[0][1]
    for a, b in spans[1:]:
        if a > reach + 1.0:
            out.append((reach, a))
        reach = max(reach, b)
    return out


def is_numeric_cell(text: str) -> bool:
    """A number, amount, percentage or date (dot leaders ignored), or a dash / n/a."""
    text = _LEADER_RE.sub(" ", text).strip()
    return bool(text) and bool(_NUMERIC_RE.match(text))


def _column_of(cell: tuple[float, float, str], seps: tuple[float, ...]) -> int:
    cx = (cell[0] + cell[1]) / 2
    for i in range(len(seps) - 1):
        if cx < seps[i + 1]:
            return i
    return len(seps) - 2


def _grid(rows: list[_Row], seps: tuple[float, ...]) -> list[list[str]]:
    grid: list[list[str]] = [["" for _ in range(len(seps) - 1)] for _ in rows]
    for ri, r in enumerate(rows):
        for c in r.cells:
            k = _column_of(c, seps)
            grid[ri][k] = f"{grid[ri][k]} {c[2]}".strip()
    return grid


def _n_words(text: str) -> int:
    """Words with at least two letters (numbers, symbols and leaders do not count)."""
    return sum(1 for t in text.split() if sum(ch.isalpha() for ch in t) >= 2)


def _counts_up(cells: list[str]) -> bool:
    """Small whole numbers in ascending order: row numbers or page numbers, not values."""
    try:
        nums = [int(_LEADER_RE.sub("", t).strip().rstrip(".")) for t in cells]
    except ValueError:
        return False
    return all(a < b for a, b in itertools.pairwise(nums))


def _accept(block: list[_Row], rows: list[_Row], seps: tuple[float, ...]) -> bool:
    """Cells look like a table's, not like prose, code or a table of contents.

    ``block`` are the rows split into cells, ``rows`` the block plus the
    one-cell rows that join it (wrapped header or cell text).
    """
    n_cols = len(seps) - 1
    if any(r.mono for r in rows):
        return False
    grid = _grid(rows, seps)
    cells = [t for row in grid for t in row if t]
    # table of contents: dot leaders, last column page numbers
    last = [row[-1] for row in grid if row[-1]]
    if (sum(1 for t in cells if _LEADER_RE.search(t)) >= len(rows) / 2
            and last and all(_PAGE_NO_RE.match(t) for t in last)):
        return False
    # prose set in columns (or a text column beside a table): long cells
    for k in range(n_cols):
        col = [row[k] for row in grid if row[k]]
        if col and statistics.median(_n_words(t) for t in col) > 6:
            return False
    body = _grid(block, seps)[1:]  # the first row is usually the header
    numeric_cols = value_cols = 0
    for k in range(n_cols):
        nums = [row[k] for row in body if is_numeric_cell(row[k])]
        filled = [row[k] for row in body if row[k]]
        if len(nums) >= max(2.0, 0.6 * len(body)) and len(nums) >= 0.7 * len(filled):
            numeric_cols += 1
            value_cols += not _counts_up(nums)
    if numeric_cols >= 2 and value_cols >= 1:
        return True
    short = all(_n_words(t) <= 3 for t in cells)
    return short and n_cols >= 4 and len(block) >= 4


def _fits(r: _Row, gutters: list[tuple[float, float]]) -> bool:
    """True when no cell of ``r`` crosses a gutter."""
    return not any(c[0] < g0 and g1 < c[1] for c in r.cells for g0, g1 in gutters)


def _aligned(block: list[_Row], gutters: list[tuple[float, float]]) -> bool:
    """Every split between two cells of a row falls on a gutter (ragged prose gaps do not)."""
    return all(any(g0 < b[0] and a[1] < g1 for g0, g1 in gutters)
               for r in block for a, b in itertools.pairwise(r.cells))


def _evaluate(block: list[_Row], extra: list[_Row]) -> UnruledTable | None:
    """The table a block of split rows forms, or ``None``.

    ``extra`` are one-cell rows touching the block (a wrapped header or cell);
    they join when they fit between the gutters.
    """
    if len(block) < MIN_ROWS:
        return None
    gutters = _gutters(block)
    if len(gutters) + 1 < MIN_COLUMNS or not _aligned(block, gutters):
        return None
    if sum(1 for r in block if len(r.cells) >= MIN_COLUMNS) < MIN_ROWS - 1:
        return None
    rows = sorted(block + [r for r in extra if _fits(r, gutters)], key=lambda r: r.top)
    x0 = min(c[0] for r in rows for c in r.cells)
    x1 = max(c[1] for r in rows for c in r.cells)
    seps = (x0, *((g0 + g1) / 2 for g0, g1 in gutters), x1)
    if not _accept(block, rows, seps):
        return None
    return UnruledTable((x0, min(r.top for r in rows), x1, max(r.bottom for r in rows)), seps)


def split_at_gutter(row: list[Word], gutter: float | None) -> list[tuple[int, list[Word]]]:
    """A text row as ``(column, words)`` pieces (-1 full width, 0 left, 1 right):
    split at the page's column gutter unless a word crosses it."""
    if gutter is None:
        return [(-1, row)]
    crossing = any(w["x0"] < gutter < w["x1"] for w in row)
    left = [w for w in row if w["x1"] <= gutter]
    right = [w for w in row if w["x0"] >= gutter]
    if crossing or not left or not right:
        if not crossing and left and not right:
            return [(0, row)]
        if not crossing and right and not left:
            return [(1, row)]
        return [(-1, row)]
    return [(0, left), (1, right)]


def _blocks(rows: list[_Row]) -> list[UnruledTable]:
    """Grow blocks of consecutive split rows (at most ~2 em apart) while the
    splits of all their rows keep falling on shared gutters; evaluate each."""
    out: list[UnruledTable] = []
    rows = sorted(rows, key=lambda r: r.top)
    i = 0
    while i < len(rows):
        if len(rows[i].cells) < 2:
            i += 1
            continue
        block, extra = [rows[i]], []
        j = i + 1
        while j < len(rows) and _near(rows[j - 1], rows[j]):
            r = rows[j]
            if len(r.cells) >= 2:
                grown = block + [r]
                gutters = _gutters(grown)
                if not gutters or not _aligned(grown, gutters):
                    break  # the column structure changes: a new block starts here
                block.append(r)
            elif (_short_one_cell(r) and j + 1 < len(rows) and len(rows[j + 1].cells) >= 2
                  and _near(r, rows[j + 1])):
                extra.append(r)  # a wrapped header or cell inside the block
            else:
                break
            j += 1
        # up to two short one-cell rows right above or below: wrapped header or cell text
        for k in (i - 1, i - 2):
            if k < 0 or not _short_one_cell(rows[k]) or not _near(rows[k], rows[k + 1]):
                break
            extra.append(rows[k])
        for k in (j, j + 1):
            if k >= len(rows) or not _short_one_cell(rows[k]) or not _near(rows[k - 1], rows[k]):
                break
            extra.append(rows[k])
        found = _evaluate(block, extra)
        if found is not None:
            out.append(found)
        i = j
    return out


def _near(upper: _Row, lower: _Row) -> bool:
    """Consecutive rows of one block: at most ~2 em of white space between them."""
    return lower.top - upper.bottom <= 2.0 * max(upper.size, lower.size)


def _short_one_cell(r: _Row) -> bool:
    return len(r.cells) == 1 and len(r.cells[0][2].split()) <= 4


def _overlaps(a: Bbox, b: Bbox) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def find_unruled_tables(rows: list[list[Word]], gutter: float | None, skip: list[Bbox]) -> list[UnruledTable]:
    """Regions of unruled tables among the text rows of one page.

    Args:
        rows: the page's text rows, each a list of words as pdfplumber's
            ``extract_words(extra_attrs=["fontname", "size"])`` returns them.
        gutter: x of the page's two-column gutter, ``None`` for one column.
            Whole rows are tried first (a wide table can fake a gutter), then
            each column's pieces (a table inside one column of a paper).
        skip: boxes already taken (ruled tables, captions); rows centred in
            one of them never join a candidate.

    Returns:
        The accepted regions, top to bottom; empty when the page has none.
    """
    def keep(r: _Row) -> bool:
        return not _inside((r.cells[0][0], r.top, r.cells[-1][1], r.bottom), skip)

    found = _blocks([r for r in (_split_cells(ws) for ws in rows if ws) if keep(r)])
    if gutter is not None:
        pieces = [p for ws in rows if ws for p in split_at_gutter(ws, gutter)]
        for col in (0, 1):
            col_rows = [r for r in (_split_cells(ws) for c, ws in pieces if c in (col, -1)) if keep(r)]
            found += [t for t in _blocks(col_rows) if not any(_overlaps(t.bbox, f.bbox) for f in found)]
    return sorted(found, key=lambda t: (t.bbox[1], t.bbox[0]))


def merge_wrapped_rows(rows: list[list[str]]) -> list[list[str]]:
    """Join the lines of wrapped cells that a row-per-text-line extraction split.

    Leading text-only rows with empty cells merge into one header row when the
    table has numbers below them; a later row whose only cell starts in lower
    case continues the cell above it. ``rows`` is rectangular; so is the result.
    """
    def numeric(row: list[str]) -> bool:
        return any(is_numeric_cell(c) for c in row)

    if len(rows) < 3 or not any(numeric(r) for r in rows[1:]):
        return rows
    head, k = rows[0], 1
    while (k < len(rows) - 2 and not numeric(head) and not numeric(rows[k])
           and ("" in head or "" in rows[k])):
        head = [f"{a} {b}".strip() for a, b in zip(head, rows[k], strict=True)]
        k += 1
    out = [head]
    for row in rows[k:]:
        filled = [i for i, c in enumerate(row) if c]
        if len(out) > 1 and len(filled) == 1 and row[filled[0]][:1].islower():
            i = filled[0]
            out[-1] = [*out[-1][:i], f"{out[-1][i]} {row[i]}".strip(), *out[-1][i + 1:]]
        else:
            out.append(row)
    return out
