"""One page being built: sections, paragraphs and media with their context.

Every markup converter under :mod:`murar.ingest.markup` walks its own parse
tree (a docutils doctree, markdown-it tokens, AsciiDoc HTML, notebook cells)
and feeds a :class:`PageBuilder` in reading order. The builder keeps the MuRAR
data model (seed 000, section 2.3): a page is split into sections by its
headings; each image, table and video belongs to the section it appears in,
with its position there and up to ``context_chars`` characters of the section
text before and after it (seed 001, context-aware captions).

Every path question goes to the :class:`~murar.ingest.sites.base.Site`: the
builder never resolves a link itself.
"""

from __future__ import annotations

import codecs
import contextlib
import re
import textwrap
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from selectolax.lexbor import LexborHTMLParser, LexborNode

from murar.errors import IngestError
from murar.ingest.assets import resolve_reference
from murar.ingest.captions import contexts_at, row_contexts
from murar.ingest.htmltext import MAX_TREE_DEPTH, TextBlock, cap_depth, text_blocks
from murar.ingest.markup.running import LineJoiner, ParagraphLength, Pieces
from murar.ingest.media_flags import (
    FLAGS_ATTR,
    aria_flags,
    flag_image,
    mark_samples,
    markup_image_links,
    px_width,
    table_flags,
)
from murar.ingest.paths import (
    ImageCheck,
    ResolvedLink,
    check_image,
    is_remote,
    is_web_url,
)
from murar.ingest.sites.base import Site
from murar.ingest.tables import (
    cell_text,
    inline_text,
    parse_table_node,
    rows_to_markdown,
)
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

__all__ = ["PEERTUBE_DEFAULT_INSTANCE", "MarkupOptions", "PageBuilder", "clean_text", "is_video_embed", "page_rel",
           "peertube_embed_url", "read_source"]

_WS = re.compile(r"[ \t\r\f\v]+")
_BREAKS_AND_BLANKS = re.compile(r"[ \t\r\f\v\n]+")
# an <iframe> is a video only when it embeds a video player (as murar.ingest.html decides);
# quizzes, applets and other interactive embeds are not media of the answer
_EMBED_MARK = re.compile("\ue000(\\d+)\ue001")  # where html() took a picture out of a fragment's text


def _ancestor(node: LexborNode, tags: tuple[str, ...], limit: int = 200) -> LexborNode | None:
    """The nearest ancestor of ``node`` whose tag is one of ``tags`` (at most ``limit`` levels up)."""
    up = node.parent
    for _ in range(limit):
        if up is None or up.tag in tags:
            return up
        up = up.parent
    return None


def _div_figure_caption(img: LexborNode, cache: dict[int, LexborNode | None]) -> LexborNode | None:
    """The caption of the ``<div class="figure">`` an image sits in: a child ``<p class="caption">``
    (or ``div``/``span``), the figure as docutils' HTML writer and Sphinx's HTML4 writer draw it
    (``<div class="figure"><img><p class="caption">``) and as hand-written HTML in Markdown pages
    copies it, the caption shown under the picture. ``None`` when the image is in no such figure
    (a ``<figure>`` element is read with its ``<figcaption>``). ``cache`` keeps each div's
    caption for the fragment's other pictures, in tables too (each read the div's children: quadratic)."""
    up = img.parent
    for _ in range(20):
        if up is None or up.tag in ("body", "figure"):
            return None
        if up.tag == "div" and "figure" in (up.attributes.get("class") or "").split():
            if up.mem_id in cache:
                return cache[up.mem_id]
            found = next((child for child in up.iter() if child.tag in ("p", "div", "span")
                          and "caption" in (child.attributes.get("class") or "").split()), None)
            cache[up.mem_id] = found
            return found
        up = up.parent
    return None


# and recorded product walkthroughs (Arcade, Navattic, Storylane, Supademo: screenshots played as
# steps with their text, the docs' screencasts) are media too
_VIDEO_IFRAME = re.compile(r"youtube\.com|youtube-nocookie\.com|youtu\.be|vimeo\.com|wistia|brightcove|/embed/|video|"
                           r"player|\.(?:mp4|webm|ogv|mov|m4v)(?:[?#]|$)|arcade\.software/|navattic\.com/|storylane\.io/|"
                           r"supademo\.com/", re.IGNORECASE)
# the elements of an HTML fragment that show a picture or a player: an <object data="..."> embeds the
# resource its data attribute names (HTML "The object element"): a video player
# (<object data="https://www.youtube.com/embed/ID">) or a picture (type="image/svg+xml", x.svg)
_EMBEDS = "img, iframe, video, object[data]"
_IMAGE_DATA = re.compile(r"\.(?:svg|png|jpe?g|gif|webp|avif)(?:[?#]|$)", re.IGNORECASE)
# image variants a theme shows only in dark mode (Material ``#only-dark``, GitHub
# ``#gh-dark-mode-only``): the light twin beside it is the one kept
_DARK_ONLY = ("#only-dark", "#gh-dark-mode-only")
# the CSS class Sphinx themes hide in light mode (pydata-sphinx-theme, its sphinx-book-theme,
# Furo: "only-dark" / "only-light" on an image, reST or MyST ``:class:``)
_DARK_ONLY_CLASS = "only-dark"
# Tailwind's dark variant (mystmd's book theme, Tailwind sites): "hidden dark:block" hides a picture
# (display: none) except in dark mode, where a display utility shows it; "dark:hidden" is its light twin
_DARK_DISPLAY = frozenset(f"dark:{d}" for d in ("block", "inline-block", "inline", "flex", "inline-flex", "grid",
                                                "inline-grid", "table", "contents", "flow-root", "list-item"))


def _dark_only(classes: Iterable[str]) -> bool:
    """Whether an image with these CSS ``classes`` is drawn in dark mode only (see above)."""
    names = set(classes)
    return _DARK_ONLY_CLASS in names or ("hidden" in names and not names.isdisjoint(_DARK_DISPLAY))


@dataclass(frozen=True, slots=True, kw_only=True)
class MarkupOptions:
    """Options shared by the markup converters.

    ``context_chars``: characters of section text kept before and after each
    media item. ``max_bytes``: larger files are truncated (with a warning).
    ``max_code_chars``: code blocks longer than this are cut. ``check_images``:
    read each local image header (size, corruption); off, only existence is
    checked. ``max_include_depth``: nested includes deeper than this are
    refused with a warning (cycles are refused at any depth).
    """

    context_chars: int = 300
    max_bytes: int = 5_000_000
    max_code_chars: int = 2_000
    check_images: bool = True
    max_include_depth: int = 8


def is_video_embed(url: str) -> bool:
    """True when an ``<iframe>``/``{iframe}`` URL embeds a video player or file."""
    return bool(_VIDEO_IFRAME.search(url))


#: sphinxcontrib-youtube's PeerTube instance when the directive names none (PeerTube._platform_url)
PEERTUBE_DEFAULT_INSTANCE = "peertube.tv"


def peertube_embed_url(video_id: str, instance: str = "") -> str:
    """The embed player URL of the PeerTube video ``video_id`` on ``instance`` (a host,
    ``video.example.org``, or a base URL, ``https://video.example.org/``):
    ``https://<host>/videos/embed/<id>`` as sphinxcontrib-youtube's ``peertube``
    directive writes it (``:instance:``, else :data:`PEERTUBE_DEFAULT_INSTANCE`); PeerTube
    "Embed player API". A ``video_id`` that is already a URL is returned as it is."""
    video_id = video_id.strip()
    if video_id.startswith(("http://", "https://", "//")):
        return video_id
    base = instance.strip() or PEERTUBE_DEFAULT_INSTANCE
    if not base.startswith(("http://", "https://", "//")):
        base = "https://" + base
    return f"{base.rstrip('/')}/videos/embed/{video_id}"


def clean_text(text: str) -> str:
    """Collapse runs of blanks inside lines and strip every line."""
    text = _WS.sub(" ", text)
    return "\n".join(line.strip() for line in text.split("\n")).strip()


def paragraph_text(text: str) -> str:
    """A paragraph as its page shows it: one line, every run of whitespace one space.

    A line break inside a paragraph is a soft break in every markup murar reads
    (reST: docutils joins a paragraph's lines; AsciiDoc: lines of a paragraph
    are joined unless ``hardbreaks`` is set; HTML: whitespace collapses;
    Markdown/MyST soft and hard breaks are already spaces), so a hard-wrapped
    source ("...run the development\nserver.") must not read as two sentences.
    Blocks (code, tables) never pass through here; no-break spaces stay.
    """
    return _BREAKS_AND_BLANKS.sub(" ", text).strip()


def page_rel(path: Path, root: Path) -> str:
    """``path`` relative to the resolved site ``root``, posix (symlinks followed).

    Raises:
        IngestError: ``path`` is not under ``root``.
    """
    try:
        return path.resolve().relative_to(root).as_posix()
    except ValueError as err:
        raise IngestError(f"{path} is outside the site root {root}") from err


#: bytes of one included file (snippet, partial, include, code sample) read; the rest is cut
MAX_INCLUDE_BYTES = 5_000_000


def read_include(path: Path, *, label: str, warnings: list[str] | None = None,
                 max_bytes: int = MAX_INCLUDE_BYTES) -> str:
    """The text of a file a page pulls in (include, snippet, partial, code sample):
    UTF-8 (BOM dropped, bad bytes replaced; UTF-16 by its byte-order mark, warned), at most ``max_bytes`` bytes read; a
    longer file is cut there with a warning naming ``label``, so one huge include
    never loads whole (a page file is bounded the same way by :func:`read_source`).

    Raises:
        OSError: the file cannot be read.
    """
    data = _read_capped(path, max_bytes, warnings, f"{label}: file larger than {max_bytes} bytes, cut there")
    wide = _decode_utf16(data, warnings, label)
    return wide if wide is not None else data.decode("utf-8-sig", errors="replace")


def _decode_utf16(data: bytes, warnings: list[str] | None, label: str) -> str | None:
    """``data`` decoded as UTF-16 when it starts with a UTF-16 byte-order mark (a page
    saved as "Unicode" by Windows editors; .NET's reader, and so DocFX, reads it by its
    mark), with a warning; ``None`` for any other file. A code unit cut at the size
    limit is replaced."""
    if not data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)) or data.startswith(codecs.BOM_UTF32_LE):
        return None
    if warnings is not None:
        warnings.append(f"{label + ': ' if label else ''}UTF-16 (byte-order mark), read as UTF-16; save it as UTF-8")
    return data.decode("utf-16", errors="replace")


def _read_capped(path: Path, max_bytes: int, warnings: list[str] | None, message: str) -> bytes:
    """The first ``max_bytes`` bytes of ``path``; ``message`` is warned when there were
    more (the rest is never read). Raises ``OSError``."""
    with path.open("rb") as fh:
        data = fh.read(max_bytes + 1)
    if len(data) > max_bytes:
        data = data[:max_bytes]
        if warnings is not None:
            warnings.append(message)
    return data


def read_source(path: Path, *, max_bytes: int, warnings: list[str]) -> str:
    """Read a text source file: UTF-16 when it starts with a UTF-16 byte-order mark
    (warned), else UTF-8 (BOM tolerated), else Windows-1252, else UTF-8 with
    replacement; files over ``max_bytes`` bytes are truncated.

    Raises:
        IngestError: the file cannot be read or looks binary (NUL bytes).
    """
    try:
        data = _read_capped(path, max_bytes, warnings, f"file larger than {max_bytes} bytes: truncated")
    except OSError as err:
        raise IngestError(f"cannot read {path}: {err}") from err
    wide = _decode_utf16(data, warnings, "")
    if wide is not None:
        return wide
    if b"\x00" in data[:8192]:
        raise IngestError(f"{path.name} looks binary (NUL bytes), not a text page")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        try:
            text = data.decode("cp1252")
            warnings.append("not valid UTF-8; decoded as cp1252")
            return text
        except UnicodeDecodeError:
            warnings.append("not valid UTF-8; undecodable bytes replaced")
            return data.decode("utf-8", errors="replace")


@dataclass(slots=True)
class _Section:
    heading_path: tuple[str, ...]
    level: int
    anchor: str | None
    ordinal: int
    parts: list[str] = field(default_factory=Pieces)
    media: list[tuple[AnyMedia, int]] = field(default_factory=list)
    current: list[str] = field(default_factory=Pieces)
    resumed: bool = False  # continues a section after a container with headings (dropped when it stays empty)
    # running text length: the parts and pieces read so far (see text_length)
    _done: tuple[int, int, int, int] = field(default=(-1, 0, 0, 0), init=False, repr=False)  # edits, seen, n, len
    _cur: tuple[int, int, ParagraphLength] = field(default=(-1, 0, ParagraphLength()), init=False, repr=False)

    def text_length(self) -> int:
        """The length of the section's text so far: its non-empty parts joined by blank
        lines, then the current paragraph (``paragraph_text`` of its pieces) after one
        more blank line. Reads only the parts and pieces added since the
        last call (a change other than an append starts over), so that placing each of
        many media items of a section costs the text between them, not the section."""
        parts, cur = self.parts, self.current
        edits = parts.edits if isinstance(parts, Pieces) else -2
        seen_edits, seen, n, done = self._done
        if seen_edits != edits or seen > len(parts):
            seen = n = done = 0
        for p in parts[seen:]:
            if p:
                done += len(p) + (2 if n else 0)
                n += 1
        self._done = (edits, len(parts), n, done)
        edits = cur.edits if isinstance(cur, Pieces) else -2
        seen_edits, seen, length = self._cur
        if seen_edits != edits or seen > len(cur):
            seen, length = 0, ParagraphLength()
        for p in cur[seen:]:
            length.feed(p)
        self._cur = (edits, len(cur), length)
        c = length.value
        return done + 2 + c if done and c else (done or c)

    def end_paragraph(self) -> None:
        text = paragraph_text("".join(self.current))
        if text:
            self.parts.append(text)
        self.current.clear()


class PageBuilder:
    """Collects one page in reading order and returns a :class:`ParsedDocument`.

    ``rel`` is the page path relative to the site root (posix). Media paths in
    the result are relative to the site root as well. ``link_base`` is the file
    that relative image and video links resolve against when it is not the page
    (an nbsphinx-link page shows a notebook kept elsewhere); ``None``: the page.
    """

    def __init__(self, *, rel: str, site: Site, options: MarkupOptions) -> None:
        self.rel = rel
        self.link_base: str | None = None
        self._headed = False  # a heading was seen
        self.site = site
        self.opts = options
        self.root = site.config.root
        self.warnings: list[str] = []
        self.title = ""
        # the Python module ``.. module::``/``currentmodule`` made current (Sphinx's py:module
        # ref_context: it lasts the whole document, across a MyST page's {eval-rst} blocks)
        self.py_module = ""
        self._sections: list[_Section] = []
        self._stack: list[tuple[int, str]] = []
        self._tables = 0
        self._videos = 0
        self._written_in: str | None = None
        self.asset_refs: list[AssetRef] = []
        self._image_checks: dict[str, ImageCheck] = {}  # by path: a picture used again is not decoded again
        self._tab_sets: list[list[str]] = []  # labels of every tab set of the page, in page order
        self._open_tabs: list[tuple[int, str]] = []  # (tab set, current tab label) of each open set
        # of each open set, what :meth:`close_container` needs to return to the section around it, when
        # the site's tabs hold their headings (``tabs_hold_headings``) and the set opened in a section
        self._tab_frames: list[tuple[int, list[tuple[int, str]]] | None] = []
        self._tab_of: dict[int, int] = {}  # id(item) -> its tab set
        # id(item) -> context from its table row before/after it (clipped; None: that side has no cell text)
        self._row_of: dict[int, tuple[str | None, str | None]] = {}
        self._written: list[tuple[ImageItem, str]] = []  # each image with its link as the page writes it
        self._code_images: set[str] = set()  # image links the page's code blocks write as markup

    # ------------------------------------------------------------ sections
    def heading(self, level: int, title: str, anchor: str | None = None) -> None:
        """Start a section (``level`` 1 = page title; an empty title is the page's title
        when it has one, else reads "(untitled)" and leaves the page title to a later
        heading or the file name)."""
        title = clean_text(title)
        if not self.title and (level <= 1 or (
                not self._headed and getattr(self.site, "first_heading_titles_page", False))):
            # Sphinx titles a document by its first section whatever its Markdown level (a MyST
            # page starting at "##" is titled by that heading, not by its file name)
            self.title = title
        self._headed = True
        # an empty page heading ("#" alone) under a title the page already has (front matter) is
        # that title, as the reader sees the page titled; without one it reads "(untitled)"
        title = title or (self.title if level <= 1 else "") or "(untitled)"
        if self._sections:
            self._sections[-1].end_paragraph()
        if (level <= 1 and title == self.title and len(self._sections) == 1
                and self._stack[:1] == [(0, self._sections[0].heading_path[0])]
                and not self._sections[0].media and not any(self._sections[0].parts)):
            # the page's implicit first section (see ``cur``) holds nothing (a script, a target, a
            # comment before the title): the page starts at its title, as the reader sees it
            # (a page titled otherwise, by front matter or its file name, keeps that title above)
            self._sections.clear()
            self._stack.clear()
        if not self._sections and level > 1 and not getattr(self.site, "first_heading_titles_page", False):
            # a page whose first heading is below its title (front matter or file name titles
            # it, as its generator shows it above the text) starts at that title, as a page
            # with text before its first heading already did (``cur``): every path starts with
            # the page title (``Section.heading_path``)
            page_title = self.title or self.untitled_title()
            self._stack = [(0, page_title)]
        while self._stack and self._stack[-1][0] >= level:
            self._stack.pop()
        self._stack.append((level, title))
        path = tuple(t for _, t in self._stack)
        self._sections.append(_Section(path, level, anchor, len(self._sections)))

    def open_container(self) -> tuple[int, list[tuple[int, str]]]:
        """Mark the start of a container block (a block quote): what
        :meth:`close_container` needs to return to the section around it."""
        sec = self.cur
        return len(self._sections), list(self._stack) if self._stack else [(sec.level, sec.heading_path[-1])]

    def close_container(self, opened: tuple[int, list[tuple[int, str]]]) -> None:
        """End a container block: when headings were started inside it (a lesson's
        ``> ## Challenge`` box), the text after it belongs to the section the container
        stands in, as the page shows it (the box ends, its heading with it), not to the
        last heading inside it."""
        count, stack = opened
        if len(self._sections) == count:
            return
        before = self._sections[count - 1] if count else None
        self._sections[-1].end_paragraph()
        self._stack = stack
        path = before.heading_path if before else tuple(t for _, t in stack)
        if self._sections[-1].resumed and self._sections[-1].heading_path == path:
            return  # a nested container already returned to that section: it goes on
        self._sections.append(_Section(path, before.level if before else stack[-1][0],
                                       before.anchor if before else None, len(self._sections), resumed=True))

    def untitled_title(self) -> str:
        """The title of a page that gives none itself (no title front matter, no level-1
        heading): the one its generator shows (a site's optional
        ``untitled_page_title(rel)``, e.g. MkDocs' nav title), else the file name stem."""
        hook = getattr(self.site, "untitled_page_title", None)
        found = hook(self.rel) if callable(hook) else None
        return found.strip() if isinstance(found, str) and found.strip() else Path(self.rel).stem

    @property
    def cur(self) -> _Section:
        if not self._sections:
            title = self.title or self.untitled_title()
            self._sections.append(_Section((title,), 1, None, 0))
            self._stack = [(0, title)]
        return self._sections[-1]

    # ---------------------------------------------------------------- text
    def text(self, text: str) -> None:
        """Append inline text to the paragraph being built."""
        if text:
            self.cur.current.append(text)

    def end_paragraph(self) -> None:
        if self._sections:
            self._sections[-1].end_paragraph()

    def block(self, text: str) -> None:
        """Add a whole block (code, a note label) as its own paragraph."""
        sec = self.cur
        sec.end_paragraph()
        text = text.strip()
        if text:
            sec.parts.append(text)

    def code(self, text: str) -> None:
        """Add a code block, cut at ``max_code_chars`` characters, its lines as written. An image the page
        draws whose link the block writes as image markup is that example's output
        (flag ``sample``, see :mod:`murar.ingest.media_flags`)."""
        shown = text[: self.opts.max_code_chars]
        self._code_images |= markup_image_links(shown)
        # blank lines around it go; the first line keeps its indentation, as the others do
        # (stripped, "  spec:\n    replicas: 3" read as if replicas were nested twice as deep)
        sec = self.cur
        sec.end_paragraph()
        body = shown.strip("\n").rstrip()
        if body.strip():
            sec.parts.append(body)

    def preformatted(self, text: str) -> None:
        """Add the text of a raw HTML ``<pre>`` (see :func:`murar.ingest.htmltext.pre_text`)
        as a code block: its lines as written, less the indentation they all share (the
        HTML source's own nesting)."""
        self.code(textwrap.dedent(text).strip("\n").rstrip())

    # --------------------------------------------------------------- media
    def _placement(self, sec: _Section) -> dict[str, Any]:
        return {"section_id": "", "source_path": self.rel, "page_title": "",
                "heading_path": sec.heading_path, "anchor": sec.anchor, "position": len(sec.media)}

    def _add(self, item: AnyMedia) -> None:
        sec = self.cur
        if self._open_tabs and self._open_tabs[-1][1]:
            # the innermost tab holds the item; its set's labels are filled in by finish()
            set_no, item.tab = self._open_tabs[-1]
            self._tab_of[id(item)] = set_no
        sec.media.append((item, sec.text_length()))

    def table_row(self, texts: list[str], placed: list[tuple[AnyMedia, int]]) -> None:
        """Each ``(item, k)`` of ``placed`` sits in cell ``k`` of a table row whose cells read
        ``texts``: the text around it is its row (:func:`~murar.ingest.captions.row_contexts`),
        not the section text, which holds no table. A side with no cell text keeps the section's."""
        around = row_contexts(texts, [k for _, k in placed], self.opts.context_chars)
        for (item, _), context in zip(placed, around):
            self._row_of[id(item)] = context

    # ----------------------------------------------------------------- tabs
    def open_tab_set(self) -> None:
        """A tab set starts (Docusaurus ``<Tabs>``, sphinx-design ``tab-set``, ...);
        its tabs follow as :meth:`tab` calls."""
        self._tab_sets.append([])
        self._open_tabs.append((len(self._tab_sets) - 1, ""))
        held = getattr(self.site, "tabs_hold_headings", False) is True and bool(self._sections)
        self._tab_frames.append(self.open_container() if held else None)

    def tab(self, label: str) -> None:
        """The tab ``label`` of the innermost open set starts (and the previous one ends).
        Without an open set, one is opened (a tab marker whose set start was lost).

        On a site whose tabs hold their headings (``tabs_hold_headings``: DocFX, where a
        heading inside a tab is part of that tab's content), a tab after one that started
        headings returns to the section the set stands in, as a container does
        (:meth:`close_container`): the next tab's text is not under the last heading of
        the tab before it."""
        if not self._open_tabs:
            self.open_tab_set()
        set_no, _ = self._open_tabs[-1]
        frame = self._tab_frames[-1] if self._tab_frames else None
        if frame is not None and self._tab_sets[set_no]:
            self.close_container(frame)
        label = clean_text(label)
        self._tab_sets[set_no].append(label)
        self._open_tabs[-1] = (set_no, label)

    def close_tab_set(self) -> None:
        """The innermost open tab set ends (an unmatched close is ignored)."""
        if self._open_tabs:
            self._open_tabs.pop()
            frame = self._tab_frames.pop() if self._tab_frames else None
            if frame is not None:
                self.close_container(frame)  # the text after the set is the section's around it

    def image(self, link: str, *, alt: str = "", caption: str = "", page_rel: str | None = None,
              inline: bool = False, declared_width: int | None = None,
              classes: Iterable[str] = (), flags: Iterable[str] = (), link_to: str = "") -> ImageItem | None:
        """Add the image ``link`` as written in the page (resolved by the Site) and
        record the reference in ``asset_refs``.

        ``page_rel`` is the file the link is resolved against when it is not the
        page itself. Returns the item, or ``None`` when the link points at
        nothing usable (empty, escaping the root, a data URI, unsupported syntax).
        ``inline``: the image sits inside a sentence (an icon); it is flagged
        with the size and content checks of :func:`murar.ingest.media_flags.flag_image`
        (``declared_width``: the width in pixels the page gives it; ``flags``: flags
        the generator's converter gives it, ``hero``/``decorative``; ``link_to``: the
        link the image is drawn in). An image
        marked dark-mode only (``#only-dark``, ``#gh-dark-mode-only``, or the
        ``only-dark`` class, or Tailwind's ``hidden dark:block``, in ``classes``) is recorded but not kept: its light twin
        beside it is the image of that step.
        """
        written = link.strip()
        ref = resolve_reference(self.site, written, page_rel=page_rel or self.link_base or self.rel, kind="image",
                                written_in=self._written_in)
        self.asset_refs.append(ref)
        if written.lower().endswith(_DARK_ONLY) or _dark_only(classes):
            return None
        if ref.status in ("escapes_root", "inline", "unsupported"):
            self.warnings.append(f"image {written!r}: {ref.reason}")
            return None
        exists = False
        width = height = None
        if ref.path is not None:
            path = self.root / ref.path
            if self.opts.check_images:
                if ref.path not in self._image_checks:
                    self._image_checks[ref.path] = check_image(path)
                chk = self._image_checks[ref.path]
                exists, width, height = chk.ok, chk.width, chk.height
                if not chk.ok:
                    self.warnings.append(f"image {ref.path}: {chk.problem}")
            else:
                exists = path.is_file()
        sec = self.cur
        item = ImageItem(
            id=stable_id(self.rel, "image", str(sec.ordinal), str(len(sec.media)), written),
            **self._placement(sec),
            caption=clean_text(caption),
            alt=paragraph_text(alt),  # an attribute: one line, as the page's alt text reads
            path=ref.path,
            url=written if ref.status == "remote" else None,
            exists=exists,
            width=width,
            height=height,
        )
        flag_image(item, inline=inline, file=self.root / ref.path if ref.path is not None and exists else None,
                   declared_width=declared_width, given=flags, link_to=link_to)
        self._written.append((item, written))
        self._add(item)
        return item

    def stored_image(self, stored_path: str, *, alt: str = "", caption: str = "",
                     width: int | None = None, height: int | None = None) -> ImageItem:
        """Add an image murar wrote under the index directory (``stored_path``
        relative to it), e.g. a notebook output."""
        sec = self.cur
        item = ImageItem(
            id=stable_id(self.rel, "image", str(sec.ordinal), str(len(sec.media)), stored_path),
            **self._placement(sec),
            caption=clean_text(caption),
            alt=paragraph_text(alt),  # an attribute: one line, as the page's alt text reads
            stored_path=stored_path,
            exists=True,
            width=width,
            height=height,
        )
        self._add(item)
        return item

    def table(self, headers: list[str], rows: list[list[str]], caption: str = "") -> TableItem | None:
        """Add a table (``headers`` may be empty); an empty table is ignored."""
        if not headers and not rows:
            return None
        index = self._tables
        self._tables += 1
        self.cur.end_paragraph()
        sec = self.cur
        item = TableItem(
            id=stable_id(self.rel, "table", str(index)),
            **self._placement(sec),
            caption=clean_text(caption),
            headers=headers,
            rows=rows,
            markdown=rows_to_markdown(headers, rows),
            index_in_page=index,
            flags=table_flags(headers, rows),
        )
        self._add(item)
        return item

    def video(self, url: str, *, title: str = "") -> VideoItem | None:
        """Add a video embed or local video file (resolved by the Site, reference
        recorded); a sidecar ``.vtt``/``.srt`` gives the transcript with cue times."""
        url = url.strip()
        if not url:
            return None
        ref = resolve_reference(self.site, url, page_rel=self.link_base or self.rel, kind="video",
                                written_in=self._written_in)
        self.asset_refs.append(ref)
        if ref.status in ("escapes_root", "inline") or (is_remote(url) and not is_web_url(url)):
            # javascript:, file:, ... never become a video item (its URL reaches every renderer)
            self.warnings.append(f"video {url[:200]!r}: {ref.reason or 'unsupported URL scheme, not kept'}")
            return None
        self._videos += 1
        link = (ResolvedLink(url=url) if ref.status == "remote" else
                ResolvedLink(rel_path=ref.path) if ref.path else ResolvedLink(problem=ref.reason))
        local = locate_video(url, link, self.root, self.warnings)
        cues, sidecar = find_cues(self.root / self.rel, url, self._videos, self.warnings,
                                  video_file=self.root / local.path if local.path else None)
        self.cur.end_paragraph()
        sec = self.cur
        item = VideoItem(
            id=stable_id(self.rel, "video", str(sec.ordinal), str(len(sec.media)), url),
            **self._placement(sec),
            url=url,
            title=clean_text(title) or sec.heading_path[-1],
            transcript=cues_text(cues),
            cues=cues,
            transcript_source=f"sidecar:{sidecar}" if sidecar else "",
            path=local.path,
            exists=local.exists,
        )
        self._add(item)
        return item

    @contextlib.contextmanager
    def written_in(self, rel: str | None) -> Iterator[None]:
        """Inside the block, references are recorded as written in ``rel`` (an
        included file) while they still resolve against the page."""
        saved = self._written_in
        self._written_in = rel if rel and rel != self.rel else saved
        try:
            yield
        finally:
            self._written_in = saved

    # ---------------------------------------------------------------- html
    def html(self, html: str, *, inline: bool = False, image_base: str | None = None,
             in_sentence: bool = False) -> None:
        """Read an HTML fragment written in the page: ``<img>`` become images
        (caption: the enclosing ``<figure>``'s ``<figcaption>``, else the title),
        ``<iframe>``/``<video>`` videos, ``<table>`` tables and the rest text
        in blocks as a browser lays them out (:func:`murar.ingest.htmltext.text_blocks`:
        each block element a paragraph, a ``<pre>`` a code block wherever it stands)
        (unless ``inline``: then only embeds are taken). Scripts and styles are
        dropped. ``image_base`` is the file ``<img src>`` resolves against;
        ``in_sentence``: the fragment sits inside a sentence, its images are icons
        (see :meth:`image`), as is an image whose ``width`` is under the tiny size."""
        html, flattened = cap_depth(html)
        if flattened:
            self.warnings.append(f"HTML nested deeper than {MAX_TREE_DEPTH} elements: the deeper ones are read "
                                 "as text of the last (as browsers build the page)")
        try:
            tree = LexborHTMLParser(html)
        except Exception as err:  # noqa: BLE001 - selectolax is lenient; never lose the page
            self.warnings.append(f"unparsable HTML skipped ({type(err).__name__})")
            return
        root = tree.body or tree.root
        if root is None:
            return
        for bad in root.css("script, style, noscript, template"):
            bad.decompose()
        if not inline:
            self.end_paragraph()
        div_figures: dict[int, LexborNode | None] = {}  # a figure div's caption, read once per fragment
        for table in root.css("table"):
            if table.parent is not None and table.parent.tag not in ("td", "th"):
                parsed = parse_table_node(table)
                cap = table.css_first("caption")
                self.table(parsed.headers, parsed.rows, cap.text(strip=True) if cap else "")
                # the table's pictures, each read with its row (see table_row), each row read once
                rows: dict[int, tuple[list[str], dict[int, int]]] = {}  # row -> its cell texts, cell -> index
                by_row: dict[int, list[tuple[AnyMedia, int]]] = {}
                for el in table.css(_EMBEDS):
                    item = self._embed_from(self._embed_args(el, div_figures), image_base, in_sentence)
                    row = _ancestor(el, ("tr",))
                    cell = _ancestor(el, ("td", "th"))
                    if item is not None and row is not None and cell is not None:
                        if row.mem_id not in rows:
                            cells = [c for c in row.iter() if c.tag in ("td", "th")]
                            index: dict[int, int] = {}
                            for k, c in enumerate(cells):
                                index.setdefault(c.mem_id, k)
                            rows[row.mem_id] = ([cell_text(c) for c in cells], index)
                        texts, index = rows[row.mem_id]
                        by_row.setdefault(row.mem_id, []).append((item, index.get(cell.mem_id, len(texts))))
                for row_id, items in by_row.items():
                    self.table_row(rows[row_id][0], items)
            table.decompose()
        embeds = [el for el in root.css(_EMBEDS)]
        if inline:
            for el in embeds:
                self._embed_from(self._embed_args(el, div_figures), image_base, in_sentence)
            return
        # each picture stands where it is written in the fragment's text, so its context is the
        # text around it there (a screenshot after its list item), not the fragment as a whole
        pending = [self._embed_args(el, div_figures) for el in embeds]
        # a <div class="figure">'s caption is its pictures' caption (see _div_figure_caption), not
        # a paragraph of its own, as a <figcaption> is
        div_caps = {cap.mem_id: cap for el in embeds if el.tag == "img"
                    and (cap := _div_figure_caption(el, div_figures)) is not None}
        for k, el in enumerate(embeds):
            el.replace_with(f"\ue000{k}\ue001")
        for cap in root.css("figcaption"):
            cap.decompose()
        for cap in div_caps.values():
            cap.decompose()
        # the fragment's blocks as a browser lays them out, each its own paragraph (a <pre> one
        # wherever it stands, its lines kept); markers come in document order, and one the page
        # itself wrote is text, not a picture
        placed = 0
        for block in text_blocks(root):
            placed = self._html_block(block, pending, placed, image_base, in_sentence)
        for args in pending[placed:]:
            self._embed_from(args, image_base, in_sentence)

    def _html_block(self, block: TextBlock, pending: list[tuple[str, str, dict[str, str]]], placed: int,
                    image_base: str | None, in_sentence: bool) -> int:
        """Add one block of an HTML fragment (see :meth:`html`) with the pictures whose markers
        it holds, each where it stands in the text; returns how many of ``pending`` are placed."""
        pieces = _EMBED_MARK.split(block.text)
        if block.pre:
            # preformatted text (HTML "the pre element"); a picture in it stands before it
            for i in range(1, len(pieces), 2):
                if pieces[i] == str(placed) and placed < len(pending):
                    self._embed_from(pending[placed], image_base, in_sentence)
                    placed += 1
            self.preformatted("".join(pieces[::2]))
            return placed
        sec = self.cur
        # the paragraph up to each picture, as clean_text() then paragraph_text() read it, built up
        # chunk by chunk (re-cleaning the whole prefix at each picture was quadratic); a video ends
        # the paragraph (see video()), so the text after it starts a new one, not a copy of the old
        joiner, start = LineJoiner(), 0
        for i in range(1, len(pieces), 2):
            sec.current.append(joiner.feed(pieces[i - 1]))
            if pieces[i] == str(placed) and placed < len(pending):
                self._embed_from(pending[placed], image_base, in_sentence)
                placed += 1
                if not sec.current:  # the paragraph was ended
                    joiner, start = LineJoiner(), i + 1
        text = clean_text("".join(pieces[start::2]))
        sec.current.clear()
        if text:
            self.block(text)
        return placed

    def _embed_args(self, el: LexborNode, div_figures: dict[int, LexborNode | None],
                    ) -> tuple[str, str, dict[str, str]]:
        """``(tag, src, attributes)`` of an ``<img>``/``<iframe>``/``<video>``/``<object data>``
        (``"img"`` for an object showing a picture; ``("", "", ...)`` for one showing no picture
        or player), with the caption of the ``<figure>`` (or, for an image, figure div:
        ``div_figures``, the fragment's cache of :func:`_div_figure_caption`) it sits in as the
        ``figcaption`` attribute."""
        attrs = {k: v or "" for k, v in el.attributes.items()}
        src = attrs.get("data" if el.tag == "object" else "src", "").strip()
        if not src and el.tag == "video":
            source = el.css_first("source")
            src = ((source.attributes.get("src") or "") if source else "").strip()
        if el.tag == "object" and (attrs.get("type", "").lower().startswith("image/") or _IMAGE_DATA.search(src)):
            el_tag = "img"  # an <object> showing a picture is read as the <img> it draws
        else:
            el_tag = el.tag or ""
        if el_tag == "img":
            fig = el.parent
            while fig is not None and fig.tag not in ("figure", "body"):
                fig = fig.parent
            figcap = fig.css_first("figcaption") if fig is not None and fig.tag == "figure" else None
            if figcap is None:
                figcap = _div_figure_caption(el, div_figures)
            attrs["figcaption"] = inline_text(figcap) if figcap else ""  # "<a>me</a>." reads "me.", not "me ."
            link = _ancestor(el, ("a",), limit=20)
            attrs["\0link"] = ((link.attributes.get("href") or "") if link is not None else "").strip()
        else:
            if el_tag == "object" and not _VIDEO_IFRAME.search(src):
                return "", "", attrs  # an applet, a PDF, a page: no media of the answer
            fig = _ancestor(el, ("figure",), limit=20)  # a player's <figure> caption names the video
            figcap = fig.css_first("figcaption") if fig is not None else None
            attrs["figcaption"] = inline_text(figcap) if figcap else ""
        return el_tag, src, attrs

    def _embed_from(self, args: tuple[str, str, dict[str, str]], image_base: str | None,
                    in_sentence: bool) -> AnyMedia | None:
        """Add the image or video an HTML element names (see :meth:`html`)."""
        tag, src, attrs = args
        if not src:
            return None
        if tag == "img":
            return self.image(src, alt=attrs.get("alt", ""), caption=attrs["figcaption"] or attrs.get("title", ""),
                              page_rel=image_base, inline=in_sentence, declared_width=px_width(attrs.get("width")),
                              classes=attrs.get("class", "").split(),
                              flags=attrs.get(FLAGS_ATTR, "").split() + aria_flags(attrs),
                              link_to=attrs.get("\0link", ""))
        if tag == "video" or _VIDEO_IFRAME.search(src) or (is_remote(src) and not is_web_url(src)):
            # a javascript:/file: embed goes to video() too: refused there, with a warning
            return self.video(src, title=attrs.get("title", "") or attrs.get("figcaption", ""))
        return None

    # -------------------------------------------------------------- finish
    def finish(self, *, metadata: dict[str, Any] | None = None, page_url: str | None = None) -> ParsedDocument:
        """The page as a :class:`ParsedDocument` (context filled in)."""
        if self._sections:
            self._sections[-1].end_paragraph()
        mark_samples(self._written, self._code_images)
        title = self.title or self.untitled_title()
        n = self.opts.context_chars
        sections: list[Section] = []
        media: list[AnyMedia] = []
        for sb in self._sections:
            if sb.resumed and not sb.media and not any(sb.parts):
                continue
            text = "\n\n".join(p for p in sb.parts if p)
            sid = stable_id(self.rel, "section", str(sb.ordinal), " > ".join(sb.heading_path))
            sections.append(Section(
                id=sid, source_path=self.rel, page_title=title, heading_path=sb.heading_path,
                anchor=sb.anchor, level=sb.level, text=text, ordinal=sb.ordinal, page_url=page_url,
            ))
            around = contexts_at(text, [offset for _, offset in sb.media], n)
            for (item, _), (before, after) in zip(sb.media, around):
                item.section_id = sid
                item.page_title = title
                row_before, row_after = self._row_of.get(id(item), (None, None))
                item.context_before = before if row_before is None else row_before
                item.context_after = after if row_after is None else row_after
                if id(item) in self._tab_of:
                    item.tab_set = tuple(dict.fromkeys(self._tab_sets[self._tab_of[id(item)]]))
                media.append(item)
        meta = {k: v for k, v in (metadata or {}).items() if isinstance(v, (str, int, float, bool, list))}
        return ParsedDocument(source_path=self.rel, title=title, metadata=meta, sections=sections,
                              media=media, warnings=self.warnings, asset_refs=self.asset_refs)

