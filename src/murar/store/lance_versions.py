"""A LanceDB index folder as a :class:`~murar.store.base.StoreWriter`.

Layout of an index folder::

    INDEX/
      CURRENT          name of the live version folder (replaced atomically)
      .lock            held (flock) by the one ingest writing the folder
      v-<time>-<id>/   one complete version
        .readers       share-locked (flock) by each process reading this version
        manifest.json  embedder, dimension, corpus root, counts, build time
        report.json    the ingest report (per-file warnings, failures)
        lance/         LanceDB tables (snippets, media, sections, pages)
        assets/        files murar wrote (figures cropped from PDFs)

A new version is written in ``.tmp-<version>`` beside the live one, renamed,
and becomes live by replacing ``CURRENT`` (``os.replace`` of an fsynced
file), so a killed ingest leaves the previous version usable; the next ingest
removes its leftovers. Versions beyond ``keep`` are pruned after a switch,
except a version a reader still has open (:func:`pin_version`: a ``murar serve``
started before the ingest keeps answering from it; a later ingest prunes it).
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shutil
import uuid
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import IO, Any

import numpy as np

from murar.errors import IndexError_, IndexNotFoundError
from murar.store.base import LiveVersion, PageRecord, PageState
from murar.store.lance import EXACT_IN_MEMORY_MAX, LanceStore, StoredPage, write_lance

CURRENT = "CURRENT"
READERS = ".readers"


def pin_version(vdir: Path) -> IO[bytes] | None:
    """Hold a shared lock on version folder ``vdir`` for as long as the returned file is open.

    An ingest switching to a newer version does not prune a version someone
    holds (:meth:`LanceWriter._prune`), so a long-lived reader such as
    ``murar serve`` never has its files removed under it. ``None`` when the
    folder cannot take the lock file (read-only media): reading still works,
    only unprotected. Never raises.
    """
    try:
        fh = open(vdir / READERS, "ab")  # noqa: SIM115 - kept open: the lock lives as long as the reader
    except OSError:
        return None
    try:
        fcntl.flock(fh, fcntl.LOCK_SH)
    except OSError:
        fh.close()
        return None
    return fh


def _in_use(vdir: Path) -> bool:
    """A reader holds ``vdir`` (:func:`pin_version`)."""
    try:
        with open(vdir / READERS, "rb") as fh:
            try:
                fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return True
            fcntl.flock(fh, fcntl.LOCK_UN)
    except OSError:
        return False
    return False


def current_version_dir(index_dir: Path) -> Path:
    """The live version folder of ``index_dir``.

    Raises:
        IndexNotFoundError: no index has been built there.
        IndexError_: ``CURRENT`` points to a missing folder.
    """
    pointer = index_dir / CURRENT
    if not pointer.is_file():
        raise IndexNotFoundError(
            f"no index at {index_dir}; build one with: murar ingest CORPUS --index {index_dir}"
        )
    try:
        name = pointer.read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError) as err:
        raise IndexError_(f"{pointer} is unreadable ({err}); rebuild with `murar ingest`") from err
    vdir = index_dir / name
    # a version folder's own name only: not the index folder itself or its parent ('.', '..')
    if name in ("", ".", "..") or any(c in name for c in "/\\\x00") or not vdir.is_dir():
        raise IndexError_(f"{pointer} points to a missing version {name!r}; rebuild with `murar ingest`")
    return vdir


def read_manifest(vdir: Path) -> dict[str, Any]:
    """``manifest.json`` of one version folder as a JSON object.

    Raises:
        IndexError_: missing or unreadable.
    """
    try:
        data = json.loads((vdir / "manifest.json").read_text())
    except (OSError, ValueError) as err:
        raise IndexError_(f"{vdir}/manifest.json is unreadable: {err}") from err
    if not isinstance(data, dict):
        raise IndexError_(f"{vdir}/manifest.json is not a JSON object")
    return data


class LanceWriter:
    """Writes versions of the LanceDB index folder ``index_dir``.

    ``keep``: versions kept after a switch (the live one included, >= 1).
    ``ann_min_rows``: tables larger than this get an ANN index (see
    :func:`~murar.store.lance.write_lance`). The constructor does no I/O.
    """

    def __init__(self, index_dir: Path, *, keep: int = 1, ann_min_rows: int = EXACT_IN_MEMORY_MAX) -> None:
        self.index_dir = Path(index_dir).resolve()
        self.keep = max(1, keep)
        self.ann_min_rows = ann_min_rows

    @property
    def location(self) -> str:
        return str(self.index_dir)

    @contextlib.contextmanager
    def lock(self) -> Iterator[None]:
        try:
            self.index_dir.mkdir(parents=True, exist_ok=True)
            fh = open(self.index_dir / ".lock", "w")  # noqa: SIM115 - closed by the with below
        except OSError as err:  # a file in the way, a read-only or unlistable place
            raise IndexError_(f"cannot write the index at {self.index_dir}: "
                              f"{err.strerror or type(err).__name__} (--index must name a folder)") from err
        with fh:
            try:
                fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError as err:
                raise IndexError_(f"another ingest is writing {self.index_dir}; wait for it to finish") from err
            try:
                yield
            finally:
                fcntl.flock(fh, fcntl.LOCK_UN)

    def _live_dir(self) -> Path | None:
        try:
            return current_version_dir(self.index_dir)
        except IndexError_:
            return None

    def _live_store(self) -> LanceStore | None:
        vdir = self._live_dir()
        if vdir is None:
            return None
        try:
            return LanceStore(vdir / "lance")
        except IndexError_:
            return None

    def live(self) -> LiveVersion | None:
        vdir = self._live_dir()
        store = self._live_store()
        if vdir is None or store is None:
            return None
        try:
            manifest = read_manifest(vdir)
        except IndexError_:
            return None
        pages = {p: PageState(content_hash=s.content_hash, counts=dict(s.counts))
                 for p, s in store.stored_pages().items()}
        return LiveVersion(version=vdir.name, manifest=manifest, pages=pages)

    def live_pages(self, source_paths: Iterable[str]) -> Iterator[PageRecord]:
        store = self._live_store()
        if store is not None:
            yield from store.page_records(source_paths)

    def begin(self, version: str, *, from_live: bool, dim: int) -> LanceVersionWriter:
        if not version or "/" in version or version.startswith("."):
            raise IndexError_(f"invalid version name {version!r}")
        for stale in self.index_dir.glob(".tmp-v-*"):  # left by a killed ingest (we hold the lock)
            shutil.rmtree(stale, ignore_errors=True)
        return LanceVersionWriter(self, version, base=self._live_dir() if from_live else None, dim=dim)

    def _switch(self, version: str) -> None:
        pointer_tmp = self.index_dir / f".{CURRENT}.{uuid.uuid4().hex[:8]}"
        pointer_tmp.write_text(version + "\n")
        with open(pointer_tmp, "rb") as fh:
            os.fsync(fh.fileno())
        os.replace(pointer_tmp, self.index_dir / CURRENT)
        self._prune(live=version)

    def _prune(self, *, live: str) -> None:
        versions = sorted(p for p in self.index_dir.iterdir()
                          if p.is_dir() and p.name.startswith("v-") and p.name != live)
        for old in versions[: max(0, len(versions) - (self.keep - 1))]:
            if not _in_use(old):  # a reader's version goes at a later switch
                shutil.rmtree(old, ignore_errors=True)
        for stale in self.index_dir.glob(f".{CURRENT}.*"):
            stale.unlink(missing_ok=True)


class LanceVersionWriter:
    """A version folder being written (``.tmp-<version>`` until commit).

    Pages are collected in memory and written as whole LanceDB tables at
    :meth:`commit` (a LanceDB version is one set of files); pages kept from
    the base version are read from it then, with their assets copied.
    """

    def __init__(self, owner: LanceWriter, version: str, *, base: Path | None, dim: int) -> None:
        self._owner = owner
        self._dim = dim
        self._version = version
        self._base = base
        self._tmp = owner.index_dir / f".tmp-{version}"
        try:
            self._tmp.mkdir(parents=True)
            (self._tmp / "assets").mkdir()
        except OSError as err:
            shutil.rmtree(self._tmp, ignore_errors=True)
            raise _write_failed(owner.index_dir, err) from err
        self._pages: dict[str, PageRecord] = {}
        self._deleted: set[str] = set()
        self._done = False

    @property
    def version(self) -> str:
        return self._version

    @property
    def assets_dir(self) -> Path:
        return self._tmp / "assets"

    def put_page(self, page: PageRecord) -> None:
        self._pages[page.source_path] = page
        self._deleted.discard(page.source_path)

    def delete_page(self, source_path: str) -> None:
        self._pages.pop(source_path, None)
        self._deleted.add(source_path)

    def _kept_pages(self) -> list[PageRecord]:
        if self._base is None:
            return []
        try:
            store = LanceStore(self._base / "lance")
        except IndexError_:
            return []
        keep = set(store.stored_pages()) - set(self._pages) - self._deleted
        kept = list(store.page_records(keep))
        for page in kept:
            for rel in page.assets:
                src, dst = self._base / "assets" / rel, self.assets_dir / rel
                if src.is_file() and not dst.exists():
                    dst.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copy2(src, dst)
        return kept

    def commit(self, manifest: Mapping[str, Any], report: Mapping[str, Any]) -> None:
        """Write the tables and both JSON files, then make this version live.

        Raises:
            IndexError_: vector dimensions differ, the version was already closed, or
                it could not be written (disk full, I/O error: the message names the
                cause; the half-written version is removed and the live one stays).
        """
        if self._done:
            raise IndexError_(f"version {self._version} is already closed")
        final = self._owner.index_dir / self._version
        try:
            pages = sorted([*self._kept_pages(), *self._pages.values()], key=lambda p: p.source_path)
            dim = self._dim or int(manifest.get("dim", 0)) or _dim_of(pages)
            write_lance(
                self._tmp / "lance",
                sections=[s for p in pages for s in p.sections],
                snippets=[s for p in pages for s in p.snippets],
                snippet_vectors=_stack([p.snippet_vectors for p in pages], dim),
                media=[m for p in pages for m in p.media],
                media_vectors=_stack([p.media_vectors for p in pages], dim),
                dim=dim,
                pages=[StoredPage(p.source_path, p.content_hash, p.counts(), tuple(p.assets)) for p in pages],
                ann_min_rows=self._owner.ann_min_rows,
            )
            (self._tmp / "manifest.json").write_text(json.dumps(dict(manifest), indent=2))
            (self._tmp / "report.json").write_text(json.dumps(dict(report), indent=2))
            os.replace(self._tmp, final)
        except (OSError, RuntimeError) as err:  # disk full, quota, I/O error (lance raises RuntimeError)
            raise _write_failed(self._owner.index_dir, err) from err
        self._done = True
        try:
            self._owner._switch(self._version)
        except OSError as err:
            shutil.rmtree(final, ignore_errors=True)  # never live: give its space back
            raise _write_failed(self._owner.index_dir, err) from err

    def abort(self) -> None:
        if not self._done:
            shutil.rmtree(self._tmp, ignore_errors=True)
            self._done = True


def _write_failed(index_dir: Path, err: Exception) -> IndexError_:
    """The error of a version that could not be written: the live one (if any) stays live."""
    why = err.strerror if isinstance(err, OSError) and err.strerror else str(err).split(", /", 1)[0]
    return IndexError_(f"cannot write the new index version in {index_dir}: {why}; "
                       "the previous version (if any) stays live")


def _dim_of(pages: list[PageRecord]) -> int:
    for p in pages:
        for v in (p.snippet_vectors, p.media_vectors):
            if v.ndim == 2 and v.shape[0]:
                return int(v.shape[1])
    return 0


def _stack(parts: list[np.ndarray], dim: int) -> np.ndarray:
    parts = [np.asarray(p, dtype=np.float32).reshape(-1, dim) for p in parts if len(p)]
    return np.concatenate(parts) if parts else np.zeros((0, dim), dtype=np.float32)
