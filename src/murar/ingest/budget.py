"""Per-file budgets of an ingest: bytes, sections, snippets and seconds.

One hostile or huge file must not stop or swamp an ingest (issue 11: a 50 MB
Markdown page ran ``murar ingest`` past 9 minutes; a YAML bomb hung it). Each
limit of :class:`FileBudget` is checked per file; a file that hits one is cut
or skipped, the hit is reported in the ingest report with the option that
raises it, and the rest of the corpus continues.

Seconds are enforced by converting files in a worker process
(:class:`ForkedRunner`, forked from a clean fork server, never from the caller's
possibly multi-threaded process; the converter must be picklable): a conversion that exceeds ``max_seconds`` (a hung
parser, a regular expression gone quadratic, a native library stuck in a loop)
has its process killed and the file reported as failed; a worker that dies
(segfault, out of memory) is restarted for the next file. Where ``fork`` is
not available, or ``max_seconds <= 0``, files convert in-process with no time
limit (:class:`InlineRunner`).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import sys
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, Protocol

from murar.errors import IngestError, MissingExtraError
from murar.schema import ParsedDocument

__all__ = [
    "ConversionRunner",
    "ConverterCrash",
    "FileBudget",
    "FileBudgetExceeded",
    "ForkedRunner",
    "InlineRunner",
    "apply_media_budget",
    "apply_section_budget",
    "make_runner",
    "size_problem",
]

#: how worker processes start (see :meth:`ForkedRunner._start`)
_START_METHOD = "forkserver"

Convert = Callable[[Path, str | None], ParsedDocument]
"""A converter call: ``(path, markup)`` -> document (markup as classified by the site)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class FileBudget:
    """Limits of the work one file may cause (0 disables a limit).

    ``max_bytes``: larger files are skipped unread (bytes on disk;
    ``--max-file-bytes``). ``max_sections``: sections kept per file, the rest
    dropped with a warning (``--max-file-sections``). ``max_snippets``: snippets
    kept per file (``--max-file-snippets``). ``max_media``: images, tables and
    videos kept per file, the first in page order (``--max-file-media``; each is
    embedded: a 477 KB page of 5,000 pictures took 482 s to embed with MiniLM,
    five times that with mpnet, the largest page of the shared corpora holds
    1,576). ``max_seconds``: wall-clock seconds for converting one file before
    its worker is killed (``--max-file-seconds``).
    """

    max_bytes: int = 50_000_000
    max_sections: int = 2_000
    max_snippets: int = 2_000
    max_media: int = 2_000
    max_seconds: float = 180.0


class FileBudgetExceeded(IngestError):
    """A file went over its time budget (the conversion was stopped)."""


class ConverterCrash(IngestError):
    """A converter raised an unexpected exception or its worker process died.

    ``detail`` holds the traceback text when there is one (for logs, not users).
    """

    def __init__(self, message: str, detail: str = "") -> None:
        super().__init__(message)
        self.detail = detail


class ConversionRunner(Protocol):
    """Runs one conversion at a time; ``close()`` releases any worker."""

    def run(self, path: Path, markup: str | None = None) -> ParsedDocument: ...

    def close(self) -> None: ...


class InlineRunner:
    """Converts in the calling process (no time limit)."""

    def __init__(self, convert: Convert) -> None:
        self._convert = convert

    def run(self, path: Path, markup: str | None = None) -> ParsedDocument:
        return self._convert(path, markup)

    def close(self) -> None:
        pass


def _serve(convert: Convert, conn: Connection) -> None:
    """Worker loop: say ``("ready", None)`` once, then receive a path, send back ``(kind, payload)``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    try:
        conn.send(("ready", None))  # the parent starts a file's clock only once the worker runs
    except OSError:
        return
    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            return
        if msg is None:
            return
        reply: tuple[str, Any]
        try:
            reply = ("ok", convert(Path(msg[0]), msg[1]))
        except MissingExtraError as err:
            reply = ("extra", (err.package, err.extra))
        except IngestError as err:
            reply = ("ingest", str(err))
        except BaseException as err:  # noqa: BLE001 - reported to the parent, never lost
            reply = ("bug", (f"{type(err).__name__}: {err}"[:2000], traceback.format_exc()[-8000:]))
        try:
            conn.send(reply)
        except (BrokenPipeError, ConnectionResetError, EOFError):
            return  # the parent is gone (Ctrl-C, killed): nothing to report to, no traceback
        except Exception as err:  # noqa: BLE001 - e.g. an unpicklable result
            try:
                conn.send(("bug", (f"result could not be returned ({type(err).__name__}: {err})"[:2000], "")))
            except OSError:
                return


@contextlib.contextmanager
def _caller_script_not_rerun() -> Iterator[None]:
    """Start a worker without multiprocessing re-running the caller's script in it.

    A forkserver/spawn child re-imports ``__main__`` from its file; a script that calls
    :func:`murar.build_index` at top level (the README example, no ``if __name__ ==
    "__main__":`` guard) then ran the whole ingest again inside every worker, which
    died on the index lock: every page "converter process died". The worker needs
    only murar, so ``__main__.__file__`` is hidden while the process starts.
    """
    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None)
    if main is None or path is None or getattr(main, "__spec__", None) is not None:
        yield  # `python -m ...` (spec set) is never re-run; nothing to hide
        return
    del main.__file__
    try:
        yield
    finally:
        main.__file__ = path


START_SECONDS = 120.0
"""How long a new converter worker may take to start before the file is reported as failed."""


class ForkedRunner:
    """Converts each file in a forked worker process with a wall-clock limit.

    The worker is started on first use and reused for the next files; it is
    killed (and later restarted) when a file exceeds ``max_seconds``. A file's
    clock starts when the worker is up: a restart's start-up time is not counted.

    Raises (from :meth:`run`):
        FileBudgetExceeded: the conversion took longer than ``max_seconds``.
        ConverterCrash: the converter raised an unexpected exception or the
            worker died (its exit code or signal is in the message).
        IngestError, MissingExtraError: as raised by the converter.
    """

    def __init__(self, convert: Convert, *, max_seconds: float) -> None:
        self._convert = convert
        self.max_seconds = max_seconds
        self._proc: Any = None
        self._conn: Connection | None = None

    def _start(self) -> Connection:
        # forkserver, not fork: the caller may run threads (rich's progress refresh,
        # onnxruntime or llama.cpp pools, a web server); a fork taken while one of
        # them holds a lock leaves the worker deadlocked on its first log line or
        # import. The fork server is a fresh interpreter (murar preloaded), so every
        # worker forked from it starts clean; ``convert`` travels by pickle.
        ctx: Any = multiprocessing.get_context(_START_METHOD)
        if _START_METHOD == "forkserver":
            ctx.set_forkserver_preload(["murar.ingest.corpus", "murar.testing.fuzz"])
        pipe: tuple[Connection, Connection] = ctx.Pipe()
        parent, child = pipe
        proc = ctx.Process(target=_serve, args=(self._convert, child), daemon=True, name="murar-convert")
        with _caller_script_not_rerun():
            proc.start()
        child.close()
        self._proc, self._conn = proc, parent
        return parent

    def _stop(self, *, kill: bool) -> None:
        proc, conn = self._proc, self._conn
        self._proc = self._conn = None
        if conn is not None:
            if not kill:
                try:
                    conn.send(None)
                except OSError:
                    pass
            conn.close()
        if proc is not None:
            if kill and proc.is_alive():
                proc.kill()
            proc.join(timeout=5)
            if proc.is_alive():
                proc.kill()
                proc.join(timeout=5)

    def _ready(self, conn: Connection) -> None:
        """Wait for a new worker's ``ready``: starting a process (a fork from the fork
        server, imports) is not the next file's conversion time, and on a loaded machine
        it can take longer than a small budget.

        Raises:
            ConverterCrash: the worker died or did not start within :data:`START_SECONDS`.
        """
        try:
            if conn.poll(START_SECONDS) and conn.recv()[0] == "ready":
                return
        except (EOFError, OSError):
            pass
        code = self._proc.exitcode if self._proc is not None else None
        self._stop(kill=True)
        raise ConverterCrash(f"converter process did not start within {START_SECONDS:g} s (exit code {code})")

    def run(self, path: Path, markup: str | None = None) -> ParsedDocument:
        conn = self._conn if self._proc is not None and self._proc.is_alive() else None
        if conn is None:
            self._stop(kill=True)
            conn = self._start()
            self._ready(conn)
        try:
            conn.send((str(path), markup))
            ready = conn.poll(self.max_seconds)
        except (OSError, EOFError):
            ready = True  # the worker is gone; recv below reports it
        if not ready:
            self._stop(kill=True)
            raise FileBudgetExceeded(
                f"conversion stopped after {self.max_seconds:g} s (per-file time budget; --max-file-seconds)"
            )
        try:
            kind, payload = conn.recv()
        except (EOFError, OSError) as err:
            code = None
            if self._proc is not None:
                self._proc.join(timeout=5)
                code = self._proc.exitcode
            self._stop(kill=True)
            how = f"signal {-code}" if isinstance(code, int) and code < 0 else f"exit code {code}"
            raise ConverterCrash(f"converter process died ({how})") from err
        if kind == "ok":
            doc: ParsedDocument = payload
            return doc
        if kind == "ingest":
            raise IngestError(payload)
        if kind == "extra":
            raise MissingExtraError(*payload)
        message, detail = payload
        raise ConverterCrash(message, detail)

    def close(self) -> None:
        self._stop(kill=False)


def make_runner(convert: Convert, budget: FileBudget) -> ConversionRunner:
    """A :class:`ForkedRunner` when ``budget.max_seconds > 0`` and a fork server exists, else inline."""
    if budget.max_seconds > 0 and hasattr(os, "fork") and _START_METHOD in multiprocessing.get_all_start_methods():
        return ForkedRunner(convert, max_seconds=budget.max_seconds)
    return InlineRunner(convert)


def apply_section_budget(doc: ParsedDocument, budget: FileBudget) -> str | None:
    """Keep the first ``budget.max_sections`` sections of ``doc`` (and their media).

    Returns the warning to report when sections were dropped, else ``None``.
    """
    limit = budget.max_sections
    if limit <= 0 or len(doc.sections) <= limit:
        return None
    total = len(doc.sections)
    doc.sections = doc.sections[:limit]
    kept = {s.id for s in doc.sections}
    doc.media = [m for m in doc.media if m.section_id in kept]
    return f"section budget hit: kept {limit} of {total} sections (--max-file-sections)"


def apply_media_budget(doc: ParsedDocument, budget: FileBudget) -> str | None:
    """Keep the first ``budget.max_media`` media items of ``doc`` (page order).

    Returns the warning to report when items were dropped, else ``None``.
    """
    limit = budget.max_media
    if limit <= 0 or len(doc.media) <= limit:
        return None
    total = len(doc.media)
    doc.media = doc.media[:limit]
    return f"media budget hit: kept {limit} of {total} images, tables and videos (--max-file-media)"


def size_problem(path: Path, budget: FileBudget) -> str | None:
    """Why ``path`` is skipped unread under ``budget.max_bytes``, else ``None``."""
    if budget.max_bytes <= 0:
        return None
    try:
        size = path.stat().st_size
    except OSError as err:
        return f"cannot stat: {err}"
    if size > budget.max_bytes:
        return f"{size} bytes exceed the per-file budget of {budget.max_bytes} bytes (--max-file-bytes); not read"
    return None


class PageCharBudget:
    """Characters, and optionally texts, that a page's includes, partials, snippets and rendered
    templates may still bring in.

    Per-file limits bound each included file; this bounds their sum, so one small page
    cannot pull a large file in many times (a 898-byte reST page including a 980 KB file
    40 times ran 94 s). ``limit`` is in characters; ``items``, when not 0, is how many texts the
    page may bring in (an MDX partial or a Hugo include using the next one ten times, a few levels
    deep, is 10**depth small texts). :meth:`spend` refuses a text that would take the page over
    either limit, and every later one (:attr:`spent`); the first refusal appends one warning,
    ``warning`` formatted with ``what`` (the name :meth:`spend` was given), ``limit`` and ``items``.
    """

    __slots__ = ("items", "items_left", "left", "limit", "spent", "warning")

    def __init__(self, limit: int, warning: str, *, items: int = 0) -> None:
        self.limit = limit
        self.left = limit
        self.items = items
        self.items_left = items
        self.warning = warning
        #: True once a text was refused (the later ones are refused unread)
        self.spent = False

    def spend(self, text: str, what: str, warnings: list[str]) -> bool:
        """Charge ``text`` (brought in by ``what``); ``False`` when the page is over its budget."""
        return self.spend_chars(len(text), what, warnings)

    def spend_chars(self, chars: int, what: str, warnings: list[str], *, item: bool = True) -> bool:
        """Charge one text of ``chars`` characters (brought in by ``what``); ``False`` when it does not fit.
        ``item=False``: a text the page writes itself (a template's output), charged in characters only,
        not as one of the ``items``."""
        if self.spent:
            return False
        if chars <= self.left and (not item or self.items <= 0 or self.items_left > 0):
            self.left -= chars
            if item:
                self.items_left -= 1
            return True
        self.spent = True
        warnings.append(self.warning.format(what=what, limit=self.limit, items=self.items))
        return False
