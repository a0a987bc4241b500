"""In-memory NumPy store: the reference backend (exact cosine search, BM25 full-text search)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

import numpy as np

from murar.embed.base import Vectors
from murar.errors import IndexError_
from murar.schema import AnyMedia, MediaKind, Section, Snippet
from murar.store.base import IndexedMedia, ScoredMedia, is_displayable
from murar.store.lexical import Bm25Index, lexical_text


class MemoryStore:
    """Holds everything in NumPy arrays; exact search by matrix product;
    full-text search by :class:`~murar.store.lexical.Bm25Index` (built on
    the first full-text query).

    Raises:
        IndexError_: when vector counts or dimensions do not match the items.
    """

    def __init__(
        self,
        *,
        sections: Sequence[Section],
        snippets: Sequence[Snippet],
        snippet_vectors: Vectors,
        media: Sequence[AnyMedia],
        media_vectors: Vectors,
    ) -> None:
        if len(snippets) != len(snippet_vectors) or len(media) != len(media_vectors):
            raise IndexError_("store: item and vector counts differ")
        dims = {v.shape[1] for v in (snippet_vectors, media_vectors) if v.ndim == 2 and len(v)}
        if len(dims) > 1:
            raise IndexError_(f"store: vectors of different dimensions {sorted(dims)}")
        self._dim = dims.pop() if dims else (snippet_vectors.shape[1] if snippet_vectors.ndim == 2 else 0)
        self._sections = {s.id: s for s in sections}
        self._snippets = list(snippets)
        self._snippet_index = {s.id: i for i, s in enumerate(self._snippets)}
        self._sv = np.asarray(snippet_vectors, dtype=np.float32)
        self._media = list(media)
        self._mv = np.asarray(media_vectors, dtype=np.float32)
        self._media_index = {m.id: i for i, m in enumerate(self._media)}
        self._bm25 = Bm25Index([lexical_text(s) for s in self._snippets])
        self._by_section: dict[str, list[int]] = defaultdict(list)
        for i, m in enumerate(self._media):
            self._by_section[m.section_id].append(i)

    @property
    def dim(self) -> int:
        return self._dim

    def search_snippets(self, vector: np.ndarray, k: int) -> list[tuple[Snippet, float]]:
        if not self._snippets or k <= 0:
            return []
        scores = self._sv @ np.asarray(vector, dtype=np.float32)
        k = min(k, len(scores))
        top = np.argpartition(-scores, k - 1)[:k]
        top = top[np.lexsort((top, -scores[top]))]  # equal scores in index order, as the other backends
        return [(self._snippets[i], float(scores[i])) for i in top]

    def search_snippets_lexical(self, query: str, k: int) -> list[tuple[Snippet, float]]:
        return [(self._snippets[i], score) for i, score in self._bm25.search(query, k)]

    def snippet_vectors(self, ids: Sequence[str]) -> Vectors:
        idx = [self._snippet_index[i] for i in ids]
        return self._sv[idx] if idx else np.zeros((0, self._dim), dtype=np.float32)

    def media_in_section(self, section_id: str) -> list[IndexedMedia]:
        return [IndexedMedia(self._media[i], self._mv[i]) for i in self._by_section.get(section_id, [])]

    def search_media(
        self,
        vector: np.ndarray,
        k: int,
        *,
        kinds: Sequence[MediaKind] | None = None,
        include_missing: bool = False,
    ) -> list[ScoredMedia]:
        if not self._media or k <= 0:
            return []
        scores = self._mv @ np.asarray(vector, dtype=np.float32)
        out: list[ScoredMedia] = []
        for i in np.argsort(-scores, kind="stable"):
            m = self._media[i]
            if kinds is not None and m.kind not in kinds:
                continue
            if not include_missing and not is_displayable(m):
                continue
            out.append(ScoredMedia(m, float(scores[i])))
            if len(out) >= k:
                break
        return out

    def media_vector(self, media_id: str) -> np.ndarray | None:
        """The embedding of one media item, shape ``(dim,)``, or ``None``."""
        i = self._media_index.get(media_id)
        return None if i is None else self._mv[i]

    def all_sections(self) -> list[Section]:
        """Every section, in index order."""
        return list(self._sections.values())

    def all_snippets(self) -> list[Snippet]:
        """Every snippet, in index order."""
        return list(self._snippets)

    def all_media(self) -> list[AnyMedia]:
        """Every media item, in index order."""
        return list(self._media)

    def get_media(self, media_id: str) -> AnyMedia | None:
        i = self._media_index.get(media_id)
        return None if i is None else self._media[i]

    def get_section(self, section_id: str) -> Section | None:
        return self._sections.get(section_id)

    def get_snippet(self, snippet_id: str) -> Snippet | None:
        i = self._snippet_index.get(snippet_id)
        return None if i is None else self._snippets[i]

    def counts(self) -> dict[str, int]:
        kinds = {"image": 0, "table": 0, "video": 0}
        for m in self._media:
            kinds[m.kind] += 1
        pages = {s.source_path for s in self._sections.values()}
        return {
            "pages": len(pages),
            "sections": len(self._sections),
            "snippets": len(self._snippets),
            "images": kinds["image"],
            "tables": kinds["table"],
            "videos": kinds["video"],
        }
