"""Building and opening an index folder, atomically and idempotently.

Layout of an index folder::

    INDEX/
      CURRENT          name of the live version folder (replaced atomically)
      v-<time>-<id>/   one complete version
        manifest.json  embedder, dimension, corpus root, counts, build time
        report.json    the ingest report (per-file warnings, failures)
        lance/         LanceDB tables (snippets, media, sections)
        assets/        files murar wrote (figures cropped from PDFs)

A new version is written beside the live one and becomes live by replacing
``CURRENT`` (``os.replace``), so a killed ingest leaves the previous index
usable. Re-ingesting an unchanged corpus gives the same ids and reuses the
previous version's embeddings (matched by embedder name and exact text).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import shutil
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from murar import __version__
from murar.embed.base import Embedder, Vectors
from murar.errors import IndexError_, IndexNotFoundError, MurarError
from murar.ingest.chunking import ChunkingOptions, chunk_section, embedding_text
from murar.ingest.corpus import DEFAULT_EXCLUDES, IngestReport, convert_corpus
from murar.schema import AnyMedia, ParsedDocument, Section, Snippet, to_jsonable
from murar.store.lance import LanceStore, write_lance

SCHEMA_VERSION = 1
CURRENT = "CURRENT"


class ProgressHook(Protocol):
    """Receives progress of long stages: ``start(stage, total)`` then ``advance(stage, n)``."""

    def start(self, stage: str, total: int) -> None: ...

    def advance(self, stage: str, n: int = 1) -> None: ...


class _NoProgress:
    def start(self, stage: str, total: int) -> None:
        pass

    def advance(self, stage: str, n: int = 1) -> None:
        pass


@dataclass(slots=True, kw_only=True)
class IndexManifest:
    """What ``manifest.json`` records about one index version."""

    schema_version: int
    murar_version: str
    embedder: str
    dim: int
    corpus_root: str
    built_at: str
    counts: dict[str, int]
    version: str
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass(slots=True)
class OpenedIndex:
    """A live index version: its store, manifest and folders."""

    store: LanceStore
    manifest: IndexManifest
    version_dir: Path

    @property
    def corpus_root(self) -> Path:
        return Path(self.manifest.corpus_root)

    @property
    def assets_dir(self) -> Path:
        return self.version_dir / "assets"


def media_embedding_text(item: AnyMedia) -> str:
    """The exact text embedded for a media item (its representation)."""
    return item.representation()


def _text_key(embedder_name: str, text: str) -> str:
    return hashlib.sha1(f"{embedder_name}\x1f{text}".encode()).hexdigest()


@contextlib.contextmanager
def _writer_lock(index_dir: Path) -> Iterator[None]:
    index_dir.mkdir(parents=True, exist_ok=True)
    with open(index_dir / ".lock", "w") as fh:
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError as err:
            raise IndexError_(f"another ingest is writing {index_dir}; wait for it to finish") from err
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def current_version_dir(index_dir: Path) -> Path:
    """The live version folder of ``index_dir``.

    Raises:
        IndexNotFoundError: no index has been built there.
    """
    pointer = index_dir / CURRENT
    if not pointer.is_file():
        raise IndexNotFoundError(
            f"no index at {index_dir}; build one with: murar ingest CORPUS --index {index_dir}"
        )
    name = pointer.read_text().strip()
    vdir = index_dir / name
    if not name or "/" in name or not vdir.is_dir():
        raise IndexError_(f"{pointer} points to a missing version {name!r}; rebuild with `murar ingest`")
    return vdir


def open_index(index_dir: Path) -> OpenedIndex:
    """Open the live version of ``index_dir`` for reading.

    Raises:
        IndexNotFoundError: no index there.
        IndexError_: the index is corrupt or of an incompatible schema version.
    """
    vdir = current_version_dir(index_dir)
    try:
        data = json.loads((vdir / "manifest.json").read_text())
        manifest = IndexManifest(**data)
    except (OSError, ValueError, TypeError) as err:
        raise IndexError_(f"{vdir}/manifest.json is unreadable: {err}") from err
    if manifest.schema_version != SCHEMA_VERSION:
        raise IndexError_(
            f"index schema {manifest.schema_version} != {SCHEMA_VERSION}; rebuild with `murar ingest`"
        )
    return OpenedIndex(store=LanceStore(vdir / "lance"), manifest=manifest, version_dir=vdir)


def _previous_vectors(index_dir: Path, embedder_name: str) -> dict[str, np.ndarray]:
    """Vectors of the live version keyed by (embedder, text), for reuse; empty on any problem."""
    try:
        opened = open_index(index_dir)
    except MurarError:
        return {}
    if opened.manifest.embedder != embedder_name:
        return {}
    store = opened.store
    out: dict[str, np.ndarray] = {}
    snippets = store.all_snippets()
    vecs = store.snippet_vectors([s.id for s in snippets])
    for s, v in zip(snippets, vecs):
        out[_text_key(embedder_name, embedding_text(s))] = v
    for m in store.all_media():
        vec = store.media_vector(m.id)
        if vec is not None:
            out[_text_key(embedder_name, media_embedding_text(m))] = vec
    return out


def _embed_with_cache(
    texts: list[str],
    embedder: Embedder,
    cache: dict[str, np.ndarray],
    progress: ProgressHook,
    stage: str,
) -> tuple[Vectors, int]:
    keys = [_text_key(embedder.name, t) for t in texts]
    out = np.zeros((len(texts), embedder.dim), dtype=np.float32)
    todo = [i for i, k in enumerate(keys) if k not in cache]
    for i, k in enumerate(keys):
        if k in cache:
            out[i] = cache[k]
    progress.start(stage, len(texts))
    progress.advance(stage, len(texts) - len(todo))
    if todo:
        vecs = embedder.embed([texts[i] for i in todo], progress=lambda n: progress.advance(stage, n))
        out[todo] = vecs
    return out, len(texts) - len(todo)


def build_index(
    corpus: Path,
    index_dir: Path,
    *,
    embedder: Embedder,
    chunking: ChunkingOptions | None = None,
    excludes: tuple[str, ...] = DEFAULT_EXCLUDES,
    progress: ProgressHook | None = None,
    keep_versions: int = 1,
) -> tuple[IndexManifest, IngestReport]:
    """Ingest every supported file under ``corpus`` into a new version of ``index_dir``.

    Returns the manifest of the new live version and the ingest report. A file
    that fails is reported, not fatal. Only after the new version is complete
    does ``CURRENT`` switch to it; older versions beyond ``keep_versions`` are
    then removed.

    Raises:
        IngestError: ``corpus`` is not a folder.
        IndexError_: another ingest holds the index lock.
    """
    from murar.errors import IngestError

    corpus = corpus.resolve()
    if not corpus.is_dir():
        raise IngestError(f"corpus folder not found: {corpus}")
    prog: ProgressHook = progress or _NoProgress()
    report = IngestReport()
    index_dir = index_dir.resolve()
    with _writer_lock(index_dir):
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
        version = f"v-{stamp}-{uuid.uuid4().hex[:8]}"
        tmp_dir = index_dir / f".tmp-{version}"
        tmp_dir.mkdir(parents=True)
        try:
            manifest = _build_version(corpus, tmp_dir, index_dir, version, embedder, chunking, excludes, prog, report)
            final = index_dir / version
            os.replace(tmp_dir, final)
            pointer_tmp = index_dir / f".{CURRENT}.{uuid.uuid4().hex[:8]}"
            pointer_tmp.write_text(version + "\n")
            with open(pointer_tmp, "rb") as fh:
                os.fsync(fh.fileno())
            os.replace(pointer_tmp, index_dir / CURRENT)
        except BaseException:
            shutil.rmtree(tmp_dir, ignore_errors=True)
            raise
        _prune(index_dir, keep=keep_versions, live=version)
    return manifest, report


def _prune(index_dir: Path, *, keep: int, live: str) -> None:
    versions = sorted(p for p in index_dir.iterdir() if p.is_dir() and p.name.startswith("v-") and p.name != live)
    for old in versions[: max(0, len(versions) - (keep - 1))]:
        shutil.rmtree(old, ignore_errors=True)
    for stale in index_dir.glob(".tmp-v-*"):
        shutil.rmtree(stale, ignore_errors=True)


def _build_version(
    corpus: Path,
    vdir: Path,
    index_dir: Path,
    version: str,
    embedder: Embedder,
    chunking: ChunkingOptions | None,
    excludes: tuple[str, ...],
    prog: ProgressHook,
    report: IngestReport,
) -> IndexManifest:
    from murar.ingest.corpus import iter_corpus_files

    t0 = time.perf_counter()
    assets = vdir / "assets"
    assets.mkdir()
    files = list(iter_corpus_files(corpus, excludes=excludes))
    prog.start("parse", len(files))
    docs: list[ParsedDocument] = convert_corpus(
        corpus, assets_dir=assets, report=report, files=files,
        on_file=lambda _rel: prog.advance("parse"),
    )
    t1 = time.perf_counter()
    sections: list[Section] = [s for d in docs for s in d.sections]
    media: list[AnyMedia] = [m for d in docs for m in d.media]
    prog.start("chunk", len(sections))
    snippets: list[Snippet] = []
    for sec in sections:
        snippets.extend(chunk_section(sec, embedder, chunking))
        prog.advance("chunk")
    t2 = time.perf_counter()
    cache = _previous_vectors(index_dir, embedder.name)
    t3 = time.perf_counter()
    sv, reused_s = _embed_with_cache([embedding_text(s) for s in snippets], embedder, cache, prog, "embed snippets")
    mv, reused_m = _embed_with_cache([media_embedding_text(m) for m in media], embedder, cache, prog, "embed media")
    t4 = time.perf_counter()
    write_lance(vdir / "lance", sections=sections, snippets=snippets, snippet_vectors=sv,
                media=media, media_vectors=mv, dim=embedder.dim)
    t5 = time.perf_counter()
    report.pages = len(docs)
    report.sections = len(sections)
    report.snippets = len(snippets)
    report.images = sum(1 for m in media if m.kind == "image")
    report.tables = sum(1 for m in media if m.kind == "table")
    report.videos = sum(1 for m in media if m.kind == "video")
    report.reused_embeddings = reused_s + reused_m
    report.seconds = {
        "parse": t1 - t0, "chunk": t2 - t1, "load_previous": t3 - t2,
        "embed": t4 - t3, "write": t5 - t4, "total": t5 - t0,
    }
    counts = {
        "pages": report.pages, "sections": report.sections, "snippets": report.snippets,
        "images": report.images, "tables": report.tables, "videos": report.videos,
        "failed": len(report.failed), "skipped": len(report.skipped),
    }
    manifest = IndexManifest(
        schema_version=SCHEMA_VERSION,
        murar_version=__version__,
        embedder=embedder.name,
        dim=embedder.dim,
        corpus_root=str(corpus),
        built_at=datetime.now(UTC).isoformat(timespec="seconds"),
        counts=counts,
        version=version,
    )
    (vdir / "manifest.json").write_text(json.dumps(to_jsonable(manifest), indent=2))
    (vdir / "report.json").write_text(json.dumps(to_jsonable(report), indent=2))
    return manifest
