"""Lexical (full-text, BM25) snippet search: the text indexed and the in-memory reference.

Every backend indexes the same text per snippet, :func:`lexical_text` (page
title, heading path and snippet text: the fields the snippet is embedded
with), tokenised the same way in spirit: lower-cased words, English stop
words removed, Snowball English stems. The backends differ in the engine:

- :class:`Bm25Index` (memory store, and LanceDB indexes written before
  full-text indexes existed): BM25 (Lucene variant, k1 = 1.5, b = 0.75) by
  the ``bm25s`` library with the PyStemmer Snowball stemmer;
- LanceDB: its native inverted index (``create_fts_index``, BM25);
- PostgreSQL: a ``tsvector`` column (``english`` configuration) with a GIN
  index, ranked by ``ts_rank``.

So lexical scores are on each engine's own scale (higher is better); only
ranks are compared across backends (see :mod:`murar.store.hybrid`).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

import numpy as np

from murar.errors import MissingExtraError
from murar.schema import Snippet

#: tokeniser settings shared by the engines (documented above)
LANGUAGE = "english"


def lexical_text(snippet: Snippet) -> str:
    """The text full-text search indexes for ``snippet``: page title, heading path, text (one string)."""
    return " ".join(p for p in (snippet.page_title, *snippet.heading_path, snippet.text) if p)


def _bm25s() -> tuple[Any, Any]:
    try:
        import bm25s
        import Stemmer
    except ImportError as err:  # core dependencies, but keep the hint
        raise MissingExtraError("bm25s and PyStemmer", "core") from err
    return bm25s, Stemmer


class Bm25Index:
    """BM25 over a fixed list of texts, built on first search (thread-safe).

    ``search(query, k)`` returns up to ``k`` ``(position, score)`` pairs,
    best first, only texts sharing at least one term with the query (score >
    0); equal scores in position order. Building costs about a second per
    20,000 snippets (tokenising and stemming); a query well under a
    millisecond.
    """

    def __init__(self, texts: Sequence[str]) -> None:
        self._texts = list(texts)
        self._lock = threading.Lock()
        self._built: tuple[Any, Any] | None = None

    def _build(self) -> tuple[Any, Any]:
        with self._lock:
            if self._built is None:
                bm25s, stemmer_mod = _bm25s()
                from bm25s.tokenization import Tokenizer

                tokenizer = Tokenizer(stemmer=stemmer_mod.Stemmer(LANGUAGE), stopwords="en", lower=True)
                corpus = tokenizer.tokenize(self._texts, update_vocab=True, return_as="tuple", show_progress=False)
                retriever = bm25s.BM25()  # Lucene variant, k1 = 1.5, b = 0.75
                retriever.index(corpus, show_progress=False)
                self._built = (tokenizer, retriever)
            return self._built

    def search(self, query: str, k: int) -> list[tuple[int, float]]:
        if not self._texts or k <= 0 or not query.strip():
            return []
        tokenizer, retriever = self._build()
        ids = tokenizer.tokenize([query], update_vocab=False, return_as="ids", show_progress=False)[0]
        empty = retriever.vocab_dict.get("")  # the id of unknown words and of a text of stop words only
        ids = sorted({int(i) for i in ids if i != empty})
        if not ids:
            return []
        scores = np.asarray(retriever.get_scores_from_ids(ids), dtype=np.float64)
        hits = np.flatnonzero(scores > 0)
        order = hits[np.lexsort((hits, -scores[hits]))][:k]
        return [(int(i), float(scores[i])) for i in order]
