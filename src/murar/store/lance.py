"""Embedded persistent store on LanceDB (the default backend).

LanceDB holds the data on disk (versioned Lance tables). For corpora up to
``EXACT_IN_MEMORY_MAX`` rows the vectors are also kept in memory and searched
exactly with one matrix product, because a LanceDB query costs tens of
milliseconds of fixed overhead on this hardware while the product costs well
under one; larger tables are searched by LanceDB.


Three tables in one LanceDB database folder: ``snippets`` and ``media`` (with a
``vector`` column, fixed-size list of float32) and ``sections``. Nested item
fields are kept as a JSON ``payload`` column so the schema stays stable as
item types grow. Snippet and media search run in LanceDB (exact, dot product on
L2-normalised vectors = cosine); sections and the per-section media map are
loaded into memory on open (a few MB for thousands of pages).
"""

from __future__ import annotations

import json
import logging
import os
import threading
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import numpy as np
import pyarrow as pa

from murar.embed.base import Vectors
from murar.errors import IndexError_, MissingExtraError
from murar.schema import (
    AnyMedia,
    MediaKind,
    Section,
    Snippet,
    media_from_dict,
    snippet_from_dict,
    to_jsonable,
)
from murar.store.base import (
    IndexedMedia,
    PageRecord,
    ScoredMedia,
    is_displayable,
    page_counts,
)
from murar.store.lexical import lexical_text
from murar.store.memory import MemoryStore

log = logging.getLogger(__name__)

SNIPPETS, MEDIA, SECTIONS, PAGES = "snippets", "media", "sections", "pages"
#: the snippets column holding :func:`~murar.store.lexical.lexical_text`, with LanceDB's native
#: full-text index (BM25; English stems, stop words removed, lower case)
TEXT = "text"
FTS_OPTIONS: dict[str, Any] = {"language": "English", "stem": True, "remove_stop_words": True, "lower_case": True,
                               "with_position": False}
#: up to this many rows, search is exact in memory (sub-millisecond); beyond, LanceDB searches
#: with the ANN index that :func:`write_lance` builds for such tables
EXACT_IN_MEMORY_MAX = 200_000


def _lancedb() -> Any:
    # LanceDB logs dataset creation at WARN level on stderr; keep the CLI quiet
    os.environ.setdefault("LANCE_LOG", "error")
    os.environ.setdefault("LANCEDB_LOG", "error")  # the variable lancedb's Rust logger reads
    try:
        import lancedb
    except ImportError as err:  # core dependency, but keep the hint
        raise MissingExtraError("lancedb", "core") from err
    return lancedb


def _vector_field(dim: int) -> pa.Field:
    return pa.field("vector", pa.list_(pa.float32(), dim))


def write_lance(
    path: Path,
    *,
    sections: Sequence[Section],
    snippets: Sequence[Snippet],
    snippet_vectors: Vectors,
    media: Sequence[AnyMedia],
    media_vectors: Vectors,
    dim: int,
    pages: Sequence[StoredPage] | None = None,
    ann_min_rows: int = EXACT_IN_MEMORY_MAX,
) -> None:
    """Write a complete index into the (new, empty) folder ``path``.

    The snippets table gets LanceDB's native full-text index (BM25) on
    :func:`~murar.store.lexical.lexical_text` (:data:`FTS_OPTIONS`). A table
    of more than ``ann_min_rows`` vectors (where :class:`LanceStore` stops
    searching in memory) gets an ANN index (IVF_HNSW_SQ, dot product =
    cosine on L2-normalised vectors); smaller ones are searched exactly.

    ``pages`` (content hash, row counts and asset files per page) enables
    incremental ingest; an index without it is rebuilt page by page.

    Raises:
        IndexError_: counts of items and vectors differ.
    """
    if len(snippets) != len(snippet_vectors) or len(media) != len(media_vectors):
        raise IndexError_("cannot write index: item and vector counts differ")
    db = _lancedb().connect(str(path))
    vf = _vector_field(dim)
    sn_schema = pa.schema([
        pa.field("id", pa.string()), pa.field("section_id", pa.string()),
        pa.field("source_path", pa.string()), pa.field("payload", pa.string()), pa.field(TEXT, pa.string()), vf,
    ])
    sn_table = pa.Table.from_pydict(
        {
            "id": [s.id for s in snippets],
            "section_id": [s.section_id for s in snippets],
            "source_path": [s.source_path for s in snippets],
            "payload": [json.dumps(to_jsonable(s)) for s in snippets],
            TEXT: [lexical_text(s) for s in snippets],
            "vector": _vector_array(snippet_vectors, dim),
        },
        schema=sn_schema,
    )
    md_schema = pa.schema([
        pa.field("id", pa.string()), pa.field("kind", pa.string()), pa.field("section_id", pa.string()),
        pa.field("displayable", pa.bool_()), pa.field("payload", pa.string()), vf,
    ])
    md_table = pa.Table.from_pydict(
        {
            "id": [m.id for m in media],
            "kind": [m.kind for m in media],
            "section_id": [m.section_id for m in media],
            "displayable": [is_displayable(m) for m in media],
            "payload": [json.dumps(to_jsonable(m)) for m in media],
            "vector": _vector_array(media_vectors, dim),
        },
        schema=md_schema,
    )
    se_table = pa.Table.from_pydict(
        {"id": [s.id for s in sections], "payload": [json.dumps(to_jsonable(s)) for s in sections]},
        schema=pa.schema([pa.field("id", pa.string()), pa.field("payload", pa.string())]),
    )
    for name, table in ((SNIPPETS, sn_table), (MEDIA, md_table)):
        created = db.create_table(name, data=table, mode="overwrite")
        if table.num_rows > ann_min_rows:
            from lancedb.index import HnswSq

            created.create_index("vector", config=HnswSq(distance_type="dot"))  # column first (new API)
        if name == SNIPPETS and table.num_rows:
            from lancedb.index import FTS

            created.create_index(TEXT, config=FTS(**FTS_OPTIONS))
    db.create_table(SECTIONS, data=se_table, mode="overwrite")
    if pages is not None:
        pg_table = pa.Table.from_pydict(
            {
                "source_path": [p.source_path for p in pages],
                "content_hash": [p.content_hash for p in pages],
                "counts": [json.dumps(p.counts) for p in pages],
                "assets": [json.dumps(list(p.assets)) for p in pages],
            },
            schema=pa.schema([pa.field(n, pa.string()) for n in ("source_path", "content_hash", "counts", "assets")]),
        )
        db.create_table(PAGES, data=pg_table, mode="overwrite")


@dataclass(frozen=True, slots=True)
class StoredPage:
    """One row of the ``pages`` table."""

    source_path: str
    content_hash: str
    counts: dict[str, int]
    assets: tuple[str, ...] = ()


def _vector_array(vectors: Vectors, dim: int) -> pa.FixedSizeListArray:
    flat = np.ascontiguousarray(np.asarray(vectors, dtype=np.float32).reshape(-1))
    return pa.FixedSizeListArray.from_arrays(pa.array(flat, type=pa.float32()), dim)


def _section_from_payload(payload: str) -> Section:
    d = json.loads(payload)
    d["heading_path"] = tuple(d.get("heading_path", ()))
    return Section(**d)


class LanceStore:
    """Read access to a LanceDB index folder written by :func:`write_lance`.

    ``pin``: an open file holding the version's reader lock
    (:func:`murar.store.lance_versions.pin_version`), kept as long as the store.

    Raises:
        IndexError_: the folder is not a murar LanceDB index.
    """

    def __init__(self, path: Path, *, exact_max_rows: int = EXACT_IN_MEMORY_MAX, pin: IO[bytes] | None = None) -> None:
        self._path = path
        self._pin = pin  # the version's reader lock (lance_versions.pin_version), released with the store
        self.exact_max_rows = exact_max_rows
        self._lock = threading.Lock()
        db = _lancedb().connect(str(path))
        try:
            listed = db.list_tables()
            names = set(getattr(listed, "tables", listed))
        except Exception as err:
            raise IndexError_(f"{path} is not a readable LanceDB index: {err}") from err
        missing = {SNIPPETS, MEDIA, SECTIONS} - names
        if missing:
            raise IndexError_(f"{path} misses tables {sorted(missing)}; rebuild with `murar ingest`")
        try:  # a damaged table (truncated data file, garbage manifest) is an unreadable index, not a crash
            self._load(db, names)
        except IndexError_:
            raise
        except Exception as err:
            raise IndexError_(f"{path} is damaged and cannot be read ({type(err).__name__}: {str(err)[:300]}); "
                              "rebuild it with `murar ingest`") from err

    def _load(self, db: Any, names: set[str]) -> None:
        """Open the tables and hold the small ones in memory (see the constructor)."""
        self._sn = db.open_table(SNIPPETS)
        self._md = db.open_table(MEDIA)
        self._se = db.open_table(SECTIONS)
        snippets = self._sn.to_arrow()
        media = self._md.to_arrow()
        sections = self._se.to_arrow()
        # everything small is also held in memory: the exact NumPy reference store answers lookups
        self._mem = MemoryStore(
            sections=[_section_from_payload(p) for p in sections.column("payload").to_pylist()],
            snippets=[snippet_from_dict(json.loads(p)) for p in snippets.column("payload").to_pylist()],
            snippet_vectors=_to_matrix(snippets.column("vector")),
            media=[media_from_dict(json.loads(p)) for p in media.column("payload").to_pylist()],
            media_vectors=_to_matrix(media.column("vector")),
        )
        self._n_snippets = snippets.num_rows
        self._n_media = media.num_rows
        self._fts = TEXT in snippets.column_names and _has_fts_index(self._sn)
        self._fts_warned = False
        self._pages: dict[str, StoredPage] = {}
        if PAGES in names:
            for row in db.open_table(PAGES).to_arrow().to_pylist():
                self._pages[row["source_path"]] = StoredPage(
                    row["source_path"], row["content_hash"], json.loads(row["counts"]),
                    tuple(json.loads(row["assets"])),
                )

    def stored_pages(self) -> dict[str, StoredPage]:
        """Content hash, counts and assets per page; pages of an index written
        without a ``pages`` table get an empty hash (they count as changed)."""
        if self._pages:
            return dict(self._pages)
        out: dict[str, StoredPage] = {}
        for path, rec in self._group().items():
            out[path] = StoredPage(path, "", page_counts(*rec))
        return out

    def _group(self) -> dict[str, tuple[list[Section], list[Snippet], list[AnyMedia]]]:
        groups: dict[str, tuple[list[Section], list[Snippet], list[AnyMedia]]] = defaultdict(lambda: ([], [], []))
        for sec in self._mem.all_sections():
            groups[sec.source_path][0].append(sec)
        for sn in self._mem.all_snippets():
            groups[sn.source_path][1].append(sn)
        for m in self._mem.all_media():
            groups[m.source_path][2].append(m)
        return dict(groups)

    def page_records(self, source_paths: Iterable[str]) -> Iterator[PageRecord]:
        """The stored rows of these pages with their vectors (absent pages are skipped)."""
        wanted = set(source_paths)
        pages = self.stored_pages()
        for path, (sections, snippets, media) in self._group().items():
            if path not in wanted:
                continue
            vecs = [self._mem.media_vector(m.id) for m in media]
            mv = np.stack([v for v in vecs if v is not None]) if media else np.zeros((0, self.dim), np.float32)
            page = pages.get(path)
            yield PageRecord(
                source_path=path, content_hash=page.content_hash if page else "",
                sections=sections, snippets=snippets,
                snippet_vectors=self._mem.snippet_vectors([s.id for s in snippets]),
                media=media, media_vectors=mv.astype(np.float32),
                assets=page.assets if page else (),
            )

    @property
    def dim(self) -> int:
        return self._mem.dim

    def search_snippets(self, vector: np.ndarray, k: int) -> list[tuple[Snippet, float]]:
        if self._n_snippets <= self.exact_max_rows or k <= 0:
            return self._mem.search_snippets(vector, k)
        with self._lock:
            rows = (
                self._sn.search(np.asarray(vector, dtype=np.float32), vector_column_name="vector")
                .metric("dot")
                .select(["id"])
                .limit(k)
                .to_arrow()
            )
        # LanceDB's "dot" distance is 1 - dot product
        out: list[tuple[Snippet, float]] = []
        for i, d in zip(rows.column("id").to_pylist(), rows.column("_distance").to_pylist()):
            snippet = self._mem.get_snippet(i)
            if snippet is not None:
                out.append((snippet, float(1.0 - d)))
        return out

    def search_snippets_lexical(self, query: str, k: int) -> list[tuple[Snippet, float]]:
        """LanceDB's native full-text search (BM25). An index written before
        murar had full-text indexes has none: it is searched by the in-memory
        BM25 reference instead (built on the first query, a one-line warning
        once); ``murar ingest`` adds the index."""
        if k <= 0 or not query.strip() or self._n_snippets == 0:
            return []
        if not self._fts:
            if not self._fts_warned:
                self._fts_warned = True
                log.warning("%s has no full-text index (written before murar had one): full-text search runs in "
                            "memory; run `murar ingest` again to add the index", self._path)
            return self._mem.search_snippets_lexical(query, k)
        from lancedb.query import MatchQuery

        with self._lock:
            match = MatchQuery(query, TEXT)  # type: ignore[call-arg]  # (defaults missing from its signature)
            rows = (self._sn.search(match, query_type="fts")
                    .select(["id", "_score"]).limit(k).to_arrow())
        out: list[tuple[Snippet, float]] = []
        for i, score in zip(rows.column("id").to_pylist(), rows.column("_score").to_pylist()):
            snippet = self._mem.get_snippet(i)
            if snippet is not None:
                out.append((snippet, float(score)))
        return out

    def snippet_vectors(self, ids: Sequence[str]) -> Vectors:
        return self._mem.snippet_vectors(ids)

    def media_in_section(self, section_id: str) -> list[IndexedMedia]:
        return self._mem.media_in_section(section_id)

    def search_media(
        self,
        vector: np.ndarray,
        k: int,
        *,
        kinds: Sequence[MediaKind] | None = None,
        include_missing: bool = False,
    ) -> list[ScoredMedia]:
        if self._n_media <= self.exact_max_rows or k <= 0:
            return self._mem.search_media(vector, k, kinds=kinds, include_missing=include_missing)
        clauses = []
        if kinds is not None:
            allowed = ", ".join(f"'{kd}'" for kd in kinds if kd in ("image", "table", "video"))
            if not allowed:
                return []
            clauses.append(f"kind IN ({allowed})")
        if not include_missing:
            clauses.append("displayable = true")
        q = self._md.search(np.asarray(vector, dtype=np.float32), vector_column_name="vector").metric("dot")
        if clauses:
            q = q.where(" AND ".join(clauses), prefilter=True)
        with self._lock:
            rows = q.select(["id"]).limit(k).to_arrow()
        out: list[ScoredMedia] = []
        for i, d in zip(rows.column("id").to_pylist(), rows.column("_distance").to_pylist()):
            item = self._mem.get_media(i)
            if item is not None:
                out.append(ScoredMedia(item, float(1.0 - d)))
        return out

    def media_vector(self, media_id: str) -> np.ndarray | None:
        """The embedding of one media item, shape ``(dim,)``, or ``None``."""
        return self._mem.media_vector(media_id)

    def get_media(self, media_id: str) -> AnyMedia | None:
        return self._mem.get_media(media_id)

    def get_section(self, section_id: str) -> Section | None:
        return self._mem.get_section(section_id)

    def get_snippet(self, snippet_id: str) -> Snippet | None:
        return self._mem.get_snippet(snippet_id)

    def all_snippets(self) -> list[Snippet]:
        """Every snippet, in index order."""
        return self._mem.all_snippets()

    def all_media(self) -> list[AnyMedia]:
        """Every media item, in index order."""
        return self._mem.all_media()

    def counts(self) -> dict[str, int]:
        return self._mem.counts()


def _has_fts_index(table: Any) -> bool:
    """Whether ``table`` has a full-text index on :data:`TEXT`."""
    try:
        indices = table.list_indices()
    except (OSError, RuntimeError, ValueError):  # an unreadable index list: search in memory
        return False
    return any(TEXT in list(getattr(ix, "columns", [])) and "fts" in str(getattr(ix, "index_type", "")).lower()
               for ix in indices)


def _to_matrix(col: pa.ChunkedArray) -> np.ndarray:
    if len(col) == 0:
        return np.zeros((0, 0), dtype=np.float32)
    arr = col.combine_chunks()
    dim = arr.type.list_size
    return np.asarray(arr.values.to_numpy(zero_copy_only=False), dtype=np.float32).reshape(-1, dim)
