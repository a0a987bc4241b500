"""The public Python API, re-exported by :mod:`murar` (import it from there).

- :func:`build_index` — ``murar ingest`` as a function.
- :class:`Assistant` — ``ask``, ``stream``, ``search``, ``illustrate``, ``evaluate`` over one index.
- :func:`illustrate` — any text answer to a multimodal answer.
- :class:`Answer` and the stream events.
"""

from murar.api.answer import (
    Answer,
    FinalAnswerEvent,
    MediaEvent,
    PipelineEvent,
    StageEvent,
    StreamEvent,
    TokenEvent,
)
from murar.api.assistant import SNIPPET_ID_KEY, Assistant, SearchHit, illustrate
from murar.api.build import ProgressCallback, build_index

__all__ = [
    "SNIPPET_ID_KEY",
    "Answer",
    "Assistant",
    "FinalAnswerEvent",
    "MediaEvent",
    "PipelineEvent",
    "ProgressCallback",
    "SearchHit",
    "StageEvent",
    "StreamEvent",
    "TokenEvent",
    "build_index",
    "illustrate",
]
