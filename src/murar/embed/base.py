"""The embedder protocol and a base class that owns batching.

An embedder maps texts to L2-normalised float32 vectors, so the dot product of
two vectors is their cosine similarity.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

Vectors = npt.NDArray[np.float32]


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into embeddings.

    ``embed(texts)`` returns a 2-D array of shape ``(len(texts), dim)``,
    float32, each row L2-normalised. ``count_tokens`` counts the word pieces the
    model sees (special tokens excluded); ``max_tokens`` is how many it can see.
    """

    @property
    def name(self) -> str: ...

    @property
    def dim(self) -> int: ...

    @property
    def max_tokens(self) -> int: ...

    def embed(self, texts: Sequence[str], *, progress: Callable[[int], None] | None = None) -> Vectors: ...

    def count_tokens(self, text: str) -> int: ...

    def token_spans(self, text: str) -> list[tuple[int, int]]: ...


class BatchingEmbedder(ABC):
    """Base class: subclasses implement :meth:`embed_batch`; batching lives here."""

    batch_size: int = 32

    @property
    @abstractmethod
    def name(self) -> str: ...

    @property
    @abstractmethod
    def dim(self) -> int: ...

    @property
    def max_tokens(self) -> int:
        return 256

    @abstractmethod
    def embed_batch(self, texts: Sequence[str]) -> Vectors:
        """Embed one batch; returns shape ``(len(texts), dim)``, L2-normalised."""

    def embed(self, texts: Sequence[str], *, progress: Callable[[int], None] | None = None) -> Vectors:
        """Embed ``texts`` in batches of :attr:`batch_size`.

        Returns an array of shape ``(len(texts), dim)``, float32, L2-normalised
        (an empty input gives shape ``(0, dim)``). ``progress`` is called after
        each batch with the number of texts in that batch (an increment).
        """
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        # sort by length so batches pad little; restore order at the end
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for start in range(0, len(order), self.batch_size):
            idx = order[start : start + self.batch_size]
            out[idx] = self.embed_batch([texts[i] for i in idx])
            if progress is not None:
                progress(len(idx))
        return out

    def count_tokens(self, text: str) -> int:
        """Approximate word-piece count (whitespace words); backends override."""
        return len(text.split())

    def token_spans(self, text: str) -> list[tuple[int, int]]:
        """Character spans ``(start, end)`` of each token; backends override."""
        spans: list[tuple[int, int]] = []
        pos = 0
        for word in text.split():
            start = text.index(word, pos)
            spans.append((start, start + len(word)))
            pos = start + len(word)
        return spans


def l2_normalise(x: npt.NDArray[np.floating]) -> Vectors:
    """Row-wise L2 normalisation; zero rows stay zero. Returns float32."""
    x = np.asarray(x, dtype=np.float32)
    norms = np.linalg.norm(x, axis=-1, keepdims=True)
    norms[norms == 0] = 1.0
    out: Vectors = (x / norms).astype(np.float32)
    return out
