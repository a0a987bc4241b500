"""Indexes written before full-text search (issue 9) still open and search lexically;
the next ingest adds the full-text index."""

from __future__ import annotations

import logging
from pathlib import Path

import psycopg
import pytest
from store_cases import DIM, lexical_data, pages_of, write_all

from murar.store.lance import TEXT, LanceStore, _lancedb
from murar.store.lance_versions import LanceWriter, current_version_dir
from murar.store.postgres import PgStore, PgWriter


def _ids(hits: list) -> list[str]:
    return [s.id for s, _ in hits]


def test_lance_index_without_full_text_index_searches_in_memory(tmp_path: Path,
                                                               caplog: pytest.LogCaptureFixture) -> None:
    data = lexical_data()
    writer = LanceWriter(tmp_path / "idx")
    write_all(writer, pages_of(data))
    folder = current_version_dir(tmp_path / "idx") / "lance"
    table = _lancedb().connect(str(folder)).open_table("snippets")
    table.drop_index(f"{TEXT}_idx")
    table.drop_columns([TEXT])  # the layout written before issue 9
    store = LanceStore(folder)
    with caplog.at_level(logging.WARNING, logger="murar.store.lance"):
        assert _ids(store.search_snippets_lexical("copy the url", 3)) == ["sn0"]
        assert _ids(store.search_snippets_lexical("troubleshooting", 3)) == ["sn5"]
    assert len([r for r in caplog.records if "no full-text index" in r.message]) == 1  # one line, once
    with writer.lock():  # the next ingest (here: keeping every page) writes the full-text index
        writer.begin("v-2", from_live=True, dim=DIM).commit({"dim": DIM, "version": "v-2"}, {})
    upgraded = LanceStore(current_version_dir(tmp_path / "idx") / "lance")
    assert upgraded._fts
    assert _ids(upgraded.search_snippets_lexical("copy the url", 3)) == ["sn0"]


def test_postgres_store_without_full_text_column_still_searches(pg_url: str,
                                                                caplog: pytest.LogCaptureFixture) -> None:
    data = lexical_data()
    writer = PgWriter(pg_url)
    write_all(writer, pages_of(data))
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("ALTER TABLE murar_snippets DROP COLUMN tsv")  # the layout written before issue 9
    store = PgStore(pg_url)
    with caplog.at_level(logging.WARNING, logger="murar.store.postgres"):
        assert _ids(store.search_snippets_lexical("copy the url", 3)) == ["sn0"]
        assert _ids(store.search_snippets_lexical("server spreadsheet", 3))[0] == "sn6"
    assert len([r for r in caplog.records if "no full-text column" in r.message]) == 1
    with writer.lock():  # the next ingest adds the column (computed for the rows already there)
        writer.begin("v-2", from_live=True, dim=DIM).commit({"dim": DIM, "version": "v-2"}, {})
    with psycopg.connect(pg_url) as conn:
        assert conn.execute("SELECT count(*) FROM murar_snippets WHERE tsv IS NOT NULL").fetchone()[0] == 10
    fresh = PgStore(pg_url)
    assert _ids(fresh.search_snippets_lexical("copy the url", 3)) == ["sn0"]
