"""Markdown pages (with Adobe's extensions) to sections, images, tables and videos.

Implements the ingestion side of MuRAR (seed 000, section 2.3): each page is
split into sections by its headings; every image, table and video keeps the
section it appears in, its position there and the text around it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token
from selectolax.lexbor import LexborHTMLParser

from murar.errors import IngestError
from murar.ingest.adobe import normalise, split_anchor
from murar.ingest.assets import resolve_reference
from murar.ingest.captions import clip_after, clip_before
from murar.ingest.frontmatter import split_front_matter
from murar.ingest.mdlimits import add_bracket_guard, cap_pipe_tables
from murar.ingest.media_flags import flag_image, is_inline_line
from murar.ingest.paths import ResolvedLink, check_image, is_remote, is_web_url
from murar.ingest.sites.base import PlainSite, Site
from murar.ingest.tables import parse_table_node, rows_to_markdown
from murar.ingest.transcripts import cues_text, find_cues
from murar.ingest.videos import locate_video
from murar.schema import (
    AnyMedia,
    AssetRef,
    ImageItem,
    ParsedDocument,
    Section,
    TableItem,
    VideoItem,
    stable_id,
)

_WS = re.compile(r"[ \t\r\f\v]+")


@dataclass(frozen=True, slots=True, kw_only=True)
class MarkdownOptions:
    """Options of :func:`convert_markdown`.

    ``context_chars``: characters of section text kept before and after each
    media item. ``max_bytes``: larger files are truncated (with a warning).
    ``max_code_chars``: code blocks longer than this are cut. ``plugins``:
    markdown-it plugins of mdit-py-plugins to enable on top of CommonMark +
    tables, by name (``"admon"``: ``!!! note``/``??? tip`` admonitions;
    ``"attrs"``: ``{ .class width=300 }`` attribute lists; ``"deflist"``,
    ``"footnote"``, ``"tasklists"``), for Markdown dialects such as
    Python-Markdown with pymdownx (:mod:`murar.ingest.markup.pymdown`).
    """

    context_chars: int = 300
    max_bytes: int = 5_000_000
    max_code_chars: int = 2_000
    check_images: bool = True
    plugins: tuple[str, ...] = ()


# image variants a theme shows only in dark mode (Material ``#only-dark``, GitHub
# ``#gh-dark-mode-only``): the light twin beside it is the one kept
_DARK_ONLY = ("#only-dark", "#gh-dark-mode-only")


def _parser(plugins: tuple[str, ...]) -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": True}).enable("table")
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
        elif name == "tasklists":
            from mdit_py_plugins.tasklists import tasklists_plugin

            md.use(tasklists_plugin)
        else:
            raise IngestError(f"unknown Markdown plugin {name!r}")
    return md


@dataclass(slots=True)
class _SectionBuilder:
    heading_path: tuple[str, ...]
    level: int
    anchor: str | None
    ordinal: int
    parts: list[str] = field(default_factory=list)  # text paragraphs
    # media with the character offset in the joined section text where it sits
    media: list[tuple[AnyMedia, int]] = field(default_factory=list)
    current: list[str] = field(default_factory=list)  # text of the paragraph being built

    def text_so_far(self) -> str:
        done = "\n\n".join(p for p in self.parts if p)
        cur = _clean("".join(self.current))
        return f"{done}\n\n{cur}" if done and cur else (done or cur)

    def end_paragraph(self) -> None:
        text = _clean("".join(self.current))
        if text:
            self.parts.append(text)
        self.current.clear()


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


def _clean(text: str) -> str:
    text = _WS.sub(" ", text)
    return "\n".join(line.strip() for line in text.split("\n")).strip()


def _read_text(path: Path, max_bytes: int, warnings: list[str]) -> str:
    try:
        with path.open("rb") as fh:
            data = fh.read(max_bytes + 1)
    except OSError as err:
        raise IngestError(f"cannot read {path}: {err}") from err
    if len(data) > max_bytes:
        data = data[:max_bytes]
        warnings.append(f"file larger than {max_bytes} bytes: truncated")
    if b"\x00" in data[:8192]:
        raise IngestError(f"{path.name} looks binary (NUL bytes), not Markdown")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        for enc in ("cp1252",):
            try:
                text = data.decode(enc)
                warnings.append(f"not valid UTF-8; decoded as {enc}")
                return text
            except UnicodeDecodeError:
                continue
        warnings.append("not valid UTF-8; undecodable bytes replaced")
        return data.decode("utf-8", errors="replace")


def _px(value: str | None) -> int | None:
    """A width attribute in pixels (``"24"``, ``"24px"``); ``None`` for percentages or junk."""
    m = re.fullmatch(r"\s*(\d{1,5})\s*(px)?\s*", value or "")
    return int(m.group(1)) if m else None


class _Converter:
    def __init__(self, path: Path, root: Path, options: MarkdownOptions, site: Site | None = None) -> None:
        self.path = path
        self.root = root.resolve()
        self.opts = options
        self.site: Site = site or PlainSite(self.root)
        self.rel = path.resolve().relative_to(self.root).as_posix()
        self.warnings: list[str] = []
        self.asset_refs: list[AssetRef] = []
        self.sections: list[_SectionBuilder] = []
        self.page_title = ""
        self.table_index = 0
        self.video_ordinal = 0
        self.admonition = "note"
        self.stack: list[tuple[int, str]] = []

    # ----------------------------------------------------------- sections
    def _new_section(self, level: int, title: str, anchor: str | None) -> None:
        if self.sections:
            self.sections[-1].end_paragraph()
        while self.stack and self.stack[-1][0] >= level:
            self.stack.pop()
        self.stack.append((level, title))
        path = tuple(t for _, t in self.stack)
        self.sections.append(_SectionBuilder(path, level, anchor, len(self.sections)))

    @property
    def cur(self) -> _SectionBuilder:
        if not self.sections:
            title = self.page_title or Path(self.rel).stem
            self.sections.append(_SectionBuilder((title,), 1, None, 0))
            self.stack = [(0, title)]
        return self.sections[-1]

    def _placement(self, sec: _SectionBuilder) -> dict[str, Any]:
        """Fields every media item takes from where it sits; section id and page title
        are filled in when the page is finished."""
        return {"section_id": "", "source_path": self.rel, "page_title": "",
                "heading_path": sec.heading_path, "anchor": sec.anchor, "position": len(sec.media)}

    def _add_media(self, item_factory: Any) -> None:
        sec = self.cur
        offset = len(sec.text_so_far())
        item = item_factory(sec)
        if item is not None:
            sec.media.append((item, offset))

    # --------------------------------------------------------------- media
    def _image(self, src: str, alt: str, title: str, *, inline: bool = False,
               declared_width: int | None = None) -> None:
        ref = resolve_reference(self.site, src, page_rel=self.rel, kind="image")
        self.asset_refs.append(ref)
        if src.strip().lower().endswith(_DARK_ONLY):
            return  # counted, not shown twice: its light variant is the image of this step
        if ref.status in ("escapes_root", "inline", "unsupported"):
            self.warnings.append(f"image {src!r}: {ref.reason}")
            return
        rel_path = ref.path
        url = src.strip().strip("<>") if ref.status == "remote" else None
        exists = False
        width = height = None
        if rel_path is not None:
            if self.opts.check_images:
                chk = check_image(self.root / rel_path)
                exists, width, height = chk.ok, chk.width, chk.height
                if not chk.ok:
                    self.warnings.append(f"image {rel_path}: {chk.problem}")
            else:
                exists = (self.root / rel_path).is_file()

        def make(sec: _SectionBuilder) -> ImageItem:
            pos = len(sec.media)
            item = ImageItem(
                id=stable_id(self.rel, "image", str(sec.ordinal), str(pos), src),
                **self._placement(sec),
                caption=title.strip(),
                alt=_clean(alt),
                path=rel_path,
                url=url,
                exists=exists,
                width=width,
                height=height,
            )
            file = self.root / rel_path if rel_path is not None and exists else None
            return flag_image(item, inline=inline, file=file, declared_width=declared_width)

        self._add_media(make)

    def _video(self, url: str, title: str = "") -> None:
        ref = resolve_reference(self.site, url, page_rel=self.rel, kind="video")
        self.asset_refs.append(ref)
        if ref.status in ("escapes_root", "inline") or (is_remote(url) and not is_web_url(url)):
            # javascript:, file:, ... never become a video item (its URL reaches every renderer)
            self.warnings.append(f"video {url!r}: {ref.reason}")
            return
        self.video_ordinal += 1
        link = (ResolvedLink(url=url) if ref.status == "remote" else
                ResolvedLink(rel_path=ref.path) if ref.path else ResolvedLink(problem=ref.reason))
        local = locate_video(url, link, self.root, self.warnings)
        cues, sidecar = find_cues(self.root / self.rel, url, self.video_ordinal, self.warnings,
                                  video_file=self.root / local.path if local.path else None)

        def make(sec: _SectionBuilder) -> VideoItem:
            pos = len(sec.media)
            return VideoItem(
                id=stable_id(self.rel, "video", str(sec.ordinal), str(pos), url),
                **self._placement(sec),
                url=url.strip(),
                title=title or sec.heading_path[-1],
                transcript=cues_text(cues),
                cues=cues,
                transcript_source=f"sidecar:{sidecar}" if sidecar else "",
                path=local.path,
                exists=local.exists,
            )

        self._add_media(make)

    def _table(self, headers: list[str], rows: list[list[str]], caption: str = "") -> None:
        if not headers and not rows:
            return
        index = self.table_index
        self.table_index += 1

        def make(sec: _SectionBuilder) -> TableItem:
            return TableItem(
                id=stable_id(self.rel, "table", str(index)),
                **self._placement(sec),
                caption=caption,
                headers=headers,
                rows=rows,
                markdown=rows_to_markdown(headers, rows),
                index_in_page=index,
            )

        self.cur.end_paragraph()
        self._add_media(make)

    # -------------------------------------------------------------- tokens
    def _inline(self, tok: Token, sink: list[str], *, heading: bool = False) -> None:
        children = tok.children or []
        # source line of each child and the text of each line: an image with words on
        # its own line is an icon inside a sentence (media_flags.INLINE)
        line_of: list[int] = []
        line_text: dict[int, list[str]] = {}
        ln = 0
        for c in children:
            if c.type in ("softbreak", "hardbreak") or (c.type == "html_inline" and c.content.lower().startswith("<br")):
                ln += 1
            line_of.append(ln)
            if c.type in ("text", "code_inline"):
                line_text.setdefault(ln, []).append(c.content)

        def in_sentence(k: int) -> bool:
            return is_inline_line(" ".join(line_text.get(line_of[k], [])), "")

        i = 0
        while i < len(children):
            c = children[i]
            if c.type == "text" or c.type == "code_inline":
                sink.append(c.content)
            elif c.type in ("softbreak", "hardbreak"):
                sink.append(" ")
            elif c.type == "image":
                if heading:
                    sink.append(c.content)
                else:
                    self._image(str(c.attrs.get("src", "")), c.content, str(c.attrs.get("title") or ""),
                                inline=in_sentence(i))
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
                        self._image(str(children[j].attrs.get("src", "")), children[j].content,
                                    str(children[j].attrs.get("title") or ""), inline=in_sentence(j))
                    else:
                        text_parts.append(children[j].content)
                    j += 1
                label = "".join(text_parts).strip()
                if label.upper() == "!VIDEO" and not heading:
                    self.cur.end_paragraph()
                    self._video(href)
                else:
                    sink.append(label)
                i = j
            elif c.type == "html_inline":
                tag = c.content.lower()
                if tag.startswith("<br"):
                    sink.append(" ")
                elif tag.startswith(("<img", "<video", "<iframe")) and not heading:
                    self._html_block(_with_inline_closers(children, i), inline=True, in_sentence=in_sentence(i))
            i += 1

    def _html_block(self, html: str, *, inline: bool = False, in_sentence: bool = False) -> None:
        try:
            tree = LexborHTMLParser(html)
        except Exception as err:  # noqa: BLE001 - selectolax is lenient; be safe anyway
            self.warnings.append(f"unparsable HTML block skipped ({type(err).__name__})")
            return
        root = tree.body or tree.root
        if root is None:
            return
        for bad in root.css("script, style, noscript, template"):
            bad.decompose()
        for table in root.css("table"):
            if table.parent is not None and table.parent.tag not in ("td", "th"):
                parsed = parse_table_node(table)
                caption = table.css_first("caption")
                self._table(parsed.headers, parsed.rows, caption.text(strip=True) if caption else "")
            table.decompose()
        for fig in root.css("figure"):  # <figure><img><figcaption>: the caption is the author's
            cap_node = fig.css_first("figcaption")
            fig_caption = cap_node.text(separator=" ", strip=True) if cap_node is not None else ""
            for node in fig.css("img"):
                src = node.attributes.get("src") or ""
                if src:
                    self._image(src, node.attributes.get("alt") or "", fig_caption or node.attributes.get("title") or "")
                node.decompose()
        for node in root.css("img"):
            src = node.attributes.get("src") or ""
            if src:
                self._image(src, node.attributes.get("alt") or "", node.attributes.get("title") or "",
                            inline=in_sentence, declared_width=_px(node.attributes.get("width")))
            node.decompose()
        for node in root.css("iframe, video"):
            src = node.attributes.get("src") or ""
            if not src:
                source = node.css_first("source")
                src = (source.attributes.get("src") or "") if source else ""
            if src:
                self.cur.end_paragraph()
                self._video(src, node.attributes.get("title") or "")
            node.decompose()
        if inline:
            return
        text = root.text(separator=" ", strip=True)
        if text:
            sec = self.cur
            sec.end_paragraph()
            sec.current.append(text)
            sec.end_paragraph()

    def run(self, text: str) -> ParsedDocument:
        text = self.site.preprocess(text, page_rel=self.rel, warnings=self.warnings)
        meta, body = split_front_matter(text, self.warnings)
        self.page_title = str(meta.get("title") or "").strip()
        body, cut = cap_pipe_tables(normalise(body))
        self.warnings.extend(cut)
        md = _parser(self.opts.plugins)
        # every link reaches murar's own rules (paths.resolve_link), which warn about
        # file:, data: and javascript: images instead of leaving them as silent text
        md.validateLink = lambda url: True  # type: ignore[method-assign]
        add_bracket_guard(md)
        try:
            tokens = md.parse(body)
        except Exception as err:  # markdown-it is total, but never lose the file
            raise IngestError(f"cannot parse {self.rel}: {err}") from err
        i = 0
        in_table: dict[str, Any] | None = None
        while i < len(tokens):
            t = tokens[i]
            if t.type == "heading_open":
                level = int(t.tag[1])
                parts: list[str] = []
                self._inline(tokens[i + 1], parts, heading=True)
                title, anchor = split_anchor(_clean("".join(parts)))
                if not self.page_title and level == 1:
                    self.page_title = title
                self._new_section(level, title or "(untitled)", anchor)
                i += 3
                continue
            if t.type == "table_open":
                in_table = {"headers": [], "rows": [], "row": None, "head": False}
            elif in_table is not None:
                if t.type == "thead_open":
                    in_table["head"] = True
                elif t.type == "thead_close":
                    in_table["head"] = False
                elif t.type == "tr_open":
                    in_table["row"] = []
                elif t.type == "tr_close":
                    row = in_table["row"] or []
                    if in_table["head"]:
                        in_table["headers"] = row
                    else:
                        in_table["rows"].append(row)
                    in_table["row"] = None
                elif t.type == "inline":
                    cell: list[str] = []
                    self._inline(t, cell)
                    if in_table["row"] is not None:
                        in_table["row"].append(_clean("".join(cell)))
                elif t.type == "table_close":
                    self._table(in_table["headers"], in_table["rows"])
                    in_table = None
            elif t.type == "inline":
                self._inline(t, self.cur.current)
            elif t.type in ("paragraph_close", "list_item_close", "blockquote_close", "admonition_close",
                            "dt_close", "dd_close"):
                self.cur.end_paragraph()
            elif t.type == "admonition_open":
                self.cur.end_paragraph()
                self.admonition = str((t.meta or {}).get("tag") or "note")
            elif t.type == "admonition_title_close":
                sec = self.cur
                title = _clean("".join(sec.current))
                kind = self.admonition.replace("-", " ").capitalize()
                sec.current[:] = [kind + ":" if not title or title.lower() == self.admonition.lower()
                                  else f"{kind}: {title}"]
                sec.end_paragraph()
            elif t.type in ("fence", "code_block"):
                code = t.content[: self.opts.max_code_chars]
                sec = self.cur
                sec.end_paragraph()
                sec.parts.append(code.strip())
            elif t.type == "html_block":
                self._html_block(t.content)
            i += 1
        return self._finish(meta)

    def _finish(self, meta: dict[str, Any]) -> ParsedDocument:
        if self.sections:
            self.sections[-1].end_paragraph()
        title = self.page_title or Path(self.rel).stem
        sections: list[Section] = []
        media: list[AnyMedia] = []
        n = self.opts.context_chars
        for sb in self.sections:
            text = "\n\n".join(p for p in sb.parts if p)
            sid = stable_id(self.rel, "section", str(sb.ordinal), " > ".join(sb.heading_path))
            sections.append(
                Section(
                    id=sid,
                    source_path=self.rel,
                    page_title=title,
                    heading_path=sb.heading_path,
                    anchor=sb.anchor,
                    level=sb.level,
                    text=text,
                    ordinal=sb.ordinal,
                    page_url=str(meta["url"]) if isinstance(meta.get("url"), str) else None,
                )
            )
            for item, offset in sb.media:
                item.section_id = sid
                item.page_title = title
                before = text[:offset].strip()
                after = text[offset:].strip()
                item.context_before = clip_before(before, n)
                item.context_after = clip_after(after, n)
                media.append(item)
        meta_out = {k: v for k, v in meta.items() if isinstance(v, (str, int, float, bool, list))}
        return ParsedDocument(
            source_path=self.rel,
            title=title,
            metadata=meta_out,
            sections=sections,
            media=media,
            warnings=self.warnings,
            asset_refs=self.asset_refs,
        )


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
    root = root.resolve()
    try:
        path.resolve().relative_to(root)
    except ValueError as err:
        raise IngestError(f"{path} is outside the corpus root {root}") from err
    conv = _Converter(path, root, options or MarkdownOptions(), site)
    text = _read_text(path, conv.opts.max_bytes, conv.warnings)
    return conv.run(text)


def read_markdown_file(path: Path, max_bytes: int, warnings: list[str]) -> str:
    """Text of a Markdown-like file (UTF-8, else cp1252, else replaced bytes;
    truncated to ``max_bytes`` bytes), problems appended to ``warnings``.

    Raises:
        IngestError: the file cannot be read or looks binary.
    """
    return _read_text(path, max_bytes, warnings)


def convert_markdown_text(text: str, *, path: Path, root: Path, site: Site | None = None,
                          options: MarkdownOptions | None = None) -> ParsedDocument:
    """Like :func:`convert_markdown` for ``text`` already read from ``path`` (or
    produced from it, e.g. MDX turned into Markdown by :mod:`murar.ingest.markup.mdx`)."""
    root = root.resolve()
    try:
        path.resolve().relative_to(root)
    except ValueError as err:
        raise IngestError(f"{path} is outside the corpus root {root}") from err
    return _Converter(path, root, options or MarkdownOptions(), site).run(text)

