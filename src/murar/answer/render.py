"""Turning the refined answer into blocks, Markdown and JSON (MuRAR step 4 output).

Blocks: the text between placeholders becomes :class:`TextBlock` (with the
citations it carries); each placeholder becomes a :class:`MediaBlock`.
Markdown: images as ``![label](url)``, tables as GFM tables, videos as links,
then a numbered list of sources. Document-derived labels are escaped so they
cannot inject Markdown links or HTML.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Protocol

from murar.answer.generate import citations_in
from murar.answer.moments import best_moment, format_timestamp, with_fragment
from murar.answer.refine import PLACEHOLDER
from murar.schema import (
    Answer,
    AnyMedia,
    Block,
    ImageItem,
    MediaBlock,
    MediaSelection,
    ScoredSnippet,
    TableItem,
    TextBlock,
    VideoItem,
)

MediaUrl = Callable[[AnyMedia], "str | None"]


def to_blocks(text: str, selections: list[MediaSelection],
              citation_of: Mapping[str, int] | None = None) -> list[Block]:
    """Split ``text`` at placeholders into text and media blocks, in order.

    ``citation_of`` maps a snippet id to its ``[n]`` number: a media block cites
    the snippet its selection came from (``MediaSelection.snippet_id``), the
    source of the picture, whatever the sentence before it cites. A selection
    whose snippet is not in the map inherits the last citation of the text block
    right before it.
    """
    by_ph = {s.placeholder: s for s in selections}
    own = citation_of or {}
    blocks: list[Block] = []
    pos = 0
    for m in PLACEHOLDER.finditer(text):
        chunk = text[pos : m.start()].strip()
        if chunk:
            blocks.append(TextBlock(text=chunk, citations=citations_in(chunk)))
        sel = by_ph.get(m.group(0))
        if sel is not None:
            cite = own.get(sel.snippet_id) if sel.snippet_id is not None else None
            blocks.append(MediaBlock(type=sel.item.kind, item=sel.item, score=round(sel.score, 4),
                                     citations=[] if cite is None else [cite],
                                     caption=sel.item.display_caption or sel.item.label))
        pos = m.end()
    tail = text[pos:].strip()
    if tail:
        blocks.append(TextBlock(text=tail, citations=citations_in(tail)))
    # a media block without its own source inherits the last citation of the text
    # block right before it; a video with a transcript starts at the moment that text points at
    last: list[int] = []
    last_text = ""
    for b in blocks:
        if isinstance(b, TextBlock):
            last = b.citations[-1:] if b.citations else last
            last_text = b.text
        else:
            b.citations = b.citations or list(last)
            if isinstance(b.item, VideoItem) and b.item.cues:
                b.start_seconds = best_moment(_last_sentence(last_text), b.item.cues)
    return blocks


def _last_sentence(text: str) -> str:
    parts = re.split(r"(?<=[.!?])\s+", text.strip())
    return parts[-1] if parts else text


_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+!<>|])")


def escape_md(text: str) -> str:
    """Escape Markdown/HTML-significant characters in document-derived text."""
    return _MD_SPECIAL.sub(r"\\\1", " ".join(text.split()))


def file_media_url(corpus_root: Path, assets_dir: Path | None, base_dir: Path | None = None, *,
                   remote_images: bool = False) -> MediaUrl:
    """Media URLs as file paths relative to ``base_dir`` (default: the current folder).

    Use it for Markdown written to a file in ``base_dir`` or printed in a shell
    there: the links resolve from where the answer is read. Local image and
    video files are linked alike; remote videos keep their URL; remote images
    keep theirs only with ``remote_images=True`` (``--remote-images show``),
    else they get no link.
    """
    base = (base_dir or Path.cwd()).resolve()

    def rel_to_base(target: Path) -> str:
        return os.path.relpath(target, base).replace(os.sep, "/").replace(" ", "%20")

    def url(item: AnyMedia) -> str | None:
        if isinstance(item, ImageItem):
            if item.path:
                return rel_to_base(corpus_root / item.path)
            if item.stored_path and assets_dir is not None:
                return rel_to_base(assets_dir / item.stored_path)
            return item.url if remote_images else None
        if isinstance(item, VideoItem):
            return rel_to_base(corpus_root / item.path) if item.path else item.url
        return None

    return url


def is_safe_url(url: str) -> bool:
    """True for http(s) URLs and relative paths that can sit inside a Markdown
    ``<...>`` link destination; False for ``javascript:``, ``data:`` and other
    schemes, and for any URL holding ``<``, ``>`` or a line break (it would end
    the destination early and let the rest be read as Markdown)."""
    u = url.strip().lower()
    if any(c in u for c in "<>\r\n"):
        return False
    if u.startswith(("http://", "https://")):
        return True
    return not re.match(r"^[a-z][a-z0-9+.-]*:", u) and not u.startswith("//")


_CODE = re.compile(r"(```.*?(?:```|\Z)|~~~.*?(?:~~~|\Z)|`[^`\n]+`)", re.DOTALL)
_TAG_OPEN = re.compile(r"<(?=[A-Za-z/!?])")


def neutralize_html(text: str) -> str:
    """``text`` with every raw HTML tag start (``<`` before a letter, ``/``, ``!``
    or ``?``) written as ``&lt;``, outside code spans and fences.

    Answer text quotes the documentation, whose pages may hold HTML or script
    (``<img src=x onerror=...>`` once its code span is gone); a Markdown viewer
    would render it live. Code keeps its ``<`` (a viewer shows code literally).
    """
    parts = _CODE.split(text)
    return "".join(p if i % 2 else _TAG_OPEN.sub("&lt;", p) for i, p in enumerate(parts))


_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


def close_fences(text: str) -> str:
    """``text`` with a code fence it opens and never closes closed at its end.

    A model may quote the first lines of a code block and stop (seen with the bundled model on
    a MyST ```` ```{figure} ```` example): left open, the fence would swallow every paragraph
    after it, media and Sources included, into one code block. CommonMark: a closing fence is
    the opening one's character, at least as long, alone on its line.
    """
    opened = ""
    for line in text.splitlines():
        m = _FENCE.match(line)
        if not m:
            continue
        fence = m.group(1)
        if not opened:
            opened = fence
        elif fence[0] == opened[0] and len(fence) >= len(opened) and not line.strip()[len(fence):].strip():
            opened = ""
    return f"{text.rstrip()}\n{opened}" if opened else text
class StreamNeutralizer:
    """:func:`neutralize_html` for answer text that arrives in pieces (streamed tokens).

    :meth:`feed` gives out what can be decided so far: a trailing ``<``, backtick or
    ``~`` waits for the next piece, and so does the text from an unmatched backtick of
    the current line (a code span may be closing); :meth:`flush` gives out the rest.
    The pieces join to ``neutralize_html(text)`` for text whose code spans close on
    their line; where later text changes what earlier text was (stray backticks), the
    rest is given out with every tag start escaped, so no piece ever holds live HTML.
    """

    def __init__(self) -> None:
        self._raw = ""
        self._sent = ""
        self._sent_raw = 0
        self._exact = True

    def _safe_end(self) -> int:
        raw, cut = self._raw, len(self._raw)
        while cut > self._sent_raw and raw[cut - 1] in "`<~":
            cut -= 1
        line = raw.rfind("\n", 0, cut) + 1
        ticks = [i for i in range(line, cut) if raw[i] == "`"]
        if len(ticks) % 2:
            cut = ticks[-1]
        return max(cut, self._sent_raw)

    def _give(self, cut: int) -> str:
        if self._exact:
            out = neutralize_html(self._raw[:cut])
            if out.startswith(self._sent):
                new, self._sent, self._sent_raw = out[len(self._sent):], out, cut
                return new
            self._exact = False
        new = _TAG_OPEN.sub("&lt;", self._raw[self._sent_raw:cut])
        self._sent, self._sent_raw = self._sent + new, cut
        return new

    def feed(self, piece: str) -> str:
        """Add ``piece``; returns the neutralised text that can go out now (maybe ``""``)."""
        self._raw += piece
        return self._give(self._safe_end())

    def flush(self) -> str:
        """The neutralised text held back so far (call at the end, or before a media block)."""
        return self._give(len(self._raw))


def render_markdown(answer: Answer, *, media_url: MediaUrl) -> str:
    """The answer as Markdown with media inline and a Sources list.

    ``media_url(item)`` gives the link target of an image or video (``None``
    drops an image, leaving its caption).
    """
    out: list[str] = []
    for b in answer.blocks:
        if isinstance(b, TextBlock):
            out.append(neutralize_html(close_fences(b.text)))
        else:
            out.extend(media_markdown(b, media_url=media_url))
    text = "\n\n".join(p for p in out if p)
    if answer.sources:
        cited = cited_numbers(answer)
        lines = ["", "**Sources**", ""]
        for s in answer.sources:
            if cited and s.citation not in cited:
                continue
            lines.append(f"[{s.citation}] {source_label(s)}")
        text += "\n" + "\n".join(lines)
    return text.strip() + "\n"


class _Cited(Protocol):
    """An answer as the Sources lists read it (:class:`murar.schema.Answer`, :class:`murar.api.Answer`)."""

    @property
    def text(self) -> str: ...

    @property
    def media(self) -> list[MediaBlock]: ...


def cited_numbers(answer: _Cited) -> set[int]:
    """The ``[n]`` numbers the answer uses: in its text and on its media blocks
    (a media block may cite a source no sentence cites: ``MediaOptions.top_section``).
    The Sources lists show these sources only."""
    return set(citations_in(answer.text)) | {c for m in answer.media for c in m.citations}


def media_markdown(block: MediaBlock, *, media_url: MediaUrl) -> list[str]:
    """The Markdown paragraphs of one media block (image + caption, caption + table, video link)."""
    out: list[str] = []
    item = block.item
    label = escape_md(block.caption or item.label)
    if isinstance(item, ImageItem):
        url = media_url(item)
        if url and is_safe_url(url):
            out.append(f"![{label}](<{url}>)")
        out.append(f"*{label}*")
    elif isinstance(item, TableItem):
        if label:
            out.append(f"*{label}*")
        out.append(neutralize_html(item.markdown))  # cells quote the page: "<iframe src=...>" in a table of tags
    elif isinstance(item, VideoItem):
        url = with_fragment(media_url(item) or item.url, block.start_seconds)
        at = f" (from {format_timestamp(block.start_seconds)})" if block.start_seconds is not None else ""
        if is_safe_url(url):
            out.append(f"▶ Video: [{label}](<{url}>){at}")
        else:
            out.append(f"▶ Video: {label}{at}")
    return out


def source_label(s: ScoredSnippet) -> str:
    """``Page title › Section — path#anchor`` for one retrieved snippet; the page's
    live address (``page_url``, with the section's anchor) instead of the path
    when the index knows it."""
    path = [h for h in s.snippet.heading_path if h != s.snippet.page_title]
    title = " › ".join([s.snippet.page_title, *path])
    anchor = f"#{s.snippet.anchor}" if s.snippet.anchor else ""
    if s.page_url and is_safe_url(s.page_url):
        ref = "<" + s.page_url + (anchor if "#" not in s.page_url else "") + ">"
    else:  # a file may be named "<img src=x onerror=...>.md" (or hold a line break): never live HTML
        ref = neutralize_html(" ".join((s.snippet.source_path + anchor).split()))
    if s.snippet.page:
        ref += f" (page {s.snippet.page})"
    return f"{escape_md(title)} — {ref}"
