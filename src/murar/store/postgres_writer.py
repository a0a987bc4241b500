"""Writing a murar index into PostgreSQL: :class:`PgWriter` and :class:`PgVersionWriter`.

The row-range versioning is described in :mod:`murar.store.postgres`: version
``N`` is built beside the live version ``L``, its rows invisible to readers
until :meth:`PgVersionWriter.commit` switches the ``live`` row in one
transaction; a killed writer's rows are undone by the next one, under a
session advisory lock that admits one writer per database.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import tempfile
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from murar.errors import IndexError_, StoreSchemaError, StoreUnavailableError
from murar.schema import media_from_dict, snippet_from_dict, to_jsonable
from murar.store.base import LiveVersion, PageRecord, PageState, is_displayable
from murar.store.postgres import (
    _ADVISORY_KEY,
    _DATA_TABLES,
    _VISIBLE,
    BUILD_MEMORY,
    FTS_SQL,
    HNSW_SQL,
    MIGRATIONS,
    OPEN,
    PG_SCHEMA_VERSION,
    RETENTION,
    _as_matrix,
    _check_schema,
    _Db,
    _meta,
    _psycopg,
    _schema_sql,
    _section_from,
)


class PgWriter:
    """Writes versions of a murar index into PostgreSQL (implements :class:`~murar.store.base.StoreWriter`).

    The first writer creates the tables (and ``CREATE EXTENSION vector`` when
    allowed); the lock is a session advisory lock, so a second ingest on the
    same database fails at once instead of interleaving. The constructor does
    no I/O.
    """

    def __init__(self, url: str) -> None:
        self._db = _Db(url)
        self._url = url
        self._lock_conn: Any = None
        self._opened: list[PgVersionWriter] = []

    @property
    def location(self) -> str:
        return self._db.location

    def _connect(self) -> Any:
        psycopg = _psycopg()
        try:
            return psycopg.connect(self._url, connect_timeout=10, autocommit=True)
        except psycopg.OperationalError as err:
            raise StoreUnavailableError(
                f"cannot reach PostgreSQL at {self.location}: {str(err).strip()}. "
                "Is the server running and the URL right (postgresql://USER:PASSWORD@HOST:PORT/DATABASE)?"
            ) from err

    @contextlib.contextmanager
    def _conn(self) -> Iterator[Any]:
        """The lock's connection while the lock is held, else a short-lived one."""
        psycopg = _psycopg()
        try:
            if self._lock_conn is not None:
                yield self._lock_conn
                return
            with self._connect() as conn:
                if conn.execute("SELECT 1 FROM pg_extension WHERE extname = 'vector'").fetchone() is not None:
                    from pgvector.psycopg import register_vector

                    register_vector(conn)
                yield conn
        except psycopg.OperationalError as err:
            raise StoreUnavailableError(f"lost the connection to PostgreSQL at {self.location}: {err}") from err

    @contextlib.contextmanager
    def lock(self) -> Iterator[None]:
        conn = self._connect()
        try:
            got = conn.execute("SELECT pg_try_advisory_lock(%s)", (_ADVISORY_KEY,)).fetchone()[0]
            if not got:
                raise IndexError_(f"another ingest is writing {self.location}; wait for it to finish")
            self._ensure_extension(conn)
            from pgvector.psycopg import register_vector

            register_vector(conn)
            self._lock_conn = conn
            try:
                yield
            finally:
                self._lock_conn = None
                for vw in self._opened:  # local temp folders of versions left open (rows wait for the next writer)
                    vw._cleanup()
                self._opened.clear()
                with contextlib.suppress(Exception):
                    conn.execute("SELECT pg_advisory_unlock(%s)", (_ADVISORY_KEY,))
        finally:
            conn.close()

    def _meta(self, conn: Any) -> dict[str, str] | None:
        meta = _meta(conn)
        if meta is not None:
            _check_schema(meta, self.location, writer=True)
        return meta

    def _live_seq(self, conn: Any) -> int | None:
        if self._meta(conn) is None:
            return None
        row = conn.execute("SELECT seq FROM murar_live").fetchone()
        return None if row is None else int(row[0])

    def live(self) -> LiveVersion | None:
        with self._conn() as conn:
            v = self._live_seq(conn)
            if v is None:
                return None
            row = conn.execute("SELECT name, manifest FROM murar_versions WHERE seq = %s", (v,)).fetchone()
            pages = conn.execute(f"SELECT source_path, content_hash, counts FROM murar_pages WHERE {_VISIBLE}",
                                 {"v": v}).fetchall()
        if row is None:
            return None
        return LiveVersion(version=row[0], manifest=dict(row[1] or {}),
                           pages={p: PageState(content_hash=h, counts=dict(c)) for p, h, c in pages})

    def live_pages(self, source_paths: Iterable[str]) -> Iterator[PageRecord]:
        paths = list(source_paths)
        with self._conn() as conn:
            v = self._live_seq(conn)
            if v is None or not paths:
                return
            dim = int((self._meta(conn) or {}).get("dim", "0"))
            params = {"v": v, "p": paths}
            pages = conn.execute(f"SELECT source_path, content_hash, assets FROM murar_pages "
                                 f"WHERE source_path = ANY(%(p)s) AND {_VISIBLE}", params).fetchall()
            secs = conn.execute(f"SELECT source_path, payload FROM murar_sections WHERE source_path = ANY(%(p)s) "
                                f"AND {_VISIBLE} ORDER BY source_path, ord", params).fetchall()
            sns = conn.execute(f"SELECT source_path, payload, embedding FROM murar_snippets "
                               f"WHERE source_path = ANY(%(p)s) AND {_VISIBLE} ORDER BY source_path, ord",
                               params).fetchall()
            mds = conn.execute(f"SELECT source_path, payload, embedding FROM murar_media "
                               f"WHERE source_path = ANY(%(p)s) AND {_VISIBLE} ORDER BY source_path, ord",
                               params).fetchall()
        for path, content_hash, assets in pages:
            ps = [(p, e) for sp, p, e in sns if sp == path]
            pm = [(p, e) for sp, p, e in mds if sp == path]
            yield PageRecord(
                source_path=path, content_hash=content_hash,
                sections=[_section_from(p) for sp, p in secs if sp == path],
                snippets=[snippet_from_dict(p) for p, _ in ps], snippet_vectors=_as_matrix([e for _, e in ps], dim),
                media=[media_from_dict(p) for p, _ in pm], media_vectors=_as_matrix([e for _, e in pm], dim),
                assets=tuple(assets or ()),
            )

    def begin(self, version: str, *, from_live: bool, dim: int) -> PgVersionWriter:
        """Open version N (creating the tables on first use).

        Raises:
            IndexError_: called without holding :meth:`lock`.
            StoreSchemaError: the database holds embeddings of another dimension.
        """
        if self._lock_conn is None:
            raise IndexError_("PgWriter.begin() needs the writer lock: use `with writer.lock():`")
        if dim <= 0:
            raise IndexError_(f"embedding dimension must be positive, not {dim}")
        self._ensure_schema(self._lock_conn, dim)
        vw = PgVersionWriter(self, version, from_live=from_live)
        vw.start()
        self._opened.append(vw)
        return vw

    def _ensure_extension(self, conn: Any) -> None:
        psycopg = _psycopg()
        if conn.execute("SELECT 1 FROM pg_extension WHERE extname = 'vector'").fetchone() is None:
            try:
                conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
            except psycopg.Error as err:
                self._db._no_extension(conn)
                raise StoreSchemaError(f"cannot enable pgvector in {self.location}: {err}") from err

    def _ensure_schema(self, conn: Any, dim: int) -> None:
        meta = self._meta(conn)
        with conn.transaction():
            if meta is not None and int(meta.get("schema_version", "0")) < PG_SCHEMA_VERSION:
                for n in range(int(meta["schema_version"]), PG_SCHEMA_VERSION):
                    for stmt in MIGRATIONS[n]:
                        conn.execute(stmt)
                conn.execute("UPDATE murar_meta SET value = %s WHERE key = 'schema_version'",
                             (str(PG_SCHEMA_VERSION),))
            if meta is None:
                for stmt in _schema_sql(dim):
                    conn.execute(stmt)
                from murar import __version__

                conn.execute("INSERT INTO murar_meta VALUES ('schema_version', %s), ('dim', %s), "
                             "('murar_version', %s) ON CONFLICT (key) DO NOTHING",
                             (str(PG_SCHEMA_VERSION), str(dim), __version__))
            elif conn.execute("SELECT NOT EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = "
                              "'murar_snippets'::regclass AND attname = 'tsv' AND NOT attisdropped)").fetchone()[0]:
                for stmt in FTS_SQL:  # a store written before full-text search: add it (computes every row)
                    conn.execute(stmt)
        stored = int((_meta(conn) or {}).get("dim", "0"))
        if stored != dim:
            raise StoreSchemaError(
                f"{self.location} holds {stored}-dimensional embeddings, the embedder gives {dim}; "
                "use another database (or schema: ?options=-csearch_path%3DNAME) or drop the murar_* tables"
            )


class PgVersionWriter:
    """Version ``N`` being written (see the module docstring for the row ranges).

    Pages are written as they come (each page in one transaction, rows by
    ``COPY``); nothing is visible to readers before :meth:`commit`.
    """

    def __init__(self, owner: PgWriter, version: str, *, from_live: bool) -> None:
        self._owner = owner
        self._version = version
        self._from_live = from_live
        self._tmp = Path(tempfile.mkdtemp(prefix="murar-pg-assets-"))
        self._seq: int | None = None
        self._live: int | None = None
        self._done = False

    @property
    def version(self) -> str:
        return self._version

    @property
    def assets_dir(self) -> Path:
        return self._tmp

    def start(self) -> None:
        """Undo what a killed writer left, register version N (state ``building``)."""
        with self._conn() as conn, conn.transaction():
            row = conn.execute("SELECT seq FROM murar_live").fetchone()
            live = int(row[0]) if row else 0
            for table in _DATA_TABLES:
                conn.execute(f"DELETE FROM {table} WHERE vfrom > %s", (live,))
                conn.execute(f"UPDATE {table} SET vto = %s WHERE vto > %s AND vto <> %s", (OPEN, live, OPEN))
            conn.execute("UPDATE murar_versions SET state = 'aborted' WHERE state = 'building'")
            seq = int(conn.execute("SELECT coalesce(max(seq), 0) + 1 FROM murar_versions").fetchone()[0])
            conn.execute("INSERT INTO murar_versions (seq, name, state) VALUES (%s, %s, 'building')",
                         (seq, self._version))
            if not self._from_live:
                for table in _DATA_TABLES:
                    conn.execute(f"UPDATE {table} SET vto = %s WHERE vto = %s", (seq, OPEN))
        self._seq, self._live = seq, live

    @property
    def _n(self) -> int:
        if self._seq is None or self._done:
            raise IndexError_(f"version {self._version} is not open")
        return self._seq

    def _conn(self) -> Any:
        return self._owner._conn()

    def put_page(self, page: PageRecord) -> None:
        seq = self._n
        with self._conn() as conn, conn.transaction():
            self._close_page(conn, page.source_path, seq)
            self._copy_page(conn, page, seq)

    def _close_page(self, conn: Any, path: str, seq: int) -> None:
        for table in _DATA_TABLES:
            conn.execute(f"DELETE FROM {table} WHERE source_path = %s AND vfrom = %s", (path, seq))
            conn.execute(f"UPDATE {table} SET vto = %s WHERE source_path = %s AND vto = %s", (seq, path, OPEN))

    def _copy_page(self, conn: Any, page: PageRecord, seq: int) -> None:
        from psycopg.types.json import Jsonb

        p = page.source_path
        conn.execute("INSERT INTO murar_pages VALUES (%s, %s, %s, %s, %s, %s)",
                     (p, page.content_hash, Jsonb(page.counts()), Jsonb(list(page.assets)), seq, OPEN))
        with conn.cursor().copy("COPY murar_sections (id, source_path, ord, payload, vfrom, vto) "
                                "FROM STDIN (FORMAT BINARY)") as copy:
            copy.set_types(["text", "text", "int4", "jsonb", "int8", "int8"])
            for i, sec in enumerate(page.sections):
                copy.write_row((sec.id, p, i, Jsonb(to_jsonable(sec)), seq, OPEN))
        with conn.cursor().copy("COPY murar_snippets (id, section_id, source_path, ord, payload, embedding, vfrom, vto) "
                                "FROM STDIN (FORMAT BINARY)") as copy:
            copy.set_types(["text", "text", "text", "int4", "jsonb", "vector", "int8", "int8"])
            for i, (s, vec) in enumerate(zip(page.snippets, page.snippet_vectors)):
                copy.write_row((s.id, s.section_id, p, i, Jsonb(to_jsonable(s)),
                                np.asarray(vec, dtype=np.float32), seq, OPEN))
        with conn.cursor().copy("COPY murar_media (id, kind, section_id, source_path, ord, displayable, payload, "
                                "embedding, vfrom, vto) FROM STDIN (FORMAT BINARY)") as copy:
            copy.set_types(["text", "text", "text", "text", "int4", "bool", "jsonb", "vector", "int8", "int8"])
            for i, (m, vec) in enumerate(zip(page.media, page.media_vectors)):
                copy.write_row((m.id, m.kind, m.section_id, p, i, is_displayable(m), Jsonb(to_jsonable(m)),
                                np.asarray(vec, dtype=np.float32), seq, OPEN))
        for rel in page.assets:
            f = self._tmp / rel
            if f.is_file():
                conn.execute("INSERT INTO murar_assets VALUES (%s, %s, %s, %s, %s)",
                             (p, rel, f.read_bytes(), seq, OPEN))

    def delete_page(self, source_path: str) -> None:
        seq = self._n
        with self._conn() as conn, conn.transaction():
            self._close_page(conn, source_path, seq)

    def commit(self, manifest: Mapping[str, Any], report: Mapping[str, Any]) -> None:
        """Make version N live in one transaction, then drop rows no reader can need.

        Raises:
            IndexError_: the version was already closed, or the live version
                moved under us (another writer without the lock).
        """
        from psycopg.types.json import Jsonb

        seq = self._n
        with self._conn() as conn:
            if conn.execute("SELECT to_regclass('murar_snippets_hnsw') IS NULL").fetchone()[0]:
                conn.execute(f"SET maintenance_work_mem = '{BUILD_MEMORY}'")
                for stmt in HNSW_SQL:
                    conn.execute(stmt)
                conn.execute("RESET maintenance_work_mem")
            with conn.transaction():
                row = conn.execute("SELECT seq FROM murar_live FOR UPDATE").fetchone()
                live = int(row[0]) if row else 0
                if live != self._live:
                    raise IndexError_(f"{self.location}: the live version changed during the ingest; run it again")
                conn.execute("UPDATE murar_versions SET state = 'live', manifest = %s, report = %s WHERE seq = %s",
                             (Jsonb(dict(manifest)), Jsonb(json.loads(json.dumps(dict(report), default=str))), seq))
                conn.execute("UPDATE murar_versions SET state = 'retired', retired_at = now() "
                             "WHERE state = 'live' AND seq <> %s", (seq,))
                conn.execute("INSERT INTO murar_live (one, seq) VALUES (true, %s) "
                             "ON CONFLICT (one) DO UPDATE SET seq = excluded.seq", (seq,))
            self._done = True
            self._collect(conn)
        self._cleanup()

    @property
    def location(self) -> str:
        return self._owner.location

    def _collect(self, conn: Any) -> None:
        """Delete rows invisible to every version a reader may still use."""
        oldest = conn.execute(
            "SELECT min(seq) FROM murar_versions WHERE state = 'live' "
            "OR (state = 'retired' AND retired_at > now() - make_interval(secs => %s))", (RETENTION,),
        ).fetchone()[0]
        if oldest is None:
            return
        for table in _DATA_TABLES:
            conn.execute(f"DELETE FROM {table} WHERE vto <= %s", (int(oldest),))
        conn.execute("DELETE FROM murar_versions WHERE seq < %s AND state <> 'live' "
                     "AND NOT (state = 'retired' AND retired_at > now() - make_interval(secs => %s))",
                     (int(oldest), RETENTION))

    def abort(self) -> None:
        """Undo this version's rows (best effort; the next writer also cleans up)."""
        if self._done:
            return
        self._done = True
        if self._seq is not None:
            with contextlib.suppress(Exception), self._conn() as conn, conn.transaction():
                for table in _DATA_TABLES:
                    conn.execute(f"DELETE FROM {table} WHERE vfrom = %s", (self._seq,))
                    conn.execute(f"UPDATE {table} SET vto = %s WHERE vto = %s", (OPEN, self._seq))
                conn.execute("UPDATE murar_versions SET state = 'aborted' WHERE seq = %s", (self._seq,))
        self._cleanup()

    def _cleanup(self) -> None:
        shutil.rmtree(self._tmp, ignore_errors=True)
