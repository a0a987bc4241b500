"""``murar eval run``: answer gold questions with an AnswerService and measure everything.

For each question of a gold file (``dev.jsonl`` format) the injected
:class:`~murar.answer.service.AnswerService` answers; then

- media metrics (:mod:`murar.eval.media_metrics`) and retrieval metrics
  (:mod:`murar.eval.retrieval_metrics`) against the gold;
- MiRAGE (:mod:`murar.eval.scorer`): the answer is decomposed into subclaims;
  *reference mode* uses the gold ``answer_points`` as the reference subclaims
  and text; *collection mode* judges against the retrieved snippets and the
  chosen media (media through their text representation). CiteP/CiteR use
  the answer's ``[n]`` citations.

:func:`evaluate_service` returns an :class:`EvalRun` that
:mod:`murar.eval.report` writes as Markdown, HTML and JSON.
"""

from __future__ import annotations

import platform
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

from murar.eval.claims import Decomposer, claimed_answer_from_answer
from murar.eval.media_metrics import (
    GoldQuestion,
    MediaScores,
    MediaSummary,
    score_media,
    summarise_media,
)
from murar.eval.mirage import PRF, MacroPRF, macro_average
from murar.eval.retrieval_metrics import (
    RetrievalScores,
    RetrievalSummary,
    score_retrieval,
    summarise_retrieval,
)
from murar.eval.scorer import MirageResult, MirageScorer, Reference, Source
from murar.schema import Answer

__all__ = ["Answerer", "EvalRun", "QuestionResult", "evaluate_service"]


@dataclass(slots=True, kw_only=True)
class QuestionResult:
    """Everything measured for one question; ``error`` is set when answering failed."""

    question: GoldQuestion
    answer: Answer | None
    media: MediaScores | None = None
    retrieval: RetrievalScores | None = None
    mirage_reference: MirageResult | None = None
    mirage_collection: MirageResult | None = None
    seconds: float = 0.0
    error: str | None = None


@dataclass(slots=True, kw_only=True)
class EvalRun:
    """A whole evaluation run. ``meta`` records models, prompt versions, seed,
    versions and timestamps (reproducibility)."""

    meta: dict[str, Any]
    results: list[QuestionResult]
    media: MediaSummary | None
    retrieval: RetrievalSummary | None
    info_reference: MacroPRF | None
    cite_reference: MacroPRF | None
    info_collection: MacroPRF | None
    cite_collection: MacroPRF | None
    notes: list[str] = field(default_factory=list)


def _macro(scores: Sequence[PRF | None]) -> MacroPRF | None:
    vals = [s for s in scores if s is not None]
    return macro_average(vals) if vals else None


class Answerer(Protocol):
    """What :func:`evaluate_service` needs of a service: ``answer`` (every
    :class:`~murar.answer.service.AnswerService` has it; so may a wrapper that times one)."""

    def answer(self, question: str) -> Answer: ...


def evaluate_service(
    service: Answerer,
    questions: Sequence[GoldQuestion],
    *,
    scorer: MirageScorer | None,
    decomposer: Decomposer,
    corpus_root: str | Path | None = None,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
    meta: dict[str, Any] | None = None,
) -> EvalRun:
    """Answer ``questions`` with ``service`` and score the answers.

    ``scorer=None`` skips MiRAGE (media and retrieval metrics only).
    Answering errors are recorded per question, never raised.
    """
    random.seed(seed)
    results: list[QuestionResult] = []
    notes: set[str] = set()
    for n, q in enumerate(questions, 1):
        t0 = time.perf_counter()
        try:
            answer = service.answer(q.question)
        except Exception as err:  # noqa: BLE001 - one failing question must not stop the run
            results.append(QuestionResult(question=q, answer=None, error=f"{type(err).__name__}: {err}",
                                          seconds=time.perf_counter() - t0))
            continue
        res = QuestionResult(question=q, answer=answer, seconds=time.perf_counter() - t0)
        res.media = score_media(answer, q, corpus_root)
        res.retrieval = score_retrieval(answer, q)
        if scorer is not None:
            claimed = claimed_answer_from_answer(answer, decomposer)
            if q.answer_points:
                ref = Reference(text=" ".join(q.answer_points), claims=list(q.answer_points))
                res.mirage_reference = scorer.score(claimed, mode="reference", reference=ref)
            sources = [Source.from_snippet(s.snippet) for s in answer.sources]
            sources += [Source.from_media(b.item) for b in answer.media]
            if sources:
                ref_c = (Reference(text=" ".join(q.answer_points), claims=list(q.answer_points))
                         if q.answer_points else None)
                res.mirage_collection = scorer.score(claimed, mode="collection", sources=sources,
                                                     reference=ref_c)
                notes.update(res.mirage_collection.notes)
        results.append(res)
        if progress is not None:
            progress(n, len(questions))
    ok = [r for r in results if r.answer is not None]
    m = dict(meta or {})
    m.setdefault("created", datetime.now(UTC).isoformat(timespec="seconds"))
    m.setdefault("python", platform.python_version())
    m["seed"] = seed
    m["decomposer"] = decomposer.name
    m["decomposer_prompt_version"] = decomposer.prompt_version
    if scorer is not None:
        m["judge"] = scorer.judge.name
        m["judge_prompt_version"] = scorer.judge.prompt_version
    m["n_questions"] = len(questions)
    m["n_failed"] = len(results) - len(ok)
    models: dict[str, str] = {}
    for r in ok:
        assert r.answer is not None
        models.update(r.answer.trace.models)
    m["pipeline_models"] = models
    return EvalRun(
        meta=m, results=results,
        media=summarise_media([r.media for r in ok if r.media]) if ok else None,
        retrieval=summarise_retrieval([r.retrieval for r in ok if r.retrieval]) if ok else None,
        info_reference=_macro([r.mirage_reference.info if r.mirage_reference else None for r in ok]),
        cite_reference=_macro([r.mirage_reference.cite if r.mirage_reference else None for r in ok]),
        info_collection=_macro([r.mirage_collection.info if r.mirage_collection else None for r in ok]),
        cite_collection=_macro([r.mirage_collection.cite if r.mirage_collection else None for r in ok]),
        notes=sorted(notes))
