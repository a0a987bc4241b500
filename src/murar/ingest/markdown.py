"""Markdown pages (with Adobe's extensions) to sections, images, tables and videos.

Implements the ingestion side of MuRAR (seed 000, section 2.3): each page is
split into sections by its headings; every image, table and video keeps the
section it appears in, its position there and the text around it. markdown-it
(CommonMark + tables, plus the plugins a dialect asks for) parses the page; the
tokens feed a :class:`~murar.ingest.markup.builder.PageBuilder`, as every other
markup converter does.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path

from markdown_it import MarkdownIt
from markdown_it.rules_block.list import list_block
from markdown_it.rules_block.paragraph import paragraph
from markdown_it.rules_block.state_block import StateBlock
from markdown_it.token import Token

from murar.errors import IngestError
from murar.ingest.adobe import normalise, split_anchor
from murar.ingest.frontmatter import split_front_matter
from murar.ingest.markup.builder import (
    MarkupOptions,
    PageBuilder,
    clean_text,
    page_rel,
    read_source,
)
from murar.ingest.markup.mdtext import (
    admonition_label,
    alert_markers,
    inline_text,
    read_table,
)
from murar.ingest.markup.tabs import apply_tab_marker
from murar.ingest.mdlimits import (
    add_bracket_guard,
    add_nesting_room,
    cap_nesting,
    cap_pipe_tables,
)
from murar.ingest.media_flags import TINY, is_inline_line, length_px
from murar.ingest.sites.base import PlainSite, Site
from murar.schema import AnyMedia, ImageItem, ParsedDocument


@dataclass(frozen=True, slots=True, kw_only=True)
class MarkdownOptions(MarkupOptions):
    """Options of :func:`convert_markdown`: those of
    :class:`~murar.ingest.markup.builder.MarkupOptions` (``context_chars``,
    ``max_bytes``, ``max_code_chars``, ``check_images``) and ``plugins``:
    markdown-it plugins of mdit-py-plugins to enable on top of CommonMark +
    tables, by name (``"admon"``: ``!!! note``/``??? tip`` admonitions;
    ``"attrs"``: ``{ .class width=300 }`` attribute lists; ``"deflist"``,
    ``"footnote"``, ``"tasklists"``), for Markdown dialects such as
    Python-Markdown with pymdownx (:mod:`murar.ingest.markup.pymdown`), and
    ``"no-indented-code"``: lines indented by four spaces are not a code block
    (MDX, :mod:`murar.ingest.markup.mdx`).
    """

    plugins: tuple[str, ...] = ()


#: markdown-it plugins for the Markdown every site generator reads on top of CommonMark:
#: ``[^1]`` footnotes, which GitHub Flavored Markdown, kramdown (Jekyll), Goldmark (Hugo),
#: Markdig (DocFX) and remark-gfm (Docusaurus) all render (the note's text ends the page)
GENERATOR_PLUGINS: tuple[str, ...] = ("footnote",)


def _list_at_any_indent(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """markdown-it's list rule for Markdown without indented code (MDX: micromark with
    ``codeIndented`` disabled reads a list item at any indentation). markdown-it reads an
    item marker 4 or more columns right of the enclosing list's as the previous item's
    paragraph going on, a rule of indented code; JSX content indented under its tag
    (``<TabItem>`` then 4 spaces, "1. Download", "2. Open") ran its steps together as
    "Download. 2. Open". That rule is skipped by hiding the enclosing list's indentation
    for the call (the rule saves and restores it itself)."""
    saved = state.listIndent
    if saved >= 0 and state.sCount[start] - saved >= 4:
        state.listIndent = -1
    try:
        return bool(list_block(state, start, end, silent))
    finally:
        state.listIndent = saved


def _paragraph_at_any_indent(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """markdown-it's paragraph rule for Markdown without indented code: a line indented 4 or
    more columns past the block that starts a block a paragraph gives way to (a list item,
    a heading, a fence) ends the paragraph, as MDX reads it; markdown-it takes any such line
    for the paragraph going on ("options:" then the indented "- Setup later" item: one
    paragraph, "options: - Setup later - Send an invitation"). The paragraph is read up to
    that line by hiding the lines after it for the call."""
    terminators = state.md.block.ruler.getRules("paragraph")
    parent, state.parentType = state.parentType, "paragraph"
    stop = start + 1
    try:
        # up to where markdown-it's own rule stops (a terminator at any indentation): one pass
        while stop < state.lineMax and not state.isEmpty(stop):
            if state.sCount[stop] >= 0 and any(rule(state, stop, state.lineMax, True) for rule in terminators):
                break
            stop += 1
    finally:
        state.parentType = parent
    saved = state.lineMax
    state.lineMax = stop
    try:
        return bool(paragraph(state, start, end, silent))
    finally:
        state.lineMax = saved


def _parser(plugins: tuple[str, ...]) -> MarkdownIt:
    md = add_nesting_room(MarkdownIt("commonmark", {"html": True}).enable("table"))
    for name in plugins:
        if name == "admon":
            from mdit_py_plugins.admon import admon_plugin

            md.use(admon_plugin)
        elif name == "attrs":
            from mdit_py_plugins.attrs import attrs_plugin

            md.use(attrs_plugin)
        elif name == "deflist":
            from mdit_py_plugins.deflist import deflist_plugin

            md.use(deflist_plugin)
        elif name == "footnote":
            from mdit_py_plugins.footnote import footnote_plugin

            md.use(footnote_plugin)
        elif name == "no-indented-code":  # MDX: indented lines are not code
            md.disable("code")
            md.block.ruler.at("list", _list_at_any_indent, {"alt": ["paragraph", "reference", "blockquote"]})
            md.block.ruler.at("paragraph", _paragraph_at_any_indent)
        elif name == "tasklists":
            from mdit_py_plugins.tasklists import tasklists_plugin

            md.use(tasklists_plugin)
        else:
            raise IngestError(f"unknown Markdown plugin {name!r}")
    return md


_BR = re.compile(r"</?br\b", re.IGNORECASE)
#: the options of a pymdownx.details opening line that are a quoted title alone (``??? "Summary"``)
_DETAILS_SUMMARY = re.compile(r'^\s*"(.*)"\s*$')


def _image_alt(token: Token) -> str:
    """An image's alternative text as the page has it: the plain text of its label
    (CommonMark "Images": the description rendered as text), so ``![Run `make`](x.png)``
    is "Run make", ``![a \\_b](x.png)`` "a _b"; a nested image gives its own alt."""
    if not token.children:
        return token.content
    parts: list[str] = []
    for child in token.children:
        if child.type in ("text", "code_inline"):
            parts.append(child.content)
        elif child.type == "image":
            parts.append(_image_alt(child))
        elif child.type in ("softbreak", "hardbreak"):
            parts.append(" ")
    return "".join(parts)


def _is_br(tag: str) -> bool:
    """True for a line break tag: ``<br>``, ``<br/>``, and ``</br>``, which HTML parsers
    read as ``<br>`` (HTML Standard, "in body" insertion mode: an end tag "br" acts as
    a start tag "br")."""
    return bool(_BR.match(tag))


def _with_inline_closers(children: list[Token], i: int) -> str:
    """The HTML of inline token ``i`` plus the inline HTML up to its closing tag
    (``<video src=x><source ...></video>`` written inside a paragraph arrives as
    several ``html_inline`` tokens)."""
    first = children[i].content
    tag = first[1:].split(None, 1)[0].rstrip(">/").lower()
    parts = [first]
    for c in children[i + 1 :]:
        if c.type != "html_inline":
            break
        parts.append(c.content)
        if c.content.lower().startswith(f"</{tag}"):
            break
    return "".join(parts)


def _figure_caption(headers: list[str], rows: list[list[str]]) -> str | None:
    """The caption of a figure written as a one-column table (an image cell and a
    caption cell, ``| ![Figure 1](a.png) |`` over ``| **Figure 1: Setup** |``, the
    GitHub way to caption an image): the text of its cells, or ``None`` when the
    table is not one (more than one column, more than three cells, or no cell
    without text for the image)."""
    cells = ([headers] if headers else []) + rows
    if not cells or len(cells) > 3 or any(len(row) != 1 for row in cells):
        return None
    texts = [row[0].strip() for row in cells]
    if all(texts):
        return None
    return " ".join(t for t in texts if t)


class _Walker:
    """Feeds the markdown-it tokens of one page into a :class:`PageBuilder`."""

    def __init__(self, builder: PageBuilder, options: MarkdownOptions) -> None:
        self.b = builder
        self.opts = options
        self.admonition = "note"
        self.summary: str | None = None  # the quoted title of a details block without a type
        self.quotes: list[tuple[int, list[tuple[int, str]]]] = []  # open block quotes (PageBuilder.open_container)

    def _video(self, url: str, title: str = "") -> None:
        self.b.cur.end_paragraph()
        self.b.video(url, title=title)

    def _cell(self, tok: Token) -> str:
        """The text of a table cell; a cell holding only icons reads their alt text (a
        feature matrix's check mark ``![Yes](check.png)``), as an HTML table's cell does
        (:func:`murar.ingest.tables.cell_text`). A screenshot's alt text is not read: a grid
        of pictures stays a layout table."""
        cell: list[str] = []
        icons: list[str] = []
        self._inline(tok, cell, icons=icons)
        return clean_text("".join(cell)) or clean_text(" ".join(icons))

    def _cell_in(self, cells: list[tuple[str, list[AnyMedia]]], tok: Token) -> str:
        """:meth:`_cell`, recording the cell's text and the media written in it in ``cells``."""
        start = len(self.b.cur.media)
        text = self._cell(tok)
        cells.append((text, [m for m, _ in self.b.cur.media[start:]]))
        return text

    def _inline(self, tok: Token, sink: list[str], *, heading: bool = False,
                icons: list[str] | None = None) -> None:
        """Append the text of ``tok``'s children to ``sink`` and add its images to the page;
        ``icons`` collects the alt text of the images flagged ``tiny``."""
        children = tok.children or []
        # source line of each child and the text of each line: an image with words on
        # its own line is an icon inside a sentence (media_flags.INLINE)
        line_of: list[int] = []
        line_text: dict[int, list[str]] = {}
        ln = 0
        for c in children:
            if c.type in ("softbreak", "hardbreak") or (c.type == "html_inline" and _is_br(c.content)):
                ln += 1
            line_of.append(ln)
            if c.type in ("text", "code_inline"):
                line_text.setdefault(ln, []).append(c.content)

        inline_line: dict[int, bool] = {}  # per line, not per image (10,000 images on one line)

        def in_sentence(k: int) -> bool:
            ln = line_of[k]
            if ln not in inline_line:
                inline_line[ln] = is_inline_line(" ".join(line_text.get(ln, [])), "")
            return inline_line[ln]

        def image(k: int) -> None:
            c = children[k]
            # an attribute list's width ({ width="20" }, attr_list / MyST attrs) is the size it is drawn at
            alt = _image_alt(c)
            item = self.b.image(str(c.attrs.get("src", "")), alt=alt, caption=str(c.attrs.get("title") or ""),
                                inline=in_sentence(k), declared_width=length_px(str(c.attrs.get("width") or "")))
            if icons is not None and item is not None and TINY in item.flags and alt.strip():
                icons.append(alt)

        i = 0
        while i < len(children):
            c = children[i]
            if c.type == "text" or c.type == "code_inline":
                sink.append(c.content)
            elif c.type in ("softbreak", "hardbreak"):
                sink.append(" ")
            elif c.type == "image":
                if heading:
                    sink.append(_image_alt(c))
                else:
                    image(i)
            elif c.type == "link_open":
                href = str(c.attrs.get("href", ""))
                # collect the link text up to the matching close
                depth, j, text_parts = 1, i + 1, []
                while j < len(children) and depth:
                    if children[j].type == "link_open":
                        depth += 1
                    elif children[j].type == "link_close":
                        depth -= 1
                        if depth == 0:
                            break
                    elif children[j].type == "image" and not heading:
                        image(j)
                    elif children[j].type == "html_inline":  # a tag in the link text is not text; <br> a space
                        tag = children[j].content.lower()
                        if tag.startswith(("<img", "<video", "<iframe", "<object")) and not heading:
                            self.b.html(_with_inline_closers(children, j), inline=True, in_sentence=in_sentence(j))
                        text_parts.append(" " if _is_br(tag) else "")
                    elif children[j].type in ("softbreak", "hardbreak"):  # a link text wrapped onto two lines
                        text_parts.append(" ")
                    else:
                        text_parts.append(children[j].content)
                    j += 1
                raw_label = "".join(text_parts)
                label = raw_label.strip()
                if label.upper() == "!VIDEO" and not heading:
                    self._video(href)
                elif label:  # space at an edge of the link text still parts it from the words around
                    sink.append((" " if raw_label[0].isspace() else "") + label
                                + (" " if raw_label[-1].isspace() else ""))
                i = j
            elif c.type == "html_inline":
                tag = c.content.lower()
                if _is_br(tag):
                    sink.append(" ")
                elif tag.startswith(("<img", "<video", "<iframe", "<object")) and not heading:
                    self.b.html(_with_inline_closers(children, i), inline=True, in_sentence=in_sentence(i))
            i += 1

    def walk(self, tokens: list[Token]) -> None:
        b = self.b
        i = 0
        while i < len(tokens):
            t = tokens[i]
            if t.type == "heading_open":
                parts: list[str] = []
                self._inline(tokens[i + 1], parts, heading=True)
                title, anchor = split_anchor(clean_text("".join(parts)))
                b.heading(int(t.tag[1]), title, anchor)
                i += 3
                continue
            if t.type == "table_open":
                before = len(b.cur.media)
                cells: list[tuple[str, list[AnyMedia]]] = []  # every cell in reading order, with its media
                headers, rows, i = read_table(tokens, i, functools.partial(self._cell_in, cells))
                added = [m for m, _ in b.cur.media[before:]]
                caption = _figure_caption(headers, rows)
                if caption is not None and added and all(isinstance(m, ImageItem) for m in added):
                    for img in added:  # a figure laid out as a table: its text is the caption
                        if isinstance(img, ImageItem) and not img.caption:
                            img.caption = caption
                else:
                    b.table(headers, rows)
                    _row_context(b, cells, [len(headers), *(len(r) for r in rows)])
                    _grid_labels(cells, [len(headers), *(len(r) for r in rows)])
            elif t.type == "inline":
                self._inline(t, b.cur.current)
            elif t.type == "blockquote_open":
                self.quotes.append(b.open_container())
            elif t.type == "blockquote_close":
                b.cur.end_paragraph()
                if self.quotes:
                    b.close_container(self.quotes.pop())
            elif t.type in ("paragraph_close", "list_item_close", "admonition_close", "dt_close", "dd_close"):
                b.cur.end_paragraph()
            elif t.type == "admonition_open":
                b.cur.end_paragraph()
                self.admonition = str((t.meta or {}).get("tag") or "note")
                # pymdownx.details: ``??? "Summary"`` (a quoted title, no type) is a block whose
                # summary is the title alone (details.py START: the type is optional before it)
                summary = _DETAILS_SUMMARY.match(t.info or "") if t.markup.startswith("?") else None
                self.summary = summary.group(1) if summary else None
            elif t.type == "admonition_title_close":
                sec = b.cur
                label = (inline_text(self.summary) if self.summary is not None
                         else admonition_label(self.admonition, clean_text("".join(sec.current))))
                sec.current[:] = [label] if label else []
                sec.end_paragraph()
            elif t.type in ("fence", "code_block"):
                b.code(t.content)
            elif t.type == "html_block" and not apply_tab_marker(b, t.content):
                b.html(t.content)
            i += 1


def _row_context(b: PageBuilder, cells: list[tuple[str, list[AnyMedia]]], widths: list[int]) -> None:
    """Give each medium written in a table cell the text of its row around it: the
    cells left of its cell before it, its own cell and the cells right of it after
    it (``widths``: the cell count of the header row, then of each body row)."""
    start = 0
    for width in widths:
        row = cells[start : start + width]
        start += width
        # its own cell's words (a connector icon's name) come first after it
        placed = [(m, k) for k, (_, media) in enumerate(row) for m in media]
        if placed:
            b.table_row([t for t, _ in row], placed)


def _grid_labels(cells: list[tuple[str, list[AnyMedia]]], widths: list[int]) -> None:
    """Caption the pictures of a picture grid by their column's label: in a table whose
    rows are either labels (cells with text, no picture) or pictures (cells with a
    picture, no text), as ``| Home | Connected |`` over two screenshots, each picture
    without alt text or caption is named by the nearest label above it in its column
    (the header, or a label row between picture rows). A table with a row mixing text
    and pictures (a step and its screenshot, a feature matrix) is left as it is."""
    grid: list[list[tuple[str, list[AnyMedia]]]] = []
    start = 0
    for width in widths:
        grid.append(cells[start : start + width])
        start += width
    pictures = False
    for row in grid:
        texts = any(text for text, media in row if not media)
        shown = any(media for _, media in row)
        if (texts and shown) or any(text and media for text, media in row):
            return
        pictures = pictures or shown
    if not pictures:
        return
    labels: dict[int, str] = {}
    for row in grid:
        for k, (text, media) in enumerate(row):
            if text:
                labels[k] = text
            for m in media:
                if isinstance(m, ImageItem) and not m.caption and not m.alt and labels.get(k):
                    m.caption = labels[k]


def _convert(text: str, *, rel: str, root: Path, site: Site | None, options: MarkdownOptions,
             warnings: list[str], preprocessed: bool = False) -> ParsedDocument:
    b = PageBuilder(rel=rel, site=site or PlainSite(root), options=options)
    b.warnings.extend(warnings)
    if not preprocessed:
        text = b.site.preprocess(text, page_rel=rel, warnings=b.warnings)
    meta, body = split_front_matter(text, b.warnings)
    b.title = str(meta.get("title") or "").strip()
    body, cut = cap_pipe_tables(alert_markers(normalise(body, attr_lists="attrs" in options.plugins,
                                                               any_indent_fences="no-indented-code" in options.plugins)))
    b.warnings.extend(cut)
    body, deep = cap_nesting(body)  # markdown-it drops the rest of a page past its nesting limit
    b.warnings.extend(deep)
    md = _parser(options.plugins)
    # every link reaches murar's own rules (paths.resolve_link), which warn about
    # file:, data: and javascript: images instead of leaving them as silent text
    md.validateLink = lambda url: True  # type: ignore[method-assign]
    add_bracket_guard(md)
    try:
        tokens = md.parse(body)
    except Exception as err:  # markdown-it is total, but never lose the file
        raise IngestError(f"cannot parse {rel}: {err}") from err
    _Walker(b, options).walk(tokens)
    return b.finish(metadata=meta, page_url=str(meta["url"]) if isinstance(meta.get("url"), str) else None)


def convert_markdown(path: Path, *, root: Path, options: MarkdownOptions | None = None,
                     site: Site | None = None) -> ParsedDocument:
    """Parse one Markdown page into sections and media.

    ``root`` is the corpus root; every path in the result is relative to it.
    Problems that do not stop the parse (missing or corrupt images, links that
    escape the root, bad front matter, undecodable bytes) are returned in
    ``ParsedDocument.warnings``; every image/video reference is in
    ``ParsedDocument.asset_refs``. ``site`` (default :class:`PlainSite`) rewrites
    generator syntax first (:meth:`Site.preprocess`) and resolves every link.

    Raises:
        IngestError: the file cannot be read, is binary, or is outside ``root``.
    """
    opts = options or MarkdownOptions()
    root = root.resolve()
    rel = page_rel(path, root)
    warnings: list[str] = []
    text = read_source(path, max_bytes=opts.max_bytes, warnings=warnings)
    return _convert(text, rel=rel, root=root, site=site, options=opts, warnings=warnings)


def convert_markdown_text(text: str, *, path: Path, root: Path, site: Site | None = None,
                          options: MarkdownOptions | None = None, warnings: list[str] | None = None,
                          preprocessed: bool = False) -> ParsedDocument:
    """Like :func:`convert_markdown` for ``text`` already read from ``path`` (or
    produced from it, e.g. MDX turned into Markdown by :mod:`murar.ingest.markup.mdx`);
    ``warnings`` (reading it, rewriting it) come first in the result's warnings.
    ``preprocessed``: the caller already ran ``site.preprocess`` on the text."""
    root = root.resolve()
    return _convert(text, rel=page_rel(path, root), root=root, site=site, options=options or MarkdownOptions(),
                    warnings=warnings or [], preprocessed=preprocessed)
