"""The store protocol: snippets, media items and sections with their embeddings.

Backends: :class:`murar.store.memory.MemoryStore` (NumPy reference, no
persistence), :class:`murar.store.lance.LanceStore` (embedded LanceDB,
the default) and :class:`murar.store.postgres.PgStore` (PostgreSQL +
pgvector, shared by stateless replicas). Every backend passes
``tests/store/test_conformance.py``. Vector search scores are cosine
similarities in [-1, 1] (vectors are L2-normalised); full-text search
scores are each engine's own (BM25 or ``ts_rank``).

Writes go through :class:`StoreWriter` (ingest never calls a backend
directly): a writer opens a new *version* (:class:`VersionWriter`), which
starts empty or as a copy of the live version; pages are put (added or
replaced: all sections, snippets and media of a page at once) or deleted;
``commit`` makes the version live atomically. Until then readers keep
answering from the previous version, and a killed writer leaves it live.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

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
    best first. ``search_snippets_lexical(query, k)`` is full-text search
    (BM25-style, see :mod:`murar.store.lexical`): up to ``k`` ``(snippet,
    score)`` pairs sharing at least one term with ``query``, best first, the
    score on the backend's own scale (higher is better); the retrievers of
    :mod:`murar.store.hybrid` combine both. ``media_in_section`` returns every media item of one section
    with its vector, in document order. ``search_media`` ranks media items of
    the given kinds over the whole index (used by answer-based selection);
    items whose file is missing are excluded unless ``include_missing``.
    ``media_vector`` returns one item's embedding, shape ``(dim,)``.
    """

    @property
    def dim(self) -> int: ...

    def search_snippets(self, vector: np.ndarray, k: int) -> list[tuple[Snippet, float]]: ...

    def search_snippets_lexical(self, query: str, k: int) -> list[tuple[Snippet, float]]: ...

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


@dataclass(frozen=True, slots=True, kw_only=True)
class PageRecord:
    """Everything an index holds for one page (one source file).

    ``snippet_vectors`` has shape ``(len(snippets), dim)`` and
    ``media_vectors`` shape ``(len(media), dim)``, float32, L2-normalised.
    ``content_hash`` identifies the page content as ingested (an unchanged
    hash lets an incremental ingest skip the page). ``assets`` lists the
    files of the page written under the version's assets folder (paths
    relative to it, e.g. figures cropped from a PDF).
    """

    source_path: str
    content_hash: str
    sections: Sequence[Section]
    snippets: Sequence[Snippet]
    snippet_vectors: Vectors
    media: Sequence[AnyMedia]
    media_vectors: Vectors
    assets: Sequence[str] = ()

    def counts(self) -> dict[str, int]:
        """Rows of this page: ``sections``, ``snippets``, ``images``, ``tables``, ``videos``."""
        return page_counts(self.sections, self.snippets, self.media)


def page_counts(sections: Sequence[Section], snippets: Sequence[Snippet], media: Sequence[AnyMedia]) -> dict[str, int]:
    """Row counts of one page, keyed like :meth:`Store.counts` (without ``pages``)."""
    return {
        "sections": len(sections),
        "snippets": len(snippets),
        "images": sum(1 for m in media if m.kind == "image"),
        "tables": sum(1 for m in media if m.kind == "table"),
        "videos": sum(1 for m in media if m.kind == "video"),
    }


@dataclass(frozen=True, slots=True, kw_only=True)
class PageState:
    """What the live version records about one page: content hash and row counts."""

    content_hash: str
    counts: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True, kw_only=True)
class LiveVersion:
    """The live version of an index: its name, manifest (a JSON object) and pages."""

    version: str
    manifest: dict[str, Any]
    pages: dict[str, PageState]


class VersionWriter(Protocol):
    """One version being written; invisible to readers until :meth:`commit`.

    ``put_page`` adds a page or replaces every row of a page with the same
    ``source_path``; ``delete_page`` removes a page (no-op when absent).
    ``commit(manifest, report)`` stores the two JSON objects and switches the
    live version atomically; ``abort`` discards the version (also safe after a
    crash: the next writer cleans up what a killed one left).
    """

    @property
    def version(self) -> str: ...

    @property
    def assets_dir(self) -> Path: ...

    def put_page(self, page: PageRecord) -> None: ...

    def delete_page(self, source_path: str) -> None: ...

    def commit(self, manifest: Mapping[str, Any], report: Mapping[str, Any]) -> None: ...

    def abort(self) -> None: ...


@runtime_checkable
class StoreWriter(Protocol):
    """Write access to an index (LanceDB folder or PostgreSQL database).

    ``lock()`` holds the single-writer lock (raises :class:`IndexError_` when
    another ingest holds it). ``live()`` is the live version or ``None``.
    ``live_pages(paths)`` yields the stored records (with vectors) of those
    pages of the live version, for embedding reuse. ``begin(version,
    from_live=..., dim=...)`` opens a new version, empty or a copy of the
    live one, for embeddings of ``dim`` dimensions.
    ``location`` names the index in messages (a folder or a URL without
    password).
    """

    @property
    def location(self) -> str: ...

    def lock(self) -> AbstractContextManager[None]: ...

    def live(self) -> LiveVersion | None: ...

    def live_pages(self, source_paths: Iterable[str]) -> Iterator[PageRecord]: ...

    def begin(self, version: str, *, from_live: bool, dim: int) -> VersionWriter: ...


def is_displayable(item: AnyMedia, *, remote_images: bool = False) -> bool:
    """True when an item can be shown: local image file present, table with rows,
    video URL (a local video file must exist). Remote images (a URL only) count
    only with ``remote_images=True``: showing them makes the reader's browser
    fetch a third party's server, so it is the user's choice
    (``--remote-images show``)."""
    if item.kind == "image":
        if getattr(item, "exists", False) and (getattr(item, "path", None) or getattr(item, "stored_path", None)):
            return True
        url = str(getattr(item, "url", None) or "")
        return remote_images and url.lower().startswith(("http://", "https://"))
    if item.kind == "table":
        return bool(getattr(item, "rows", None) or getattr(item, "headers", None))
    if getattr(item, "path", None) and not getattr(item, "exists", True):
        return False
    return bool(getattr(item, "url", ""))
