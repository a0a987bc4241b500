"""Splitting section text into snippets that fit the embedder's window.

Snippets never cross a section boundary (MuRAR retrieves media from the
section of each snippet). Sizes are counted with the embedder's own tokenizer:
a snippet plus the heading prefix it is embedded with never exceeds
``embedder.max_tokens`` word pieces, so the embedder sees all of it.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass

from murar.embed.base import Embedder
from murar.schema import Section, Snippet, TableItem, stable_id

CHUNKER_VERSION = 2
"""Bumped when the chunking rules change (2: table rows become snippets): the
page hash includes it, so the next ``murar ingest`` re-chunks every page."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ChunkingOptions:
    """Token bounds of a snippet (word pieces of the embedder's tokenizer).

    ``target_tokens``: pack paragraphs up to this size. ``min_tokens``: a
    trailing piece smaller than this is merged into the previous snippet when
    it fits. ``max_prefix_tokens``: budget of the heading prefix.
    ``table_snippets``: the rows of each table also become snippets of the
    table's section (:func:`chunk_tables`), so a question answered by a table
    finds its section.
    """

    target_tokens: int = 200
    min_tokens: int = 24
    max_prefix_tokens: int = 48
    table_snippets: bool = True


_LOCAL = threading.local()


def _segmenter() -> object:
    """This thread's pysbd segmenter: ``Segmenter.segment`` keeps the text being
    split on the instance (``original_text``), so one instance shared by threads
    (the server answers in worker threads) matched sentences against another
    request's text and lost them."""
    seg = getattr(_LOCAL, "segmenter", None)
    if seg is None:
        import pysbd

        seg = _LOCAL.segmenter = pysbd.Segmenter(language="en", clean=False)
    return seg


_CONTINUATION = re.compile(r"^[a-z]+\b(?![._\-(])")


def continues(text: str) -> bool:
    """True when ``text`` opens with a plain lower-case word, as the rest of a
    sentence cut at a period that did not end it does ("to remove visitors...").
    Names and code written in lower case (``iOS``, ``e.g.``, ``log_level``,
    ``config.yaml``, ``print(``) are not plain words; a command such as ``npm
    install`` is."""
    return bool(_CONTINUATION.match(text.lstrip()))


#: characters pysbd reads at once (:func:`segment_windows`)
SEGMENT_WINDOW = 1_000
#: an unfinished sentence carried to the next window longer than this is given out as it is
_MAX_CARRY = 4 * SEGMENT_WINDOW


def segment_windows(text: str, window: int = SEGMENT_WINDOW) -> list[str]:
    """pysbd's segments of ``text`` (``clean=False``: they join back to ``text``),
    read ``window`` characters at a time.

    pysbd's rules are superlinear in the length of the text they read (a paragraph
    of 8,000 short sentences, 160 KB, took 68 s to chunk; 3 bytes per ``1.``: 24 KB
    in 12 s), and chunking runs outside the per-file time budget, so one long
    paragraph stalled the whole ingest. Each window ends at a whitespace (never
    inside a token, at most 200 characters past ``window``); its last segment,
    a sentence the next window may go on, is read again with that window, so a
    boundary is decided with the text after it in view, as in one pass. A
    sentence still unfinished after :data:`_MAX_CARRY` characters is given out as
    one segment (the chunker cuts it into token windows anyway). Linear in
    ``len(text)``; the same segments as one pass on text whose sentences are
    shorter than the window.
    """
    seg = _segmenter()
    if len(text) <= window:
        return list(seg.segment(text)) if text else []  # type: ignore[attr-defined]
    out: list[str] = []
    carry = ""
    pos = 0
    while pos < len(text):
        end = min(len(text), pos + window)
        if end < len(text):
            stop = min(len(text), end + 200)
            ws = next((i for i in range(end, stop) if text[i].isspace()), stop)
            end = min(len(text), ws + 1)
        chunk = carry + text[pos:end]
        pos = end
        pieces: list[str] = list(seg.segment(chunk))  # type: ignore[attr-defined]
        if not pieces:
            carry = chunk
            continue
        if pos >= len(text):
            out.extend(pieces)
            carry = ""
            break
        out.extend(pieces[:-1])
        carry = pieces[-1]
        if len(carry) > _MAX_CARRY:
            out.append(carry)
            carry = ""
    if carry:
        out.append(carry)
    return out


def split_sentences(text: str) -> list[str]:
    """Sentences of ``text`` (pysbd, English rules), stripped, empty ones dropped.

    A sentence never ends inside a token: pysbd ends one at the ``?`` of
    ``add ?ionic:mode=ios to the URL`` (a query string, inline code); a piece
    that ends with no whitespace before the next one is joined to it. Nor does
    a sentence open with a plain lower-case word on the same line as the
    previous one (:func:`continues`): pysbd cut "Checkout (metric) Exists. to
    remove visitors who bought the items" after "Exists."; such a piece is
    joined to the one before. A piece after a line break stays a sentence
    (list items written in lower case).
    """
    if not text.strip():
        return []
    out: list[str] = []
    glue = False
    for piece in segment_windows(text):
        if out and (glue or _continues_on_line(out[-1], piece)):
            out[-1] += piece
        else:
            out.append(piece)
        glue = piece[-1:] in ("?", "!")  # no whitespace after the mark: pysbd split inside a token
    return [s.strip() for s in out if s.strip()]


def _continues_on_line(previous: str, piece: str) -> bool:
    """``piece`` is the rest of ``previous``'s sentence: it :func:`continues` it and the
    whitespace between the two (either side of the cut) holds no line break."""
    gap = previous[len(previous.rstrip()):] + piece[: len(piece) - len(piece.lstrip())]
    return bool(gap) and "\n" not in gap and continues(piece)


def embedding_prefix(page_title: str, heading_path: tuple[str, ...]) -> str:
    """The context line a snippet is embedded with: page title and heading path."""
    parts = [page_title, *[h for h in heading_path if h != page_title]]
    return " > ".join(p for p in parts if p)


def embedding_text(snippet: Snippet) -> str:
    """The exact text embedded for ``snippet``: heading prefix + snippet text."""
    return f"{embedding_prefix(snippet.page_title, snippet.heading_path)}\n{snippet.text}"


def _hard_split(text: str, budget: int, embedder: Embedder) -> list[str]:
    spans = embedder.token_spans(text)
    pieces: list[str] = []
    for start in range(0, len(spans), budget):
        window = spans[start : start + budget]
        pieces.append(text[window[0][0] : window[-1][1]].strip())
    return [p for p in pieces if p]


def _units(text: str, budget: int, embedder: Embedder) -> list[tuple[str, int]]:
    """Paragraphs, or sentences of long paragraphs, or token windows of long sentences."""
    out: list[tuple[str, int]] = []
    for para in (p.strip() for p in text.split("\n\n")):
        if not para:
            continue
        n = embedder.count_tokens(para)
        if n <= budget:
            out.append((para, n))
            continue
        for sent in split_sentences(para):
            m = embedder.count_tokens(sent)
            if m <= budget:
                out.append((sent, m))
            else:
                for piece in _hard_split(sent, budget, embedder):
                    out.append((piece, embedder.count_tokens(piece)))
    return out


def _budget(section: Section, embedder: Embedder, opts: ChunkingOptions) -> int:
    """Word pieces a snippet of ``section`` may hold: the embedder window minus its heading prefix."""
    prefix = embedding_prefix(section.page_title, section.heading_path)
    prefix_tokens = min(embedder.count_tokens(prefix) + 1, opts.max_prefix_tokens)
    return max(16, min(opts.target_tokens, embedder.max_tokens - prefix_tokens))


def _pack(units: list[tuple[str, int]], budget: int, lead: tuple[str, int] = ("", 0)) -> list[list[str]]:
    """Greedy packing of ``(text, tokens)`` units into chunks of at most ``budget``
    tokens; a new chunk starts with ``lead`` when it fits beside the unit."""
    chunks: list[tuple[list[str], int]] = []
    for text, n in units:
        if chunks and chunks[-1][1] + n <= budget:
            chunks[-1][0].append(text)
            chunks[-1] = (chunks[-1][0], chunks[-1][1] + n)
        elif lead[0] and n + lead[1] <= budget:
            chunks.append(([lead[0], text], n + lead[1]))
        else:
            chunks.append(([text], n))
    return [parts for parts, _ in chunks]


def _snippet(section: Section, snippet_id: str, text: str, position: int, embedder: Embedder) -> Snippet:
    return Snippet(id=snippet_id, section_id=section.id, source_path=section.source_path,
                   page_title=section.page_title, heading_path=section.heading_path, anchor=section.anchor,
                   text=text, position=position, n_tokens=embedder.count_tokens(text), page=section.page)


def chunk_section(section: Section, embedder: Embedder, options: ChunkingOptions | None = None) -> list[Snippet]:
    """Split ``section.text`` into snippets.

    Returns snippets in order; each has ``n_tokens`` <= the budget
    ``min(target_tokens, embedder.max_tokens - prefix tokens)``. A section
    without text gives no snippet.
    """
    budget = _budget(section, embedder, options or ChunkingOptions())
    chunks = _pack(_units(section.text, budget, embedder), budget)
    return [_snippet(section, stable_id(section.id, "snippet", str(pos)), "\n\n".join(parts), pos, embedder)
            for pos, parts in enumerate(chunks)]


def last_sentence(text: str, max_chars: int = 400) -> str:
    """The last sentence of ``text`` (only its last ``max_chars`` characters are
    split), or ``""``: the step a screenshot follows, the lead-in of a table."""
    sentences = split_sentences(text[-max_chars:]) if text else []
    return sentences[-1] if sentences else ""


def first_sentence(text: str, max_chars: int = 400) -> str:
    """The first sentence of ``text`` (only its first ``max_chars`` characters are
    split), or ``""``: the text right after a media item (:func:`last_sentence`'s mirror)."""
    sentences = split_sentences(text[:max_chars]) if text else []
    return sentences[0] if sentences else ""


def table_lines(table: TableItem) -> list[str]:
    """One self-contained line per table row, for retrieval and for the generator.

    With headers, a row reads ``Header 1: cell 1; Header 2: cell 2`` (empty
    cells left out), so a row kept alone still says what its values are;
    without headers, the cells are joined by `` | ``. The caption, when there
    is one, is the first line. Empty rows give no line.
    """
    lines = [f"Table: {table.caption}"] if table.caption else []
    headers = [h.strip() for h in table.headers]
    for row in table.rows:
        cells = [c.strip() for c in row]
        if not any(cells):
            continue
        if headers and any(headers):
            pairs = [f"{h}: {c}" if h else c for h, c in zip(headers, cells) if c]
            pairs += [c for c in cells[len(headers):] if c]
            lines.append("; ".join(pairs))
        else:
            lines.append(" | ".join(c for c in cells if c))
    return lines


def chunk_tables(section: Section, tables: list[TableItem], embedder: Embedder, options: ChunkingOptions | None = None,
                 *, first_position: int = 0) -> list[Snippet]:
    """Snippets of the rows of ``tables`` (all in ``section``), after its text snippets.

    A table's section is often one lead-in sentence: its facts are in the rows,
    which MuRAR keeps only as a media item (seed 000, section 2.3), so retrieval
    never reached the section. Each table's :func:`table_lines` are packed into
    snippets within the same token budget as :func:`chunk_section` (a row longer
    than the budget is cut into windows), each led by the sentence that
    introduces the table in the page, so that a chunk read alone says what its
    rows are; positions go on from ``first_position``.
    Returns ``[]`` when ``options.table_snippets`` is off or no table has a row.
    """
    opts = options or ChunkingOptions()
    if not opts.table_snippets:
        return []
    budget = _budget(section, embedder, opts)
    snippets: list[Snippet] = []
    for table in tables:
        lead = last_sentence(table.context_before)
        lead_n = embedder.count_tokens(lead) if lead else 0
        units: list[tuple[str, int]] = []
        for line in table_lines(table):
            n = embedder.count_tokens(line)
            units += [(line, n)] if n <= budget else [(p, embedder.count_tokens(p))
                                                      for p in _hard_split(line, budget, embedder)]
        chunks = _pack(units, budget, (lead, lead_n) if lead_n <= budget // 3 else ("", 0))
        for k, parts in enumerate(chunks):
            snippets.append(_snippet(section, stable_id(section.id, "table", table.id, str(k)), "\n".join(parts),
                                     first_position + len(snippets), embedder))
    return snippets
