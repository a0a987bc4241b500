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

from murar.schema import Answer, MediaBlock


@dataclass(slots=True, kw_only=True)
class AnswerEvent:
    """One event of a streamed answer.

    - ``stage``: a pipeline stage started; ``name`` is one of ``retrieve``,
      ``generate``, ``attribute``, ``media``, ``refine``, ``render``.
    - ``token``: a piece of the text answer (``text``). ``name="answer"`` (the
      ``streamed`` path): the pieces are final; joined, and cut where ``media``
      events came, they are exactly the text blocks of the final answer.
      ``name="draft"`` (the ``three-call`` path; also ``""``): pieces of the draft,
      which refinement then rewrites.
    - ``media``: a media block (``block``) placed right after answer sentence
      ``index`` (0-based), sent as soon as that sentence is complete (streamed path).
    - ``answer``: the final multimodal answer (``answer``), always the last event.
    - ``error``: the pipeline failed; ``text`` is the message, ``error`` the exception.
    """

    type: Literal["stage", "token", "media", "answer", "error"]
    name: str = ""
    text: str = ""
    answer: Answer | None = None
    error: Exception | None = None
    block: MediaBlock | None = None
    index: int = -1


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
