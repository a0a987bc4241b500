"""Context-aware captions for figures and tables (seed 001, "context-aware image summaries").

Instead of describing an image from its pixels, a media item is described by
the author caption ("Figure 3: ...") plus the body text right before and after
it in reading order, at most ``max_chars`` characters each way (seed 001 uses
200). This module holds the pieces the converters share:

* :func:`caption_kind` recognises author caption lines ("Figure 2:", "Fig. 3.",
  "Table 1 -").
* :func:`fill_context` walks a reading-order stream of text and media anchors
  and sets ``context_before``/``context_after`` on each media item. Text of
  other captions never appears in the stream, so it never leaks into a
  neighbour's context.
* :func:`context_caption` joins caption and context into one string, the
  "context-aware caption" used for retrieval.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from typing import Literal

from murar.schema import MediaItem

__all__ = [
    "CaptionKind",
    "caption_kind",
    "clip_after",
    "clip_before",
    "context_caption",
    "contexts_at",
    "fill_context",
]

CaptionKind = Literal["figure", "table"]

DEFAULT_CONTEXT_CHARS = 200

# "Figure 3:", "Fig. 3.", "FIGURE 3 -", "Table 2:", "TABLE IV." — a label, a
# number (arabic, optionally with a letter or dotted part, or roman) and a
# separator. "Figure 3 shows ..." (a reference in running text) does not match.
_CAPTION_RE = re.compile(
    r"^\s*(?P<label>figure|fig\.?|table|tab\.)\s*"
    r"(?P<num>(?:[A-Z]\.)?\d+(?:\.\d+)?[a-z]?|[IVXL]+)\s*"
    r"(?P<sep>[:.|]|—|–|-\s)",
    re.IGNORECASE,
)
_WS = re.compile(r"\s+")


def caption_kind(text: str) -> CaptionKind | None:
    """``"figure"`` or ``"table"`` when ``text`` starts like an author caption, else ``None``."""
    m = _CAPTION_RE.match(text)
    if not m:
        return None
    return "table" if m.group("label").lower().startswith("tab") else "figure"




def collapse_whitespace(text: str) -> str:
    """Whitespace runs become one space, except a paragraph break (a blank line:
    two newlines or more), which becomes one newline.

    The paragraphs and list items around a media item stay apart, so that the
    step a screenshot follows (:func:`murar.ingest.chunking.last_sentence` splits
    at newlines) is its own list item, not a run-on of the whole list; a
    sentence wrapped over two source lines stays one line.
    """
    # each whitespace run read once (a search for a run holding two newlines started again at every
    # space of a long run without them: 80,000 spaces took 16 s)
    runs = _WS.sub(lambda m: "\n" if m.group().count("\n") >= 2 else " ", text)
    return "\n".join(p for p in (part.strip() for part in runs.split("\n")) if p)


def clip_before(text: str, max_chars: int = DEFAULT_CONTEXT_CHARS) -> str:
    """The last ``max_chars`` characters of ``text``, cut at a word boundary.

    Whitespace is collapsed (:func:`collapse_whitespace`: paragraph breaks are
    kept as newlines); returns "" when ``max_chars`` <= 0.
    """
    text = collapse_whitespace(text)
    if max_chars <= 0:
        return ""
    if len(text) <= max_chars:
        return text
    tail = text[-max_chars:]
    m = _WS.search(tail)
    if m is not None and m.start() < max_chars // 2:
        tail = tail[m.end():]
    return tail.strip()


def clip_after(text: str, max_chars: int = DEFAULT_CONTEXT_CHARS) -> str:
    """The first ``max_chars`` characters of ``text``, cut at a word boundary
    (whitespace collapsed as by :func:`clip_before`)."""
    text = collapse_whitespace(text)
    if max_chars <= 0:
        return ""
    if len(text) <= max_chars:
        return text
    head = text[:max_chars]
    cut = max(head.rfind(" "), head.rfind("\n"))
    if cut > max_chars // 2:
        head = head[:cut]
    return head.strip()


def contexts_at(text: str, offsets: Sequence[int],
                max_chars: int = DEFAULT_CONTEXT_CHARS) -> list[tuple[str, str]]:
    """``(clip_before(text[:o]), clip_after(text[o:]))`` for every offset ``o`` of
    ``offsets`` (clamped to the text), in time linear in ``len(text)`` plus
    ``len(offsets) * max_chars``: the whitespace of ``text`` is collapsed once, not
    once per offset (a section with thousands of images was quadratic).

    Collapsing (:func:`collapse_whitespace`) turns every whitespace run between two
    non-whitespace characters into one character and drops the runs at the ends, so
    the collapsed prefix ``text[:o]`` is a prefix of the collapsed ``text`` (and the
    collapsed suffix a suffix); its length counts the non-whitespace characters and
    the runs inside it.
    """
    collapsed = collapse_whitespace(text)
    size = len(text)
    starts: list[int] = []
    ends: list[int] = []
    ws_before: list[int] = [0]  # whitespace characters in the runs before run k
    for m in _WS.finditer(text):
        starts.append(m.start())
        ends.append(m.end())
        ws_before.append(ws_before[-1] + m.end() - m.start())
    lead = 1 if starts and starts[0] == 0 else 0
    trail = 1 if ends and ends[-1] == size else 0
    nonws_total = size - ws_before[-1]
    out: list[tuple[str, str]] = []
    for o in offsets:
        o = min(max(o, 0), size)
        j = bisect_right(ends, o)  # runs wholly in text[:o]
        ws = ws_before[j] + (o - starts[j] if j < len(starts) and starts[j] < o else 0)
        inner = bisect_left(ends, o)  # runs followed by a character of text[:o]
        pos = (o - ws) + max(inner - lead, 0)
        k = bisect_right(starts, o)  # runs preceded by a character of text[o:]
        suf = (nonws_total - (o - ws)) + max(len(starts) - k - trail, 0)
        out.append((_clip_tail(collapsed, pos, max_chars), _clip_head(collapsed, len(collapsed) - suf, max_chars)))
    return out


def _clip_tail(collapsed: str, end: int, max_chars: int) -> str:
    """:func:`clip_before` of ``collapsed[:end]`` (already collapsed), reading at most ``max_chars`` of it."""
    if max_chars <= 0:
        return ""
    if end <= max_chars:
        return collapsed[:end]
    tail = collapsed[end - max_chars:end]
    m = _WS.search(tail)
    if m is not None and m.start() < max_chars // 2:
        tail = tail[m.end():]
    return tail.strip()


def _clip_head(collapsed: str, start: int, max_chars: int) -> str:
    """:func:`clip_after` of ``collapsed[start:]`` (already collapsed), reading at most ``max_chars`` of it."""
    if max_chars <= 0:
        return ""
    if len(collapsed) - start <= max_chars:
        return collapsed[start:]
    head = collapsed[start:start + max_chars]
    cut = max(head.rfind(" "), head.rfind("\n"))
    if cut > max_chars // 2:
        head = head[:cut]
    return head.strip()


def row_contexts(texts: Sequence[str], cells: Sequence[int],
                 max_chars: int = DEFAULT_CONTEXT_CHARS) -> list[tuple[str | None, str | None]]:
    """The context of a picture in cell ``k`` of a table row whose cells read ``texts``,
    for every ``k`` of ``cells``: ``(before, after)`` where before is the text of the
    cells left of it and after that of its own cell and the cells right of it (one
    cell per paragraph, clipped as :func:`contexts_at` clips); a side with no cell
    text is ``None`` (the caller keeps the section's text there). The row is
    collapsed once for all its pictures: linear in the row's length plus
    ``len(cells) * max_chars``.
    """
    kept = [t for t in texts if t]
    left: list[int] = []  # len("\n\n".join(non-empty texts[:k])) for k = 0 .. len(texts)
    length = count = 0
    for t in texts:
        left.append(length)
        if t:
            length += len(t) + (2 if count else 0)
            count += 1
    left.append(length)
    nonempty_before = [0]
    for t in texts:
        nonempty_before.append(nonempty_before[-1] + (1 if t else 0))
    ks = [min(max(k, 0), len(texts)) for k in cells]
    around = contexts_at("\n\n".join(kept), [left[k] for k in ks], max_chars)
    return [(before if nonempty_before[k] else None, after if nonempty_before[k] < len(kept) else None)
            for k, (before, after) in zip(ks, around)]


def fill_context(stream: Sequence[str | MediaItem], max_chars: int = DEFAULT_CONTEXT_CHARS) -> None:
    """Set ``context_before``/``context_after`` of every media item in ``stream``.

    ``stream`` is one page (PDF) or one section (HTML) in reading order: text
    pieces (paragraphs) and media items. The context of an item is the text
    between it and the neighbouring text on each side, up to ``max_chars``
    characters, one paragraph per line; media items in between are skipped
    over, not counted.
    Mutates the items; returns nothing.
    """
    before_parts: list[str] = []
    for entry in stream:
        if isinstance(entry, str):
            before_parts.append(entry)
            continue
        entry.context_before = clip_before("\n\n".join(_tail(before_parts, max_chars)), max_chars)
    after_parts: list[str] = []
    for entry in reversed(stream):
        if isinstance(entry, str):
            after_parts.append(entry)
            continue
        entry.context_after = clip_after("\n\n".join(_tail(after_parts, max_chars)[::-1]), max_chars)


def _tail(parts: list[str], max_chars: int) -> list[str]:
    """The last entries of ``parts`` holding at least ``max_chars`` characters."""
    out: list[str] = []
    total = 0
    for p in reversed(parts):
        out.append(p)
        total += len(p) + 1
        if total >= max_chars:
            break
    return out[::-1]


def context_caption(item: MediaItem, max_chars: int = DEFAULT_CONTEXT_CHARS) -> str:
    """The context-aware caption of ``item`` (seed 001): author caption, then
    up to ``max_chars`` characters of text before and after it, joined by
    newlines (empty parts left out)."""
    parts = [item.caption.strip(), clip_before(item.context_before, max_chars),
             clip_after(item.context_after, max_chars)]
    return "\n".join(p for p in parts if p)
