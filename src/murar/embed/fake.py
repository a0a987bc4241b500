"""A deterministic, dependency-free embedder for tests (hashed bag of words)."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

import numpy as np

from murar.embed.base import BatchingEmbedder, Vectors, l2_normalise

_WORD = re.compile(r"[a-z0-9]+")


class HashingEmbedder(BatchingEmbedder):
    """Bag-of-words hashed into ``dim`` buckets (plus character trigrams), L2-normalised.

    Texts sharing words get a high cosine similarity, which is enough to test
    retrieval, attribution and media selection without a model.
    """

    def __init__(self, dim: int = 256, max_tokens: int = 256) -> None:
        self._dim = dim
        self._max_tokens = max_tokens

    @property
    def name(self) -> str:
        return f"hashing-{self._dim}"

    @property
    def dim(self) -> int:
        return self._dim

    @property
    def max_tokens(self) -> int:
        return self._max_tokens

    def _bucket(self, token: str) -> int:
        return int.from_bytes(hashlib.md5(token.encode()).digest()[:4], "little") % self._dim

    def embed_batch(self, texts: Sequence[str]) -> Vectors:
        out = np.zeros((len(texts), self._dim), dtype=np.float32)
        for row, text in enumerate(texts):
            words = _WORD.findall(text.lower())[: self._max_tokens]
            for w in words:
                out[row, self._bucket(w)] += 1.0
        return l2_normalise(out)

    def count_tokens(self, text: str) -> int:
        return len(_WORD.findall(text.lower()))

    def token_spans(self, text: str) -> list[tuple[int, int]]:
        return [(m.start(), m.end()) for m in _WORD.finditer(text.lower())]
