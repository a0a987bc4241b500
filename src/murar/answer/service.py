"""The contract between the answering pipeline and its front ends (CLI, HTTP).

:class:`AnswerService` is what :class:`murar.answer.pipeline.Pipeline`
implements; the server and the evaluation code depend on this protocol only,
so they can be tested with a fake service.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol, runtime_checkable

from murar.schema import Answer


@dataclass(slots=True, kw_only=True)
class AnswerEvent:
    """One event of a streamed answer.

    - ``stage``: a pipeline stage started; ``name`` is one of ``retrieve``,
      ``generate``, ``attribute``, ``media``, ``refine``, ``render``.
    - ``token``: a piece of the text answer as the generator writes it (``text``).
    - ``answer``: the final multimodal answer (``answer``), always the last event.
    - ``error``: the pipeline failed; ``text`` is the message, ``error`` the exception.
    """

    type: Literal["stage", "token", "answer", "error"]
    name: str = ""
    text: str = ""
    answer: Answer | None = None
    error: Exception | None = None


@dataclass(slots=True, kw_only=True)
class IndexStats:
    """Counts of what an index holds, and the models it was built with."""

    pages: int
    sections: int
    snippets: int
    images: int
    tables: int
    videos: int
    embedder: str
    corpus_root: str
    built_at: str
    extra: dict[str, Any] = field(default_factory=dict)


@runtime_checkable
class AnswerService(Protocol):
    """Answers questions over one index.

    ``answer`` runs the whole MuRAR pipeline; ``stream`` yields
    :class:`AnswerEvent` while it runs (the last event is ``answer`` or
    ``error``); ``media_file`` returns the absolute path of a local image file
    that belongs to the index, or ``None`` (unknown id, remote or missing file)
    — front ends must serve only paths returned from here.
    """

    def answer(self, question: str) -> Answer: ...

    def stream(self, question: str) -> Iterator[AnswerEvent]: ...

    def media_file(self, media_id: str) -> Path | None: ...

    def stats(self) -> IndexStats: ...
