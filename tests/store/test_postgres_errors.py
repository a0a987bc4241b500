"""PostgreSQL store: the errors a user meets, each typed and telling the fix."""

from __future__ import annotations

import sys
from pathlib import Path

import psycopg
import pytest

from murar.embed.fake import HashingEmbedder
from murar.errors import (
    IndexNotFoundError,
    MissingExtraError,
    StoreSchemaError,
    StoreUnavailableError,
)
from murar.ingest.index import build_index, open_index
from murar.store import postgres
from murar.store.pg_embedded import free_port
from murar.store.postgres import PgStore, PgWriter, redact


def _docs(root: Path) -> Path:
    docs = root / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("# Alpha\n\nAlpha explains journeys.\n")
    return docs


def test_unreachable_server_is_a_clear_error() -> None:
    url = f"postgresql://postgres:secret@127.0.0.1:{free_port()}/murar"
    with pytest.raises(StoreUnavailableError, match="cannot reach PostgreSQL at") as info:
        PgStore(url).counts()
    assert "secret" not in str(info.value) and "***" in str(info.value)
    with pytest.raises(StoreUnavailableError, match="Is the server running"):
        open_index(url)


def test_missing_extension_prints_the_sql(pg_url: str) -> None:
    with pytest.raises(StoreSchemaError, match="CREATE EXTENSION vector;"):
        open_index(pg_url)


def test_writer_without_rights_to_enable_pgvector(pg_url: str, tmp_path: Path) -> None:
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("DROP ROLE IF EXISTS murar_plain")
        conn.execute("CREATE ROLE murar_plain LOGIN")
        conn.execute("GRANT ALL ON SCHEMA public TO murar_plain")
    plain = pg_url.replace("postgresql://postgres@", "postgresql://murar_plain@")
    with pytest.raises(StoreSchemaError, match="as a database superuser run in that database: CREATE EXTENSION"):
        build_index(_docs(tmp_path), plain, embedder=HashingEmbedder())


def test_empty_database_has_no_index(pg_url: str) -> None:
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("CREATE EXTENSION vector")
    with pytest.raises(IndexNotFoundError, match="murar ingest CORPUS --store"):
        open_index(pg_url)
    assert PgWriter(pg_url).live() is None


def test_schema_of_another_murar_version(pg_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    docs = _docs(tmp_path)
    build_index(docs, pg_url, embedder=HashingEmbedder())
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("UPDATE murar_meta SET value = '99' WHERE key = 'schema_version'")
    with pytest.raises(StoreSchemaError, match="newer murar"):
        open_index(pg_url)
    with pytest.raises(StoreSchemaError, match="newer murar"):
        build_index(docs, pg_url, embedder=HashingEmbedder())
    # an older schema with a registered migration: readers refuse with the command, a writer migrates
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("UPDATE murar_meta SET value = '0' WHERE key = 'schema_version'")
    with pytest.raises(StoreSchemaError, match="no migration exists"):
        open_index(pg_url)
    monkeypatch.setitem(postgres.MIGRATIONS, 0, ("ALTER TABLE murar_versions ADD COLUMN IF NOT EXISTS note text",))
    with pytest.raises(StoreSchemaError, match="to migrate it"):
        open_index(pg_url)
    _, report = build_index(docs, pg_url, embedder=HashingEmbedder())
    assert report.changes["unchanged"] == 1
    assert open_index(pg_url).store.counts()["pages"] == 1
    with psycopg.connect(pg_url, autocommit=True) as conn:
        assert conn.execute("SELECT value FROM murar_meta WHERE key = 'schema_version'").fetchone() == ("1",)


def test_missing_extra_names_the_install_command(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "psycopg", None)
    with pytest.raises(MissingExtraError, match=r"murar\[postgres\]"):
        PgStore("postgresql://u@127.0.0.1:1/db").counts()


def test_redact_hides_only_the_password() -> None:
    assert redact("postgresql://me:pw@db.example:5433/docs?sslmode=require") == \
        "postgresql://me:***@db.example:5433/docs?sslmode=require"
    assert redact("postgresql://me@localhost/docs") == "postgresql://me@localhost/docs"
