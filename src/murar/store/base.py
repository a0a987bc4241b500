"""The store protocol: snippets, media items and sections with their embeddings.

Backends: :class:`murar.store.memory.MemoryStore` (NumPy reference, no
persistence) and :class:`murar.store.lance.LanceStore` (embedded LanceDB,
the default). Every backend passes ``tests/store/test_conformance.py``.
Scores are cosine similarities in [-1, 1] (vectors are L2-normalised).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import numpy as np

from murar.embed.base import Vectors
from murar.schema import AnyMedia, MediaKind, Section, Snippet


@dataclass(frozen=True, slots=True)
class ScoredMedia:
    """A media item with its cosine similarity to a query vector."""

    item: AnyMedia
    score: float


@dataclass(frozen=True, slots=True)
class IndexedMedia:
    """A media item with its embedding (shape ``(dim,)``, float32)."""

    item: AnyMedia
    vector: np.ndarray


@runtime_checkable
class Store(Protocol):
    """Read access to an index.

    ``search_snippets(v, k)`` returns up to ``k`` ``(snippet, cosine)`` pairs,
    best first. ``media_in_section`` returns every media item of one section
    with its vector, in document order. ``search_media`` ranks media items of
    the given kinds over the whole index (used by answer-based selection);
    items whose file is missing are excluded unless ``include_missing``.
    ``media_vector`` returns one item's embedding, shape ``(dim,)``.
    """

    @property
    def dim(self) -> int: ...

    def search_snippets(self, vector: np.ndarray, k: int) -> list[tuple[Snippet, float]]: ...

    def snippet_vectors(self, ids: Sequence[str]) -> Vectors: ...

    def media_in_section(self, section_id: str) -> list[IndexedMedia]: ...

    def search_media(
        self,
        vector: np.ndarray,
        k: int,
        *,
        kinds: Sequence[MediaKind] | None = None,
        include_missing: bool = False,
    ) -> list[ScoredMedia]: ...

    def media_vector(self, media_id: str) -> np.ndarray | None: ...

    def get_media(self, media_id: str) -> AnyMedia | None: ...

    def get_section(self, section_id: str) -> Section | None: ...

    def get_snippet(self, snippet_id: str) -> Snippet | None: ...

    def counts(self) -> dict[str, int]: ...


def is_displayable(item: AnyMedia) -> bool:
    """True when an item can be shown: local image file present, table with rows, video URL."""
    if item.kind == "image":
        return bool(getattr(item, "exists", False) and (getattr(item, "path", None) or getattr(item, "stored_path", None)))
    if item.kind == "table":
        return bool(getattr(item, "rows", None) or getattr(item, "headers", None))
    return bool(getattr(item, "url", ""))
