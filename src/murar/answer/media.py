"""Step 3 of MuRAR (seed 000, section 2.3): section-level multimodal retrieval.

For each attributed snippet, the candidates are the displayable images,
tables and videos of the *same section*; they are ranked by cosine similarity
between the snippet and the item representation, and the best one is kept when
it reaches the threshold. An item chosen for several snippets is kept once,
with its best score. Each item goes after the answer sentence, among those
attributed to its snippet, that is most similar to the item.

Beyond the paper: items whose file is missing are never candidates; the same
image file reached through two items (a page repeating a screenshot) is kept
once; a per-kind threshold on the item-to-sentence similarity keeps media out
of answers it does not illustrate.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from murar.embed.base import Vectors
from murar.schema import AnyMedia, Attribution, MediaSelection
from murar.store.base import Store, is_displayable


@dataclass(frozen=True, slots=True, kw_only=True)
class MediaOptions:
    """Thresholds of section-level media retrieval (cosine similarities).

    ``min_snippet_score``: item-to-snippet similarity needed to be a pick.
    ``min_sentence_score``: item-to-sentence similarity needed to be placed.
    ``max_items``: at most this many media items in one answer.
    ``per_snippet``: items kept per snippet — MuRAR keeps 1; more recovers
    sections whose steps each have a screenshot, but only items within
    ``margin`` of the snippet's best item are taken.
    ``remote_images``: remote (URL-only) images may be chosen (``--remote-images show``).
    """

    min_snippet_score: float = 0.5
    min_sentence_score: float = 0.4
    max_items: int = 4
    per_snippet: int = 3
    margin: float = 0.1
    kinds: tuple[str, ...] = ("image", "table", "video")
    remote_images: bool = False


@dataclass(slots=True)
class MediaResult:
    """All candidates considered (for the trace) and the selected items in answer order."""

    candidates: list[MediaSelection] = field(default_factory=list)
    selected: list[MediaSelection] = field(default_factory=list)


def dedupe_key(item: AnyMedia) -> str:
    """Items with the same key are the same media (same image file, same video)."""
    if item.kind == "image":
        return "image:" + str(getattr(item, "path", None) or getattr(item, "stored_path", None) or item.id)
    if item.kind == "video":
        local = getattr(item, "path", None)
        return "video:" + (str(local) if local else str(getattr(item, "url", "")).split("?")[0].rstrip("/"))
    return "table:" + item.id


def select_section_media(
    attributions: list[Attribution],
    sentence_vectors: Vectors,
    store: Store,
    options: MediaOptions | None = None,
) -> MediaResult:
    """Pick at most one media item per attributed snippet from the snippet's own section.

    ``sentence_vectors`` has shape ``(len(attributions), dim)``. Returns the
    selections ordered by the sentence they follow.
    """
    opts = options or MediaOptions()
    result = MediaResult()
    snippet_ids = list(dict.fromkeys(a.snippet_id for a in attributions if a.snippet_id))
    if not snippet_ids:
        return result
    svecs = store.snippet_vectors(snippet_ids)
    best: dict[str, MediaSelection] = {}
    for sid, svec in zip(snippet_ids, svecs):
        snippet = store.get_snippet(sid)
        if snippet is None:
            continue
        sent_idx = [a.sentence_index for a in attributions if a.snippet_id == sid]
        ranked: list[tuple[float, AnyMedia, np.ndarray]] = []
        for entry in store.media_in_section(snippet.section_id):
            if entry.item.kind not in opts.kinds or not is_displayable(
                    entry.item, remote_images=opts.remote_images):
                continue
            ranked.append((float(entry.vector @ svec), entry.item, entry.vector))
        ranked.sort(key=lambda r: -r[0])
        top = ranked[0][0] if ranked else 0.0
        for rank, (score, item, ivec) in enumerate(ranked):
            sims = sentence_vectors[sent_idx] @ ivec
            k = int(np.argmax(sims))
            sel = MediaSelection(item=item, snippet_id=sid, sentence_index=sent_idx[k], score=score,
                                 strategy="section")
            result.candidates.append(sel)
            within = rank == 0 or (rank < opts.per_snippet and score >= top - opts.margin)
            if within and score >= opts.min_snippet_score and float(sims[k]) >= opts.min_sentence_score:
                key = dedupe_key(item)
                if key not in best or best[key].score < score:
                    best[key] = sel
    chosen = sorted(best.values(), key=lambda s: -s.score)[: opts.max_items]
    result.selected = sorted(chosen, key=lambda s: (s.sentence_index, -s.score))
    return result
