"""MiRAGE metric arithmetic: InfoP/InfoR/InfoF1 and CiteP/CiteR/CiteF1 (seed 002, section 4).

Everything here is a pure function of support judgments (booleans); nothing
calls a model. :mod:`murar.eval.scorer` produces the judgments, this module
turns them into scores, so the arithmetic can be pinned by hand-checked tests.

Definitions (a *predicted subclaim* comes from the answer, a *reference
subclaim* from the reference text; seed 002, sections 4.1-4.2):

- **InfoP** = (# predicted subclaims supported by the evidence) / (# predicted
  subclaims). Evidence is the reference text in *reference mode* and the
  source collection in *collection mode*, where one supporting source is
  enough (:func:`supported_by_any`; single-source precision, seed 002 B.1.1).
- **InfoR** = (# reference subclaims the prediction states) / (# reference
  subclaims).
- **CiteP** = (# predicted subclaims supported by at least one of the sources
  cited by their sentence) / (# predicted subclaims). A subclaim whose sentence
  cites nothing counts as *not* supported (:func:`cite_supported`).
- **CiteR** = (# reference subclaims that the prediction states in a sentence
  citing a source that supports them) / (# reference subclaims)
  (:func:`properly_attributed`). The denominator is *all* reference subclaims,
  so a prediction is penalised both for missing a fact and for stating it
  without a proper citation.
- **F1** = harmonic mean of P and R; 0 when P + R = 0.

Edge cases, chosen so that saying nothing never scores well:

- no predicted subclaims (empty answer, refusal): P = 0.0;
- no reference subclaims: R = 0.0 with ``n_ref == 0`` so callers can tell it
  apart from a real zero (MiRAGE does not evaluate refusals, seed 002
  "Limitations");
- a recall that cannot be computed at all (no reference given) is ``None``,
  and then F1 is ``None`` too; :func:`macro_average` skips ``None`` values.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

__all__ = [
    "PRF",
    "MacroPRF",
    "cite_supported",
    "f1_score",
    "macro_average",
    "majority_vote",
    "prf",
    "properly_attributed",
    "ratio",
    "supported_by_any",
]


def ratio(hits: int, total: int, *, empty: float = 0.0) -> float:
    """``hits / total``; ``empty`` when ``total`` is 0.

    Raises:
        ValueError: when ``hits`` is negative or exceeds ``total``.
    """
    if hits < 0 or hits > total:
        raise ValueError(f"hits must be in [0, total]; got hits={hits}, total={total}")
    return empty if total == 0 else hits / total


def f1_score(precision: float | None, recall: float | None) -> float | None:
    """Harmonic mean of ``precision`` and ``recall``; 0.0 when both are 0;
    ``None`` when either is ``None`` (not computable)."""
    if precision is None or recall is None:
        return None
    if precision + recall == 0:
        return 0.0
    return 2 * precision * recall / (precision + recall)


@dataclass(frozen=True, slots=True, kw_only=True)
class PRF:
    """Precision, recall and F1 of one answer, with the counts behind them.

    For Info*: ``n_pred_hit`` predicted subclaims supported out of ``n_pred``;
    ``n_ref_hit`` reference subclaims covered out of ``n_ref``. For Cite*: the
    same with "supported by a cited source" and "properly attributed".
    ``recall``/``f1`` are ``None`` when no reference was available.
    """

    precision: float
    recall: float | None
    f1: float | None
    n_pred: int
    n_pred_hit: int
    n_ref: int
    n_ref_hit: int


def prf(pred_hits: Sequence[bool], ref_hits: Sequence[bool] | None) -> PRF:
    """Score one answer from per-subclaim booleans.

    ``pred_hits[i]`` says whether predicted subclaim ``i`` is supported (for
    InfoP) or supported by one of its cited sources (for CiteP);
    ``ref_hits[j]`` whether reference subclaim ``j`` is covered (InfoR) or
    properly attributed (CiteR). ``ref_hits=None`` means no reference: recall
    and F1 are ``None``. Empty sequences follow the module's edge-case rules.
    """
    n_pred_hit = sum(bool(x) for x in pred_hits)
    precision = ratio(n_pred_hit, len(pred_hits))
    if ref_hits is None:
        return PRF(precision=precision, recall=None, f1=None, n_pred=len(pred_hits),
                   n_pred_hit=n_pred_hit, n_ref=0, n_ref_hit=0)
    n_ref_hit = sum(bool(x) for x in ref_hits)
    recall = ratio(n_ref_hit, len(ref_hits))
    return PRF(precision=precision, recall=recall, f1=f1_score(precision, recall),
               n_pred=len(pred_hits), n_pred_hit=n_pred_hit, n_ref=len(ref_hits),
               n_ref_hit=n_ref_hit)


@dataclass(frozen=True, slots=True, kw_only=True)
class MacroPRF:
    """Scores over many answers.

    ``precision``/``recall``/``f1`` are macro averages (the mean of the
    per-answer values, each answer weighing the same; ``None`` values skipped);
    ``f1_of_means`` is the harmonic mean of the macro P and R; ``micro_*`` pool
    the subclaim counts of all answers. ``n_answers`` counts the answers
    averaged, ``*_sd`` are population standard deviations of per-answer values.
    """

    precision: float
    recall: float | None
    f1: float | None
    f1_of_means: float | None
    micro_precision: float
    micro_recall: float | None
    micro_f1: float | None
    precision_sd: float
    recall_sd: float | None
    f1_sd: float | None
    n_answers: int


def _mean_sd(values: Iterable[float | None]) -> tuple[float | None, float | None]:
    vals = [v for v in values if v is not None]
    if not vals:
        return None, None
    return statistics.fmean(vals), statistics.pstdev(vals)


def macro_average(scores: Sequence[PRF]) -> MacroPRF:
    """Macro- and micro-average per-answer scores (seed 002 section 7: report
    P and R beside F1).

    Raises:
        ValueError: when ``scores`` is empty.
    """
    if not scores:
        raise ValueError("macro_average needs at least one per-answer score")
    p, p_sd = _mean_sd(s.precision for s in scores)
    r, r_sd = _mean_sd(s.recall for s in scores)
    f, f_sd = _mean_sd(s.f1 for s in scores)
    assert p is not None and p_sd is not None
    has_ref = any(s.recall is not None for s in scores)
    micro_p = ratio(sum(s.n_pred_hit for s in scores), sum(s.n_pred for s in scores))
    micro_r = (ratio(sum(s.n_ref_hit for s in scores if s.recall is not None),
                     sum(s.n_ref for s in scores if s.recall is not None))
               if has_ref else None)
    return MacroPRF(precision=p, recall=r, f1=f, f1_of_means=f1_score(p, r),
                    micro_precision=micro_p, micro_recall=micro_r,
                    micro_f1=f1_score(micro_p, micro_r), precision_sd=p_sd,
                    recall_sd=r_sd, f1_sd=f_sd, n_answers=len(scores))


# ------------------------------------------------------------ judgment logic


def supported_by_any(flags: Iterable[bool]) -> bool:
    """Collection mode: a subclaim is supported when any single source supports
    it (seed 002, B.1.1 single-source precision). No sources -> False."""
    return any(flags)


def cite_supported(cited: Sequence[str], support: Mapping[str, bool]) -> bool:
    """CiteP for one predicted subclaim: True when at least one cited source id
    in ``cited`` supports it (``support[source_id]``). Uncited -> False; a cited
    id missing from ``support`` counts as not supporting."""
    return any(support.get(c, False) for c in cited)


def properly_attributed(
    stated_in: Sequence[bool],
    sentence_citations: Sequence[Sequence[str]],
    source_supports: Mapping[str, bool],
) -> bool:
    """CiteR for one reference subclaim (seed 002 section 4.2.2).

    ``stated_in[k]`` says whether prediction sentence ``k`` states the
    reference subclaim; ``sentence_citations[k]`` are the source ids sentence
    ``k`` cites; ``source_supports[d]`` whether source ``d`` attests the
    subclaim. True when some sentence both states it and cites a supporting
    source (best support over sentences and documents).

    Raises:
        ValueError: when ``stated_in`` and ``sentence_citations`` differ in length.
    """
    if len(stated_in) != len(sentence_citations):
        raise ValueError("stated_in and sentence_citations must have one entry per sentence")
    return any(
        stated and any(source_supports.get(d, False) for d in cites)
        for stated, cites in zip(stated_in, sentence_citations, strict=True)
    )


def majority_vote(labels: Sequence[bool | None], *, tie: bool = False) -> bool | None:
    """Majority of the non-missing labels; ``tie`` breaks ties (default False:
    "supported only without reasonable doubt", as the MiRAGE annotation guide
    asks). ``None`` when every label is missing."""
    votes = [x for x in labels if x is not None]
    if not votes:
        return None
    yes = sum(votes)
    no = len(votes) - yes
    if yes == no:
        return tie
    return yes > no
