"""PDF converter: sections, figures and tables with context-aware captions.

Pipeline per page (streamed; only text lines are kept across pages):

1. words with font name/size from pdfplumber; graphics (embedded images,
   vector curves/rects) and ruled tables from pdfplumber; renders from pypdfium2.
2. reading order: a column gutter is searched near the page centre; lines
   crossing it are full-width separators, between two separators the left
   column is read before the right one (ACL two-column papers).
3. author captions ("Figure 2:", "Table 1:") are detected; each figure caption
   takes the nearest graphics cluster above/below it in its column; each table
   caption the ruled region next to it (booktabs rules or a ruled grid).
   Tables with neither ruling lines nor a caption are found from word
   alignment (:mod:`murar.ingest.pdf_unruled`); their lines leave the body text.
   Figures are rendered to PNG under ``assets_dir``; the image-quality filter
   (:mod:`murar.ingest.quality`) drops tiny, blank, banner-shaped and repeated
   (logo/header) images.
4. each figure/table gets up to ``context_chars`` characters of body text
   before and after it on its page (seed 001); caption text of other items is
   never part of the body text.

At the end, repeated running headers/footers are removed, headings are found
from font size, weight and numbering ("3.2 Method"), and sections are built;
a document without headings gets one section per page.
"""

from __future__ import annotations

import logging
import re
import statistics
import unicodedata
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from murar.errors import IngestError, MissingExtraError
from murar.ingest.captions import (
    DEFAULT_CONTEXT_CHARS,
    CaptionKind,
    caption_kind,
    fill_context,
)
from murar.ingest.liblog import library_warnings
from murar.ingest.ocr import OcrEngine, RapidOcrEngine
from murar.ingest.pdf_unruled import (
    find_unruled_tables,
    merge_wrapped_rows,
    split_at_gutter,
)
from murar.ingest.quality import (
    ImageCandidate,
    ImageQualityFilter,
    QualityHook,
    QualityOptions,
    drop_warning,
)
from murar.ingest.tables import rows_to_markdown
from murar.schema import (
    AnyMedia,
    ImageItem,
    ParsedDocument,
    Section,
    TableItem,
    stable_id,
)

if TYPE_CHECKING:
    from PIL.Image import Image

__all__ = ["PdfOptions", "convert_pdf"]

log = logging.getLogger(__name__)

Bbox = tuple[float, float, float, float]  # x0, top, x1, bottom in PDF points, top-left origin

#: monospaced (code) fonts: Courier, TeX's cmtt/lmtt, DejaVu/Liberation/Noto Mono, Consolas, Menlo, Source Code
_MONO_RE = re.compile(r"mono|courier|cmtt|lmtt|txtt|consola|menlo|inconsolata|sourcecode|source\s?code|typewriter",
                      re.IGNORECASE)
_BOLD_RE = re.compile(r"bold|black|heavy|semibold|demi|-medi|\bmedi|cmbx|bx\d", re.IGNORECASE)
_NUMBERED_RE = re.compile(r"^(?P<num>(?:\d{1,2}|[A-Z])(?:\.\d{1,2}){0,3})\.?\s+(?P<title>[A-Z][^\n]{1,100})$")
_CID_RE = re.compile(r"\(cid:\d+\)\s?")
_PAGE_NUM_RE = re.compile(r"^(?:page\s*)?[-–]?\s*\d{1,4}\s*[-–]?(?:\s*(?:of|/)\s*\d{1,4})?$", re.IGNORECASE)


@dataclass(frozen=True, slots=True, kw_only=True)
class PdfOptions:
    """Options of :func:`convert_pdf`.

    ``context_chars``: characters of body text kept before/after each figure
    and table (seed 001 uses 200). ``render_scale``: pixels per PDF point of
    stored figure crops (2.0 = 144 dpi). ``ocr``: run OCR on pages without a
    text layer and fill ``ocr_text`` of figures (needs the ``ocr`` extra, or an
    injected ``ocr_engine``). ``progress`` is called as ``progress(page, total)``
    after each page. ``max_pages`` stops early (``None`` = all pages).
    """

    context_chars: int = DEFAULT_CONTEXT_CHARS
    render_scale: float = 2.0
    extract_tables: bool = True
    store_table_images: bool = True
    ocr: bool = False
    ocr_engine: OcrEngine | None = None
    quality: QualityOptions = field(default_factory=QualityOptions)
    quality_hook: QualityHook | None = None
    progress: Callable[[int, int], None] | None = None
    max_pages: int | None = None
    password: str | None = None
    min_figure_points: float = 24.0


# ----------------------------------------------------------------- page model


@dataclass(slots=True)
class _Line:
    """A text line (or one column's part of it) in reading order."""

    x0: float
    top: float
    x1: float
    bottom: float
    text: str
    size: float
    bold: bool
    page: int
    col: int = -1  # -1 full width / single column, 0 left, 1 right
    page_height: float = 0.0
    mono: bool = False  # set in a monospaced (code) font


@dataclass(slots=True)
class _Anchor:
    """Where a media item sits in the reading-order stream."""

    media: AnyMedia
    page: int


@dataclass(slots=True)
class _Para:
    """A paragraph: consecutive lines of one block."""

    lines: list[_Line]

    @property
    def text(self) -> str:
        if self.lines[0].mono:  # a code listing keeps its lines
            return "\n".join(ln.text.rstrip() for ln in self.lines)
        out = ""
        for ln in self.lines:
            t = ln.text.strip()
            if not out:
                out = t
            elif out.endswith("-") and len(out) > 1 and out[-2].isalpha() and t[:1].islower():
                out = out[:-1] + t
            else:
                out += " " + t
        return out

    @property
    def first(self) -> _Line:
        return self.lines[0]


@dataclass(slots=True)
class _Region:
    bbox: Bbox
    n_objects: int = 1
    has_image: bool = False


def _clean_text(text: str) -> str:
    """Drop unmapped glyph markers such as ``(cid:15)``."""
    return _CID_RE.sub("", text).strip() if "(cid:" in text else text


#: TeX's \\" \\' \\` \\^ \\~ \\c \\v \\u \\= \\. \\r \\H: a spacing accent glyph drawn over (or under) its letter
_SPACING_ACCENTS = {"¨": "\u0308", "´": "\u0301", "`": "\u0300", "ˆ": "\u0302", "˜": "\u0303", "¸": "\u0327",
                    "ˇ": "\u030c", "˘": "\u0306", "¯": "\u0304", "˙": "\u0307", "˚": "\u030a", "˝": "\u030b"}


def _compose_accents(word: dict[str, Any]) -> dict[str, Any]:
    """``Bro¨ker`` read as ``Bröker``: a spacing accent glyph (TeX's ``\\"o`` typesets the
    accent ``¨`` and the letter ``o`` as two glyphs) whose box lies over the box of the
    letter before or after it (half the accent's width or more) combines with that letter
    (Unicode NFC). A backquote or accent beside a letter stays. Linear in the word's length."""
    chars = word.pop("chars", None)
    if not chars or not any(c.get("text") in _SPACING_ACCENTS for c in chars):
        return word
    out: list[str] = [c.get("text", "") for c in chars]
    for i, c in enumerate(chars):
        mark = _SPACING_ACCENTS.get(c.get("text", ""))
        if mark is None:
            continue
        width = max(0.1, float(c["x1"]) - float(c["x0"]))
        for j in (i - 1, i + 1):
            if 0 <= j < len(chars) and out[j][:1].isalpha() and \
                    _overlap(float(c["x0"]), float(c["x1"]), float(chars[j]["x0"]), float(chars[j]["x1"])) >= 0.5 * width:
                base = {"ı": "i", "ȷ": "j"}.get(out[j], out[j])  # TeX's \\'{\\i}: the dotless i takes the accent
                out[j] = unicodedata.normalize("NFC", base + mark)
                out[i] = ""
                break
    word["text"] = "".join(out)
    return word


def _is_bold(fontname: str) -> bool:
    return bool(_BOLD_RE.search(fontname or ""))


def _vertical_gap(a: Bbox, b: Bbox, *, slack: float) -> float:
    """Points of white space between boxes ``a`` and ``b``: from ``a``'s bottom to ``b``'s top
    when ``a`` ends above ``b``'s top (``slack`` points of overlap allowed, giving a small
    negative gap), else from ``b``'s bottom to ``a``'s top."""
    return b[1] - a[3] if a[3] <= b[1] + slack else a[1] - b[3]


def _overlap(a0: float, a1: float, b0: float, b1: float) -> float:
    return max(0.0, min(a1, b1) - max(a0, b0))


def _union(a: Bbox, b: Bbox) -> Bbox:
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


def _center_in(word: dict[str, Any], box: Bbox, pad: float = 1.0) -> bool:
    cx: float = (word["x0"] + word["x1"]) / 2
    cy: float = (word["top"] + word["bottom"]) / 2
    return box[0] - pad <= cx <= box[2] + pad and box[1] - pad <= cy <= box[3] + pad


# ----------------------------------------------------------------- lines


def _group_rows(words: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """Group words into text rows by vertical overlap with the row's first word."""
    rows: list[list[dict[str, Any]]] = []
    anchors: list[tuple[float, float]] = []
    for w in sorted(words, key=lambda w: (w["top"], w["x0"])):
        h = max(0.1, w["bottom"] - w["top"])
        best, best_ov = -1, 0.0
        for i in range(len(rows) - 1, max(-1, len(rows) - 8), -1):
            t, b = anchors[i]
            ov = _overlap(t, b, w["top"], w["bottom"]) / max(0.1, min(h, b - t))
            if ov > best_ov:
                best, best_ov = i, ov
        if best >= 0 and best_ov >= 0.5:
            rows[best].append(w)
        else:
            rows.append([w])
            anchors.append((w["top"], w["bottom"]))
    for r in rows:
        r.sort(key=lambda w: w["x0"])
    return rows


def _find_gutter(rows: list[list[dict[str, Any]]], width: float) -> float | None:
    """x of a two-column gutter, or ``None`` for single-column pages.

    A gutter is an x near the page centre crossed by few row pieces (words
    joined when closer than ~1 em) while at least 20 % of pieces lie on each
    side of it.
    """
    pieces: list[tuple[float, float]] = []
    for row in rows:
        cur0, cur1 = row[0]["x0"], row[0]["x1"]
        for w in row[1:]:
            size = float(w.get("size") or 10.0)
            if w["x0"] - cur1 > 1.0 * size:
                pieces.append((cur0, cur1))
                cur0 = w["x0"]
            cur1 = max(cur1, w["x1"])
        pieces.append((cur0, cur1))
    if len(rows) < 6:
        return None
    n = len(pieces)
    best: tuple[int, float] | None = None
    runs: list[float] = []
    x = width * 0.3
    while x <= width * 0.7:
        crossing = sum(1 for a, b in pieces if a < x < b)
        left = sum(1 for a, b in pieces if b <= x)
        if left >= 0.2 * n and n - left - crossing >= 0.2 * n:
            if best is None or crossing < best[0]:
                best, runs = (crossing, x), [x]
            elif crossing == best[0] and runs and x - runs[-1] <= 1.01:
                runs.append(x)
        x += 1.0
    if best is None or best[0] > 0.35 * len(rows):
        return None
    return (runs[0] + runs[-1]) / 2


_LEADER_RE = re.compile(r"^[.·…]+$")
_TOC_NUM_RE = re.compile(r"^(?:\d{1,4}|[ivxlc]{1,7})$")


def _drop_contents_rows(rows: list[list[dict[str, Any]]], min_entries: int = 5) -> list[list[dict[str, Any]]]:
    """Rows of a table-of-contents page left out (navigation, as in built HTML).

    A contents entry ends with a page number (arabic, or lower-case roman for
    front matter) after dot leaders (a word of dots, or two words of one dot) or a gap of at least 2 em, the numbers
    right-aligned (their right edges within 2 points of the most common one).
    A page is a contents page when at least ``min_entries`` such rows (5; 2 on the
    page after a contents page, where the contents end) make half of its rows;
    its other rows (the "Contents" title, running header) stay.
    """
    cands: list[tuple[int, float]] = []
    for i, row in enumerate(rows):
        last = row[-1]
        if len(row) < 2 or not _TOC_NUM_RE.match(last["text"]):
            continue
        size = float(last.get("size") or 10.0)
        leader = _LEADER_RE.match(row[-2]["text"]) and (
            len(row[-2]["text"]) > 1 or len(row) > 2 and _LEADER_RE.match(row[-3]["text"]))
        if leader or last["x0"] - row[-2]["x1"] >= 2 * size:
            cands.append((i, float(last["x1"])))
    if len(cands) < min_entries or 2 * len(cands) < len(rows):
        return rows
    right = Counter(round(x1) for _, x1 in cands).most_common(1)[0][0]
    toc = {i for i, x1 in cands if abs(x1 - right) <= 2}
    if len(toc) < min_entries or 2 * len(toc) < len(rows):
        return rows
    return [r for i, r in enumerate(rows) if i not in toc]


def _make_line(words: list[dict[str, Any]], page: int, page_height: float, col: int) -> _Line:
    text_parts: list[str] = []
    prev_x1: float | None = None
    for w in words:
        if prev_x1 is not None and w["x0"] - prev_x1 > 0.5:
            text_parts.append(" ")
        text_parts.append(w["text"])
        prev_x1 = w["x1"]
    sizes = [float(w.get("size") or 0.0) for w in words]
    chars = [len(w["text"]) for w in words]
    bold_chars = sum(c for w, c in zip(words, chars, strict=True) if _is_bold(str(w.get("fontname", ""))))
    size = statistics.median(sizes) if sizes else 0.0
    mono_chars = sum(c for w, c in zip(words, chars, strict=True) if _MONO_RE.search(str(w.get("fontname", ""))))
    return _Line(
        x0=min(w["x0"] for w in words), top=min(w["top"] for w in words),
        x1=max(w["x1"] for w in words), bottom=max(w["bottom"] for w in words),
        text=_clean_text("".join(text_parts)), size=round(size, 1), bold=bold_chars >= 0.9 * sum(chars),
        page=page, col=col, page_height=page_height, mono=mono_chars >= 0.9 * sum(chars),
    )


def _col_of(box: Bbox, gutter: float | None) -> int:
    if gutter is None:
        return -1
    if box[2] <= gutter + 2:
        return 0
    if box[0] >= gutter - 2:
        return 1
    return -1


def _reading_order(entries: list[tuple[Bbox, int, Any]]) -> list[Any]:
    """Order (bbox, col, payload) entries: full-width entries split the page
    into bands; inside a band the left column is read before the right."""
    entries = sorted(entries, key=lambda e: (e[0][1], e[0][0]))
    out: list[Any] = []
    band: list[tuple[Bbox, int, Any]] = []

    def flush() -> None:
        for col in (0, 1):
            out.extend(e[2] for e in band if e[1] == col)
        band.clear()

    for e in entries:
        if e[1] == -1:
            flush()
            out.append(e[2])
        else:
            band.append(e)
    flush()
    return out


# ----------------------------------------------------------------- graphics


def _graphic_boxes(page: Any, pw: float, ph: float) -> list[_Region]:
    """Boxes of embedded images and vector drawings, minus page backgrounds."""
    out: list[_Region] = []
    for im in page.images:
        box = (max(0.0, im["x0"]), max(0.0, im["top"]), min(pw, im["x1"]), min(ph, im["bottom"]))
        if box[2] - box[0] < 2 or box[3] - box[1] < 2:
            continue
        if (box[2] - box[0]) * (box[3] - box[1]) > 0.9 * pw * ph:
            continue  # full-page scan or background; handled as a page image
        out.append(_Region(box, 1, True))
    for obj in list(page.curves) + list(page.rects):
        box = (max(0.0, obj["x0"]), max(0.0, obj["top"]), min(pw, obj["x1"]), min(ph, obj["bottom"]))
        w, h = box[2] - box[0], box[3] - box[1]
        if w * h > 0.8 * pw * ph or w < 0 or h < 0:
            continue
        out.append(_Region(box, 1, False))
    return out


def _cluster(regions: list[_Region], gap: float = 6.0) -> list[_Region]:
    """Merge boxes closer than ``gap`` points (transitively)."""
    clusters = [(_Region(r.bbox, r.n_objects, r.has_image)) for r in regions]
    changed = True
    while changed and len(clusters) > 1:
        changed = False
        clusters.sort(key=lambda r: (r.bbox[1], r.bbox[0]))
        merged: list[_Region] = []
        for r in clusters:
            for m in merged:
                a, b = m.bbox, r.bbox
                if (a[0] - gap <= b[2] and b[0] - gap <= a[2] and a[1] - gap <= b[3] and b[1] - gap <= a[3]):
                    m.bbox = _union(a, b)
                    m.n_objects += r.n_objects
                    m.has_image = m.has_image or r.has_image
                    changed = True
                    break
            else:
                merged.append(r)
        clusters = merged
    return clusters


def _h_rules(page: Any) -> list[Bbox]:
    rules: list[Bbox] = []
    for obj in list(page.lines) + list(page.rects):
        h = obj["bottom"] - obj["top"]
        w = obj["x1"] - obj["x0"]
        if h <= 2.0 and w >= 30:
            rules.append((obj["x0"], obj["top"], obj["x1"], obj["bottom"]))
    return sorted(rules, key=lambda r: r[1])


# ----------------------------------------------------------------- page result


@dataclass(slots=True)
class _PageResult:
    entries: list[Any] = field(default_factory=list)  # _Line | _Anchor in reading order
    warnings: list[str] = field(default_factory=list)


class _PdfConverter:
    def __init__(self, path: Path, rel: str, assets_dir: Path, options: PdfOptions) -> None:
        self.path = path
        self.rel = rel
        self.doc_id = stable_id(rel)
        self.assets_dir = assets_dir
        self.opt = options
        self.quality = ImageQualityFilter(options.quality, options.quality_hook)
        self.warnings: list[str] = []
        self.ocr: OcrEngine | None = options.ocr_engine
        self._files_written: dict[str, Path] = {}
        self._pdfium_doc: Any = None
        self._contents_page = -1  # the last table-of-contents page seen

    # -- rendering
    def _render(self, page_no: int, box: Bbox, pdf_page: Any) -> Image | None:
        if self._pdfium_doc is None:
            return None
        try:
            pg = self._pdfium_doc[page_no - 1]
            scale = self.opt.render_scale
            w, h = pg.get_size()
            # pdfplumber coordinates are relative to the mediabox; pdfium renders the cropbox
            ox = float(pdf_page.bbox[0]) if pdf_page is not None else 0.0
            oy = float(pdf_page.bbox[1]) if pdf_page is not None else 0.0
            x0, y0, x1, y1 = box[0] - ox, box[1] - oy, box[2] - ox, box[3] - oy
            crop = (max(0.0, x0), max(0.0, h - y1), max(0.0, w - x1), max(0.0, y0))
            bitmap = pg.render(scale=scale, crop=crop)
            img: Image = bitmap.to_pil()
            pg.close()
            return img
        except Exception as err:  # noqa: BLE001 - a failed render must not stop the batch
            self.warnings.append(f"page {page_no}: could not render region: {err}")
            return None

    def _store(self, img: Image, name: str) -> str:
        rel = f"{self.doc_id}/{name}.png"
        out = self.assets_dir / rel
        out.parent.mkdir(parents=True, exist_ok=True)
        img.save(out, format="PNG", optimize=False)
        self._files_written[rel] = out
        return rel

    def _ocr_engine(self) -> OcrEngine | None:
        if not self.opt.ocr:
            return None
        if self.ocr is None:
            try:
                self.ocr = RapidOcrEngine()
            except MissingExtraError as err:
                self.warnings.append(str(err))
                self.opt = _replace(self.opt, ocr=False)
                return None
        return self.ocr

    # -- one page
    def page(self, page: Any, page_no: int) -> _PageResult:
        res = _PageResult()
        pw, ph = float(page.width), float(page.height)
        # rotated text (arXiv side stamps, vertical labels) would interleave with body lines
        page = page.filter(lambda o: o.get("object_type") != "char" or o.get("upright", True))
        words = page.extract_words(extra_attrs=["fontname", "size"], keep_blank_chars=False,
                                   use_text_flow=False, x_tolerance=1.5, y_tolerance=2.5, return_chars=True)
        words = [_compose_accents(w) for w in words
                 if w["text"].strip() and 0 <= w["x0"] < pw and 0 <= w["top"] < ph]
        regions = _graphic_boxes(page, pw, ph)
        ocr_page = False
        if not words:
            words = self._ocr_words(page, page_no, pw, ph, res)
            ocr_page = bool(words)
        rows = _group_rows(words)
        n_rows = len(rows)
        rows = _drop_contents_rows(rows, 2 if self._contents_page == page_no - 1 else 5)
        if len(rows) < n_rows:
            self._contents_page = page_no
        gutter = _find_gutter(rows, pw)
        col_rows = [piece for row in rows for piece in split_at_gutter(row, gutter)]
        lines = [_make_line(ws, page_no, ph, col) for col, ws in col_rows]

        # captions: a caption line plus following lines of the same block
        used: set[int] = set()
        captions: list[tuple[CaptionKind, Bbox, int, str]] = []  # kind, bbox, col, text
        for i, ln in enumerate(lines):
            kind = caption_kind(ln.text)
            if kind is None or i in used:
                continue
            group = [i]
            j = i + 1
            last = ln
            col_lines = [k for k in range(i + 1, len(lines)) if lines[k].col == ln.col]
            same_col = [x for x in lines if x.col == ln.col]
            col_right = max(x.x1 for x in same_col)
            col_w = max(1.0, col_right - min(x.x0 for x in same_col))
            for k in col_lines[:12]:
                nxt = lines[k]
                if nxt.top - last.bottom > max(3.0, 0.6 * last.size) or abs(nxt.size - ln.size) > 0.6:
                    break
                if caption_kind(nxt.text) is not None:
                    break
                if last.text.rstrip().endswith(".") and (nxt.text[:1].islower() or last.x1 < col_right - 0.12 * col_w):
                    break
                group.append(k)
                last = nxt
            del j
            used.update(group)
            box = lines[group[0]].x0, lines[group[0]].top, lines[group[0]].x1, lines[group[0]].bottom
            text_parts = []
            for k in group:
                lk = lines[k]
                box = _union(box, (lk.x0, lk.top, lk.x1, lk.bottom))
                text_parts.append(lk.text)
            captions.append((kind, box, ln.col, _Para([lines[k] for k in group]).text))

        # tables
        tables: list[tuple[Bbox, list[list[str]], str]] = []  # bbox, rows, caption
        table_caps: set[int] = set()
        if self.opt.extract_tables:
            tables = self._tables(page, page_no, captions, table_caps, rows, gutter)

        # figures
        figures: list[tuple[Bbox, str, bool]] = []  # bbox, caption, from caption
        fig_caps: set[int] = set()
        free = [r for r in regions if not any(_overlap(r.bbox[0], r.bbox[2], t[0][0], t[0][2]) > 0
                                              and _overlap(r.bbox[1], r.bbox[3], t[0][1], t[0][3]) > 0
                                              for t in tables)]
        # caption lines must not join figure clusters: drop graphics that are mostly text boxes
        clusters = _cluster(free)
        taken: set[int] = set()
        for ci, (kind, cbox, _col, ctext) in enumerate(captions):
            if kind != "figure":
                continue
            best: tuple[float, int] | None = None
            for ri, reg in enumerate(clusters):
                if ri in taken:
                    continue
                rb = reg.bbox
                if _overlap(rb[0], rb[2], cbox[0], cbox[2]) < 0.3 * min(rb[2] - rb[0], cbox[2] - cbox[0]):
                    continue
                if rb[3] <= cbox[1] + 4:
                    dist = cbox[1] - rb[3]
                elif rb[1] >= cbox[3] - 4:
                    dist = (rb[1] - cbox[3]) * 1.5 + 5  # captions sit below figures more often
                else:
                    continue
                if dist <= 72 and (best is None or dist < best[0]):
                    best = (dist, ri)
            if best is not None:
                taken.add(best[1])
                box = clusters[best[1]].bbox
                # absorb neighbouring clusters on the same side (sub-figures)
                above = box[3] <= cbox[1] + 4
                grown = True
                while grown:
                    grown = False
                    for ri, reg in enumerate(clusters):
                        if ri in taken:
                            continue
                        rb = reg.bbox
                        on_side = rb[3] <= cbox[1] + 4 if above else rb[1] >= cbox[3] - 4
                        near = _overlap(rb[1] - 12, rb[3] + 12, box[1], box[3]) > 0
                        if on_side and near and _overlap(rb[0], rb[2], cbox[0] - 20, cbox[2] + 20) > 0:
                            box = _union(box, rb)
                            taken.add(ri)
                            grown = True
                figures.append((box, ctext, True))
                fig_caps.add(ci)
            else:
                gap_box = self._gap_above(cbox, lines, used)
                if gap_box is not None:
                    figures.append((gap_box, ctext, True))
                    fig_caps.add(ci)
        for ri, reg in enumerate(clusters):
            if ri in taken:
                continue
            w, h = reg.bbox[2] - reg.bbox[0], reg.bbox[3] - reg.bbox[1]
            if (reg.has_image and min(w, h) >= self.opt.min_figure_points) or (
                    not reg.has_image and reg.n_objects >= 20 and min(w, h) >= 72):
                figures.append((reg.bbox, "", False))
        # whole-page scans become one figure
        if not any(True for _ in figures) and not words:
            for im in page.images:
                if (im["x1"] - im["x0"]) * (im["bottom"] - im["top"]) > 0.3 * pw * ph:
                    figures.append(((max(0.0, im["x0"]), max(0.0, im["top"]), min(pw, im["x1"]),
                                     min(ph, im["bottom"])), "", False))
                    break

        # body lines: drop captions and words inside figures/tables
        # on OCR pages the scan itself is the figure: its text stays body text
        media_boxes = ([] if ocr_page else [f[0] for f in figures]) + [t[0] for t in tables]
        body: list[_Line] = []
        for i, ln in enumerate(lines):
            if i in used:
                continue
            lb = (ln.x0, ln.top, ln.x1, ln.bottom)
            if any(_center_in({"x0": lb[0], "x1": lb[2], "top": lb[1], "bottom": lb[3]}, mb, 2.0)
                   for mb in media_boxes):
                continue
            body.append(ln)
        # captions that found no figure/table stay as body text
        for ci, (kind, cbox, col, ctext) in enumerate(captions):
            if ci not in fig_caps and ci not in table_caps:
                body.append(_Line(cbox[0], cbox[1], cbox[2], cbox[3], ctext, 0.0, False, page_no, col, ph))

        # media items
        entries: list[tuple[Bbox, int, Any]] = [((ln.x0, ln.top, ln.x1, ln.bottom), ln.col, ln) for ln in body]
        fig_index = 0
        for box, caption, _ in figures:
            inside = " ".join(ln.text for ln in lines if ocr_page and
                              _center_in({"x0": ln.x0, "x1": ln.x1, "top": ln.top, "bottom": ln.bottom}, box, 2.0))
            item = self._figure(page, page_no, box, caption, fig_index, ph, inside or None)
            if item is None:
                continue
            fig_index += 1
            entries.append((box, _col_of(box, gutter), _Anchor(item, page_no)))
        for ti, (box, rows_, caption) in enumerate(tables):
            table_item = self._table(page, page_no, box, rows_, caption, ti)
            entries.append((box, _col_of(box, gutter), _Anchor(table_item, page_no)))
        res.entries = _reading_order(entries)
        return res

    def _gap_above(self, cbox: Bbox, lines: list[_Line], used: set[int]) -> Bbox | None:
        """Text-free band above a caption in its column (figures without
        graphics objects, e.g. text-only drawings)."""
        above = [ln for i, ln in enumerate(lines) if i not in used and ln.bottom <= cbox[1]
                 and _overlap(ln.x0, ln.x1, cbox[0], cbox[2]) > 0]
        top = 0.0
        for ln in sorted(above, key=lambda ln: -ln.bottom):
            if len(ln.text) >= 60:
                top = ln.bottom
                break
        if cbox[1] - top >= 36:
            return (cbox[0], top + 2, cbox[2], cbox[1] - 2)
        return None

    def _tables(self, page: Any, page_no: int, captions: list[tuple[CaptionKind, Bbox, int, str]],
                table_caps: set[int], text_rows: list[list[dict[str, Any]]],
                gutter: float | None) -> list[tuple[Bbox, list[list[str]], str]]:
        out: list[tuple[Bbox, list[list[str]], str]] = []
        try:
            found = page.find_tables()
        except Exception as err:  # noqa: BLE001
            self.warnings.append(f"page {page_no}: table detection failed: {err}")
            found = []
        for t in found:
            rows = _clean_rows(t.extract())
            if len(rows) < 2 or max(len(r) for r in rows) < 2:
                continue
            out.append((tuple(float(v) for v in t.bbox), rows, ""))  # type: ignore[arg-type]
        rules = _h_rules(page)
        for ci, (kind, cbox, _col, ctext) in enumerate(captions):
            if kind != "table":
                continue
            # a ruled table already found next to the caption
            best: tuple[float, int] | None = None
            for ti, (tb, _rows, cap) in enumerate(out):
                if cap or _overlap(tb[0], tb[2], cbox[0], cbox[2]) <= 0:
                    continue
                dist = _vertical_gap(tb, cbox, slack=4)
                if -4 <= dist <= 60 and (best is None or dist < best[0]):
                    best = (dist, ti)
            if best is not None:
                tb, rows, _ = out[best[1]]
                out[best[1]] = (tb, rows, ctext)
                table_caps.add(ci)
                continue
            region = _booktabs_region(rules, cbox)
            if region is None:
                continue
            try:
                crop = page.crop(region, strict=False)
                rows = _clean_rows(crop.extract_table({"vertical_strategy": "text",
                                                       "horizontal_strategy": "text",
                                                       "snap_tolerance": 3, "join_tolerance": 3,
                                                       "text_x_tolerance": 1.5,
                                                       "intersection_tolerance": 5}) or [])
            except Exception as err:  # noqa: BLE001
                self.warnings.append(f"page {page_no}: table extraction failed: {err}")
                continue
            if not rows:
                continue
            out.append((region, rows, ctext))
            table_caps.add(ci)
        out.extend(self._unruled_tables(page, page_no, captions, table_caps, text_rows, gutter, [t[0] for t in out]))
        return out

    def _unruled_tables(self, page: Any, page_no: int, captions: list[tuple[CaptionKind, Bbox, int, str]],
                        table_caps: set[int], text_rows: list[list[dict[str, Any]]], gutter: float | None,
                        taken: list[Bbox]) -> list[tuple[Bbox, list[list[str]], str]]:
        """Tables without ruling lines found from word alignment
        (:func:`murar.ingest.pdf_unruled.find_unruled_tables`); a table caption
        left without a table just above or below one becomes its caption."""
        out: list[tuple[Bbox, list[list[str]], str]] = []
        for found in find_unruled_tables(text_rows, gutter, taken + [c[1] for c in captions]):
            x0, top, x1, bottom = found.bbox
            region = (x0 - 1, top - 1, x1 + 1, bottom + 1)
            try:
                crop = page.crop(region, strict=False)
                rows = _clean_rows(crop.extract_table({
                    "vertical_strategy": "explicit", "horizontal_strategy": "text",
                    "explicit_vertical_lines": [region[0], *found.separators[1:-1], region[2]],
                    "snap_tolerance": 3, "join_tolerance": 3, "text_x_tolerance": 1.5,
                    "intersection_tolerance": 5}) or [])
            except Exception as err:  # noqa: BLE001
                self.warnings.append(f"page {page_no}: table extraction failed: {err}")
                continue
            if len(rows) < 3 or len(rows[0]) < 3:
                continue
            rows = merge_wrapped_rows(rows)
            caption = ""
            best: tuple[float, int] | None = None
            for ci, (kind, cbox, _col, _text) in enumerate(captions):
                if kind != "table" or ci in table_caps or _overlap(cbox[0], cbox[2], x0, x1) <= 0:
                    continue
                dist = _vertical_gap(cbox, found.bbox, slack=2)
                if -2 <= dist <= 40 and (best is None or dist < best[0]):
                    best = (dist, ci)
            if best is not None:
                caption = captions[best[1]][3]
                table_caps.add(best[1])
            out.append((region, rows, caption))
        return out

    def _ocr_words(self, page: Any, page_no: int, pw: float, ph: float, res: _PageResult) -> list[dict[str, Any]]:
        engine = self._ocr_engine()
        if engine is None:
            self.warnings.append(f"page {page_no}: no text layer (scanned page?); enable OCR to read it")
            return []
        img = self._render(page_no, (0.0, 0.0, pw, ph), page)
        if img is None:
            return []
        try:
            ocr_lines = engine.recognize(img)
        except Exception as err:  # noqa: BLE001
            self.warnings.append(f"page {page_no}: OCR failed: {err}")
            return []
        self.warnings.append(f"page {page_no}: no text layer; text from OCR")
        s = self.opt.render_scale
        words = []
        for ol in ocr_lines:
            x0, y0, x1, y1 = (v / s for v in ol.bbox)
            words.append({"text": ol.text, "x0": x0, "x1": x1, "top": y0, "bottom": y1,
                          "size": 10.0, "fontname": "ocr"})  # OCR box heights are too noisy for headings
        return words

    def _figure(self, page: Any, page_no: int, box: Bbox, caption: str, index: int, ph: float,
                known_ocr: str | None = None) -> ImageItem | None:
        key = f"p{page_no}-fig{index + 1}"
        img = self._render(page_no, box, page)
        width = img.width if img is not None else int((box[2] - box[0]) * self.opt.render_scale)
        height = img.height if img is not None else int((box[3] - box[1]) * self.opt.render_scale)
        cand = ImageCandidate(key=key, width=width, height=height, page=page_no, bbox=box, page_height=ph)
        reason = self.quality.check(cand, img)
        if reason:
            self.warnings.append(drop_warning(key if not caption else f"{key} ({caption[:40]})", reason))
            return None
        stored = self._store(img, key) if img is not None else None
        ocr_text = known_ocr or ""
        engine = self._ocr_engine() if img is not None and known_ocr is None else None
        if engine is not None and img is not None:
            try:
                from murar.ingest.ocr import ocr_text as join_ocr

                ocr_text = join_ocr(engine.recognize(img))
            except Exception as err:  # noqa: BLE001
                self.warnings.append(f"page {page_no}: OCR of {key} failed: {err}")
        item = ImageItem(
            id=stable_id(self.rel, "image", str(page_no), str(index)), section_id="",
            source_path=self.rel, page_title="", heading_path=(), anchor=None, position=0,
            caption=caption, page=page_no, bbox=tuple(round(v, 2) for v in box),  # type: ignore[arg-type]
            stored_path=stored, path=None, exists=stored is not None, width=width, height=height,
            ocr_text=ocr_text,
        )
        cand.extra["item"] = item
        return item

    def _table(self, page: Any, page_no: int, box: Bbox, rows: list[list[str]], caption: str, index: int) -> TableItem:
        headers, body = (rows[0], rows[1:]) if len(rows) > 1 else ([], rows)
        image_path = None
        if self.opt.store_table_images:
            img = self._render(page_no, box, page)
            if img is not None:
                image_path = self._store(img, f"p{page_no}-tab{index + 1}")
        return TableItem(
            id=stable_id(self.rel, "table", str(page_no), str(index)), section_id="",
            source_path=self.rel, page_title="", heading_path=(), anchor=None, position=0,
            caption=caption, page=page_no, bbox=tuple(round(v, 2) for v in box),  # type: ignore[arg-type]
            headers=headers, rows=body, markdown=rows_to_markdown(headers, body),
            index_in_page=index, image_path=image_path,
        )

    def drop_repeated(self, stream: list[Any]) -> list[Any]:
        drops = self.quality.repeated()
        if not drops:
            return stream
        dropped_ids: set[str] = set()
        for cand, reason in drops:
            item = cand.extra.get("item")
            if isinstance(item, ImageItem):
                dropped_ids.add(item.id)
                if item.stored_path and item.stored_path in self._files_written:
                    self._files_written.pop(item.stored_path).unlink(missing_ok=True)
            self.warnings.append(drop_warning(cand.key, reason))
        return [e for e in stream if not (isinstance(e, _Anchor) and e.media.id in dropped_ids)]


def _replace(opt: PdfOptions, **kw: Any) -> PdfOptions:
    import dataclasses

    return dataclasses.replace(opt, **kw)


def _clean_rows(rows: list[list[str | None]]) -> list[list[str]]:
    clean = [[_clean_text(re.sub(r"\s+", " ", c or "").strip()) for c in r] for r in rows if r]
    clean = [r for r in clean if any(r)]
    if not clean:
        return []
    width = max(len(r) for r in clean)
    clean = [r + [""] * (width - len(r)) for r in clean]
    keep = [c for c in range(width) if any(r[c] for r in clean)]
    return [[r[c] for c in keep] for r in clean]


def _booktabs_region(rules: list[Bbox], cbox: Bbox) -> Bbox | None:
    """The region spanned by horizontal rules next to a table caption.

    Looks above the caption first (caption below the table), then below.
    Consecutive rules at most 220 pt apart belong to the same table.
    """
    cands = [r for r in rules if _overlap(r[0], r[2], cbox[0], cbox[2]) > 0.3 * min(r[2] - r[0], cbox[2] - cbox[0])]
    above = sorted((r for r in cands if r[3] <= cbox[1] + 2), key=lambda r: -r[3])
    below = sorted((r for r in cands if r[1] >= cbox[3] - 2), key=lambda r: r[1])
    for side, seq in (("above", above), ("below", below)):
        if not seq:
            continue
        first = seq[0]
        if (cbox[1] - first[3] if side == "above" else first[1] - cbox[3]) > 40:
            continue
        group = [first]
        for r in seq[1:]:
            prev = group[-1]
            gap = prev[1] - r[3] if side == "above" else r[1] - prev[3]
            if gap > 220:
                break
            group.append(r)
        if len(group) < 2:
            continue
        x0 = min(r[0] for r in group)
        x1 = max(r[2] for r in group)
        top = min(r[1] for r in group)
        bottom = max(r[3] for r in group)
        if bottom - top < 12:
            continue
        return (x0 - 1, top - 1, x1 + 1, bottom + 1)
    return None


# ----------------------------------------------------------------- assembly


def _norm_repeat(text: str) -> str:
    """The text a running header keeps from page to page: digits as ``#`` and a page
    number at either end dropped, so that a book's recto ``Title 23`` and verso
    ``22 Title`` headers are one running line."""
    key = re.sub(r"\d+", "#", text.strip().lower())
    return re.sub(r"^#\s+|\s+#$", "", key) or key


_EDGE_NUM_RE = re.compile(r"^(\d{1,4})\s+\S|\S\s+(\d{1,4})$")


def _drop_running_lines(stream: list[Any], n_pages: int) -> list[Any]:
    """Remove running headers/footers and page numbers in the margin band.

    A running line is (a) the same text (digits ignored, a page number at either
    end dropped) in the margin band on half the pages, at least 3; (b) the top- or
    bottom-most line of its page beginning or ending with the printed page number,
    i.e. a number that is the page index plus one offset on at least 3 pages and a
    third of them (a book's "22 Chapter title" headers); (c) a bare page number.
    """
    def in_band(ln: _Line) -> bool:
        band = 0.09 * ln.page_height if ln.page_height else 60
        return ln.top <= band or ln.bottom >= ln.page_height - band

    counts: Counter[str] = Counter()
    edge: dict[int, list[_Line]] = {}
    for e in stream:
        if isinstance(e, _Line) and in_band(e):
            counts[_norm_repeat(e.text)] += 1
            edge.setdefault(e.page, []).append(e)
    offsets: dict[int, list[_Line]] = {}
    for lines in edge.values():
        for ln in {id(x): x for x in (min(lines, key=lambda x: x.top), max(lines, key=lambda x: x.bottom))}.values():
            m = _EDGE_NUM_RE.search(ln.text.strip())
            if m:
                offsets.setdefault(ln.page - int(m.group(1) or m.group(2)), []).append(ln)
    numbered = {id(ln) for lines in offsets.values() if len(lines) >= max(3, n_pages / 3) for ln in lines}
    need = max(3, (n_pages + 1) // 2) if n_pages >= 3 else 10**9
    out = []
    for e in stream:
        if isinstance(e, _Line) and in_band(e) and (
                counts[_norm_repeat(e.text)] >= need or id(e) in numbered or _PAGE_NUM_RE.match(e.text.strip())):
            continue
        out.append(e)
    return out


def _paragraphs(stream: list[Any]) -> list[_Para | _Anchor]:
    out: list[_Para | _Anchor] = []
    cur: _Para | None = None
    col_left: dict[tuple[int, int], float] = {}
    for e in stream:
        if isinstance(e, _Line):
            key = (e.page, e.col)
            col_left[key] = min(col_left.get(key, e.x0), e.x0)
    for e in stream:
        if isinstance(e, _Anchor):
            out.append(e)
            cur = None
            continue
        ln: _Line = e
        if cur is not None and _continues(cur.lines[-1], ln):
            cur.lines.append(ln)
            continue
        if cur is not None:
            prev = cur.lines[-1]
            size = max(prev.size, 1.0)
            new = (
                ln.page != prev.page or ln.col != prev.col
                or ln.top - prev.bottom > max(3.5, 0.55 * size)
                or ln.top < prev.top - 1
                or abs(ln.size - prev.size) > 0.8
                or ln.mono != prev.mono
                or ln.bold != prev.bold and (len(prev.text) < 80 or len(ln.text) < 80) and _short_heading(prev)
                or (ln.x0 - col_left[(ln.page, ln.col)] > 0.8 * size
                    and prev.x0 - col_left[(prev.page, prev.col)] < 0.3 * size
                    and prev.text.rstrip().endswith((".", ":", "?", "!")))
            )
            if not new:
                cur.lines.append(ln)
                continue
        cur = _Para([ln])
        out.append(cur)
    return out


def _continues(prev: _Line, ln: _Line) -> bool:
    """Whether ``ln`` carries on ``prev``'s sentence across a page or column break.

    The reader sees one paragraph when the text before the break stops mid-sentence
    (no ``.``/``!``/``?``/``:`` at its end) and the text after it starts in lower
    case, in the same font size and weight: the next page's first line (left
    column or full width), or the right column after the left one.
    """
    if ln.page == prev.page + 1:
        if ln.col == 1:
            return False
    elif not (ln.page == prev.page and prev.col == 0 and ln.col == 1):
        return False
    end = prev.text.rstrip()
    return (bool(end) and not end.endswith((".", "!", "?", ":")) and ln.text.lstrip()[:1].islower()
            and abs(ln.size - prev.size) <= 0.3 and ln.bold == prev.bold and ln.mono == prev.mono)


def _short_heading(ln: _Line) -> bool:
    return ln.bold and len(ln.text) <= 80


def _body_size(paras: list[_Para | _Anchor]) -> float:
    counts: Counter[float] = Counter()
    for p in paras:
        if isinstance(p, _Para):
            for ln in p.lines:
                counts[round(ln.size * 2) / 2] += len(ln.text)
    return counts.most_common(1)[0][0] if counts else 10.0


def _heading_level(p: _Para, body: float, size_levels: dict[float, int]) -> int | None:
    text = p.text.strip()
    if len(p.lines) > 3 or not (2 <= len(text) <= 150) or not re.search(r"[A-Za-z]", text):
        return None
    if caption_kind(text) is not None:
        return None
    size = p.first.size
    m = _NUMBERED_RE.match(text)
    if m and len(text) <= 100 and not text.endswith((".", ",", ";")) and (p.first.bold or size >= body + 0.9):
        depth = m.group("num").count(".") + 1
        return min(6, depth + 1)
    if size >= body + 1.4 and not text.endswith((",", ";")) and len(text) <= 120:
        return size_levels.get(round(size * 2) / 2, 2)
    if p.first.bold and len(p.lines) == 1 and len(text) <= 60 and not text.endswith((".", ",", ":", ";")) \
            and size >= body - 0.6 and text[:1].isupper():
        return max(size_levels.values(), default=1) + 1 if size_levels else 2
    return None


def _title(paras: list[_Para | _Anchor], metadata: dict[str, Any], stem: str, body: float) -> tuple[str, _Para | None]:
    first_page = [p for p in paras if isinstance(p, _Para) and p.first.page == 1
                  and p.first.top < 0.5 * (p.first.page_height or 800)]
    best: _Para | None = None
    for p in first_page:
        if len(p.text) < 4 or len(p.text) > 250:
            continue
        if best is None or p.first.size > best.first.size + 0.1:
            best = p
    if best is not None and best.first.size >= body + 2:
        return best.text.strip(), best
    meta = str(metadata.get("Title") or "").strip()
    if meta and len(meta) >= 4 and not re.search(r"\.(docx?|pdf|tex|indd)$|^microsoft word", meta, re.IGNORECASE):
        return meta, None
    return stem, None


def _assemble(rel: str, stem: str, metadata: dict[str, Any], stream: list[Any], n_pages: int,
              context_chars: int) -> tuple[str, list[Section], list[AnyMedia]]:
    stream = _drop_running_lines(stream, n_pages)
    paras = _paragraphs(stream)
    body = _body_size(paras)
    title, title_para = _title(paras, metadata, stem, body)

    # context: per page, reading order, body paragraphs only
    by_page: dict[int, list[str | AnyMedia]] = {}
    for p in paras:
        if isinstance(p, _Anchor):
            by_page.setdefault(p.page, []).append(p.media)
        elif p is not title_para:
            by_page.setdefault(p.first.page, []).append(p.text)
    for entries in by_page.values():
        fill_context(entries, context_chars)

    # heading sizes -> levels (largest first, level 2 below the title)
    big = sorted({round(p.first.size * 2) / 2 for p in paras if isinstance(p, _Para) and p is not title_para
                  and p.first.size >= body + 1.4 and len(p.lines) <= 3 and len(p.text) <= 120}, reverse=True)
    size_levels = {s: min(6, i + 2) for i, s in enumerate(big[:4])}
    levels: list[int | None] = [None if isinstance(p, _Anchor) or p is title_para else _heading_level(p, body, size_levels)
                                for p in paras]
    has_headings = sum(1 for lv in levels if lv) >= 1

    sections: list[Section] = []
    media: list[AnyMedia] = []

    @dataclass
    class _Open:
        heading_path: tuple[str, ...]
        level: int
        page: int | None
        texts: list[str] = field(default_factory=list)
        items: list[AnyMedia] = field(default_factory=list)

    opened: list[_Open] = []
    stack: list[tuple[int, str]] = []
    cur = _Open((title,), 1, 1)
    opened.append(cur)
    last_page = 1
    for p, lv in zip(paras, levels, strict=True):
        page = p.page if isinstance(p, _Anchor) else p.first.page
        if p is title_para:
            continue
        if not has_headings and page != last_page:
            cur = _Open((title, f"Page {page}"), 2, page)
            opened.append(cur)
        last_page = page
        if isinstance(p, _Anchor):
            cur.items.append(p.media)
            continue
        if lv:
            while stack and stack[-1][0] >= lv:
                stack.pop()
            heading = re.sub(r"\s+", " ", p.text).strip()
            stack.append((lv, heading))
            cur = _Open((title, *(h for _, h in stack)), lv, page)
            opened.append(cur)
            continue
        if cur.page is None:
            cur.page = page
        cur.texts.append(p.text)
    if not has_headings and opened and opened[0].page == 1 and len(opened) > 1 and not opened[0].texts and not opened[0].items:
        opened.pop(0)
    elif not has_headings and opened:
        opened[0].heading_path = (title, "Page 1") if n_pages > 1 else (title,)
    ordinal = 0
    for o in opened:
        if not o.texts and not o.items and len(o.heading_path) > 1 and o is not opened[-1]:
            # empty heading-only section: keep it (it anchors the hierarchy) only if it has children
            pass
        if not o.texts and not o.items and o.heading_path == (title,):
            continue
        sid = stable_id(rel, " > ".join(o.heading_path), str(ordinal))
        sections.append(Section(
            id=sid, source_path=rel, page_title=title, heading_path=o.heading_path, anchor=None,
            level=o.level, text="\n\n".join(t for t in o.texts if t.strip()), ordinal=ordinal, page=o.page,
        ))
        for pos, item in enumerate(o.items):
            item.section_id = sid
            item.page_title = title
            item.heading_path = o.heading_path
            item.position = pos
            media.append(item)
        ordinal += 1
    return title, sections, media


# ----------------------------------------------------------------- entry point


def convert_pdf(path: Path, *, root: Path, assets_dir: Path, options: PdfOptions | None = None) -> ParsedDocument:
    """Convert one PDF into sections, figures and tables.

    Args:
        path: the PDF file (inside ``root``).
        root: the corpus root; ``source_path`` values are ``path`` relative to it.
        assets_dir: where figure and table crops are written as PNG
            (``<doc-id>/p<page>-fig<n>.png``); ``ImageItem.stored_path`` and
            ``TableItem.image_path`` are relative to it.
        options: see :class:`PdfOptions`.

    Returns:
        A :class:`~murar.schema.ParsedDocument` with ``pages`` set; problems
        that did not stop the parse (damaged pages, scans without OCR, dropped
        images, and what pdfminer logs about a damaged file: see
        :func:`murar.ingest.liblog.library_warnings`) are in ``warnings``.

    Raises:
        IngestError: the file cannot be opened (not a PDF, encrypted without
            the password, damaged beyond repair) or yields no text and no media.
        MissingExtraError: pdfplumber/pypdfium2/pillow are not installed
            (``pip install 'murar[pdf]'``).
    """
    opt = options or PdfOptions()
    try:
        import pdfplumber
        import pypdfium2 as pdfium
    except ImportError as err:
        raise MissingExtraError("pdfplumber pypdfium2 pillow", "pdf") from err
    path = Path(path)
    try:
        rel = path.resolve().relative_to(Path(root).resolve()).as_posix()
    except ValueError:
        rel = path.name
    conv = _PdfConverter(path, rel, Path(assets_dir), opt)
    with library_warnings(conv.warnings):
        return _convert(conv, path, opt, pdfplumber, pdfium)


def _convert(conv: _PdfConverter, path: Path, opt: PdfOptions, pdfplumber: Any, pdfium: Any) -> ParsedDocument:
    rel = conv.rel
    try:
        pdf = pdfplumber.open(path, password=opt.password or "")
        n_pages = len(pdf.pages)
    except Exception as err:  # pdfminer raises many types
        reason = "encrypted (password required)" if "password" in repr(err).lower() or "encrypt" in repr(err).lower() \
            else f"{type(err).__name__}: {err}"
        raise IngestError(f"{path.name}: cannot open PDF: {reason}") from err
    try:
        try:
            conv._pdfium_doc = pdfium.PdfDocument(str(path), password=opt.password)
        except Exception as err:  # noqa: BLE001
            conv.warnings.append(f"figures not rendered: pdfium cannot open the file: {err}")
        metadata: dict[str, Any] = {}
        for k, v in (pdf.metadata or {}).items():
            if isinstance(v, (str, int, float)):
                metadata[str(k)] = v
            elif isinstance(v, bytes):
                metadata[str(k)] = v.decode("utf-8", "replace")
        total = n_pages if opt.max_pages is None else min(n_pages, opt.max_pages)
        stream: list[Any] = []
        for i in range(total):
            page_no = i + 1
            try:
                page = pdf.pages[i]
                res = conv.page(page, page_no)
                stream.extend(res.entries)
            except Exception as err:  # one bad page must not stop the document
                log.debug("page %d of %s failed", page_no, path, exc_info=True)
                conv.warnings.append(f"page {page_no}: could not be parsed: {type(err).__name__}: {err}")
            finally:
                try:
                    pdf.pages[i].close()
                except Exception:  # noqa: BLE001, S110 - closing a page is best-effort cleanup
                    pass
            if opt.progress is not None:
                opt.progress(page_no, total)
        stream = conv.drop_repeated(stream)
        title, sections, media = _assemble(rel, path.stem, metadata, stream, total, opt.context_chars)
    finally:
        pdf.close()
        if conv._pdfium_doc is not None:
            conv._pdfium_doc.close()
    if not sections and not media:
        raise IngestError(f"{path.name}: no text or figures could be extracted ({'; '.join(conv.warnings[:3]) or 'empty'})")
    metadata["doc_id"] = conv.doc_id
    return ParsedDocument(source_path=rel, title=title, metadata=metadata, sections=sections, media=media,
                          warnings=conv.warnings, pages=n_pages)
