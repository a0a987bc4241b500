"""Ingest-time media flags: images that are part of the text, not illustrations.

Documentation puts many pictures in a page that must never be shown as an
answer's figure (issue 9, MuRAR section 2.3 selects "relevant" media only):

- ``inline``: an icon written inside a sentence ("select ![](plus.png) to
  add"), i.e. word text on the same source line as the image, unless the
  picture is shown at least ``figure_size`` (400 x 200 px, its natural size
  scaled to a width the document declares): a browser breaks the line around
  it and it reads as a figure (a Sphinx ``|image|`` substitution of a whole
  dialog opening a paragraph);
- ``tiny``: smaller than ``tiny_side`` pixels on its longer side (a bullet, a
  status dot, a toolbar glyph), from the raster header or an SVG's
  ``width``/``height``/``viewBox``, or a width the document itself declares;
- ``decorative``: the same picture (by content hash) on many pages of the
  corpus — a logo under every page title, a "learn more" button (not the
  screenshot of a passage every page includes: :func:`mark_repeated`); or an
  ``<img>`` the page itself marks as decoration for assistive technology
  (WAI-ARIA: ``role="presentation"``/``role="none"``, ``aria-hidden="true"``;
  :func:`aria_flags`);
- ``badge``: a status badge drawn by a badge service (shields.io, badgen,
  badge.fury.io) or a CI/coverage/docs service's ``.../badge.svg``
  (``/badge/`` path segment): a README strip of build/version/licence pills;
  also a service's deploy/open button (``.../deploy/button.svg``), and a
  picture that is a link to another site drawn as a button strip (at most
  ``button_height`` px tall, at least ``button_ratio`` times as wide: an App
  Store / Google Play "download" badge, a sponsor's banner button);
- ``hero``: a theme's page header picture (a post's cover or preview image
  that the theme's layout draws above the content): set by the generator's
  converter, which writes it as ``<img ... data-murar-flags="hero">``
  (:data:`FLAGS_ATTR`); the builder passes the attribute's known flags on;
- ``sample``: a picture whose link, as written, the page also shows as image
  markup in a code block (``![x](a.png)``, ``.. image:: a.png``,
  ``{figure} a.png``, ``src="a.png"``, ``image::a.png[]``): the rendered
  output of a markup example, a stand-in picture (a logo on a "Figures" page,
  a placeholder photo on a theme's kitchen sink), never an illustration; so is
  any picture from a placeholder-image service (picsum.photos, placehold.co);
- ``avatar``: a person's picture from an avatar service (GitHub's
  ``avatars.githubusercontent.com`` and ``github.com/<user>.png``, Gravatar's
  ``/avatar/``): a team or author list, never an illustration;
- ``layout`` (tables): a table none of whose body cells has text — a grid
  that sets pictures side by side under labels ("Light mode | Dark mode" over
  two screenshots, a card row of steps): its pictures are the content, each
  an image item of its own, and the table itself holds no facts to show
  (:func:`table_flags`).

Flags are recorded on the item (``MediaItem.flags``) so the index keeps the
item (and the trace can explain why it was never chosen) while selection
skips it (:func:`is_selectable`). Every converter calls :func:`flag_image`
for each image it creates and the index builder calls :func:`mark_repeated`
once over the whole corpus.
"""

from __future__ import annotations

import hashlib
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from murar.schema import AnyMedia, ImageItem

__all__ = [
    "AVATAR", "BADGE", "DECORATIVE", "FLAGS_ATTR", "HERO", "IMAGE_MARK", "INLINE", "LAYOUT", "SAMPLE", "TINY",
    "FlagOptions", "aria_flags", "content_hash", "flag_image", "is_inline_line", "is_selectable", "length_px",
    "link_flag", "mark_repeated", "mark_samples", "marked_images_inline", "markup_image_links", "px_width",
    "svg_size", "table_flags",
]

INLINE = "inline"
TINY = "tiny"
DECORATIVE = "decorative"
BADGE = "badge"
AVATAR = "avatar"
HERO = "hero"
SAMPLE = "sample"
LAYOUT = "layout"
# the attribute of an <img> a site's converter writes into a page to pass flags its layout implies
FLAGS_ATTR = "data-murar-flags"
_GIVEN = frozenset({HERO, DECORATIVE})  # flags a converter may give (the others are measured here)

_URL = re.compile(r"(?:[a-z][a-z0-9+.-]*:)?//([^/?#]*)([^?#]*)", re.IGNORECASE)  # host, path of a URL
# hosts that serve nothing but badges (shields.io's and badgen's documented endpoints, badge.fury.io)
_BADGE_HOSTS = frozenset({"img.shields.io", "shields.io", "badgen.net", "flat.badgen.net", "badge.fury.io",
                          "badges.gitter.im", "forthebadge.com"})
# a badge a service serves beside its other pages: GitHub Actions ".../workflows/x.yml/badge.svg",
# Codecov ".../graph/badge.svg", Read the Docs "/projects/x/badge/", Binder "badge_logo.svg", pepy "/badge/x";
# a deploy/open button: Heroku and Netlify ".../deploy/button.svg", Vercel "/button", Gitpod "/button/open-in-..."
_BADGE_SEGMENT = re.compile(r"(?:^|[-_])(?:badges?|button)(?:[-_]logo)?(?:\.(?:svg|png))?$", re.IGNORECASE)
# placeholder-image services: a random or blank stand-in picture (Lorem Picsum, placehold.co, ...): ``sample``
_PLACEHOLDER_HOSTS = frozenset({"picsum.photos", "fastly.picsum.photos", "placehold.co", "placehold.it",
                                "via.placeholder.com", "placeholder.com", "dummyimage.com", "placekitten.com",
                                "loremflickr.com", "placeimg.com"})
_AVATAR_HOST = re.compile(r"^(?:avatars\d*\.githubusercontent\.com|(?:www\.|secure\.|s\.)?gravatar\.com)$")
_GITHUB_USER_PNG = re.compile(r"^/[A-Za-z0-9-]{1,39}\.png$")  # github.com/<user>.png is the user's avatar

# an image reference written as markup: Markdown ![alt](x), reST/MyST image and figure directives,
# HTML/shortcode src=, AsciiDoc image::x[] (bounded alt text: a line of "![" is linear)
_MARKUP_IMAGE = re.compile(r"""(?:!\[[^\]\n]{0,500}\]\(\s*<?|\b(?:image|figure)::?\s*|\{(?:figure|image)\}\s*"""
                           r"""|\bsrc\s*=\s*["']?)([^\s()<>"'\[\]]{1,2000})""", re.IGNORECASE)
_WORDS = re.compile(r"[A-Za-z\u00c0-\uffff]{2,}")
_ATTR_BLOCK = re.compile(r"\{[^{}]*\}")
_SVG_ATTR = re.compile(r"""\b(width|height)\s*=\s*["']?\s*([\d.]+)\s*(px)?["'\s>/]""", re.IGNORECASE)
_SVG_VIEWBOX = re.compile(r"""viewBox\s*=\s*["']\s*[-\d.]+[\s,]+[-\d.]+[\s,]+([\d.]+)[\s,]+([\d.]+)""", re.IGNORECASE)


@dataclass(frozen=True, slots=True, kw_only=True)
class FlagOptions:
    """``tiny_side``: an image whose longer side is below this many pixels is
    ``tiny``. ``figure_size``: an image in a sentence drawn at least this
    (width, height) in pixels is a figure, not an icon. ``button_height`` and
    ``button_ratio``: an image linking to another site drawn at most that tall
    and at least that many times as wide is a button (``badge``). An image whose content occurs on at least
    ``max(decorative_min_pages, decorative_share * pages in the corpus)`` pages
    is ``decorative``."""

    tiny_side: int = 48
    figure_size: tuple[int, int] = (400, 200)
    button_height: int = 100
    button_ratio: float = 2.5
    decorative_min_pages: int = 5
    decorative_share: float = 0.1


def content_hash(path: Path, *, chunk: int = 1 << 20) -> str:
    """sha1 of the file bytes (40 hex chars); ``""`` when the file cannot be read. Never raises."""
    h = hashlib.sha1()
    try:
        with path.open("rb") as fh:
            while block := fh.read(chunk):
                h.update(block)
    except OSError:
        return ""
    return h.hexdigest()


def svg_size(path: Path) -> tuple[int, int] | None:
    """Pixel size an SVG declares on its root (``width``/``height``, else ``viewBox``); ``None`` if unknown."""
    try:
        head = path.read_bytes()[:4096].decode("utf-8", errors="replace")
    except OSError:
        return None
    start = head.lower().find("<svg")
    if start < 0:
        return None
    tag = head[start: head.find(">", start) + 1 or None]
    dims = {m.group(1).lower(): _svg_length(m.group(2)) for m in _SVG_ATTR.finditer(tag)}
    width, height = dims.get("width"), dims.get("height")
    if width is not None and height is not None:
        return width, height
    vb = _SVG_VIEWBOX.search(tag)
    if vb and (width := _svg_length(vb.group(1))) is not None and (height := _svg_length(vb.group(2))) is not None:
        return width, height
    return None


def _svg_length(text: str) -> int | None:
    """A length an SVG root declares, in whole pixels; ``None`` for junk the pattern lets
    through (``"."``, ``"1.2.3"``) and for a million pixels or more (400 nines, infinite)."""
    try:
        value = float(text)
    except ValueError:
        return None
    return int(value) if value < 1_000_000 else None


def is_inline_line(before: str, after: str) -> bool:
    """True when an image sits inside a sentence: word text (two letters or more)
    on the same source line before or after it. ``{...}`` attribute blocks
    (``{width="80%"}``) do not count as text."""
    text = _ATTR_BLOCK.sub(" ", f"{before} {after}")
    return bool(_WORDS.search(text))


IMAGE_MARK = "\0"
"""Stands for an image in a text block's text read for :func:`marked_images_inline`."""


def marked_images_inline(text: str) -> list[bool]:
    """For each :data:`IMAGE_MARK` in ``text`` (a text block's text with a mark where
    each image stands, ``\\n`` where a source line or ``<br>`` ends), in order: whether
    that image is in a sentence (:func:`is_inline_line` of its line). Linear in
    ``len(text)``: a paragraph of many icons is read once."""
    return [is_inline_line(line.replace(IMAGE_MARK, " "), "")
            for line in text.split("\n") for _ in range(line.count(IMAGE_MARK))]


def px_width(value: str | None) -> int | None:
    """A width (or height) the page declares in pixels (``"24"``, ``"24px"``, HTML's
    ``width`` attribute); ``None`` for percentages, other units or junk."""
    m = re.fullmatch(r"\s*(\d{1,5})\s*(px)?\s*", value or "")
    return int(m.group(1)) if m else None


# CSS length units in pixels (CSS Values and Units 3: 1in = 96px = 2.54cm = 72pt = 6pc); the
# font-relative em/rem at the initial font size "medium" (16 px), ex/ch at half of it
_CSS_PX = {"": 1.0, "px": 1.0, "em": 16.0, "rem": 16.0, "ex": 8.0, "ch": 8.0, "pt": 96 / 72, "pc": 16.0,
           "in": 96.0, "cm": 96 / 2.54, "mm": 96 / 25.4, "q": 96 / 101.6}
_CSS_LENGTH = re.compile(r"\s*(\d{1,5}(?:\.\d{1,4})?|\.\d{1,4})\s*([a-zA-Z]{0,3})\s*")


def length_px(value: str | None) -> int | None:
    """A CSS length the page declares (reST ``:width:``, whose units are docutils'
    "em ex px in cm mm pt pc", or ``%``; https://docutils.sourceforge.io/docs/ref/rst/restructuredtext.html#length-units)
    in pixels, rounded: ``"24"``/``"24px"`` -> 24, ``"1.5em"`` -> 24 (an icon sized to the text,
    at the initial 16 px font), ``"2cm"`` -> 76; ``None`` for percentages (relative to a
    container murar does not know), unknown units or junk."""
    m = _CSS_LENGTH.fullmatch(value or "")
    if m is None or m.group(2).lower() not in _CSS_PX:
        return None
    return round(float(m.group(1)) * _CSS_PX[m.group(2).lower()])


def aria_flags(attrs: Mapping[str, str | None]) -> list[str]:
    """``[decorative]`` when an ``<img>``'s attributes hide it from assistive
    technology as decoration (``role="presentation"``/``"none"``,
    ``aria-hidden="true"``; WAI-ARIA 1.2), else ``[]``."""
    role = (attrs.get("role") or "").strip().lower().split()
    hidden = (attrs.get("aria-hidden") or "").strip().lower() == "true"
    return [DECORATIVE] if hidden or (role and role[0] in ("presentation", "none")) else []


def link_flag(link: str) -> str | None:
    """``badge``, ``avatar`` or ``sample`` when the image's URL names a badge, avatar
    or placeholder-image service (see the module docstring), else ``None`` (a path inside the site is never
    either). Linear in ``len(link)``; only the first 2,000 characters are read."""
    m = _URL.match(link[:2000].strip())
    if not m:
        return None
    host, path = m.group(1).lower().rsplit("@", 1)[-1].split(":")[0], m.group(2)
    if host in _BADGE_HOSTS:
        return BADGE
    if host in _PLACEHOLDER_HOSTS:
        return SAMPLE
    if _AVATAR_HOST.match(host) or (host == "github.com" and _GITHUB_USER_PNG.match(path)):
        return AVATAR
    # a service's path only: a page's own "img/pipeline_badge.png" may be a screenshot of badge settings
    segments = [seg for seg in path.split("/") if seg] if host else []
    if any(_BADGE_SEGMENT.search(seg) for seg in segments[-4:]):
        return BADGE
    return None


def _link_button(item: ImageItem, link_to: str, declared_width: int | None, opts: FlagOptions) -> bool:
    """The image is a link to a web page (not to a bigger copy of a picture) drawn as a
    button strip (see :class:`FlagOptions`)."""
    target = link_to.strip().lower()
    if not target.startswith(("http://", "https://")) or not item.width or not item.height:
        return False
    if target.split("?")[0].split("#")[0].endswith((".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp")):
        return False
    width, height = float(item.width), float(item.height)
    if declared_width:
        width, height = float(declared_width), height * declared_width / width
    return height <= opts.button_height and width >= opts.button_ratio * height


def _shown_as_figure(item: ImageItem, declared_width: int | None, opts: FlagOptions) -> bool:
    """The picture is drawn at least ``opts.figure_size`` (width x height): its natural
    size, scaled to ``declared_width`` when the document gives one."""
    if not item.width or not item.height:
        return False
    width, height = float(item.width), float(item.height)
    if declared_width:
        width, height = float(declared_width), height * declared_width / width
    return width >= opts.figure_size[0] and height >= opts.figure_size[1]


def flag_image(
    item: ImageItem,
    *,
    inline: bool = False,
    file: Path | None = None,
    declared_width: int | None = None,
    given: Iterable[str] = (),
    link_to: str = "",
    options: FlagOptions | None = None,
) -> ImageItem:
    """Record ``inline``/``tiny``/``badge``/``avatar`` on ``item`` and fill ``content_hash`` from ``file``.

    ``file`` is the image on disk (hashed; an SVG's declared size is read when
    ``item.width`` is unknown). ``declared_width`` is a width in pixels the
    document gives (``<img width="24">``). ``given``: flags the generator's
    converter recorded (``hero``, ``decorative``; other names are ignored).
    ``link_to``: the ``href`` of the link the image is drawn in, if any.
    Returns ``item`` (modified in place).
    """
    opts = options or FlagOptions()
    if file is not None and item.exists:
        if not item.content_hash:
            item.content_hash = content_hash(file)
        if item.width is None and file.suffix.lower() == ".svg":
            size = svg_size(file)
            if size is not None:
                item.width, item.height = size
    if inline and INLINE not in item.flags and not _shown_as_figure(item, declared_width, opts):
        item.flags.append(INLINE)
    for flag in given:
        if flag in _GIVEN and flag not in item.flags:
            item.flags.append(flag)
    kind = link_flag(item.url or "") or (BADGE if _link_button(item, link_to, declared_width, opts) else None)
    if kind and kind not in item.flags:
        item.flags.append(kind)
    sides = [s for s in (item.width, item.height) if s]
    if declared_width:
        sides = [declared_width]
    if sides and max(sides) < opts.tiny_side and TINY not in item.flags:
        item.flags.append(TINY)
    return item


def markup_image_links(code: str) -> set[str]:
    """The image links ``code`` (a code block's text) writes as image markup (see
    ``sample`` in the module docstring). Linear in ``len(code)``."""
    return {m.group(1) for m in _MARKUP_IMAGE.finditer(code)}


def mark_samples(written: Iterable[tuple[ImageItem, str]], shown_in_code: set[str]) -> int:
    """Flag ``sample`` each ``(item, link as written)`` whose link is in
    ``shown_in_code`` (:func:`markup_image_links` of the page's code blocks).
    Returns how many items were flagged."""
    flagged = 0
    for item, link in written:
        if link.strip() in shown_in_code and SAMPLE not in item.flags:
            item.flags.append(SAMPLE)
            flagged += 1
    return flagged


def mark_repeated(media: Iterable[AnyMedia], *, n_pages: int, options: FlagOptions | None = None) -> int:
    """Flag ``decorative`` every image whose content occurs on too many pages.

    Images are grouped by ``content_hash`` (path when the hash is unknown);
    ``n_pages`` is the number of pages in the corpus. A group whose every
    occurrence stands in the same text (same heading, same non-empty context
    before and after) is one passage the pages include (a Sphinx
    ``.. include::`` of a shared tab page): the picture illustrates that
    passage and is not flagged; a logo under each page title has each page's
    own text around it. Returns how many items
    were flagged.
    """
    opts = options or FlagOptions()
    limit = max(opts.decorative_min_pages, opts.decorative_share * n_pages)
    groups: dict[str, list[ImageItem]] = defaultdict(list)
    for m in media:
        if isinstance(m, ImageItem):
            key = m.content_hash or (m.path or m.stored_path or "")
            if key:
                groups[key].append(m)
    flagged = 0
    for items in groups.values():
        passages = {(m.heading_path[-1:], m.context_before, m.context_after) for m in items}
        if len(passages) == 1 and any(next(iter(passages))[1:]):
            continue  # one passage included in every page (a shared "Notes" tab): its screenshot is content
        if len({m.source_path for m in items}) >= limit:
            for m in items:
                if DECORATIVE not in m.flags:
                    m.flags.append(DECORATIVE)
                    flagged += 1
    return flagged


def table_flags(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """``["layout"]`` for a table whose body cells (``rows``) hold no text (pictures
    or nothing), else ``[]``. ``headers`` does not count: labels over a row of
    screenshots are still a picture grid. Called by the markup builder; the HTML
    converter never makes such a table (``tables.parse_table_node`` drops rows without
    text, and a table left without rows is read as text, its pictures walked)."""
    return [] if any(cell.strip() for row in rows for cell in row) else [LAYOUT]


def is_selectable(item: AnyMedia) -> bool:
    """False for items flagged at ingest (inline icon, tiny, decorative, badge, avatar, hero, sample,
    a layout table)."""
    return not item.flags
