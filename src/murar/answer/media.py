"""Step 3 of MuRAR (seed 000, section 2.3): section-level multimodal retrieval.

For each attributed snippet, the candidates are the displayable images,
tables and videos of the *same section*; they are ranked by cosine similarity
between the snippet and the item representation, and the best one is kept when
it reaches the threshold. An item chosen for several snippets is kept once,
with its best score. Each item goes after the answer sentence, among those
attributed to its snippet, that is most similar to the item.

Beyond the paper (issue 9; each lever is a switch of :class:`MediaOptions`,
all off in :meth:`MediaOptions.previous`):

- ``skip_flagged``: images flagged at ingest (an icon inside a sentence, a
  tiny glyph, a logo repeated on many pages; :mod:`murar.ingest.media_flags`)
  are never candidates;
- ``dedupe_content``: the same picture under two file names is kept once
  (content hash, not path);
- ``step_align``: in a section with several screenshots, a screenshot belongs
  to the step whose text surrounds it (the text just before it, else just
  after); it is chosen only when an answer sentence attributed to the section
  describes that step, and is placed after that sentence;
- ``kind_aware``: images, tables and videos do not compete with each other for
  the snippet's one slot; a table is chosen when the answer draws on its rows
  (most content words of a row appear in the answer), a video when the answer
  points at it ("watch the video") or matches it closely;
- ``need_visual_cue``: an image is placed only when the answer, up to the
  sentence it would follow, describes something one sees (a UI action or
  element, a diagram, a chart) or the image matches its sentence closely
  (``close_match``) — an answer of plain facts gets no screenshot. It was
  off at first: measured early on it cost more recall than it saved, and
  later it lost three right screenshots on each of the first two held-out
  docsite sets. Beside the later levers it was tested on two question sets written
  blind to the selection code (``benchmarks/docsites_heldout3.jsonl`` and
  ``docsites_heldout4.jsonl``, 53 text-only questions of 80), with a rule
  fixed before each set's answers were read: no media on text-only
  questions 18 -> 19 of 25 and 25 = 25 of 28, image F1 0.632 -> 0.649 and
  0.683 -> 0.667; over all six question sets, 3 more text-only answers
  without media, 7 fewer wrong pictures and 5 fewer right ones (``dev.jsonl``
  image F1 0.762 -> 0.756). A short answer that only says what to do rarely
  names the UI its picture shows: that is the recall it costs;
- ``question_focus``: the picks must also answer the *question* — an item
  much less similar to the question than the answer's most question-like
  pick came in through a side remark of the answer and is dropped (0.1 cosine
  below it). A margin of 0.15 keeps more next screens of the section that
  answers (dev.jsonl: copy-connect-code.png beside connect-code.png); on the
  replayed bundled answers (mpnet indexes) it found 5 more gold pictures for 20
  more predictions over the four question sets: image F1 dev.jsonl 0.727 ->
  0.742 and docsite tuning 0.520 -> 0.535, but on the docs never tuned on
  0.606 -> 0.615 (second held-out set) and 0.606 -> 0.585 (first held-out set,
  5 more wrong pictures, none right), 0.606 -> 0.598 pooled: so 0.1 stays;
- ``section_focus``: media come only from sections that retrieval ranked
  nearly as high as the best retrieved section that has media — a section
  whose best retrieved snippet is less similar to the question than that by
  more than this margin was drawn on for a side fact, and its screenshots are
  not what the user asked to see (measured on dev.jsonl and on the docsite tuning questions:
  media precision rises on both with no loss of recall at 0.05). The section of
  the retriever's first snippet is never shut out: with the hybrid retriever
  it can rank first at a lower cosine than a section further down, and the
  best match the retriever found is not a side fact (see :func:`focus_sections`).
- ``section_gap``: nor do sections far below the best retrieved section of
  all, with media or without (0.15 cosine): when the section that answers has
  nothing to show, the picture of a section far down illustrates a side fact
  ("why has my saved search no count?" got the page's "save a search"
  screenshot). A question that asks to see something ("what does it look
  like", a screenshot, a diagram) is exempt (:func:`asks_to_see`).

- ``tab_match``: a tab set (Docusaurus ``<Tabs>``, MkDocs content tabs,
  sphinx-design ``tab-set``, Adobe ``[!BEGINTABS]``, Hugo ``{{< tabs >}}``,
  Asciidoctor ``[tabs]``, DocFX ``# [Label](#tab/id)``) shows one variant at a
  time — one platform, product or tool per tab. When the question names
  exactly one tab of a set (a word of its label that the other labels lack:
  "in the Campaign *web* interface" against tabs "Adobe Campaign V8" and
  "Adobe Campaign Web"), the media of the set's other tabs are not
  candidates: they show the screens of a variant the user does not use.

- ``top_section``: when the answer brought no media at all, the section
  retrieval ranked first (the best match to the question) shows its image
  most similar to the question, if that similarity reaches this value. The
  small model often answers from, or cites, a neighbouring snippet although
  the top one is the page that answers the question (issue 9: "section not
  attributed" was the largest loss left on dev.jsonl). The pick cites the top
  snippet (:func:`top_section_picks`). Measured on the cached bundled answers (mpnet
  index) at 0.6: image F1 dev.jsonl 0.659 -> 0.682, held-out docsites
  0.593 -> 0.612 and 0.571 -> 0.611, docsite tuning questions 0.508 -> 0.550;
  no media on text-only questions unchanged on the first three (1.0, 0.875,
  1.0), one of 23 lost on the tuning set (a concept diagram for a "when should
  I configure persistence" question). A fallback pick
  follows no sentence drawn from its section, so placement as the benchmarks
  score it (the item follows a sentence attributed to its section) fell:
  dev.jsonl 1.0 -> 0.909, held-out 1.0 -> 0.955 and 1.0 -> 0.862.
  ``top_section_lead`` mends it: the picture comes at the end of the answer
  after the document's own sentence that introduces it (:func:`picture_lead`),
  added with the top snippet's citation and attributed like any answer
  sentence: placement 1.0 on all four question sets, image F1 unchanged.
  ``top_section_tie``: the section's other images as similar to the question
  as the pick (within 0.015) are shown too, in the page's order, each after
  its own lead — the embedding cannot tell which of a light and a dark
  variant, or of two screens of one step, the question means.
  ``top_section_lead_only``: a fallback picture with no such lead is not shown: it
  would follow a sentence drawn from another section, which is misplaced by
  definition (MuRAR 2.4), and the section behind it is one the answer never used.
  On the docs of silx (20 questions written blind, 12 text-only) three text-only
  answers showed lead-less fallback pictures (a code block or a table of
  pictures before them), placement 0.80; on every earlier question set every
  fallback picture had its lead, so nothing changes there.

Items whose file is missing are never candidates.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from murar.embed.base import Embedder, Vectors
from murar.ingest.chunking import first_sentence, last_sentence, split_sentences
from murar.ingest.media_flags import is_selectable
from murar.schema import AnyMedia, Attribution, MediaSelection, ScoredSnippet, TableItem
from murar.store.base import Store, is_displayable

_WORD = re.compile(r"[a-z0-9][a-z0-9_.-]*[a-z0-9]|[a-z0-9]", re.IGNORECASE)
_STOP = frozenset({"a", "an", "the", "and", "or", "of", "to", "in", "on", "for", "from", "by", "with", "at",
    "as", "is", "are", "be", "it", "this", "that", "these", "those", "you", "your", "can", "will", "not",
    "no", "yes", "if", "then", "than", "into", "out", "up", "use", "used", "using", "which", "what", "when",
    "where", "how", "who", "its", "their", "there", "here", "all", "any", "each", "more", "most", "other",
    "some", "such", "only", "also"})
# what one sees on screen or in a figure: UI actions and elements, diagrams, charts
_VISUAL = re.compile(
    r"\b(click|clicks|clicking|select|selects|selecting|choose|open|opens|navigate|navigating|go to|drag|drop|"
    r"toggle|expand|collapse|enter|type|check|uncheck|tick|hover|scroll|button|buttons|menu|menus|tab|tabs|"
    r"panel|pane|rail|sidebar|toolbar|dialog|window|screen|screenshot|page|field|fields|dropdown|drop-down|"
    r"list|icon|link|canvas|card|editor|wizard|workspace|dashboard|interface|ui|view|displayed|displays|appears|"
    r"shown|shows|highlighted|diagram|figure|chart|graph|flow|architecture|layout|image|picture|preview|"
    r"report|visuali[sz]ation|settings|inbox|form|console|extension|browser)\b",
    re.IGNORECASE)
_POINTS_AT_VIDEO = re.compile(r"\b(video|watch|tutorial|demo|walkthrough|recording|webinar)\b", re.IGNORECASE)
# a question that asks to see something: what it looks like, a screenshot, a diagram
_ASKS_TO_SEE = re.compile(
    r"\b(looks?|appears?) like\b|\bshow me\b|\b(screenshots?|pictures?|diagrams?|illustrations?)\b",
    re.IGNORECASE)


@dataclass(frozen=True, slots=True, kw_only=True)
class MediaOptions:
    """Thresholds and levers of section-level media retrieval (cosine similarities).

    ``min_snippet_score``: item-to-snippet similarity needed to be a pick.
    ``min_sentence_score``: item-to-sentence similarity needed to be placed.
    ``max_items``: at most this many media items in one answer.
    ``per_snippet``: items kept per snippet — MuRAR keeps 1; more recovers
    sections whose steps each have a screenshot, but only items within
    ``margin`` of the snippet's best item are taken (without ``step_align``).
    ``remote_images``: remote (URL-only) images may be chosen (``--remote-images show``).
    ``step_min``: sentence-to-step-text similarity at which a screenshot
    illustrates a sentence (``step_align``; 0.45, was 0.5: a paraphrased step
    keeps its screenshot, dev.jsonl extractive image F1 0.511 -> 0.521, no loss
    with the bundled model on dev.jsonl or the docsite questions).
    ``close_match``: item-to-sentence similarity that stands for a visual cue or
    a pointer to a video.
    ``row_share``: share of a table row's content words the answer must
    contain for the answer to draw on that row. ``question_focus``: with a
    question vector, items less similar to the question than the answer's
    most question-like pick minus this are dropped (``None``: off).
    ``section_focus``: only sections whose best retrieved snippet scores within
    this of the best retrieved section with media give media
    (:func:`focus_sections`; ``None``: off). ``section_gap``: nor does a section
    scoring more than this below the best retrieved section, with media or
    without, unless the question asks to see something (:func:`focus_sections`;
    ``None``: off; only with ``section_focus``). ``top_section``: question-to-image
    similarity at which the top retrieved section's image is shown when the
    answer brought no media (:func:`top_section_picks`; ``None``: off).
    ``top_section_lead``: that picture comes after the document's own sentence
    introducing it (:func:`picture_lead`), added to the answer with the top
    snippet's citation. ``top_section_tie``: the top section's other images within
    this question cosine of that picture are shown too, each after its own lead
    (``None``: only the best). ``top_section_lead_only``: with ``top_section_lead``, a
    top-section picture whose document has no sentence introducing it is not shown. ``step_defer`` (streamed path): a screenshot waits one sentence
    and follows the next one when that one describes its step better (reaching
    ``step_min``), and then waits again, for as long as each next sentence describes it
    better; the next sentence's text is held meanwhile
    (:class:`murar.answer.streaming.SentenceOutcome` ``hold``). The booleans are the
    levers described in the module docstring.
    """

    min_snippet_score: float = 0.5
    min_sentence_score: float = 0.4
    max_items: int = 4
    per_snippet: int = 3
    margin: float = 0.1
    kinds: tuple[str, ...] = ("image", "table", "video")
    remote_images: bool = False
    step_min: float = 0.45
    close_match: float = 0.6
    row_share: float = 0.6
    skip_flagged: bool = True
    dedupe_content: bool = True
    step_align: bool = True
    kind_aware: bool = True
    need_visual_cue: bool = True
    question_focus: float | None = 0.1
    section_focus: float | None = 0.05
    section_gap: float | None = 0.15
    tab_match: bool = True
    top_section: float | None = 0.6
    top_section_lead: bool = True
    top_section_tie: float | None = 0.015
    top_section_lead_only: bool = True
    step_defer: bool = True

    @classmethod
    def previous(cls) -> MediaOptions:
        """The selection before issue 9 (every lever off)."""
        return cls(skip_flagged=False, dedupe_content=False, step_align=False, kind_aware=False,
                   need_visual_cue=False, question_focus=None, section_focus=None, tab_match=False,
                   top_section=None, top_section_lead=False, step_defer=False, section_gap=None,
                   top_section_tie=None, top_section_lead_only=False)


@dataclass(slots=True)
class MediaResult:
    """All candidates considered (for the trace) and the selected items in answer order."""

    candidates: list[MediaSelection] = field(default_factory=list)
    selected: list[MediaSelection] = field(default_factory=list)


def dedupe_key(item: AnyMedia, *, content: bool = True) -> str:
    """Items with the same key are the same media: same picture (content hash when
    known and ``content``, else file), same video URL, same table."""
    if item.kind == "image":
        digest = getattr(item, "content_hash", "") if content else ""
        if digest:
            return "image#" + digest
        return "image:" + str(getattr(item, "path", None) or getattr(item, "stored_path", None) or item.id)
    if item.kind == "video":
        local = getattr(item, "path", None)
        return "video:" + (str(local) if local else str(getattr(item, "url", "")).split("?")[0].rstrip("/"))
    return "table:" + item.id


def asks_to_see(question: str | None) -> bool:
    """The question asks to see something: what a thing looks like, a screenshot, a diagram."""
    return bool(question and _ASKS_TO_SEE.search(question))


def focus_sections(retrieved: Sequence[ScoredSnippet], store: Store,
                   options: MediaOptions | None = None, question: str | None = None) -> frozenset[str] | None:
    """The sections allowed to give media under ``section_focus``, or ``None`` (every section).

    A section's score is the best question cosine of its retrieved snippets;
    the bar is the best score among the retrieved sections that have a
    candidate item, and sections within ``options.section_focus`` of it pass.
    With ``options.section_gap``, a section more than that below the best
    retrieved section of all (media or not) does not pass either: when the
    section that answers has nothing to show, a picture from a section ranked
    far below illustrates a side fact the answer borrowed (text-only docsite
    questions), unless ``question`` asks to see something (:func:`asks_to_see`,
    "what does a Grasple exercise look like in the PDF?").
    The section of the first retrieved snippet always passes: the retriever
    ranked it the best match, and the hybrid retriever (words and meaning)
    can rank first a snippet whose cosine alone is below the bar.
    One :meth:`Store.media_in_section` call per retrieved section: call it once
    per answer, not per sentence. ``None`` when the lever is off or nothing was retrieved.
    """
    opts = options or MediaOptions()
    if opts.section_focus is None or not retrieved:
        return None
    scores: dict[str, float] = {}
    for s in retrieved:
        sec = s.snippet.section_id
        scores[sec] = max(scores.get(sec, float("-inf")), float(s.score))
    # the bar is set by the best retrieved section that has something to show
    bar = max((score for sec, score in scores.items()
               if any(_candidate(e.item, opts) for e in store.media_in_section(sec))), default=0.0)
    floor = bar - opts.section_focus
    if opts.section_gap is not None and not asks_to_see(question):
        floor = max(floor, max(scores.values()) - opts.section_gap)
    keep = {sec for sec, score in scores.items() if score >= floor}
    keep.add(retrieved[0].snippet.section_id)  # the retriever's first pick (hybrid: not always the best cosine)
    return frozenset(keep)


def content_words(text: str) -> set[str]:
    """Lower-cased words and numbers of ``text`` without stop words."""
    return {w for w in (m.group(0).lower() for m in _WORD.finditer(text)) if w not in _STOP}


# a parameter, option, field or key as written in code: camelCase, snake_case, dotted or hyphenated
_IDENTIFIER = re.compile(r"^(?=.{4,})[A-Za-z_][A-Za-z0-9_.\-]*$")
_CODE_SHAPE = re.compile(r"[a-z][A-Z]|[A-Za-z0-9][_.][A-Za-z0-9]|[a-z]-[a-z]")


def key_identifier(row: Sequence[str]) -> str | None:
    """The row's key cell (its first) when it is an identifier as written in code
    (``maxUsersPerRequest``, ``log_level``, ``spec.replicas``, ``--dry-run`` without
    its dashes), lower-cased; ``None`` for a plain word ("name", "value") or phrase."""
    key = row[0].strip().strip("`").lstrip("-") if row else ""
    return key.lower() if _IDENTIFIER.match(key) and _CODE_SHAPE.search(key) else None


def rows_drawn_on(table: TableItem, answer_words: set[str], *, share: float = 0.6) -> int:
    """Rows of ``table`` the answer draws on: rows whose content words (at least
    two) are ``share`` or more in ``answer_words``, and rows whose key cell is an
    identifier the answer names (:func:`key_identifier`: "set maxUsersPerRequest
    to 1" draws on that row of a parameter table, however long its description)."""
    n = 0
    for row in table.rows:
        words = content_words(" ".join(row))
        copied = len(words) >= 2 and len(words & answer_words) / len(words) >= share
        key = key_identifier(row)
        if copied or (key is not None and key in answer_words):
            n += 1
    return n


def named_tab(question: str, tab_set: Sequence[str]) -> str | None:
    """The one label of ``tab_set`` that ``question`` names, else ``None``.

    A label is named when the question contains one of its content words that
    not every label of the set has ("web" of "Adobe Campaign Web" beside
    "Adobe Campaign V8"); ``None`` when no label or several are named.
    """
    labels = list(dict.fromkeys(tab_set))
    if len(labels) < 2:
        return None
    words = [content_words(label) for label in labels]
    common = set.intersection(*words)
    asked = content_words(question)
    named = [label for label, w in zip(labels, words) if (w - common) & asked]
    return named[0] if len(named) == 1 else None


def other_tab(item: AnyMedia, question: str | None) -> bool:
    """True when ``item`` sits in a tab of a set whose other tab the question names."""
    if not question or not item.tab or len(item.tab_set) < 2:
        return False
    named = named_tab(question, item.tab_set)
    return named is not None and named != item.tab


def has_visual_cue(sentence: str) -> bool:
    """True when ``sentence`` describes something seen: a UI action or element, a diagram or chart."""
    return bool(_VISUAL.search(sentence)) or "**" in sentence


def points_at_video(sentence: str) -> bool:
    """True when ``sentence`` refers the reader to a video."""
    return bool(_POINTS_AT_VIDEO.search(sentence))


def step_text(item: AnyMedia, max_chars: int = 300) -> str:
    """The step an item illustrates: the last sentence before it in its section,
    else the first one after it, else its representation."""
    before = last_sentence(item.context_before, max_chars)
    if before:
        return before
    return first_sentence(item.context_after, max_chars) or item.representation(max_chars)


class TextEmbedder(Protocol):
    """What selection needs of an embedder: ``embed(texts)`` -> ``(len(texts), dim)`` L2-normalised."""

    def embed(self, texts: Sequence[str]) -> Vectors: ...


class MemoEmbedder:
    """Remembers the vectors of the last ``size`` distinct texts (step texts, the question).

    The streamed path selects media again after every sentence; the step texts
    of a section's screenshots are embedded once per pipeline, not once per
    sentence. Owned by one :class:`~murar.answer.pipeline.Pipeline`.
    """

    def __init__(self, embedder: Embedder, size: int = 4096) -> None:
        self._embedder = embedder
        self._size = size
        self._memo: OrderedDict[str, np.ndarray] = OrderedDict()

    def embed(self, texts: Sequence[str]) -> Vectors:
        todo = [t for t in dict.fromkeys(texts) if t not in self._memo]
        if todo:
            for t, v in zip(todo, self._embedder.embed(todo)):
                self._memo[t] = v
        out = np.stack([self._memo[t] for t in texts]) if texts else np.zeros((0, 0), dtype=np.float32)
        for t in texts:
            self._memo.move_to_end(t)
        while len(self._memo) > self._size:
            self._memo.popitem(last=False)
        return out


@dataclass(slots=True)
class _Cand:
    item: AnyMedia
    vector: np.ndarray
    score: float  # item-to-snippet cosine
    sentence: int  # answer sentence index it would follow
    sentence_score: float  # item-to-that-sentence cosine


def select_section_media(
    attributions: list[Attribution],
    sentence_vectors: Vectors,
    store: Store,
    options: MediaOptions | None = None,
    embedder: TextEmbedder | None = None,
    question_vector: np.ndarray | None = None,
    sections: Collection[str] | None = None,
    question: str | None = None,
) -> MediaResult:
    """Pick media per attributed snippet from the snippet's own section.

    ``sentence_vectors`` has shape ``(len(attributions), dim)``. ``embedder``
    embeds the step texts for ``step_align`` (without one, step alignment is
    skipped). ``question_vector`` (shape ``(dim,)``) enables ``question_focus``;
    ``question`` (the user's words) enables ``tab_match``.
    ``sections``: only snippets of these sections give media (``section_focus``:
    :func:`focus_sections` of the retrieved snippets); ``None``: every section.
    Returns the selections ordered by the sentence they follow.
    Raises what the store or embedder raise.
    """
    opts = options or MediaOptions()
    result = MediaResult()
    snippet_ids = list(dict.fromkeys(a.snippet_id for a in attributions if a.snippet_id))
    if not snippet_ids:
        return result
    sentences = {a.sentence_index: a.sentence for a in attributions}
    answer_words = content_words(" ".join(a.sentence for a in attributions))
    svecs = store.snippet_vectors(snippet_ids)
    best: dict[str, MediaSelection] = {}

    def keep(c: _Cand, sid: str) -> None:
        sel = MediaSelection(item=c.item, snippet_id=sid, sentence_index=c.sentence, score=c.score,
                             strategy="section")
        key = dedupe_key(c.item, content=opts.dedupe_content)
        if key not in best or best[key].score < c.score:
            best[key] = sel

    for sid, svec in zip(snippet_ids, svecs):
        snippet = store.get_snippet(sid)
        if snippet is None:
            continue
        if sections is not None and snippet.section_id not in sections:
            continue  # a section the answer drew a side fact from (section_focus)
        sent_idx = [a.sentence_index for a in attributions if a.snippet_id == sid]
        cands: list[_Cand] = []
        for entry in store.media_in_section(snippet.section_id):
            item = entry.item
            if not _candidate(item, opts) or (opts.tab_match and other_tab(item, question)):
                continue
            sims = sentence_vectors[sent_idx] @ entry.vector
            k = int(np.argmax(sims))
            cands.append(_Cand(item, entry.vector, float(entry.vector @ svec), sent_idx[k], float(sims[k])))
        cands.sort(key=lambda c: -c.score)
        for c in cands:
            result.candidates.append(MediaSelection(item=c.item, snippet_id=sid, sentence_index=c.sentence,
                                                    score=c.score, strategy="section"))
        groups = ([[c for c in cands if c.item.kind == kind] for kind in opts.kinds] if opts.kind_aware
                  else [cands])
        for group in groups:
            if not group:
                continue
            for c in _pick(group, sent_idx, sentences, sentence_vectors, answer_words, opts, embedder):
                keep(c, sid)
    picks = list(best.values())
    if opts.question_focus is not None and question_vector is not None and picks:
        qsim: dict[str, float] = {}
        for s in picks:
            vec = store.media_vector(s.item.id)
            if vec is not None:
                qsim[s.item.id] = float(vec @ question_vector)
        if qsim:
            top = max(qsim.values())
            picks = [s for s in picks if s.item.kind == "table"  # rows rarely read like the question
                     or qsim.get(s.item.id, top) >= top - opts.question_focus]
    chosen = sorted(picks, key=lambda s: -s.score)[: opts.max_items]
    result.selected = sorted(chosen, key=lambda s: (s.sentence_index, -s.score))
    return result


def top_section_picks(
    retrieved: Sequence[ScoredSnippet],
    store: Store,
    question_vector: np.ndarray,
    sentence_vectors: Vectors,
    options: MediaOptions | None = None,
    question: str | None = None,
) -> list[MediaSelection]:
    """The images of the top retrieved section to show when the answer brought no media (``top_section``).

    ``retrieved``: the snippets in retrieval order (the first one is the best
    match to the question). ``question_vector``: shape ``(dim,)``.
    ``sentence_vectors``: shape ``(n_sentences, dim)``, one row per answer
    sentence (a zero row for a sentence that must not receive it). The pick is
    the candidate image (displayable, not flagged, not in a tab the question
    does not ask for) of the first snippet's section most similar to the
    question, kept when that cosine reaches ``options.top_section``. With
    ``options.top_section_tie``, the section's other images whose question
    cosine is within that of the pick's are picks too (one per picture content,
    at most ``max_items``): the embedding cannot tell which of them the question
    means (a light and a dark variant of one screen, two screens of one step).
    Each goes after the sentence most similar to it; ``score`` is its question
    cosine and ``strategy`` is ``top-section``. Returned in the section's
    order (the order of the steps). Empty when the lever is off, nothing was
    retrieved, there is no sentence, or no image is that close.
    Raises what the store raises.
    """
    opts = options or MediaOptions()
    if opts.top_section is None or not retrieved or len(sentence_vectors) == 0 or "image" not in opts.kinds:
        return []
    top = retrieved[0]
    images = [e for e in store.media_in_section(top.snippet.section_id)
              if e.item.kind == "image" and _candidate(e.item, opts)
              and not (opts.tab_match and other_tab(e.item, question))]
    scored = sorted(((float(e.vector @ question_vector), n, e) for n, e in enumerate(images)), key=lambda t: -t[0])
    if not scored or scored[0][0] < opts.top_section:
        return []
    most = opts.max_items if opts.top_section_tie is not None else 1
    bar = scored[0][0] - (opts.top_section_tie or 0.0)
    keys: set[str] = set()
    picks: list[tuple[tuple[int, int], MediaSelection]] = []  # (place in the page, pick)
    for score, n, e in scored:  # most question-like first
        if picks and (score < bar or len(picks) >= most):
            break
        key = dedupe_key(e.item, content=opts.dedupe_content)
        if key in keys:
            continue
        keys.add(key)
        sel = MediaSelection(item=e.item, snippet_id=top.snippet.id, score=score, strategy="top-section",
                             sentence_index=int(np.argmax(sentence_vectors @ e.vector)))
        picks.append(((e.item.position, n), sel))
    return [sel for _, sel in sorted(picks, key=lambda t: t[0])]


_LEAD_END = re.compile(r"[.:!?]$")
_WORDLIKE = re.compile(r"[A-Za-z][\w'’-]*[,;]?$")


def _is_step_line(text: str) -> bool:
    """``text`` reads as a step written without end punctuation (a list item, "Upload the csv
    file and verify the mappings"): it opens with a letter and at least 3 in 4 of its tokens are words."""
    tokens = text.split()
    return bool(tokens) and text[0].isalpha() and sum(bool(_WORDLIKE.match(w)) for w in tokens) >= 0.75 * len(tokens)


def picture_lead(item: AnyMedia, *, min_words: int = 4, max_words: int = 60) -> str:
    """The document's own sentence that introduces ``item``, or ``""``.

    The last sentence before it in its section (the step a screenshot shows,
    "The schema should look like this:"), else the first sentence of its alt
    text, when that is a sentence of ``min_words`` to ``max_words`` words ending in ``.``, ``:``,
    ``!`` or ``?`` (markup residue such as ``+++ Response`` is not a sentence). A step
    written without end punctuation — a list item, the usual way docs write steps — counts
    when it reads as words (:func:`_is_step_line`) and is given a full stop, so it stands
    as a sentence of the answer.
    A top-section picture (:func:`top_section_picks`) follows it: the answer never
    drew on that section, so without it the picture would follow a sentence
    about something else.
    """
    alt = split_sentences(getattr(item, "alt", "") or "")
    for text, steps in ((last_sentence(item.context_before), True), (alt[0] if alt else "", False)):
        text = " ".join(text.split())
        n = len(text.split())
        if not (min_words <= n <= max_words and len(split_sentences(text)) == 1):
            continue
        if _LEAD_END.search(text):
            return text
        if steps and _is_step_line(text):
            return text.rstrip(",;") + "."
    return ""


def _candidate(item: AnyMedia, opts: MediaOptions) -> bool:
    """``item`` may be chosen at all: a kind asked for, displayable, not flagged (with ``skip_flagged``)."""
    if item.kind not in opts.kinds or not is_displayable(item, remote_images=opts.remote_images):
        return False
    return not (opts.skip_flagged and not is_selectable(item))


def _passes(c: _Cand, opts: MediaOptions) -> bool:
    return c.score >= opts.min_snippet_score and c.sentence_score >= opts.min_sentence_score


def _pick(
    group: list[_Cand],
    sent_idx: list[int],
    sentences: dict[int, str],
    sentence_vectors: Vectors,
    answer_words: set[str],
    opts: MediaOptions,
    embedder: TextEmbedder | None,
) -> list[_Cand]:
    """The items of one snippet's candidates (one kind, or all kinds when not kind-aware)."""
    kind = group[0].item.kind if opts.kind_aware else None
    texts = [sentences[i] for i in sent_idx]
    if kind == "table":
        out = []
        for c in group[: opts.per_snippet]:
            drawn = isinstance(c.item, TableItem) and rows_drawn_on(c.item, answer_words, share=opts.row_share) > 0
            if drawn and c.score >= opts.min_snippet_score - opts.margin:
                out.append(c)
        if not out and _passes(group[0], opts):
            out.append(group[0])
        return out
    if kind == "video":
        c = group[0]
        pointed = any(points_at_video(t) for t in texts)
        ok = _passes(c, opts) if not pointed else c.score >= opts.min_snippet_score - opts.margin
        if ok and (pointed or c.sentence_score >= opts.min_sentence_score):
            return [c]
        return []
    # images (or every kind together, as before issue 9)
    if opts.need_visual_cue and kind == "image":
        # the answer so far: a cue after the section's last sentence must not bring its picture
        # (the streamed path could only place it after that later sentence, of another section)
        so_far = [t for i, t in sentences.items() if i <= max(sent_idx)]
        cue = any(has_visual_cue(t) for t in so_far) or max(c.sentence_score for c in group) >= opts.close_match
        if not cue:
            return []
    top = group[0].score
    if opts.step_align and kind == "image" and len(group) > 1 and embedder is not None:
        return _step_aligned(group, sent_idx, sentence_vectors, opts, embedder)
    out = []
    for rank, c in enumerate(group):
        within = rank == 0 or (rank < opts.per_snippet and c.score >= top - opts.margin)
        if within and _passes(c, opts):
            out.append(c)
    return out


def _step_aligned(
    group: list[_Cand],
    sent_idx: list[int],
    sentence_vectors: Vectors,
    opts: MediaOptions,
    embedder: TextEmbedder,
) -> list[_Cand]:
    """Section-level picks, each placed after the answer sentence that describes its step.

    The picks are MuRAR's (the best screenshot, and the others within
    ``margin``, at most ``per_snippet``), plus any screenshot whose step text an
    answer sentence describes closely (``step_min``). A screenshot goes after
    the sentence most similar to its step text when that similarity reaches
    ``step_min``, else after the sentence most similar to the item.
    """
    top = group[0].score
    base = [c for rank, c in enumerate(group)
            if (rank == 0 or (rank < opts.per_snippet and c.score >= top - opts.margin)) and _passes(c, opts)]
    pool = [c for c in group if c.score >= opts.min_snippet_score - opts.margin]
    if not pool:
        return base
    step_vecs = embedder.embed([step_text(c.item) for c in pool])
    sims = sentence_vectors[sent_idx] @ step_vecs.T  # (n_sentences, n_pool)
    chosen = {c.item.id: c for c in base}
    out: list[_Cand] = []
    for j, c in enumerate(pool):
        r = int(np.argmax(sims[:, j]))
        step_sim = float(sims[r, j])
        if step_sim >= opts.step_min:
            out.append(_Cand(c.item, c.vector, c.score, sent_idx[r], max(step_sim, c.sentence_score)))
        elif c.item.id in chosen:
            out.append(c)
    return out
