"""HTML converter: main content to sections, images, tables and video embeds.

* Only the main content is read: ``<main>``/``[role=main]``/the largest
  ``<article>``, else ``<body>``; navigation, page header/footer, asides,
  cookie/consent banners, hidden elements and script/style/noscript/template
  are dropped. Script content never becomes text.
* Title: ``og:title``, else ``<title>``, else the first ``<h1>``, else the file
  stem; a title that is the ``<h1>`` joined to the site's name by a separator
  ("API — Flask Documentation", "Install | My Site") is the ``<h1>``. The
  canonical URL (``<link rel=canonical>``/``og:url``) goes to ``Section.page_url``.
* ``<h1>``–``<h6>`` start sections (MuRAR section 2: media belong to the
  section they appear in); ``heading_path`` starts with the page title.
* ``<img>`` (alt, ``<figure><figcaption>`` caption), ``<table>`` (JSON rows,
  colspan/rowspan expanded by :mod:`murar.ingest.tables`), ``<video>`` and
  video ``<iframe>`` embeds become media items with up to ``context_chars``
  characters of the section text before and after them (seed 001).
* Local image paths resolve relative to the page (``/x`` relative to the
  corpus root) and must stay inside the root: an escaping path is never read,
  the item is kept with ``exists=False`` and a warning. Remote URLs are only
  recorded in ``url``, never fetched.
* Bytes are decoded by BOM, then ``<meta charset>``, then UTF-8; undecodable
  input falls back to Windows-1252 with a warning.
"""

from __future__ import annotations

import codecs
import functools
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import unquote, urlsplit

from selectolax.lexbor import LexborHTMLParser, LexborNode

from murar.errors import IngestError
from murar.ingest.assets import resolve_reference
from murar.ingest.captions import DEFAULT_CONTEXT_CHARS, fill_context, row_contexts
from murar.ingest.htmltext import MAX_TREE_DEPTH, cap_depth
from murar.ingest.media_flags import (
    aria_flags,
    flag_image,
    is_inline_line,
    px_width,
)
from murar.ingest.paths import (
    ResolvedLink,
    inside_root,
    is_remote,
    is_web_url,
    link_path_problem,
    resolve_link,
)
from murar.ingest.quality import (
    ImageCandidate,
    ImageQualityFilter,
    QualityOptions,
    drop_warning,
)
from murar.ingest.sites.base import Site
from murar.ingest.tables import cell_text, parse_table_node, rows_to_markdown
from murar.ingest.transcripts import cues_text, find_cues, read_cues
from murar.ingest.videos import LocalVideo, locate_video
from murar.schema import (
    AnyMedia,
    AssetRef,
    ImageItem,
    MediaItem,
    ParsedDocument,
    Section,
    TableItem,
    TranscriptCue,
    VideoItem,
    stable_id,
)

__all__ = ["LAZY_IMAGE_ATTRS", "HtmlOptions", "convert_html", "convert_html_text", "decode_html", "image_source"]

_M = TypeVar("_M", ImageItem, TableItem, VideoItem)

_WS = re.compile(r"[ \t\r\f\v]+")
_SKIP = frozenset({
    "script", "style", "noscript", "template", "nav", "aside", "svg", "canvas", "button", "select",
    "input", "textarea", "option", "form", "dialog", "object", "embed", "map", "head", "meta", "link",
})
_BLOCK = frozenset({
    "p", "div", "section", "article", "main", "li", "ul", "ol", "dl", "dt", "dd", "blockquote", "pre",
    "address", "details", "summary", "hr", "body", "center", "header", "footer", "tr", "tbody",
})
_HEADINGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
_BANNER_RE = re.compile(r"cookie|consent|gdpr|onetrust|cc-window|cc-banner|newsletter-popup|skip-link|breadcrumb",
                        re.IGNORECASE)
_VIDEO_HOST_RE = re.compile(r"youtube\.com|youtu\.be|vimeo\.com|wistia|brightcove|/embed/|video|player",
                            re.IGNORECASE)
_META_CHARSET_RE = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_:.\-]+)""", re.IGNORECASE)


@dataclass(frozen=True, slots=True, kw_only=True)
class HtmlOptions:
    """Options of :func:`convert_html`.

    ``context_chars``: characters of section text kept before/after each media
    item. ``encoding``: force a codec instead of sniffing. ``quality``: the
    size/aspect checks of the image-quality filter, applied to local images
    whose size is known (file header or ``width``/``height`` attributes).
    ``max_bytes``: larger files are refused with :class:`IngestError`.
    """

    context_chars: int = DEFAULT_CONTEXT_CHARS
    encoding: str | None = None
    quality: QualityOptions = field(default_factory=QualityOptions)
    max_bytes: int = 50_000_000


def decode_html(data: bytes, encoding: str | None = None) -> tuple[str, str, list[str]]:
    """Decode HTML bytes: ``(text, codec used, warnings)``.

    Order: forced ``encoding``, byte-order mark, ``<meta charset>`` in the first
    4 KiB, UTF-8; when the chosen codec fails, Windows-1252 with undecodable
    bytes replaced, and a warning.
    """
    warnings: list[str] = []
    candidates: list[str] = []
    if encoding:
        candidates.append(encoding)
    for bom, name in ((codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"),
                      (codecs.BOM_UTF16_BE, "utf-16")):
        if data.startswith(bom):
            candidates.append(name)
    m = _META_CHARSET_RE.search(data[:4096])
    if m:
        declared = m.group(1).decode("ascii", "replace").lower()
        try:
            codecs.lookup(declared)
            candidates.append(declared)
        except LookupError:
            warnings.append(f"unknown declared charset {declared!r}")
    candidates.append("utf-8")
    for name in candidates:
        try:
            return data.decode(name), name, warnings
        except (UnicodeDecodeError, LookupError):
            warnings.append(f"bytes are not valid {name}")
    warnings.append("decoded as windows-1252 with replacement characters")
    return data.decode("cp1252", errors="replace"), "cp1252", warnings


def _hidden(node: LexborNode) -> bool:
    attrs = node.attributes
    if "hidden" in attrs or (attrs.get("aria-hidden") or "").lower() == "true":
        return True
    style = (attrs.get("style") or "").replace(" ", "").lower()
    if "display:none" in style or "visibility:hidden" in style:
        return True
    role = (attrs.get("role") or "").lower()
    if role in ("navigation", "banner", "contentinfo", "complementary", "search", "dialog", "alertdialog"):
        return True
    marker = f"{attrs.get('id') or ''} {attrs.get('class') or ''}"
    return bool(marker.strip()) and bool(_BANNER_RE.search(marker))


def _main_container(tree: LexborHTMLParser) -> tuple[LexborNode | None, bool]:
    """The main-content element and whether it is the whole ``<body>``."""
    for sel in ("main", "[role=main]"):
        node = tree.css_first(sel)
        if node is not None:
            return node, False
    articles = tree.css("article")
    if articles:
        return max(articles, key=lambda a: len(a.text(deep=True) or "")), False
    body = tree.body
    return body, True


@dataclass(slots=True)
class _Open:
    heading_path: tuple[str, ...]
    level: int
    anchor: str | None
    parts: list[str | AnyMedia] = field(default_factory=list)


class _Walker:
    def __init__(self, conv: _HtmlConverter, title: str, drop_page_chrome: bool,
                 context_chars: int = DEFAULT_CONTEXT_CHARS) -> None:
        self.conv = conv
        self.title = title
        self.drop_chrome = drop_page_chrome
        self.buf: list[str] = []
        self.stack: list[tuple[int, str]] = []
        self.sections: list[_Open] = [_Open((title,), 1, None)]
        self.pre = 0
        self.context_chars = context_chars
        #: (before, after) row context of a picture in a table cell, by id(item) (None: the section's text)
        self.row_of: dict[int, tuple[str | None, str | None]] = {}
        #: mem_id of every <img> read so far: a picture in a table of a <figure> is reached both by
        #: the figure and by its table, and becomes one image item
        self.read_imgs: set[int] = set()

    @property
    def cur(self) -> _Open:
        return self.sections[-1]

    def flush(self) -> None:
        text = "".join(self.buf)
        self.buf.clear()
        if self.pre:
            text = text.strip("\n")
        else:
            text = "\n".join(_WS.sub(" ", ln).strip() for ln in text.split("\n"))
            text = re.sub(r"\n{2,}", "\n", text).strip()
        if text:
            self.cur.parts.append(text)

    def media(self, item: AnyMedia | None) -> None:
        if item is None:
            return
        self.flush()
        self.cur.parts.append(item)

    def heading(self, level: int, node: LexborNode) -> None:
        self.flush()
        text = cell_text(node)
        if not text:
            return
        anchor = node.attributes.get("id")
        if not anchor:
            for a in node.css("[id], a[name]"):
                anchor = a.attributes.get("id") or a.attributes.get("name")
                if anchor:
                    break
        if level == 1 and text == self.title and len(self.sections) == 1 and not self.stack:
            first = self.sections[0]
            first.anchor = first.anchor or anchor
            return
        while self.stack and self.stack[-1][0] >= level:
            self.stack.pop()
        self.stack.append((level, text))
        self.sections.append(_Open((self.title, *(t for _, t in self.stack)), level, anchor))

    def walk(self, node: LexborNode) -> None:
        """Read the children of ``node`` in document order.

        An explicit stack of nodes and deferred actions replaces recursion:
        hostile pages nest thousands of elements (issue 11: ``RecursionError``
        on 5,000 nested ``<div>``).
        """
        stack: list[LexborNode | Callable[[], None]] = []
        _push_children(stack, node)
        while stack:
            item = stack.pop()
            if callable(item) and not isinstance(item, LexborNode):
                item()
            else:
                self._visit(item, stack)

    def _visit(self, child: LexborNode, stack: list[LexborNode | Callable[[], None]]) -> None:
        if child.is_text_node:
            text = child.text_content or ""
            # a line break in the source is whitespace outside <pre> (only <br> breaks a line):
            # a hard-wrapped paragraph is one sentence stream, as murar.ingest.markup.builder.paragraph_text
            if text:
                self.buf.append(text if self.pre else text.replace("\n", " "))
            return
        tag = child.tag or ""
        if tag.startswith("-") or tag in _SKIP or _hidden(child):
            return
        if tag in ("header", "footer") and self.drop_chrome:
            return
        if tag in _HEADINGS:
            self.heading(_HEADINGS[tag], child)
        elif tag == "br":
            self.buf.append("\n")
        elif tag == "img":
            self.media(self._image(child, caption=""))
        elif tag == "figure":
            self.figure(child, stack)
        elif tag == "table":
            self.table(child, "", stack)
        elif tag in ("video", "iframe"):
            self.media(self.conv.video(child, caption=""))
        elif tag == "pre":
            self.flush()
            self.pre += 1
            stack.append(self._end_pre)
            _push_children(stack, child)
        elif (tag in _BLOCK or tag in ("td", "th")) and self.pre:
            # a block inside <pre> (old Pygments' <div class="line">) is a line of it, not a paragraph
            self._line_break()
            stack.append(self._line_break)
            _push_children(stack, child)
        elif tag in _BLOCK or tag in ("td", "th"):
            self.flush()
            stack.append(self.flush)
            _push_children(stack, child)
        else:
            _push_children(stack, child)

    def _line_break(self) -> None:
        """In preformatted text: what follows starts on a line of its own."""
        if self.buf and not self.buf[-1].endswith("\n"):  # buf holds no empty piece
            self.buf.append("\n")

    def _end_pre(self) -> None:
        self.flush()
        self.pre -= 1

    def table(self, node: LexborNode, caption: str, stack: list[LexborNode | Callable[[], None]]) -> None:
        parsed = parse_table_node(node)
        width = len(parsed.headers) or max((len(r) for r in parsed.rows), default=0)
        if width < 2 or len(parsed.rows) + (1 if parsed.headers else 0) < 2:
            # a layout or one-column table: read it as text
            self.flush()
            stack.append(self.flush)
            _push_children(stack, node)
            return
        self.media(self.conv.table(parsed.headers, parsed.rows, caption or parsed.caption))
        self._cell_pictures(node)

    def _cell_pictures(self, table: LexborNode) -> None:
        """The pictures in a data table's cells, each an image item after the table with
        its row as its context (:func:`~murar.ingest.captions.row_contexts`), as the
        Markdown builder reads a row (a step in one cell, its screenshot in the next):
        the table item holds only the cells' text."""
        for tr in table.css("tr"):
            if any(a.tag == "table" for a in _ancestors(tr, table)):
                continue  # a nested table's row: its pictures are in the outer cell's
            cells = [c for c in tr.iter() if c.tag in ("td", "th")]
            placed: list[tuple[AnyMedia, int]] = []
            for k, cell in enumerate(cells):
                for img in cell.css("img"):
                    picture = self._image(img, caption="")
                    if picture is not None:
                        placed.append((picture, k))
            if not placed:
                continue
            around = row_contexts([cell_text(c) for c in cells], [k for _, k in placed], self.context_chars)
            for (placed_item, _), context in zip(placed, around):
                self.media(placed_item)
                self.row_of[id(placed_item)] = context

    def _image(self, node: LexborNode, caption: str) -> ImageItem | None:
        """The image item of ``node``, or ``None`` when it is not one or was read already."""
        if node.mem_id in self.read_imgs:
            return None
        self.read_imgs.add(node.mem_id)
        return self.conv.image(node, caption=caption)

    def _figure_media(self, make: Callable[..., AnyMedia | None], el: LexborNode, caption: str) -> None:
        self.media(make(el, caption=caption))

    def figure(self, node: LexborNode, stack: list[LexborNode | Callable[[], None]]) -> None:
        cap_node = node.css_first("figcaption")
        caption = cell_text(cap_node) if cap_node is not None else ""
        actions: list[Callable[[], None]] = []
        for el in node.css("img, table, video, iframe"):
            if el.tag == "table":
                if any(p.tag == "table" for p in _ancestors(el, node)):
                    continue
                actions.append(functools.partial(self.table, el, caption, stack))
            elif el.tag == "img":
                actions.append(functools.partial(self._figure_media, self._image, el, caption))
            else:
                actions.append(functools.partial(self._figure_media, self.conv.video, el, caption))
        if not actions:  # a figure of text (code listing, quote): keep its text
            self.flush()
            stack.append(self.flush)
            _push_children(stack, node)
            return
        stack.extend(reversed(actions))


_TITLE_SEPARATORS = "—–-|·:»"
_SPACED_SEPARATOR = re.compile(r"\s+[—–\-|·»]\s+")


def _without_site_name(title: str, h1: str) -> str:
    """``h1`` when ``title`` is it plus the site's name ("API — Flask Documentation (2.2.x)",
    "Install | Docusaurus", "Nautobot | Install"), as generators write ``<title>``; else ``title``."""
    if not h1 or title == h1:
        return title
    if title.startswith(h1) and title[len(h1):].lstrip()[:1] in _TITLE_SEPARATORS:
        return h1
    if title.endswith(h1) and title[: -len(h1)].rstrip()[-1:] in _TITLE_SEPARATORS:
        return h1
    # "Contributing - MkDocs" over <h1>Contributing to MkDocs</h1>: the page's part is the h1's start
    parts = _SPACED_SEPARATOR.split(title)
    if len(parts) == 2 and any(p.strip() and h1.casefold().startswith(p.strip().casefold()) for p in parts):
        return h1
    return title


def _push_children(stack: list[LexborNode | Callable[[], None]], node: LexborNode) -> None:
    """Push the children of ``node`` so that they pop in document order."""
    kids: list[LexborNode | Callable[[], None]] = list(node.iter(include_text=True))
    kids.reverse()
    stack.extend(kids)


_PHRASING = frozenset({"a", "span", "strong", "b", "em", "i", "code", "kbd", "abbr", "small", "sub", "sup",
                       "mark", "u", "s", "samp", "var", "q", "cite", "time", "-comment"})


def _line_text(node: LexborNode | None, step: str) -> str:
    """Text of the siblings on ``node``'s side (``prev``/``next``) up to a line break or block."""
    out: list[str] = []
    while node is not None:
        if not node.is_text_node and (node.tag or "") not in _PHRASING:
            break  # a line break, a block (figcaption, div, list...) or another picture ends the line
        out.append(node.text(deep=True) if not node.is_text_node else (node.text_content or ""))
        node = node.prev if step == "prev" else node.next
    return " ".join(out)


def _in_sentence(node: LexborNode) -> bool:
    """An ``<img>`` with words on its own line (itself or its inline parent's siblings): an icon in a sentence."""
    cur = node
    while True:
        if is_inline_line(_line_text(cur.prev, "prev"), _line_text(cur.next, "next")):
            return True
        parent = cur.parent
        if parent is None or (parent.tag or "") not in ("a", "span", "strong", "b", "em", "i", "code", "kbd"):
            return False
        cur = parent


def _ancestors(node: LexborNode, stop: LexborNode) -> list[LexborNode]:
    out = []
    cur = node.parent
    while cur is not None and cur.mem_id != stop.mem_id:
        out.append(cur)
        cur = cur.parent
    return out


class _HtmlConverter:
    def __init__(self, rel: str, page_dir: Path | None, root: Path | None, opt: HtmlOptions,
                 site: Site | None = None) -> None:
        self.rel = rel
        self.page_dir = page_dir
        self.root = root.resolve() if root is not None else None
        self.opt = opt
        self.site = site
        self.warnings: list[str] = []
        self.asset_refs: list[AssetRef] = []
        self.quality = ImageQualityFilter(opt.quality)
        self.counter = 0
        self.video_ordinal = 0

    def _base(self, kind: str, cls: Callable[..., _M], **kw: Any) -> _M:
        self.counter += 1
        return cls(id=stable_id(self.rel, kind, str(self.counter)), section_id="", source_path=self.rel,
                   page_title="", heading_path=(), anchor=None, position=0, **kw)

    def image(self, node: LexborNode, caption: str) -> ImageItem | None:
        attrs = node.attributes
        src = image_source(attrs, keep_data_uri=True)
        alt = _WS.sub(" ", attrs.get("alt") or "").strip()
        title = _WS.sub(" ", attrs.get("title") or "").strip()
        if not src:
            self.warnings.append(f"image without src skipped (alt {alt!r})")
            return None
        if src.startswith("data:"):
            self.warnings.append(drop_warning(alt or "inline data URI", "inline data URI image not stored"))
            return None
        path, url, exists = self._resolve(src)
        width = px_width(attrs.get("width"))
        height = px_width(attrs.get("height"))
        if path is not None and exists and self.root is not None:
            size = _image_size(self.root / path)
            if size is None:
                exists = False
                self.warnings.append(f"image {path} is not a readable image")
            else:
                width, height = size
        if width and height:
            key = path or url or src
            reason = self.quality.check(ImageCandidate(key=key, width=width, height=height))
            if reason:
                self.warnings.append(drop_warning(key, reason))
                return None
        item = self._base("image", ImageItem, caption=caption or title, alt=alt, path=path, url=url,
                          exists=exists, width=width, height=height)
        file = self.root / path if path is not None and exists and self.root is not None else None
        link, depth = node.parent, 0
        while link is not None and link.tag != "a" and depth < 20:
            link, depth = link.parent, depth + 1
        href = (link.attributes.get("href") or "") if link is not None and link.tag == "a" else ""
        return flag_image(item, inline=_in_sentence(node), file=file,
                          declared_width=px_width(attrs.get("width")), given=aria_flags(attrs), link_to=href)

    def _resolve(self, src: str) -> tuple[str | None, str | None, bool]:
        """(path relative to root, remote url, exists) of an image reference.

        Without a site: length/depth limits and the root check are :mod:`murar.ingest.paths`'s.
        """
        if self.site is not None:
            aref = resolve_reference(self.site, src, page_rel=self.rel, kind="image")
            self.asset_refs.append(aref)
            if aref.status == "remote":
                return None, src, True
            if aref.status in ("resolved", "missing"):
                if aref.status == "missing":
                    self.warnings.append(f"image {aref.path} not found")
                return aref.path, None, aref.status == "resolved"
            self.warnings.append(f"image {src!r}: {aref.reason}")
            return None, None, False
        if is_remote(src):
            if is_web_url(src):
                return None, src, True
            scheme = src.split(":", 1)[0].lower()
            self.warnings.append(f"image {src[:200]!r}: unsupported URL scheme {scheme!r}, not read")
            return None, None, False
        if self.root is None or self.page_dir is None:
            return None, None, False
        ref = unquote(urlsplit(src).path)
        if not ref:
            return None, None, False
        problem = link_path_problem(ref)
        if problem:
            self.warnings.append(f"image {src[:200]!r}: {problem}; not read")
            return None, None, False
        target = (self.root / ref.lstrip("/")) if ref.startswith("/") else (self.page_dir / ref)
        link = inside_root(target, self.root)
        if link.rel_path is None:
            where = "resolves outside the corpus root" if link.problem == "escapes the corpus root" else link.problem
            self.warnings.append(f"image {src[:200]!r} {where}; not read")
            return None, None, False
        rel = link.rel_path
        try:
            exists = (self.root / rel).is_file()
        except OSError:
            exists = False
        if not exists:
            self.warnings.append(f"image {rel} not found")
        return rel, None, exists

    def table(self, headers: list[str], rows: list[list[str]], caption: str) -> TableItem:
        return self._base("table", TableItem, caption=caption, headers=headers, rows=rows,
                          markdown=rows_to_markdown(headers, rows))

    def video(self, node: LexborNode, caption: str) -> VideoItem | None:
        attrs = node.attributes
        src = (attrs.get("src") or "").strip()
        if not src and node.tag == "video":
            source = node.css_first("source[src]")
            src = (source.attributes.get("src") or "").strip() if source is not None else ""
        if not src:
            return None
        if node.tag == "iframe" and not _VIDEO_HOST_RE.search(src):
            return None
        if is_remote(src) and not is_web_url(src):  # javascript:, file:, data: ... never a video item
            self.warnings.append(f"video {src[:200]!r}: unsupported URL scheme, not kept")
            return None
        link: ResolvedLink | None = None
        if self.site is not None:
            ref = resolve_reference(self.site, src, page_rel=self.rel, kind="video")
            self.asset_refs.append(ref)
            link = (ResolvedLink(url=src) if ref.status == "remote" else
                    ResolvedLink(rel_path=ref.path) if ref.path else ResolvedLink(problem=ref.reason))
        title = _WS.sub(" ", attrs.get("title") or attrs.get("aria-label") or "").strip()
        local = LocalVideo()
        cues: list[TranscriptCue] = []
        sidecar = ""
        if self.root is not None:
            if link is None:
                link = resolve_link(src, page_rel=self.rel, root=self.root)
            local = locate_video(src, link, self.root, self.warnings)
            track = node.css_first("track[src]") if node.tag == "video" else None
            track_src = (track.attributes.get("src") or "").strip() if track is not None else ""
            if track_src:  # <track kind="captions" src="x.vtt"> names its sidecar
                cues, sidecar = self._track_cues(track_src)
            if not cues:
                self.video_ordinal += 1
                cues, sidecar = find_cues(self.root / self.rel, src, self.video_ordinal, self.warnings,
                                          video_file=self.root / local.path if local.path else None)
        return self._base("video", VideoItem, url=src, title=title or caption, caption=caption,
                          path=local.path, exists=local.exists, cues=cues, transcript=cues_text(cues),
                          transcript_source=f"sidecar:{sidecar}" if sidecar else "")

    def _track_cues(self, track_src: str) -> tuple[list[TranscriptCue], str]:
        assert self.root is not None
        link = resolve_link(track_src, page_rel=self.rel, root=self.root)
        if link.rel_path is None:
            return [], ""
        try:
            return read_cues(self.root / link.rel_path), Path(link.rel_path).name
        except (ValueError, OSError) as err:
            self.warnings.append(f"transcript {track_src!r} unreadable: {err}")
            return [], ""


#: attributes lazy-loading scripts read the real picture from (lazysizes, jQuery lazyload, WordPress)
LAZY_IMAGE_ATTRS = ("data-src", "data-lazy-src", "data-original", "data-srcset", "data-lazy-srcset")


def image_source(attrs: dict[str, str | None], *, keep_data_uri: bool = False) -> str:
    """The picture an ``<img>`` shows a reader: a lazy-loading script's ``data-src`` /
    ``data-lazy-src`` / ``data-original`` (else the first ``data-srcset`` candidate), which
    it swaps in over a placeholder ``src`` (blank GIF, spinner, blurred preview); else
    ``src``; else the first ``srcset`` candidate. An inline ``data:`` URI is returned only
    with ``keep_data_uri``; ``""`` when there is none."""
    src = (attrs.get("src") or "").strip()
    lazy = (attrs.get("data-src") or attrs.get("data-lazy-src") or attrs.get("data-original") or "").strip()
    srcset = (attrs.get("data-srcset") or attrs.get("data-lazy-srcset") or "").strip()
    if not lazy and srcset:
        lazy = srcset.split(",")[0].strip().split(" ")[0]
    if lazy and not lazy.startswith("data:"):
        return lazy
    if not src and attrs.get("srcset"):
        src = (attrs.get("srcset") or "").split(",")[0].strip().split(" ")[0]
    return src if keep_data_uri or not src.startswith("data:") else ""


def _image_size(path: Path) -> tuple[int, int] | None:
    """(width, height) in pixels from the file header; ``None`` when unreadable.
    SVG files (no pixel size) return ``(0, 0)``-free ``None``-less sizes of 0."""
    if path.suffix.lower() == ".svg":
        return (0, 0)
    try:
        from PIL import Image

        with Image.open(path) as im:
            return int(im.width), int(im.height)
    except ImportError:
        return (0, 0)
    except Exception:  # noqa: BLE001 - any decoder error means "unreadable"
        return None


def _meta(tree: LexborHTMLParser, *names: str) -> str:
    for name in names:
        node = tree.css_first(f'meta[property="{name}"], meta[name="{name}"]')
        if node is not None:
            content = (node.attributes.get("content") or "").strip()
            if content:
                return _WS.sub(" ", content)
    return ""


def convert_html_text(html: str, *, source_path: str, page_dir: Path | None = None, root: Path | None = None,
                      options: HtmlOptions | None = None, warnings: list[str] | None = None,
                      site: Site | None = None) -> ParsedDocument:
    """Convert an HTML string (see :func:`convert_html`).

    ``page_dir``/``root`` resolve local image paths; without them local images
    are kept with ``exists=False``. With a ``site``, image and video links
    resolve through :meth:`Site.resolve_asset` and are recorded in
    ``asset_refs``.
    """
    opt = options or HtmlOptions()
    conv = _HtmlConverter(source_path, page_dir, root, opt, site)
    conv.warnings.extend(warnings or [])
    html, flattened = cap_depth(html)  # (100,000 nested <div> took minutes to parse, as in a Markdown HTML block)
    if flattened:
        conv.warnings.append(f"HTML nested deeper than {MAX_TREE_DEPTH} elements: the deeper ones are read "
                             "as text of the last (as browsers build the page)")
    tree = LexborHTMLParser(html)
    stem = Path(source_path).stem
    title_node = tree.css_first("title")
    h1_node = tree.css_first("h1")
    h1 = cell_text(h1_node) if h1_node is not None else ""
    title = _without_site_name(_meta(tree, "og:title") or (cell_text(title_node) if title_node is not None else "")
                               or h1 or stem, h1)
    canonical_node = tree.css_first('link[rel="canonical"]')
    page_url = (canonical_node.attributes.get("href") if canonical_node is not None else None) or \
        _meta(tree, "og:url") or None
    description = _meta(tree, "description", "og:description")
    container, is_body = _main_container(tree)
    walker = _Walker(conv, title, drop_page_chrome=is_body, context_chars=opt.context_chars)
    if container is not None:
        walker.walk(container)
    walker.flush()

    sections: list[Section] = []
    media: list[AnyMedia] = []
    ordinal = 0
    for o in walker.sections:
        texts = [p for p in o.parts if isinstance(p, str)]
        items = [p for p in o.parts if isinstance(p, MediaItem)]
        if not texts and not items and o is walker.sections[0]:
            continue
        fill_context(o.parts, opt.context_chars)
        for item in items:
            row_before, row_after = walker.row_of.get(id(item), (None, None))
            item.context_before = item.context_before if row_before is None else row_before
            item.context_after = item.context_after if row_after is None else row_after
        sid = stable_id(source_path, " > ".join(o.heading_path), str(ordinal))
        sections.append(Section(id=sid, source_path=source_path, page_title=title, heading_path=o.heading_path,
                                anchor=o.anchor, level=o.level, text="\n\n".join(texts), ordinal=ordinal,
                                page=None, page_url=page_url))
        for pos, item in enumerate(items):
            item.section_id = sid
            item.page_title = title
            item.heading_path = o.heading_path
            item.anchor = o.anchor
            item.position = pos
            media.append(item)
        ordinal += 1
    if not any(s.text.strip() for s in sections) and not media:
        raise IngestError(f"{source_path}: no text or media found in the HTML main content")
    metadata: dict[str, Any] = {"page_url": page_url, "description": description}
    lang_node = tree.css_first("html")
    if lang_node is not None and lang_node.attributes.get("lang"):
        metadata["lang"] = lang_node.attributes.get("lang")
    return ParsedDocument(source_path=source_path, title=title, metadata=metadata, sections=sections,
                          media=media, warnings=conv.warnings, asset_refs=conv.asset_refs)


def convert_html(path: Path, *, root: Path, options: HtmlOptions | None = None,
                 site: Site | None = None) -> ParsedDocument:
    """Convert one HTML page into sections and media items.

    Args:
        path: the ``.html``/``.htm`` file, inside ``root``.
        root: the corpus root; ``source_path`` and image ``path`` values are
            relative to it (posix); images outside it are never read.
        options: see :class:`HtmlOptions`.
        site: the generator's rules: :meth:`Site.preprocess` runs on the
            decoded text and links resolve through it (default: page-relative
            and root-relative links only, no reference accounting).

    Returns:
        A :class:`~murar.schema.ParsedDocument` (``pages`` is ``None``);
        missing or unsafe images and decoding problems are in ``warnings``.

    Raises:
        IngestError: the file cannot be read, is larger than
            ``options.max_bytes``, or has no text and no media.
    """
    opt = options or HtmlOptions()
    path = Path(path)
    root = Path(root).resolve()
    try:
        rel = path.resolve().relative_to(root).as_posix()
    except ValueError:
        rel = path.name
    try:
        if path.stat().st_size > opt.max_bytes:
            raise IngestError(f"{path.name}: file larger than {opt.max_bytes} bytes")
        data = path.read_bytes()
    except OSError as err:
        raise IngestError(f"{path.name}: cannot read HTML file: {err}") from err
    text, _codec, warnings = decode_html(data, opt.encoding)
    if site is not None:
        text = site.preprocess(text, page_rel=rel, warnings=warnings)
    return convert_html_text(text, source_path=rel, page_dir=path.resolve().parent, root=root, options=opt,
                             warnings=warnings, site=site)
