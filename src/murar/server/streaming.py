"""Bridge a blocking pipeline stream into the event loop, and SSE framing.

:func:`stream_in_thread` runs ``service.stream(question)`` in its own worker
thread and hands the events to the event loop through an asyncio queue. The
worker owns the gate slot: it releases it when the pipeline has finished, even
if the HTTP client went away, so the model is never used by two requests at
once. When the consumer stops early, the worker closes the pipeline generator
at the next event.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

from murar.answer.service import AnswerEvent
from murar.errors import MurarError
from murar.server.gate import Slot

log = logging.getLogger(__name__)

_END = object()


def sse(data: Any, *, event: str | None = None) -> str:
    """One server-sent event: optional ``event:`` line, JSON ``data:``, blank line."""
    payload = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False)
    lines = [f"event: {event}"] if event else []
    lines += [f"data: {line}" for line in payload.split("\n")]
    return "\n".join(lines) + "\n\n"


def sse_comment(text: str = "keep-alive") -> str:
    """An SSE comment line; clients ignore it, proxies see traffic."""
    return f": {text}\n\n"


class ThreadedStream:
    """Events of a blocking iterator, consumed asynchronously.

    Args:
        make_iter: called in the worker thread; returns the event iterator.
        slot: the gate slot, released by the worker when it ends.
        loop: the event loop that consumes the events.
    """

    def __init__(
        self,
        make_iter: Callable[[], Iterator[AnswerEvent]],
        *,
        slot: Slot,
        loop: asyncio.AbstractEventLoop,
    ) -> None:
        self._make_iter = make_iter
        self._slot = slot
        self._loop = loop
        self._queue: asyncio.Queue[object] = asyncio.Queue()
        self._cancel = threading.Event()
        self._thread = threading.Thread(
            target=self._run, name="murar-stream", daemon=True
        )

    def start(self) -> None:
        """Start the worker thread (once)."""
        self._thread.start()

    def cancel(self) -> None:
        """Ask the worker to stop at the next event (the consumer went away)."""
        self._cancel.set()

    def pending(self) -> bool:
        """Whether more events are ready to be consumed without waiting."""
        return not self._queue.empty()

    async def coalesce(self, parts: AsyncIterator[str]) -> AsyncIterator[str]:
        """Join the strings of ``parts`` while more events are already queued, so
        a burst of tokens goes out in one write instead of one write each."""
        buffer: list[str] = []
        async for part in parts:
            buffer.append(part)
            if not self.pending():
                yield "".join(buffer)
                buffer.clear()
        if buffer:
            yield "".join(buffer)

    def _put(self, item: object) -> None:
        try:
            self._loop.call_soon_threadsafe(self._queue.put_nowait, item)
        except RuntimeError:  # loop closed: nobody listens any more
            self._cancel.set()

    def _run(self) -> None:
        it: Iterator[AnswerEvent] | None = None
        try:
            it = self._make_iter()
            for event in it:
                self._put(event)
                if self._cancel.is_set() or event.type in ("answer", "error"):
                    break
        except Exception as err:  # noqa: BLE001 - reported to the client as an error event
            self._put(AnswerEvent(type="error", text=_error_text(err)))
        finally:
            close = getattr(it, "close", None)
            if close is not None:
                try:
                    close()
                except Exception:  # noqa: BLE001, S110 - closing a finished generator
                    pass
            self._slot.release()
            self._put(_END)

    async def events(
        self, *, keepalive_s: float | None = None
    ) -> AsyncIterator[AnswerEvent | None]:
        """Yield events as they arrive; ``None`` every ``keepalive_s`` of silence.

        Ends after the worker has finished. Closing this iterator early cancels
        the worker.
        """
        try:
            while True:
                if not self._queue.empty():
                    item = self._queue.get_nowait()
                else:
                    try:
                        item = await asyncio.wait_for(
                            self._queue.get(), timeout=keepalive_s
                        )
                    except TimeoutError:
                        yield None
                        continue
                if item is _END:
                    return
                assert isinstance(item, AnswerEvent)
                yield item
        finally:
            self.cancel()


def _error_text(err: BaseException) -> str:
    """A message safe to show to a client: murar's own errors name the input and
    the fix; anything else is logged and reported without internals."""
    if isinstance(err, MurarError):
        return (str(err) or type(err).__name__)[:500]
    log.error("answer stream failed", exc_info=err)
    return "internal error while answering (see the server log)"
