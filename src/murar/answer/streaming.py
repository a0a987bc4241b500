"""Sentence-by-sentence assembly of a streamed answer (MuRAR steps 2-4 while step 1 runs).

The generator's tokens arrive in arbitrary pieces. :class:`SentenceAssembler`
turns them into *committed* text: text that is final and may be shown. A
sentence is complete once the text after it starts a new sentence (pysbd, via
:func:`murar.answer.attribute.split_answer`, decides; a citation written after
the period such as ``"... menu. [1]"`` still belongs to the sentence before).
When a sentence completes, the ``on_sentence`` callback runs (source
attribution and media selection of that sentence) and the media it returns are
placed right after it, before any text of the next sentence is released; a
sentence the model left uncited gets the citation it was attributed to. Media
the callback holds (:attr:`SentenceOutcome.hold`: a screenshot that may belong
after the next sentence) keep the next sentence's text back until it is
complete; its outcome then says which stay before it.

Text that might still turn out to end a sentence (a terminator with only spaces
or citation markers after it, a half-written ``[1``) is held back; everything
else is released as soon as it arrives, so the first words show with the first
tokens. Citation markers are cleaned (:func:`murar.answer.generate.clean_citations`)
in the released text. The concatenation of the released pieces, cut at the
media, is the answer: :func:`blocks_of` builds the final blocks from exactly
what was released.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from murar.answer.attribute import split_answer
from murar.answer.generate import citations_in, clean_citations, strip_citations
from murar.schema import Block, MediaBlock, TextBlock

# a sentence may end here: terminator or line break followed by more than spaces/citations
_MAYBE_END = re.compile(r"[.!?;:\n][\"')\]]*[\s\[\]\d,]*[^\s\[\]\d,\"')]")
# the unresolved tail: a terminator (or line break) followed only by spaces and citation pieces,
# or a line break followed by the start of a list item ("\n1", "\n2.", "\n-"), which belongs to the next sentence
_HOLD = re.compile(r"(?:[.!?;:\n][\"')\]]*(?:\s|\[\d*(?:\s*,\s*\d*)*\]?)*|\[\d*(?:\s*,\s*\d*)*"
                   r"|\n[ \t]*(?:\d+[.)]?|[-*+])[ \t]*)$")
_ANY_CITE = re.compile(r"\[\d+(?:\s*,\s*\d+)*\]")
_TRAILING_CITES = re.compile(r"(?:\s*\[\d+(?:\s*,\s*\d+)*\])+\s*$")


@dataclass(slots=True)
class Piece:
    """One released unit: answer ``text``, or a ``media`` block placed after sentence ``sentence_index``."""

    text: str = ""
    media: MediaBlock | None = None
    sentence_index: int = -1


@dataclass(slots=True)
class SentenceOutcome:
    """What the pipeline decided for one complete sentence: the ``media`` blocks
    to place right after it, and the ``citation`` of the snippet it was attributed
    to (shown after the sentence when the model cited nothing).

    ``hold``: the pipeline keeps back media chosen (or taken) at this sentence that may
    belong after the next one (a screenshot of a step this sentence does not
    describe yet); the text after this sentence is held until the next sentence
    completes, whose outcome gives in ``before`` the held media that stay after
    this sentence (the others come back in its ``media``, or, with ``hold`` again, in a
    later outcome's ``before``).
    """

    media: list[MediaBlock] = field(default_factory=list)
    citation: int | None = None
    before: list[MediaBlock] = field(default_factory=list)
    hold: bool = False


OnSentence = Callable[[int, str], SentenceOutcome]
"""``on_sentence(index, sentence)`` -> :class:`SentenceOutcome` of that sentence."""


class SentenceAssembler:
    """Feeds generator pieces in, releases committed text and media out.

    Args:
        on_sentence: called once per complete sentence, in order, with its
            0-based index and its text (citations included).
        valid_citations: the ``[n]`` numbers that exist; other markers are dropped.
        hold_prefix: nothing is released while the answer so far (stripped) is
            still a beginning of this text, so that an answer that is the not-found
            marker is never shown; any other start is released with the first token
            ("" to release at once).
    """

    def __init__(self, on_sentence: OnSentence, *, valid_citations: set[int], hold_prefix: str = "") -> None:
        self._on_sentence = on_sentence
        self._valid = valid_citations
        self._hold_prefix = hold_prefix
        self.raw = ""  # everything the generator wrote
        self._done = 0  # end offset (in raw) of the last complete sentence
        self._released = 0  # offset in raw up to which text was released
        self.sentences: list[str] = []
        self._segment = ""  # text released since the last media block
        self._last_cites: list[int] = []
        self._holding = False  # the last outcome asked to hold the text after its sentence
        self._held = ""  # text kept back meanwhile

    def _release(self, end: int) -> list[Piece]:
        if end <= self._released:
            return []
        text = self.raw[self._released : end]
        if self._released == 0:
            text = text.lstrip()
        self._released = end
        text = clean_citations(text, self._valid)
        if self._holding:
            self._held += text
            return []
        self._segment += text
        return [Piece(text=text)] if text else []

    def _unhold(self) -> list[Piece]:
        """Release the text held since the last sentence and stop holding."""
        text, self._held, self._holding = self._held, "", False
        self._segment += text
        return [Piece(text=text)] if text else []

    def _media_piece(self, index: int, block: MediaBlock) -> Piece:
        inherited = self._media_citations()
        block.citations = block.citations or inherited  # a block knows its own source when it came with one
        return Piece(media=block, sentence_index=index)

    def _media_citations(self) -> list[int]:
        """The last citation of the text block before a media block (else the one before that)."""
        found = [m.group(0) for m in _ANY_CITE.finditer(self._segment)]
        if found:
            self._last_cites = citations_in(found[-1])[-1:]
        self._segment = ""
        return list(self._last_cites)

    def _sentence_done(self, end: int) -> list[Piece]:
        segment = self.raw[self._done : end]
        out = self._release(self._done + len(segment.rstrip()))  # the spaces after it go out with the next text
        sentence = clean_citations(segment.strip(), self._valid)
        self._done = end
        if not sentence:
            return out
        media: list[tuple[int, MediaBlock]] = []
        before: list[tuple[int, MediaBlock]] = []
        cite: int | None = None
        hold = False
        for k, sent in enumerate(split_answer(sentence) or [sentence]):
            index = len(self.sentences)
            self.sentences.append(sent)
            outcome = self._on_sentence(index, sent)
            cite = outcome.citation if outcome.citation is not None else cite
            # media held at the sentence before: after it, before this text; within one
            # piece of text (several sentences at once) they can only follow the whole piece
            (before if k == 0 else media).extend((index - 1, block) for block in outcome.before)
            media += [(index, block) for block in outcome.media]
            hold = outcome.hold
        # held text (nothing of it is in ``out`` yet) goes out after the held media that stay
        out = [self._media_piece(index, block) for index, block in before] + out + self._unhold()
        if cite is not None and not citations_in(sentence):
            # an uncited sentence shows the source it was attributed to (MuRAR section 2.2)
            marker = f" [{cite}]"
            self._segment += marker
            out.append(Piece(text=marker))
        out += [self._media_piece(index, block) for index, block in media]
        self._holding = hold
        return out

    def _boundary(self, tail: str) -> int | None:
        """Offset in ``tail`` where its second sentence starts, if it has one."""
        sents = split_answer(tail)
        if len(sents) < 2:
            return None
        first = sents[0]
        core = _TRAILING_CITES.sub("", first)
        start = tail.find(core[:20])
        lower = max(start, 0) + max(len(core) - 1, 1)
        nxt = sents[1][:40]
        pos = tail.find(nxt, lower)
        return pos if pos > 0 else None

    def feed(self, piece: str) -> list[Piece]:
        """Add a generator piece; return what can be released now (text and media, in order)."""
        self.raw += piece
        out: list[Piece] = []
        if self._hold_prefix and self._hold_prefix.startswith(self.raw.strip()):
            return out
        while True:
            tail = self.raw[self._done :]
            if not _MAYBE_END.search(tail):
                break
            b = self._boundary(tail)
            if b is None:
                break
            out += self._sentence_done(self._done + b)
        tail = self.raw[self._released :]
        hold = _HOLD.search(tail)
        keep = hold.start() + (1 if hold.group(0)[:1] in ".!?;:" else 0) if hold else len(tail)
        out += self._release(self._released + keep)
        return out

    def close(self) -> list[Piece]:
        """The generator finished: the rest is the last sentence; release everything."""
        out: list[Piece] = []
        tail = self.raw[self._done :]
        if tail.strip():
            # the tail may still hold several sentences when the stream ended in a burst
            while True:
                b = self._boundary(self.raw[self._done :])
                if b is None:
                    break
                out += self._sentence_done(self._done + b)
            out += self._sentence_done(len(self.raw.rstrip()))
        out += self._release(len(self.raw.rstrip()))
        return out + self._unhold()  # media still held belong after the last sentence: the caller places them


def blocks_of(pieces: list[Piece]) -> list[Block]:
    """The answer blocks from released pieces: text between media joined and
    stripped into :class:`TextBlock` (with its citations), media blocks in place
    (their citations were set when they were released: the snippet their
    selection came from, else the last citation of the text before them, as
    :func:`murar.answer.render.to_blocks` does)."""
    blocks: list[Block] = []
    buf: list[str] = []

    def flush() -> None:
        text = "".join(buf).strip()
        buf.clear()
        if text:
            blocks.append(TextBlock(text=text, citations=citations_in(text)))

    for p in pieces:
        if p.media is None:
            buf.append(p.text)
        else:
            flush()
            blocks.append(p.media)
    flush()
    return blocks


_LIST_MARKER = re.compile(r"^\s*(?:\d+[.)]|[-*+])\s+")


def drop_sentences(text: str, drop: Callable[[str], bool]) -> str:
    """``text`` without the sentences (:func:`~murar.answer.attribute.split_answer`) for
    which ``drop(sentence)`` is True, called once per sentence in order; the text
    between kept sentences (line breaks, list markers) stays as written."""
    kept: list[str] = []
    pos = 0
    for sent in split_answer(text):
        start = text.find(sent, pos)
        if start < 0:  # split_answer normalised it; keep the rest as written
            break
        end = start + len(sent)
        kept.append(text[pos:start].rstrip(" ") if drop(sent) else text[pos:end])
        pos = end
    kept.append(text[pos:])
    return "".join(kept).strip()


def without_sentences(blocks: list[Block], drop: Callable[[str], bool]) -> list[Block]:
    """``blocks`` with :func:`drop_sentences` applied to every text block, in order; a text
    block left empty is removed; media blocks are kept in place."""
    out: list[Block] = []
    for block in blocks:
        if not isinstance(block, TextBlock):
            out.append(block)
            continue
        cleaned = drop_sentences(block.text, drop)
        if cleaned:
            out.append(TextBlock(text=cleaned, citations=citations_in(cleaned)))
    return out


def without_repeats(blocks: list[Block]) -> list[Block]:
    """``blocks`` with every sentence that repeats an earlier one removed from the text blocks.

    For an answer whose model was stopped in a repetition loop
    (:func:`murar.answer.generate.repeating_sentences`): the streamed path can
    only see the loop once the repeated run is written and released, so the
    final answer drops it, as the three-call path's draft does. Sentences are
    compared without citations, list markers, case or spacing
    (:func:`without_sentences` keeps the rest as written).
    """
    seen: set[str] = set()

    def repeated(sent: str) -> bool:
        key = " ".join(_LIST_MARKER.sub("", strip_citations(sent)).casefold().split())
        if key and key in seen:
            return True
        seen.add(key)
        return False

    return without_sentences(blocks, repeated)


__all__ = ["OnSentence", "Piece", "SentenceAssembler", "SentenceOutcome", "blocks_of", "drop_sentences",
           "without_repeats", "without_sentences"]
