"""PostgreSQL + pgvector store: one database shared by stateless murar processes.

Tables (prefix ``murar_``): ``meta`` (store schema version, dimension),
``versions`` (one row per ingest: manifest, report, state), ``live`` (the one
row naming the live version), and the data tables ``pages``, ``sections``,
``snippets``, ``media``, ``assets``. Item fields are a ``jsonb`` payload;
``snippets.embedding`` and ``media.embedding`` are ``vector(dim)`` columns
with HNSW indexes on cosine distance (``vector_cosine_ops``), so a score is
``1 - (embedding <=> query)``. ``snippets.tsv`` is a generated ``tsvector``
(``english`` configuration) of the snippet's page title, heading path and
text, with a GIN index: full-text search ranks its matches by BM25 computed
in SQL (:data:`BM25_SQL`). Stores written before that column existed get it
from the next ingest; until then full-text search computes the vectors on
the fly (a sequential scan, with a one-line warning).

Versions without copies: every data row carries the half-open range of
versions ``[vfrom, vto)`` in which it exists. Version ``N`` is built beside the
live version ``L < N``: a replaced or deleted page gets ``vto = N`` on its old
rows, new rows get ``vfrom = N``. Readers of ``L`` see none of it. Committing
``N`` is one transaction that updates the ``live`` row, so readers switch
atomically; a killed ingest leaves ``L`` live and its leftovers are undone by
the next writer. Rows no reader can need any more (invisible to the live
version and to versions retired less than :data:`RETENTION` ago) are deleted
after each commit.

Writing is in :mod:`murar.store.postgres_writer`. Readers are stateless: each question pins the live version once (in
:meth:`PgStore.search_snippets`, per thread) and every later lookup of that
question reads the same version, so an ingest switching versions never shows
a replica half of one version and half of another.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import tempfile
import threading
import time
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import numpy as np

from murar.embed.base import Vectors
from murar.errors import (
    IndexError_,
    IndexNotFoundError,
    MissingExtraError,
    StoreSchemaError,
    StoreUnavailableError,
)
from murar.schema import (
    AnyMedia,
    MediaKind,
    Section,
    Snippet,
    media_from_dict,
    snippet_from_dict,
)
from murar.store.base import (
    IndexedMedia,
    ScoredMedia,
)

log = logging.getLogger(__name__)

#: version of the table layout below; a store of another version is refused with a migration hint
PG_SCHEMA_VERSION = 1
#: ``MIGRATIONS[n]`` upgrades a store of schema ``n`` to ``n + 1`` (applied by a writer, in one transaction)
MIGRATIONS: dict[int, tuple[str, ...]] = {}
#: a row is open-ended (still present in the newest version) when ``vto`` is this
OPEN = 2**62
#: retired versions stay readable this long (a replica may still be answering from one)
RETENTION = 600.0
#: how long a question's pinned version is trusted by lookups without a new search (seconds)
PIN_SECONDS = 60.0
#: up to this many rows a search is exact (sequential scan, ~1-3 ms per 1,000 rows measured); beyond, HNSW
EXACT_MAX_ROWS = 5_000
#: HNSW candidate list size at query time (pgvector's ``hnsw.ef_search``; its default is 40)
EF_SEARCH = 100
ENABLE_SQL = "CREATE EXTENSION vector;"
_ADVISORY_KEY = 0x6D75726172  # "murar"
_VISIBLE = "vfrom <= %(v)s AND vto > %(v)s"
_DATA_TABLES = ("murar_pages", "murar_sections", "murar_snippets", "murar_media", "murar_assets")
#: the full-text document of a snippet (:func:`murar.store.lexical.lexical_text`, from the payload)
TSV_EXPR = ("to_tsvector('english'::regconfig, coalesce(payload->>'page_title', '') || ' ' || "
            "coalesce(payload->>'heading_path', '') || ' ' || coalesce(payload->>'text', ''))")
#: adds the full-text column and index (additive: older murar readers and writers ignore them, COPY fills
#: the generated column); run by every writer, so the next ingest upgrades a store written without them
FTS_SQL = (
    f"ALTER TABLE murar_snippets ADD COLUMN IF NOT EXISTS tsv tsvector GENERATED ALWAYS AS ({TSV_EXPR}) STORED",
    "CREATE INDEX IF NOT EXISTS murar_snippets_tsv ON murar_snippets USING gin (tsv)",
)
#: BM25 parameters of full-text search (Lucene's defaults, as the in-memory reference)
BM25_K1, BM25_B = 1.5, 0.75
#: full-text search: the rows matching any query lexeme (an OR of ``plainto_tsquery``'s terms; GIN
#: index), ranked by BM25 with Lucene's idf; document frequencies are counted among the matches (which
#: hold every row containing a query term), document length is the lexeme occurrences
BM25_SQL = """
WITH ql AS (SELECT DISTINCT unnest(tsvector_to_array(to_tsvector('english', %(text)s))) AS lexeme),
m AS MATERIALIZED (
  SELECT id, payload, source_path, ord, {tsv} AS tsv FROM murar_snippets
  WHERE {vis} AND {tsv} @@ replace(plainto_tsquery('english', %(text)s)::text, ''' & ''', ''' | ''')::tsquery
),
t AS (SELECT m.id, u.lexeme, array_length(u.positions, 1) AS tf
      FROM m CROSS JOIN LATERAL unnest(m.tsv) AS u WHERE u.lexeme IN (SELECT lexeme FROM ql)),
df AS (SELECT lexeme, count(*) AS n FROM t GROUP BY lexeme),
dl AS (SELECT m.id, (SELECT sum(array_length(x.positions, 1)) FROM unnest(m.tsv) AS x) AS len FROM m)
SELECT m.payload, sum(ln(1 + (%(n)s - df.n + 0.5) / (df.n + 0.5))
                      * t.tf / (t.tf + %(k1)s * (1 - %(b)s + %(b)s * dl.len / %(avgdl)s))) AS score
FROM t JOIN df USING (lexeme) JOIN dl USING (id) JOIN m USING (id)
GROUP BY m.id, m.payload, m.source_path, m.ord
ORDER BY score DESC, m.source_path, m.ord LIMIT %(k)s
"""


def _psycopg() -> Any:
    try:
        import pgvector.psycopg  # noqa: F401
        import psycopg
        import psycopg_pool  # noqa: F401
    except ImportError as err:
        raise MissingExtraError("psycopg, psycopg_pool and pgvector", "postgres") from err
    return psycopg


def redact(url: str) -> str:
    """``url`` without its password (for messages and logs)."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{parts.username}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


#: the vector indexes; created after the first version's rows are loaded (one bulk build is
#: several times faster than growing the graph row by row), present from then on
HNSW_SQL = (
    "CREATE INDEX IF NOT EXISTS murar_snippets_hnsw ON murar_snippets USING hnsw (embedding vector_cosine_ops)",
    "CREATE INDEX IF NOT EXISTS murar_media_hnsw ON murar_media USING hnsw (embedding vector_cosine_ops)",
)
#: memory for one HNSW bulk build (the graph of 100k 384-d vectors needs about 200 MB)
BUILD_MEMORY = "512MB"


def _schema_sql(dim: int) -> list[str]:
    vis = "vfrom bigint NOT NULL, vto bigint NOT NULL"
    return [
        "CREATE TABLE IF NOT EXISTS murar_meta (key text PRIMARY KEY, value text NOT NULL)",
        ("CREATE TABLE IF NOT EXISTS murar_versions (seq bigint PRIMARY KEY, name text UNIQUE NOT NULL, "
         "state text NOT NULL, manifest jsonb, report jsonb, created_at timestamptz NOT NULL DEFAULT now(), "
         "retired_at timestamptz)"),
        "CREATE TABLE IF NOT EXISTS murar_live (one boolean PRIMARY KEY DEFAULT true CHECK (one), seq bigint NOT NULL)",
        (f"CREATE TABLE IF NOT EXISTS murar_pages (source_path text NOT NULL, content_hash text NOT NULL, "
         f"counts jsonb NOT NULL, assets jsonb NOT NULL, {vis})"),
        (f"CREATE TABLE IF NOT EXISTS murar_sections (id text NOT NULL, source_path text NOT NULL, "
         f"ord integer NOT NULL, payload jsonb NOT NULL, {vis})"),
        (f"CREATE TABLE IF NOT EXISTS murar_snippets (id text NOT NULL, section_id text NOT NULL, "
         f"source_path text NOT NULL, ord integer NOT NULL, payload jsonb NOT NULL, embedding vector({dim}) NOT NULL, "
         f"{vis})"),
        (f"CREATE TABLE IF NOT EXISTS murar_media (id text NOT NULL, kind text NOT NULL, section_id text NOT NULL, "
         f"source_path text NOT NULL, ord integer NOT NULL, displayable boolean NOT NULL, payload jsonb NOT NULL, "
         f"embedding vector({dim}) NOT NULL, {vis})"),
        (f"CREATE TABLE IF NOT EXISTS murar_assets (source_path text NOT NULL, stored_path text NOT NULL, "
         f"data bytea NOT NULL, {vis})"),
        # pgvector stores vectors out of line (TOAST) once a row passes ~2 kB, which makes every
        # distance computation of a scan a TOAST fetch; keep them in the row, the payload goes out instead
        "ALTER TABLE murar_snippets ALTER COLUMN embedding SET STORAGE MAIN",
        "ALTER TABLE murar_media ALTER COLUMN embedding SET STORAGE MAIN",
        "CREATE INDEX IF NOT EXISTS murar_snippets_id ON murar_snippets (id)",
        "CREATE INDEX IF NOT EXISTS murar_snippets_section ON murar_snippets (section_id)",
        "CREATE INDEX IF NOT EXISTS murar_media_id ON murar_media (id)",
        "CREATE INDEX IF NOT EXISTS murar_media_section ON murar_media (section_id)",
        "CREATE INDEX IF NOT EXISTS murar_sections_id ON murar_sections (id)",
        *[f"CREATE INDEX IF NOT EXISTS {t}_path ON {t} (source_path)" for t in _DATA_TABLES],
        *[f"CREATE INDEX IF NOT EXISTS {t}_vto ON {t} (vto)" for t in _DATA_TABLES],
        *FTS_SQL,
    ]


class _Db:
    """A lazily opened connection pool with murar's error translation.

    ``max_size`` connections at most; each connection registers the pgvector
    types and enables pgvector's iterative index scans (so a filtered HNSW
    search still returns ``k`` rows).
    """

    def __init__(self, url: str, *, max_size: int = 8, ef_search: int = EF_SEARCH) -> None:
        self.url = url
        self.location = redact(url)
        self.max_size = max_size
        self.ef_search = ef_search
        self._pool: Any = None
        self._lock = threading.Lock()

    def _check_server(self) -> None:
        psycopg = _psycopg()
        try:
            with psycopg.connect(self.url, connect_timeout=10, autocommit=True) as conn:
                row = conn.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'").fetchone()
                if row is None:
                    self._no_extension(conn)
        except psycopg.OperationalError as err:
            raise StoreUnavailableError(
                f"cannot reach PostgreSQL at {self.location}: {str(err).strip()}. "
                "Is the server running and the URL right (postgresql://USER:PASSWORD@HOST:PORT/DATABASE)?"
            ) from err

    def _no_extension(self, conn: Any) -> None:
        available = conn.execute("SELECT 1 FROM pg_available_extensions WHERE name = 'vector'").fetchone()
        if available is None:
            raise StoreSchemaError(
                f"the pgvector extension is not installed on the PostgreSQL server of {self.location}; "
                f"install pgvector (https://github.com/pgvector/pgvector), then run in that database: {ENABLE_SQL}"
            )
        raise StoreSchemaError(
            f"the pgvector extension is not enabled in {self.location}; "
            f"as a database superuser run in that database: {ENABLE_SQL}"
        )

    def pool(self) -> Any:
        with self._lock:
            if self._pool is None:
                self._check_server()
                from psycopg_pool import ConnectionPool

                pool = ConnectionPool(self.url, min_size=1, max_size=self.max_size, open=False,
                                      configure=self._configure, kwargs={"autocommit": True},
                                      name="murar")
                try:
                    pool.open(wait=True, timeout=30)
                except Exception as err:
                    pool.close()
                    raise StoreUnavailableError(f"cannot open a connection pool to {self.location}: {err}") from err
                self._pool = pool
            return self._pool

    def _configure(self, conn: Any) -> None:
        from pgvector.psycopg import register_vector

        register_vector(conn)
        conn.execute("SET hnsw.iterative_scan = relaxed_order")
        conn.execute(f"SET hnsw.ef_search = {int(self.ef_search)}")

    @contextlib.contextmanager
    def conn(self) -> Iterator[Any]:
        psycopg = _psycopg()
        try:
            with self.pool().connection() as conn:
                yield conn
        except psycopg.OperationalError as err:
            raise StoreUnavailableError(f"lost the connection to PostgreSQL at {self.location}: {err}") from err

    def close(self) -> None:
        with self._lock:
            if self._pool is not None:
                self._pool.close()
                self._pool = None




def _meta(conn: Any) -> dict[str, str] | None:
    exists = conn.execute("SELECT to_regclass('murar_meta') IS NOT NULL").fetchone()[0]
    if not exists:
        return None
    return {k: v for k, v in conn.execute("SELECT key, value FROM murar_meta").fetchall()}


def _check_schema(meta: dict[str, str], location: str, *, writer: bool) -> None:
    found = int(meta.get("schema_version", "0"))
    if found == PG_SCHEMA_VERSION:
        return
    if found > PG_SCHEMA_VERSION:
        raise StoreSchemaError(
            f"{location} holds murar store schema {found}, written by a newer murar "
            f"({meta.get('murar_version', '?')}); this murar reads schema {PG_SCHEMA_VERSION}: upgrade murar"
        )
    if all(n in MIGRATIONS for n in range(found, PG_SCHEMA_VERSION)):
        hint = f"run `murar ingest CORPUS --store {location}` once to migrate it (schema {found} -> {PG_SCHEMA_VERSION})"
    else:
        hint = ("no migration exists from that schema: rebuild the index into an empty database "
                "(or drop the murar_* tables) with `murar ingest`")
    if writer and "run `murar ingest" in hint:
        return
    raise StoreSchemaError(f"{location} holds murar store schema {found}, this murar needs {PG_SCHEMA_VERSION}; {hint}")


def _section_from(d: dict[str, Any]) -> Section:
    d = dict(d)
    d["heading_path"] = tuple(d.get("heading_path", ()))
    return Section(**d)


def _vec(value: Any) -> np.ndarray:
    """A pgvector value (``Vector`` object or array) as float32, shape ``(dim,)``."""
    if hasattr(value, "to_numpy"):
        value = value.to_numpy()
    return np.asarray(value, dtype=np.float32)


def _as_matrix(rows: Sequence[Any], dim: int) -> Vectors:
    if not rows:
        return np.zeros((0, dim), dtype=np.float32)
    return np.stack([_vec(r) for r in rows]).astype(np.float32)


class PgStore:
    """Read access to a murar index in PostgreSQL (implements :class:`~murar.store.base.Store`).

    Nothing but the connection pool and a small cache is held in memory:
    lookups are queries, so many processes can share one database and follow
    its live version. Lookups by id or section (``get_*``,
    ``media_in_section``, ``media_vector``) are cached per version, which is
    exact because a version's rows never change (``cache_size`` entries,
    least recently used dropped). ``pool_size``: connections at most per
    process. The constructor does no I/O; the first call connects.

    Raises (from any method):
        StoreUnavailableError: the server cannot be reached.
        StoreSchemaError: pgvector is missing or the schema is of another version.
        IndexNotFoundError: no index has been committed in that database.
    """

    def __init__(self, url: str, *, pool_size: int = 8, exact_max_rows: int = EXACT_MAX_ROWS,
                 ef_search: int = EF_SEARCH, cache_size: int = 4096) -> None:
        self._db = _Db(url, max_size=pool_size, ef_search=ef_search)
        self.exact_max_rows = exact_max_rows
        self.cache_size = cache_size
        self._cache: OrderedDict[tuple[str, int, str], Any] = OrderedDict()
        self._cache_lock = threading.Lock()
        self._rows: dict[int, tuple[int, int]] = {}
        self._lexical: dict[int, tuple[bool, int, float]] = {}
        self._pin = threading.local()
        self._dim: int | None = None
        self._assets: Path | None = None

    @property
    def location(self) -> str:
        return self._db.location

    def close(self) -> None:
        """Close the connection pool."""
        self._db.close()

    def _live(self, conn: Any) -> int:
        meta = _meta(conn)
        if meta is None:
            raise IndexNotFoundError(f"no murar index in {self.location}; build one with: "
                                     f"murar ingest CORPUS --store {self.location}")
        _check_schema(meta, self.location, writer=False)
        self._dim = int(meta.get("dim", "0"))
        row = conn.execute("SELECT seq FROM murar_live").fetchone()
        if row is None:
            raise IndexNotFoundError(f"no committed murar index in {self.location}; build one with: "
                                     f"murar ingest CORPUS --store {self.location}")
        return int(row[0])

    def _version(self, conn: Any, *, refresh: bool = False) -> int:
        pinned = getattr(self._pin, "value", None)
        if not refresh and pinned is not None and time.monotonic() - pinned[1] < PIN_SECONDS:
            return int(pinned[0])
        if refresh and self._dim is not None:
            row = conn.execute("SELECT seq FROM murar_live").fetchone()
            if row is None:
                raise IndexNotFoundError(f"no committed murar index in {self.location}")
            v = int(row[0])
        else:
            v = self._live(conn)
        if v not in self._rows:
            counts = conn.execute("SELECT manifest->'counts' FROM murar_versions WHERE seq = %s", (v,)).fetchone()
            c = counts[0] if counts and isinstance(counts[0], dict) else {}
            n_media = sum(int(c.get(k, OPEN)) for k in ("images", "tables", "videos"))
            self._rows = {v: (int(c.get("snippets", OPEN)), n_media)}
        self._pin.value = (v, time.monotonic())
        return v

    def _cached(self, kind: str, key: str, load: Any) -> Any:
        """``load(conn, v)`` for the pinned version, through the per-version cache."""
        pinned = getattr(self._pin, "value", None)
        if pinned is not None and time.monotonic() - pinned[1] < PIN_SECONDS:
            with self._cache_lock:
                ck = (kind, int(pinned[0]), key)
                if ck in self._cache:
                    self._cache.move_to_end(ck)
                    return self._cache[ck]
        with self._db.conn() as conn:
            v = self._version(conn)
            value = load(conn, v)
        with self._cache_lock:
            self._cache[(kind, v, key)] = value
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)
        return value

    def _order(self, v: int, which: int) -> str:
        """``ORDER BY`` of a vector search: exact (the ``+ 0`` keeps the planner
        off the HNSW index; equal scores in page order, as in the other
        backends) for at most :attr:`exact_max_rows` rows, else ANN."""
        rows = self._rows.get(v, (OPEN, OPEN))[which]
        if rows <= self.exact_max_rows:
            return "(embedding <=> %(q)s) + 0, source_path, ord"
        return "embedding <=> %(q)s"

    def live_manifest(self) -> dict[str, Any]:
        """The manifest (JSON object) of the live version.

        Raises:
            IndexNotFoundError, StoreUnavailableError, StoreSchemaError: see the class.
        """
        with self._db.conn() as conn:
            v = self._live(conn)
            row = conn.execute("SELECT manifest FROM murar_versions WHERE seq = %s", (v,)).fetchone()
        if row is None or not isinstance(row[0], dict):
            raise IndexError_(f"{self.location}: the live version {v} has no manifest; rebuild with `murar ingest`")
        return dict(row[0])

    @property
    def dim(self) -> int:
        if self._dim is None:
            with self._db.conn() as conn:
                self._live(conn)
        return int(self._dim or 0)

    def search_snippets(self, vector: np.ndarray, k: int) -> list[tuple[Snippet, float]]:
        if k <= 0:
            return []
        q = np.asarray(vector, dtype=np.float32)
        with self._db.conn() as conn:
            v = self._version(conn, refresh=True)
            rows = conn.execute(
                f"SELECT payload, embedding <=> %(q)s AS d FROM murar_snippets WHERE {_VISIBLE} "
                f"ORDER BY {self._order(v, 0)} LIMIT %(k)s", {"q": q, "v": v, "k": k},
            ).fetchall()
        hits = [(snippet_from_dict(p), float(1.0 - d)) for p, d in rows]
        hits.sort(key=lambda h: -h[1])  # iterative scans may return rows slightly out of order
        return hits

    def _lexical_stats(self, conn: Any, v: int) -> tuple[bool, int, float]:
        """(has the ``tsv`` column, rows, mean document length) of version ``v``, computed once."""
        if v not in self._lexical:
            has = bool(conn.execute(
                "SELECT EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = 'murar_snippets'::regclass "
                "AND attname = 'tsv' AND NOT attisdropped)").fetchone()[0])
            if not has:
                log.warning("%s has no full-text column (written before murar had one): full-text search "
                            "computes it per query; run `murar ingest` again to add it", self.location)
            tsv = "tsv" if has else TSV_EXPR
            n, avgdl = conn.execute(
                f"SELECT count(*), avg((SELECT sum(array_length(x.positions, 1)) FROM unnest({tsv}) AS x)) "
                f"FROM murar_snippets WHERE {_VISIBLE}", {"v": v}).fetchone()
            self._lexical = {v: (has, int(n), float(avgdl or 1.0))}
        return self._lexical[v]

    def search_snippets_lexical(self, query: str, k: int) -> list[tuple[Snippet, float]]:
        """Full-text search of the live version, ranked by BM25 (:data:`BM25_SQL`)."""
        if k <= 0 or not query.strip():
            return []
        with self._db.conn() as conn:
            v = self._version(conn, refresh=True)
            has, n, avgdl = self._lexical_stats(conn, v)
            rows = conn.execute(BM25_SQL.format(tsv="tsv" if has else TSV_EXPR, vis=_VISIBLE),
                                {"text": query, "v": v, "n": n, "avgdl": avgdl, "k1": BM25_K1, "b": BM25_B,
                                 "k": k}).fetchall()
        return [(snippet_from_dict(p), float(score)) for p, score in rows]

    def snippet_vectors(self, ids: Sequence[str]) -> Vectors:
        if not ids:
            return np.zeros((0, self.dim), dtype=np.float32)
        with self._db.conn() as conn:
            v = self._version(conn)
            rows = conn.execute(f"SELECT id, embedding FROM murar_snippets WHERE id = ANY(%(ids)s) AND {_VISIBLE}",
                                {"ids": list(ids), "v": v}).fetchall()
        by_id = {i: e for i, e in rows}
        missing = [i for i in ids if i not in by_id]
        if missing:
            raise KeyError(missing[0])
        return _as_matrix([by_id[i] for i in ids], self.dim)

    def media_in_section(self, section_id: str) -> list[IndexedMedia]:
        def load(conn: Any, v: int) -> list[IndexedMedia]:
            rows = conn.execute(
                f"SELECT payload, embedding FROM murar_media WHERE section_id = %(s)s AND {_VISIBLE} ORDER BY ord",
                {"s": section_id, "v": v},
            ).fetchall()
            return [IndexedMedia(media_from_dict(p), _vec(e)) for p, e in rows]

        return list(self._cached("section-media", section_id, load))

    def search_media(
        self,
        vector: np.ndarray,
        k: int,
        *,
        kinds: Sequence[MediaKind] | None = None,
        include_missing: bool = False,
    ) -> list[ScoredMedia]:
        if k <= 0:
            return []
        where = [_VISIBLE]
        params: dict[str, Any] = {"q": np.asarray(vector, dtype=np.float32), "k": k}
        if kinds is not None:
            where.append("kind = ANY(%(kinds)s)")
            params["kinds"] = list(kinds)
        if not include_missing:
            where.append("displayable")
        with self._db.conn() as conn:
            params["v"] = v = self._version(conn)
            rows = conn.execute(
                f"SELECT payload, embedding <=> %(q)s AS d FROM murar_media WHERE {' AND '.join(where)} "
                f"ORDER BY {self._order(v, 1)} LIMIT %(k)s", params,
            ).fetchall()
        out = [ScoredMedia(media_from_dict(p), float(1.0 - d)) for p, d in rows]
        out.sort(key=lambda m: -m.score)
        return out

    def _one(self, sql: str, key: str) -> Any:
        def load(conn: Any, v: int) -> Any:
            return conn.execute(sql.format(vis=_VISIBLE), {"id": key, "v": v}).fetchone()

        return self._cached(sql, key, load)

    def media_vector(self, media_id: str) -> np.ndarray | None:
        """The embedding of one media item, shape ``(dim,)``, or ``None``."""
        row = self._one("SELECT embedding FROM murar_media WHERE id = %(id)s AND {vis} LIMIT 1", media_id)
        return None if row is None else _vec(row[0])

    def get_media(self, media_id: str) -> AnyMedia | None:
        row = self._one("SELECT payload FROM murar_media WHERE id = %(id)s AND {vis} LIMIT 1", media_id)
        return None if row is None else media_from_dict(row[0])

    def get_section(self, section_id: str) -> Section | None:
        row = self._one("SELECT payload FROM murar_sections WHERE id = %(id)s AND {vis} LIMIT 1", section_id)
        return None if row is None else _section_from(row[0])

    def get_snippet(self, snippet_id: str) -> Snippet | None:
        row = self._one("SELECT payload FROM murar_snippets WHERE id = %(id)s AND {vis} LIMIT 1", snippet_id)
        return None if row is None else snippet_from_dict(row[0])

    def all_snippets(self) -> list[Snippet]:
        """Every snippet of the live version, in page order."""
        with self._db.conn() as conn:
            v = self._version(conn, refresh=True)
            rows = conn.execute(f"SELECT payload FROM murar_snippets WHERE {_VISIBLE} ORDER BY source_path, ord",
                                {"v": v}).fetchall()
        return [snippet_from_dict(p) for (p,) in rows]

    def all_media(self) -> list[AnyMedia]:
        """Every media item of the live version, in page order."""
        with self._db.conn() as conn:
            v = self._version(conn, refresh=True)
            rows = conn.execute(f"SELECT payload FROM murar_media WHERE {_VISIBLE} ORDER BY source_path, ord",
                                {"v": v}).fetchall()
        return [media_from_dict(p) for (p,) in rows]

    def counts(self) -> dict[str, int]:
        with self._db.conn() as conn:
            v = self._version(conn, refresh=True)
            row = conn.execute(
                f"SELECT (SELECT count(DISTINCT source_path) FROM murar_sections WHERE {_VISIBLE}), "
                f"(SELECT count(*) FROM murar_sections WHERE {_VISIBLE}), "
                f"(SELECT count(*) FROM murar_snippets WHERE {_VISIBLE}), "
                f"(SELECT count(*) FROM murar_media WHERE kind = 'image' AND {_VISIBLE}), "
                f"(SELECT count(*) FROM murar_media WHERE kind = 'table' AND {_VISIBLE}), "
                f"(SELECT count(*) FROM murar_media WHERE kind = 'video' AND {_VISIBLE})", {"v": v},
            ).fetchone()
        keys = ("pages", "sections", "snippets", "images", "tables", "videos")
        return {key: int(n) for key, n in zip(keys, row)}

    def assets_dir(self, cache_root: Path | None = None) -> Path:
        """A local folder holding the files of the live version's assets
        (PDF crops), written once per version under ``cache_root``
        (default: the system temp folder)."""
        with self._db.conn() as conn:
            v = self._version(conn, refresh=True)
            root = cache_root or Path(tempfile.gettempdir()) / "murar-pg-assets"
            folder = root / hashlib.sha1(self._db.url.encode()).hexdigest()[:12] / str(v)
            if not (folder / ".complete").exists():
                folder.mkdir(parents=True, exist_ok=True)
                for rel, data in conn.execute(f"SELECT stored_path, data FROM murar_assets WHERE {_VISIBLE}",
                                              {"v": v}):
                    target = (folder / rel).resolve()
                    if folder.resolve() in target.parents:
                        target.parent.mkdir(parents=True, exist_ok=True)
                        target.write_bytes(bytes(data))
                (folder / ".complete").write_text("")
        self._assets = folder
        return folder


def __getattr__(name: str) -> Any:
    """``PgWriter`` and ``PgVersionWriter`` live in :mod:`murar.store.postgres_writer`;
    they stay importable from here (one import for both sides of the store)."""
    if name in ("PgWriter", "PgVersionWriter"):
        from murar.store import postgres_writer

        return getattr(postgres_writer, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
