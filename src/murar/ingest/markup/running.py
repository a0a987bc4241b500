"""Running measures of a paragraph being built, so that each media item's place in
its section costs the text added since the previous item, not the whole section
(a page with 10,000 images in one paragraph was quadratic: every image re-joined
and re-collapsed the paragraph before it).

* :class:`Pieces` is the list of text pieces of a paragraph (or of a section's
  paragraphs) that counts every change other than appending, so a running measure
  knows when it must start over.
* :class:`ParagraphLength` is ``len(paragraph_text("".join(pieces)))``, fed piece by piece.
* :class:`LineJoiner` streams ``paragraph_text(clean_text(text))`` chunk by chunk (the
  text of an HTML fragment up to each of its pictures).

Whitespace classes are those of :mod:`murar.ingest.markup.builder`.
"""

from __future__ import annotations

import re
from typing import Any, Self, SupportsIndex

__all__ = ["LineJoiner", "ParagraphLength", "Pieces"]

_WS = re.compile(r"[ \t\r\f\v]+")
_BREAKS_AND_BLANKS = re.compile(r"[ \t\r\f\v\n]+")
_BREAK_CHARS = frozenset(" \t\r\f\v\n")


class Pieces(list[str]):
    """A list of text pieces; ``edits`` counts every change but an append/extend."""

    __slots__ = ("edits",)

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.edits = 0

    def __setitem__(self, key: Any, value: Any, /) -> None:
        self.edits += 1
        super().__setitem__(key, value)

    def __delitem__(self, key: SupportsIndex | slice, /) -> None:
        self.edits += 1
        super().__delitem__(key)

    def __imul__(self, n: SupportsIndex, /) -> Self:
        self.edits += 1
        return super().__imul__(n)

    def clear(self) -> None:
        self.edits += 1
        super().clear()

    def insert(self, index: SupportsIndex, obj: str, /) -> None:
        self.edits += 1
        super().insert(index, obj)

    def pop(self, index: SupportsIndex = -1, /) -> str:
        self.edits += 1
        return super().pop(index)

    def remove(self, value: str, /) -> None:
        self.edits += 1
        super().remove(value)

    def reverse(self) -> None:
        self.edits += 1
        super().reverse()

    def sort(self, *args: Any, **kwargs: Any) -> None:
        self.edits += 1
        super().sort(*args, **kwargs)


class ParagraphLength:
    """``len(paragraph_text(s))`` of ``s``, the concatenation of every piece given to
    :meth:`feed` (runs of blanks and line breaks one space, Unicode whitespace
    stripped at both ends). Each piece is read once."""

    __slots__ = ("_in_run", "_lead", "_length", "_seen", "_trail")

    def __init__(self) -> None:
        self._length = 0  # of the collapsed text (runs one space), before stripping
        self._in_run = False  # the collapsed text ends in a run of blanks/breaks
        self._seen = False  # it holds a non-whitespace character
        self._lead = 0  # whitespace characters before the first non-whitespace one
        self._trail = 0  # whitespace characters after the last non-whitespace one

    def feed(self, piece: str) -> None:
        if not piece:
            return
        c = _BREAKS_AND_BLANKS.sub(" ", piece)
        if self._in_run and piece[0] in _BREAK_CHARS:
            c = c[1:]  # the run goes on across pieces: still one space
        self._in_run = piece[-1] in _BREAK_CHARS
        if not c:
            return
        if c.strip():
            if not self._seen:
                self._lead += len(c) - len(c.lstrip())
                self._seen = True
            self._trail = len(c) - len(c.rstrip())
        else:
            if not self._seen:
                self._lead += len(c)
            self._trail += len(c)
        self._length += len(c)

    @property
    def value(self) -> int:
        return self._length - self._lead - self._trail if self._seen else 0


class LineJoiner:
    """Streams ``paragraph_text(clean_text(text))``: :meth:`feed` takes the next chunk
    of ``text`` and returns what it adds to the result (every line's blanks
    collapsed, lines stripped, non-empty lines joined by one space). The
    whitespace at the end of a line is held back until text follows on that line."""

    __slots__ = ("_held", "_line_text", "_started")

    def __init__(self) -> None:
        self._started = False  # a non-empty line was emitted
        self._line_text = False  # the current line has emitted text
        self._held: list[str] = []  # whitespace after the current line's text, not yet emitted

    def feed(self, chunk: str) -> str:
        out: list[str] = []
        for j, part in enumerate(chunk.split("\n")):
            if j:
                self._line_text = False
                self._held.clear()
            if not self._line_text:
                part = part.lstrip()
            if not part:
                continue
            body = part.rstrip()
            if not body:
                self._held.append(part)
                continue
            if self._line_text:
                out.append(_WS.sub(" ", "".join(self._held) + body))
            else:
                if self._started:
                    out.append(" ")
                out.append(_WS.sub(" ", body))
                self._line_text = self._started = True
            self._held = [part[len(body):]] if len(body) < len(part) else []
        return "".join(out)
