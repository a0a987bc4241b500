"""Snippet retrievers over any :class:`~murar.store.base.Store`: dense, lexical, hybrid.

- ``dense``: embedding similarity (:meth:`Store.search_snippets`), MuRAR's retriever
  (seed 000, section 2.1);
- ``lexical``: full-text BM25-style search (:meth:`Store.search_snippets_lexical`,
  see :mod:`murar.store.lexical`), which matches the exact UI labels and
  identifiers documentation is full of ("Copy URL", "Server Calls tab");
- ``hybrid``: both lists fused. ``rrf`` is reciprocal rank fusion (Cormack,
  Clarke and Buettcher, SIGIR 2009: score = sum of 1 / (c + rank), c = 60,
  their constant, not tuned here); ``minmax`` is the convex combination of
  min-max normalised scores (weight 0.5 each, Bruch et al., "An analysis of
  fusion functions for hybrid retrieval", TOIS 2023). Both use ranks or
  per-list normalised scores, so a backend's lexical scale (BM25 or
  ``ts_rank``) does not matter.

``hybrid`` with ``minmax`` is the default (:data:`murar.config.DEFAULT_RETRIEVER`), chosen by
measurement on mpnet indexes (issue 9): gold-section recall@1 of the top-5 list rose on all
four question sets (``dev.jsonl`` 0.500 -> 0.650, docsite tuning 0.571 -> 0.778, held-out
0.730 -> 0.778 and 0.625 -> 0.775; recall@5 within one question), equal weights beat 0.6-0.8 on
dense everywhere, and with the bundled model image F1 pooled over the 206 questions of the four
sets went 0.606 -> 0.621 (``dev.jsonl`` alone 0.727 -> 0.684) and MiRAGE InfoP on ``dev.jsonl``
0.389 -> 0.506 (CiteP 0.778 -> 0.698). It costs about 4 ms per query (LanceDB full-text search).

Whatever the retriever, each returned snippet carries its cosine similarity
to the question vector (the pipeline's "not found" threshold and the media
selection read cosines); only the order differs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from murar.config import DEFAULT_RETRIEVER
from murar.errors import ConfigError
from murar.schema import Snippet
from murar.store.base import Store

RETRIEVERS = ("dense", "lexical", "hybrid")
FUSIONS = ("rrf", "minmax")
#: reciprocal rank fusion constant (Cormack et al. 2009)
RRF_C = 60


@dataclass(frozen=True, slots=True, kw_only=True)
class RetrieverOptions:
    """Which snippet retriever runs, and how the hybrid one fuses.

    ``kind``: ``dense`` | ``lexical`` | ``hybrid``. ``fusion``: ``rrf`` |
    ``minmax`` (see the module doc). ``depth``: candidates taken from each
    list before fusing (at least the ``k`` asked for).

    Raises:
        ConfigError: an unknown kind or fusion, or ``depth < 1``.
    """

    kind: str = DEFAULT_RETRIEVER
    fusion: str = "minmax"
    depth: int = 50

    def __post_init__(self) -> None:
        if self.kind not in RETRIEVERS:
            raise ConfigError(f"retriever must be one of {', '.join(RETRIEVERS)}, not {self.kind!r}")
        if self.fusion not in FUSIONS:
            raise ConfigError(f"fusion must be one of {', '.join(FUSIONS)}, not {self.fusion!r}")
        if self.depth < 1:
            raise ConfigError(f"retriever depth must be at least 1, not {self.depth}")

    @property
    def name(self) -> str:
        """``dense``, ``lexical`` or ``hybrid-rrf`` / ``hybrid-minmax`` (recorded in the trace)."""
        return f"hybrid-{self.fusion}" if self.kind == "hybrid" else self.kind


def reciprocal_rank_fusion(rankings: Sequence[Sequence[str]], *, c: int = RRF_C) -> list[tuple[str, float]]:
    """Fuse ranked id lists: score(id) = sum over lists of 1 / (c + rank), rank from 1.

    Returns every id once, best first; ties keep the order of first appearance
    (earlier list, then earlier rank).
    """
    scores: dict[str, float] = {}
    for ranking in rankings:
        for rank, key in enumerate(ranking, start=1):
            scores[key] = scores.get(key, 0.0) + 1.0 / (c + rank)
    return sorted(scores.items(), key=lambda kv: -kv[1])  # stable: ties in first-appearance order


def minmax_fusion(scored: Sequence[Sequence[tuple[str, float]]],
                  weights: Sequence[float] | None = None) -> list[tuple[str, float]]:
    """Fuse scored id lists: each list's scores min-max normalised to [0, 1]
    (a list of one id, or of equal scores, gives 1.0), absent ids count 0,
    weighted sum (default equal weights). Best first; ties in first-appearance order."""
    w = list(weights) if weights is not None else [1.0 / max(len(scored), 1)] * len(scored)
    scores: dict[str, float] = {}
    for weight, lst in zip(w, scored):
        if not lst:
            continue
        values = [s for _, s in lst]
        lo, hi = min(values), max(values)
        for key, s in lst:
            norm = 1.0 if hi == lo else (s - lo) / (hi - lo)
            scores[key] = scores.get(key, 0.0) + weight * norm
    return sorted(scores.items(), key=lambda kv: -kv[1])  # stable: ties in first-appearance order


def retrieve_snippets(store: Store, vector: np.ndarray, query: str, k: int,
                      options: RetrieverOptions | None = None) -> list[tuple[Snippet, float]]:
    """Up to ``k`` snippets for a question, in the retriever's order, each with
    its cosine similarity to ``vector`` (shape ``(dim,)``, L2-normalised).

    ``query`` is the question text (used by ``lexical`` and ``hybrid``). A
    lexical search that matches nothing (a question of stop words only)
    leaves the hybrid result equal to the dense one.
    """
    opts = options or RetrieverOptions()
    if k <= 0:
        return []
    if opts.kind == "dense":
        return store.search_snippets(vector, k)
    depth = max(opts.depth, k)
    lexical = store.search_snippets_lexical(query, k if opts.kind == "lexical" else depth)
    if opts.kind == "lexical":
        return _with_cosines(store, vector, [s for s, _ in lexical])
    dense = store.search_snippets(vector, depth)
    if opts.fusion == "rrf":
        fused = reciprocal_rank_fusion([[s.id for s, _ in dense], [s.id for s, _ in lexical]])
    else:
        fused = minmax_fusion([[(s.id, sc) for s, sc in dense], [(s.id, sc) for s, sc in lexical]])
    by_id = {s.id: s for s, _ in (*dense, *lexical)}
    cosine = {s.id: sc for s, sc in dense}
    top = [by_id[i] for i, _ in fused[:k]]
    missing = [s for s in top if s.id not in cosine]
    if missing:
        for s, sc in _with_cosines(store, vector, missing):
            cosine[s.id] = sc
    return [(s, cosine[s.id]) for s in top]


def _with_cosines(store: Store, vector: np.ndarray, snippets: list[Snippet]) -> list[tuple[Snippet, float]]:
    if not snippets:
        return []
    vecs = store.snippet_vectors([s.id for s in snippets])
    sims = vecs @ np.asarray(vector, dtype=np.float32)
    return [(s, float(x)) for s, x in zip(snippets, sims)]
