"""murar: multimodal answers over documentation, and their evaluation.

Implements MuRAR (multimodal retrieval and answer refinement), context-aware
captions with answer-based image selection, and the MiRAGE metrics.

The Python API (everything in ``__all__``; heavy modules load on first use, so
``import murar`` stays fast)::

    import murar

    report = murar.build_index("docs/", "idx")               # like `murar ingest docs/ --index idx`
    assistant = murar.Assistant("idx", llm="bundled")        # or "extractive", "openai", ...
    answer = assistant.ask("How do I add a custom event to a journey?")
    print(answer.markdown())                                 # answer.html(), answer.blocks, answer.sources
    for event in assistant.stream("..."):                    # StageEvent, TokenEvent, FinalAnswerEvent
        ...
    hits = assistant.search("custom event", k=5)             # snippets with their section's media
    answer = murar.illustrate(text, "idx", sources=hits)     # any text answer -> multimodal answer
    run = assistant.evaluate("dev.jsonl", limit=10)          # media, retrieval and MiRAGE metrics
    assistant = murar.Assistant.from_config()                # murar.toml / MURAR_* like the CLI

``murar.ingest``, ``murar.answer``, ``murar.eval``... remain the subpackages.
Errors derive from :class:`murar.MurarError` (tree in :mod:`murar.errors`).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from murar.errors import (
    ConfigError,
    EmbeddingError,
    IndexError_,
    IndexNotFoundError,
    IngestError,
    LLMConnectionError,
    LLMError,
    MissingExtraError,
    ModelError,
    MurarError,
    UnsafePathError,
)

__version__ = "0.1.0"

if TYPE_CHECKING:
    from murar.answer.media import MediaOptions
    from murar.answer.pipeline import PipelineConfig
    from murar.answer.strategies import AnswerBasedOptions
    from murar.api.answer import (
        Answer,
        FinalAnswerEvent,
        MediaEvent,
        PipelineEvent,
        StageEvent,
        StreamEvent,
        TokenEvent,
    )
    from murar.api.assistant import Assistant, SearchHit, illustrate
    from murar.api.build import ProgressCallback, build_index
    from murar.config import MurarConfig, load_config
    from murar.eval.media_metrics import GoldQuestion, load_gold
    from murar.eval.report import write_run_report
    from murar.eval.run import EvalRun, evaluate_service
    from murar.eval.scorer import MirageResult, MirageScorer
    from murar.ingest.chunking import ChunkingOptions
    from murar.ingest.corpus import IngestReport
    from murar.server.config import ServerConfig

_LAZY: dict[str, str] = {
    # API
    "Answer": "murar.api.answer",
    "Assistant": "murar.api.assistant",
    "FinalAnswerEvent": "murar.api.answer",
    "MediaEvent": "murar.api.answer",
    "PipelineEvent": "murar.api.answer",
    "ProgressCallback": "murar.api.build",
    "SearchHit": "murar.api.assistant",
    "StageEvent": "murar.api.answer",
    "StreamEvent": "murar.api.answer",
    "TokenEvent": "murar.api.answer",
    "build_index": "murar.api.build",
    "illustrate": "murar.api.assistant",
    "IngestReport": "murar.ingest.corpus",
    # configuration dataclasses
    "AnswerBasedOptions": "murar.answer.strategies",
    "ChunkingOptions": "murar.ingest.chunking",
    "MediaOptions": "murar.answer.media",
    "PipelineConfig": "murar.answer.pipeline",
    "ServerConfig": "murar.server.config",
    "MurarConfig": "murar.config",
    "load_config": "murar.config",
    # evaluation
    "EvalRun": "murar.eval.run",
    "GoldQuestion": "murar.eval.media_metrics",
    "MirageResult": "murar.eval.scorer",
    "MirageScorer": "murar.eval.scorer",
    "evaluate_service": "murar.eval.run",
    "load_gold": "murar.eval.media_metrics",
    "write_run_report": "murar.eval.report",
}


def __getattr__(name: str) -> Any:
    """Load the public names lazily (``import murar`` must not load onnxruntime, lancedb or llama.cpp)."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'murar' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


__all__ = [
    "Answer",
    "AnswerBasedOptions",
    "Assistant",
    "ChunkingOptions",
    "ConfigError",
    "EmbeddingError",
    "EvalRun",
    "FinalAnswerEvent",
    "GoldQuestion",
    "IndexError_",
    "IndexNotFoundError",
    "IngestError",
    "IngestReport",
    "LLMConnectionError",
    "LLMError",
    "MediaEvent",
    "MediaOptions",
    "MirageResult",
    "MirageScorer",
    "MissingExtraError",
    "ModelError",
    "MurarConfig",
    "MurarError",
    "PipelineConfig",
    "PipelineEvent",
    "ProgressCallback",
    "SearchHit",
    "ServerConfig",
    "StageEvent",
    "StreamEvent",
    "TokenEvent",
    "UnsafePathError",
    "__version__",
    "build_index",
    "evaluate_service",
    "illustrate",
    "load_config",
    "load_gold",
    "write_run_report",
]
