"""Snippet retrieval metrics: recall@k and MRR against the gold section (MuRAR section 2.1).

A retrieved snippet is *relevant* when it comes from the gold page and its
heading path starts with the gold section's heading path (so snippets of a
sub-section count). Headings are compared case-folded with whitespace
collapsed. With one gold section per question, recall@k is the hit rate: 1
when a relevant snippet is among the first k.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from murar.eval.media_metrics import GoldQuestion, normalise_path
from murar.schema import Answer, Snippet

__all__ = ["RetrievalScores", "RetrievalSummary", "is_relevant", "score_retrieval",
           "summarise_retrieval"]


def _norm(h: str) -> str:
    return " ".join(h.casefold().split()).rstrip(":. ")


def is_relevant(snippet: Snippet, gold: GoldQuestion) -> bool:
    """Whether ``snippet`` lies in the gold page and section (or a sub-section).

    The page title may lead either heading path or neither: a page whose title
    comes from front matter (Docusaurus, Jekyll, Hugo ``title:``) has no H1, so
    its snippets' heading paths start below the title while a gold section may
    be written from the title down.
    """
    if normalise_path(snippet.source_path) != normalise_path(gold.page):
        return False
    title = _norm(snippet.page_title)
    want = [_norm(h) for h in gold.section]
    have = [_norm(h) for h in snippet.heading_path]
    if want and want[0] == title:
        want = want[1:]
    if have and have[0] == title:
        have = have[1:]
    if not want:
        return True  # the gold is the page itself
    # tolerate one unmatched leading heading (a title spelled differently), or a match at the end
    return any(have[i : i + len(want)] == want for i in range(2)) or have[-len(want):] == want


@dataclass(frozen=True, slots=True, kw_only=True)
class RetrievalScores:
    """``first_relevant_rank`` is 1-based (``None`` when nothing relevant was
    retrieved); ``recall_at[k]`` is 1.0 or 0.0; ``reciprocal_rank`` = 1/rank or 0."""

    question_id: str
    n_retrieved: int
    first_relevant_rank: int | None
    recall_at: dict[int, float]
    reciprocal_rank: float


def score_retrieval(answer: Answer, gold: GoldQuestion,
                    ks: Sequence[int] = (1, 3, 5)) -> RetrievalScores:
    """Score the snippets the pipeline retrieved (``answer.trace.retrieved``,
    falling back to ``answer.sources``), in their ranked order."""
    ranked = answer.trace.retrieved or answer.sources
    rank = next((i for i, s in enumerate(ranked, 1) if is_relevant(s.snippet, gold)), None)
    return RetrievalScores(
        question_id=gold.id, n_retrieved=len(ranked), first_relevant_rank=rank,
        recall_at={k: float(rank is not None and rank <= k) for k in ks},
        reciprocal_rank=1.0 / rank if rank else 0.0)


@dataclass(frozen=True, slots=True, kw_only=True)
class RetrievalSummary:
    """Means over questions: ``recall_at[k]`` and ``mrr``."""

    recall_at: dict[int, float]
    mrr: float
    n_questions: int


def summarise_retrieval(scores: Sequence[RetrievalScores]) -> RetrievalSummary:
    """Mean recall@k and MRR.

    Raises:
        ValueError: when ``scores`` is empty.
    """
    if not scores:
        raise ValueError("no retrieval scores to summarise")
    ks = sorted(scores[0].recall_at)
    return RetrievalSummary(
        recall_at={k: statistics.fmean(s.recall_at[k] for s in scores) for k in ks},
        mrr=statistics.fmean(s.reciprocal_rank for s in scores), n_questions=len(scores))
