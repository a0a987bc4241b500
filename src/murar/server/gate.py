"""Bounded access to the shared model runtime.

One llama.cpp context (or any single-model runtime) answers one prompt at a
time, so every pipeline call passes through a :class:`WorkerGate`: at most
``max_concurrency`` calls run, at most ``max_queue`` wait, and none waits longer
than ``max_wait_s``. A request that cannot get a slot raises :class:`Overloaded`,
which the app turns into ``503 Service Unavailable`` with ``Retry-After``: an
overloaded server says so instead of hanging.

The gate lives in the event loop (asyncio); the pipeline itself runs in worker
threads, and a slot is released by whoever holds it (the request handler for a
plain answer, the worker thread for a stream), so a client that disconnects
never leaks a slot nor frees it while the model is still busy.
"""

from __future__ import annotations

import asyncio
import math
import threading
import time
from dataclasses import dataclass

from murar.errors import MurarError


class Overloaded(MurarError):
    """No worker slot is free and the queue is full, or the wait timed out.

    ``retry_after_s`` is the number of whole seconds after which a retry is
    likely to be served.
    """

    def __init__(self, reason: str, retry_after_s: int) -> None:
        self.reason = reason
        self.retry_after_s = retry_after_s
        super().__init__(f"server overloaded ({reason}); retry after {retry_after_s} s")


@dataclass(slots=True, kw_only=True)
class GateStats:
    """A snapshot of the gate: slots in use, requests waiting, totals."""

    max_concurrency: int
    max_queue: int
    active: int
    waiting: int
    served: int
    rejected_queue_full: int
    rejected_timeout: int
    mean_service_s: float | None


class Slot:
    """A held worker slot; :meth:`release` is idempotent and thread-safe."""

    def __init__(self, gate: WorkerGate, started: float) -> None:
        self._gate = gate
        self._started = started
        self._lock = threading.Lock()
        self._released = False

    def release(self) -> None:
        """Give the slot back (from any thread). Calling it twice is harmless."""
        with self._lock:
            if self._released:
                return
            self._released = True
        self._gate._release_threadsafe(time.monotonic() - self._started)


class WorkerGate:
    """A semaphore with a bounded queue and a bounded wait.

    Args:
        max_concurrency: slots that may be held at once (>= 1).
        max_queue: callers allowed to wait for a slot (>= 0).
        max_wait_s: seconds a caller waits before :class:`Overloaded`.
        default_retry_after_s: ``Retry-After`` before any service time is measured.
    """

    def __init__(
        self,
        *,
        max_concurrency: int,
        max_queue: int,
        max_wait_s: float,
        default_retry_after_s: int = 5,
    ) -> None:
        self.max_concurrency = max_concurrency
        self.max_queue = max_queue
        self.max_wait_s = max_wait_s
        self._default_retry = default_retry_after_s
        self._sem: asyncio.Semaphore | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._active = 0
        self._waiting = 0
        self._served = 0
        self._rejected_full = 0
        self._rejected_timeout = 0
        self._ewma_s: float | None = None

    def _semaphore(self) -> asyncio.Semaphore:
        loop = asyncio.get_running_loop()
        if self._sem is None or self._loop is not loop:
            # One gate per event loop; created lazily so the constructor does no I/O
            # and the app can be built outside a running loop.
            self._sem = asyncio.Semaphore(self.max_concurrency)
            self._loop = loop
            self._active = 0
            self._waiting = 0
        return self._sem

    def retry_after(self) -> int:
        """Seconds until a slot is likely free: mean service time x queue depth."""
        if self._ewma_s is None:
            return self._default_retry
        depth = (self._active + self._waiting) / self.max_concurrency
        return max(1, min(300, math.ceil(self._ewma_s * max(depth, 1.0))))

    async def acquire(self) -> Slot:
        """Wait for a slot (bounded); the caller must :meth:`Slot.release` it.

        Raises:
            Overloaded: when ``max_queue`` callers already wait, or after
                ``max_wait_s`` seconds without a free slot.
        """
        sem = self._semaphore()
        if (sem.locked() or self._waiting > 0) and self._waiting >= self.max_queue:
            self._rejected_full += 1
            raise Overloaded("queue full", self.retry_after())
        self._waiting += 1
        try:
            await asyncio.wait_for(sem.acquire(), timeout=self.max_wait_s)
        except TimeoutError:
            self._rejected_timeout += 1
            raise Overloaded(
                f"no worker free within {self.max_wait_s:g} s", self.retry_after()
            ) from None
        finally:
            self._waiting -= 1
        self._active += 1
        return Slot(self, time.monotonic())

    def _release_threadsafe(self, service_s: float) -> None:
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            self._release(service_s)
        else:
            loop.call_soon_threadsafe(self._release, service_s)

    def _release(self, service_s: float) -> None:
        self._active -= 1
        self._served += 1
        self._ewma_s = (
            service_s if self._ewma_s is None else 0.8 * self._ewma_s + 0.2 * service_s
        )
        assert self._sem is not None
        self._sem.release()

    def stats(self) -> GateStats:
        """The current counts (read from the event loop thread)."""
        return GateStats(
            max_concurrency=self.max_concurrency,
            max_queue=self.max_queue,
            active=self._active,
            waiting=self._waiting,
            served=self._served,
            rejected_queue_full=self._rejected_full,
            rejected_timeout=self._rejected_timeout,
            mean_service_s=None if self._ewma_s is None else round(self._ewma_s, 4),
        )
