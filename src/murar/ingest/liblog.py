"""Warnings that parsing libraries log, moved into the ingest report.

pdfminer (under pdfplumber) logs what it finds wrong in a damaged PDF
("Could not get FontBBox", "Invalid dictionary construct", ...) through
:mod:`logging`; with no handler configured they reach stderr through
logging's last-resort handler, from a conversion worker, between progress
bars, with no file name. Inside :func:`library_warnings` the records of the
named loggers emitted *by the calling thread* are collected instead: one line
per distinct message with its count, capped, so they end up in the file's
``ParsedDocument.warnings`` and so in the ingest report.
"""

from __future__ import annotations

import logging
import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager

MAX_DISTINCT = 10  # distinct messages kept per block; the rest are counted in one line
MAX_MESSAGE_CHARS = 200


class _Collector(logging.Handler):
    def __init__(self, thread: int) -> None:
        super().__init__(logging.WARNING)
        self.thread = thread
        self.counts: Counter[tuple[str, str]] = Counter()  # (library, message) -> records

    def emit(self, record: logging.LogRecord) -> None:
        if record.thread != self.thread:  # another thread's record: on to the root's handlers as before
            logging.getLogger().callHandlers(record)
            return
        try:
            message = record.getMessage()
        except Exception:  # noqa: BLE001 - a library's broken format string is still a warning
            message = str(record.msg)
        self.counts[record.name.split(".")[0], " ".join(message.split())[:MAX_MESSAGE_CHARS]] += 1


@contextmanager
def library_warnings(sink: list[str], loggers: tuple[str, ...] = ("pdfminer",)) -> Iterator[None]:
    """Collect WARNING-and-above records of ``loggers`` (and their children) logged
    by this thread inside the block, and append them to ``sink`` when it ends.

    Each distinct message becomes one line ``"<library>: <message>"`` with
    ``" (N times)"`` when repeated; at most :data:`MAX_DISTINCT` lines, then one
    line counting the rest and naming the libraries they came from. While the
    block runs those loggers do not propagate (nothing of this thread reaches
    stderr); handlers and propagation are restored afterwards. Records of other threads go on to the root logger's handlers as before.
    """
    collector = _Collector(threading.get_ident())
    saved: list[tuple[logging.Logger, bool]] = []
    for name in loggers:
        lg = logging.getLogger(name)
        saved.append((lg, lg.propagate))
        lg.addHandler(collector)
        lg.propagate = False
    try:
        yield
    finally:
        for lg, propagate in saved:
            lg.removeHandler(collector)
            lg.propagate = propagate
        items = collector.counts.most_common()
        for (library, message), n in items[:MAX_DISTINCT]:
            sink.append(f"{library}: {message}" if n == 1 else f"{library}: {message} ({n} times)")
        if len(items) > MAX_DISTINCT:
            rest = sum(n for _, n in items[MAX_DISTINCT:])
            libraries = ", ".join(dict.fromkeys(key[0] for key, _ in items[MAX_DISTINCT:]))
            sink.append(f"{libraries}: {rest} more warning(s) of {len(items) - MAX_DISTINCT} other kinds")
