"""Media selection strategies beside MuRAR's section-level one.

- ``answer`` (seed 001, "answer-based image selection"): the *generated answer*
  — not the short question — is embedded and matched against every item's
  context-aware caption in the index; the top ``answer_top_n`` (2 by default)
  above a threshold are kept. Each is placed after the answer sentence most
  similar to it.
- ``hybrid``: section-level selection first; then answer-based matching over
  the *neighbouring sections* (the other sections of the pages the answer was
  attributed to) recovers the items MuRAR misses when the right image sits in
  a neighbouring section (the recall weakness of MuRAR section 5.4).

Both also apply the redundancy rules of :func:`is_redundant`, and, given the
question, drop the media of a tab the question does not name
(:func:`~murar.answer.media.other_tab`, ``MediaOptions.tab_match``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from murar.answer.generate import strip_citations
from murar.answer.media import (
    MediaOptions,
    MediaResult,
    dedupe_key,
    other_tab,
    select_section_media,
)
from murar.embed.base import Embedder, Vectors
from murar.ingest.media_flags import is_selectable
from murar.schema import AnyMedia, Attribution, MediaSelection, TableItem
from murar.store.base import Store, is_displayable

STRATEGIES = ("section", "answer", "hybrid")
_WORD = re.compile(r"[a-z0-9]{3,}")


@dataclass(frozen=True, slots=True, kw_only=True)
class AnswerBasedOptions:
    """``top_n``: items kept by answer-based selection (seed 001 uses 2).
    ``min_score``: answer-to-item cosine needed. ``neighbour_min_score``: the
    same for items recovered from neighbouring sections in ``hybrid``."""

    top_n: int = 2
    min_score: float = 0.5
    neighbour_min_score: float = 0.55


def is_redundant(item: AnyMedia, answer_text: str, *, containment: float = 0.9) -> bool:
    """True when a table only repeats the answer: at least ``containment`` of its
    distinct content words already appear in the answer text."""
    if not isinstance(item, TableItem):
        return False
    cells = " ".join([*item.headers, *[c for row in item.rows for c in row]]).lower()
    words = set(_WORD.findall(cells))
    if len(words) < 3:
        return False
    answer_words = set(_WORD.findall(answer_text.lower()))
    return len(words & answer_words) / len(words) >= containment


def _place(item_vec: np.ndarray, sentence_vectors: Vectors) -> int:
    return int(np.argmax(sentence_vectors @ item_vec)) if len(sentence_vectors) else 0


def select_answer_based(
    answer_text: str,
    sentence_vectors: Vectors,
    store: Store,
    embedder: Embedder,
    options: AnswerBasedOptions | None = None,
    media: MediaOptions | None = None,
    question: str | None = None,
) -> MediaResult:
    """Seed 001: top-N items by cosine(answer embedding, item caption embedding), corpus-wide.

    ``sentence_vectors`` has shape ``(n_sentences, dim)``; each item goes after
    its most similar sentence. ``question`` (the user's words) enables
    ``tab_match``. Raises what the store or embedder raise.
    """
    opts = options or AnswerBasedOptions()
    mopts = media or MediaOptions()
    result = MediaResult()
    text = strip_citations(answer_text)
    if not text.strip():
        return result
    av = embedder.embed([text])[0]
    hits = store.search_media(av, opts.top_n * 4, kinds=list(mopts.kinds))  # type: ignore[arg-type]
    seen: set[str] = set()
    for h in hits:
        vec = store.media_vector(h.item.id)
        if vec is None:
            continue
        sel = MediaSelection(item=h.item, snippet_id=None, sentence_index=_place(vec, sentence_vectors),
                             score=h.score, strategy="answer")
        result.candidates.append(sel)
        key = dedupe_key(h.item, content=mopts.dedupe_content)
        if mopts.skip_flagged and not is_selectable(h.item):
            continue
        if mopts.tab_match and other_tab(h.item, question):
            continue
        if h.score < opts.min_score or key in seen or is_redundant(h.item, answer_text):
            continue
        seen.add(key)
        result.selected.append(sel)
        if len(result.selected) >= opts.top_n:
            break
    result.selected.sort(key=lambda s: (s.sentence_index, -s.score))
    return result


def select_hybrid(
    answer_text: str,
    attributions: list[Attribution],
    sentence_vectors: Vectors,
    store: Store,
    embedder: Embedder,
    options: AnswerBasedOptions | None = None,
    media: MediaOptions | None = None,
    question: str | None = None,
) -> MediaResult:
    """Section-level selection, then answer-based recovery from neighbouring sections.

    Shapes as in :func:`select_answer_based`; ``question`` enables ``tab_match``
    in both steps. Raises what the store or embedder raise.
    """
    opts = options or AnswerBasedOptions()
    mopts = media or MediaOptions()
    result = select_section_media(attributions, sentence_vectors, store, mopts, embedder, question=question)
    result.selected = [s for s in result.selected if not is_redundant(s.item, answer_text)]
    if len(result.selected) >= mopts.max_items:
        return result
    attributed = [store.get_snippet(a.snippet_id) for a in attributions if a.snippet_id]
    pages = {s.source_path for s in attributed if s is not None}
    own_sections = {s.section_id for s in attributed if s is not None}
    if not pages:
        return result
    text = strip_citations(answer_text)
    av = embedder.embed([text])[0]
    taken = {dedupe_key(s.item, content=mopts.dedupe_content) for s in result.selected}
    # neighbouring sections: media of the attributed pages outside the attributed sections
    pool = store.search_media(av, 50, kinds=list(mopts.kinds))  # type: ignore[arg-type]
    recovered: list[MediaSelection] = []
    for h in pool:
        if h.item.source_path not in pages or h.item.section_id in own_sections:
            continue
        if h.score < opts.neighbour_min_score or not is_displayable(h.item, remote_images=mopts.remote_images):
            continue
        if mopts.skip_flagged and not is_selectable(h.item):
            continue
        if mopts.tab_match and other_tab(h.item, question):
            continue
        key = dedupe_key(h.item, content=mopts.dedupe_content)
        if key in taken or is_redundant(h.item, answer_text):
            continue
        vec = store.media_vector(h.item.id)
        if vec is None:
            continue
        sel = MediaSelection(item=h.item, snippet_id=None, sentence_index=_place(vec, sentence_vectors),
                             score=h.score, strategy="hybrid-neighbour")
        result.candidates.append(sel)
        recovered.append(sel)
        taken.add(key)
        if len(result.selected) + len(recovered) >= mopts.max_items:
            break
    result.selected = sorted([*result.selected, *recovered], key=lambda s: (s.sentence_index, -s.score))
    return result
