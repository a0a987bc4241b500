"""Conformance of murar's automatic MiRAGE judge with the WikiVideo human judgments.

For every subclaim the MiRAGE annotators judged (seed 002, appendix E.2) we
ask our :class:`~murar.eval.judge.SupportJudge` the same question -- a
predicted subclaim against the reference article (InfoP), a reference
subclaim against the predicted article (InfoR) -- and compare with the
annotators' majority label: accuracy, Cohen's kappa (scikit-learn), ROC AUC of
the judge's score, and whether the judge ranks the systems as the humans do.
The annotators' own agreement (Krippendorff's alpha, mean pairwise Cohen's
kappa) is reported beside it as the ceiling.
"""

from __future__ import annotations

import json
import random
import statistics
import time
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, Literal

import numpy as np

from murar.eval.judge import SupportJudge
from murar.eval.mirage import MacroPRF, f1_score, macro_average, prf, ratio
from murar.eval.mirage_data import WikiVideoRelease, human_info_scores, majority_labels

__all__ = ["AgreementReport", "ClaimItem", "SystemRow", "authors_info_scores",
           "claim_items", "judge_agreement"]


@dataclass(slots=True, kw_only=True)
class ClaimItem:
    """One human-judged subclaim with the evidence it was judged against.

    ``role`` is ``pred`` (predicted subclaim vs reference article) or ``ref``
    (reference subclaim vs prediction); ``human`` is the majority label
    (``None`` when nobody labelled it); ``annotators`` the individual labels.
    """

    system: str
    topic: str
    role: Literal["pred", "ref"]
    index: int
    claim: str
    evidence: str
    human: bool | None
    annotators: list[bool | None]


def claim_items(release: WikiVideoRelease, systems: list[str] | None = None) -> list[ClaimItem]:
    """Every human-judged subclaim of ``systems`` (default: all with judgments)."""
    items: list[ClaimItem] = []
    for system in systems or release.human_systems():
        labels = release.human_labels(system)
        preds = release.predictions(system)
        for topic, pred in preds.items():
            ref = release.topics[topic]
            pmaj = majority_labels(labels, "pred", topic)
            rmaj = majority_labels(labels, "ref", topic)
            flat = [c for cl in pred.claims for c in cl]
            for i, c in enumerate(flat):
                items.append(ClaimItem(system=system, topic=topic, role="pred", index=i, claim=c,
                                       evidence=ref.article, human=pmaj[i],
                                       annotators=[h.pred[topic][i] for h in labels]))
            for j, c in enumerate(ref.claims):
                items.append(ClaimItem(system=system, topic=topic, role="ref", index=j, claim=c,
                                       evidence=pred.text.strip(), human=rmaj[j],
                                       annotators=[h.ref[topic][j] for h in labels]))
    return items


@dataclass(slots=True, kw_only=True)
class SystemRow:
    """A system's InfoP/InfoR/InfoF1 from humans (majority) and from the judge.
    ``auto_*`` are macro averages over topics on the full data, or micro
    estimates over the sampled subclaims when a limit was set."""

    system: str
    human: MacroPRF
    auto_precision: float
    auto_recall: float
    auto_f1: float
    authors: dict[str, float] | None = None


@dataclass(slots=True, kw_only=True)
class AgreementReport:
    """Judge-vs-human agreement on the WikiVideo subclaims (see module docstring)."""

    judge: str
    prompt_version: str
    n_items: int
    accuracy: float
    kappa: float
    auc: float | None
    by_role: dict[str, dict[str, float]]
    human_alpha: float
    human_pairwise_kappa: float
    systems: list[SystemRow]
    human_ranking: list[str]
    auto_ranking: list[str]
    ranking_agrees: bool
    topic_kendall_tau: float | None
    sampled: bool
    seconds: float
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        from murar.schema import to_jsonable

        out: dict[str, Any] = to_jsonable(self)
        return out


def authors_info_scores(release: WikiVideoRelease, system: str,
                        verifier: str = "qwen_7b") -> dict[str, float] | None:
    """Macro-averaged reference-mode InfoP/InfoR/InfoF1 from the authors'
    ``model_preds/metric_outputs/info_f1/<verifier>_verifier/reference/`` file,
    or ``None`` when the release has none for ``system``."""
    d = release.root / "model_preds" / "metric_outputs" / "info_f1" / f"{verifier}_verifier" / "reference"
    path = d / f"{system}_relevant_citations_reference_info_f1_scores_{verifier}.json"
    if not path.exists():
        return None
    data = json.loads(path.read_text(encoding="utf-8"))
    return {k: statistics.fmean(float(v[k]) for v in data.values())
            for k in ("precision", "recall", "f1")}


def _kendall(a: list[float], b: list[float]) -> float | None:
    from scipy.stats import kendalltau

    if len(a) < 2:
        return None
    tau = kendalltau(a, b).statistic
    return None if tau is None or np.isnan(tau) else float(tau)


def judge_agreement(
    release: WikiVideoRelease,
    judge: SupportJudge,
    *,
    systems: list[str] | None = None,
    limit: int | None = None,
    seed: int = 13,
) -> AgreementReport:
    """Run ``judge`` on the human-judged subclaims and measure agreement.

    ``limit`` judges a seeded random sample of that many subclaims (all
    systems, topics and roles mixed) instead of all of them; system scores
    are then micro estimates over the sample and the per-topic Kendall tau is
    not computed.

    Raises:
        murar.eval.errors.EvalDataError: the release is incomplete.
        murar.eval.errors.JudgeError: the judge failed.
    """
    import krippendorff
    from sklearn.metrics import cohen_kappa_score, roc_auc_score

    all_items = claim_items(release, systems)
    items = [it for it in all_items if it.human is not None]
    sampled = limit is not None and limit < len(items)
    if sampled:
        assert limit is not None
        items = random.Random(seed).sample(items, limit)
    t0 = time.perf_counter()
    judgments = judge.judge_many([(it.claim, it.evidence) for it in items])
    seconds = time.perf_counter() - t0
    y_h = [bool(it.human) for it in items]
    y_a = [j.supported for j in judgments]
    scores = [j.score for j in judgments]

    def agree(idx: list[int]) -> dict[str, float]:
        h = [y_h[i] for i in idx]
        a = [y_a[i] for i in idx]
        out = {"n": float(len(idx)),
               "accuracy": ratio(sum(x == y for x, y in zip(h, a, strict=True)), len(idx)),
               "kappa": float(cohen_kappa_score(h, a)) if len(set(h) | set(a)) > 1 else 0.0,
               "human_positive_rate": ratio(sum(h), len(h)),
               "judge_positive_rate": ratio(sum(a), len(a))}
        return out

    overall = agree(list(range(len(items))))
    by_role = {r: agree([i for i, it in enumerate(items) if it.role == r]) for r in ("pred", "ref")}
    auc = None
    if len(set(scores)) > 2 and len(set(y_h)) == 2:
        auc = float(roc_auc_score(y_h, scores))

    # human ceiling over all judged subclaims (not only the sample)
    mat = np.array([[np.nan if v is None else float(v) for v in it.annotators]
                    for it in all_items], dtype=float).T
    alpha = float(krippendorff.alpha(reliability_data=mat, level_of_measurement="nominal"))
    pair_k: list[float] = []
    for a_i, b_i in combinations(range(mat.shape[0]), 2):
        ok = ~np.isnan(mat[a_i]) & ~np.isnan(mat[b_i])
        pair_k.append(float(cohen_kappa_score(mat[a_i][ok], mat[b_i][ok])))

    # system-level scores
    rows: list[SystemRow] = []
    human_topic_f1: list[float] = []
    auto_topic_f1: list[float] = []
    for system in systems or release.human_systems():
        h_per, h_macro = human_info_scores(release.human_labels(system))
        sel = [i for i, it in enumerate(items) if it.system == system]
        if sampled:
            p = [y_a[i] for i in sel if items[i].role == "pred"]
            r = [y_a[i] for i in sel if items[i].role == "ref"]
            ap, ar = ratio(sum(p), len(p)), ratio(sum(r), len(r))
            af = f1_score(ap, ar) or 0.0
        else:
            per_topic = []
            for topic in h_per:
                p = [y_a[i] for i in sel if items[i].topic == topic and items[i].role == "pred"]
                r = [y_a[i] for i in sel if items[i].topic == topic and items[i].role == "ref"]
                # unlabelled subclaims were dropped from items; count them as unsupported
                n_p = sum(1 for it in all_items if it.system == system and it.topic == topic
                          and it.role == "pred")
                n_r = sum(1 for it in all_items if it.system == system and it.topic == topic
                          and it.role == "ref")
                s = prf(p + [False] * (n_p - len(p)), r + [False] * (n_r - len(r)))
                per_topic.append(s)
                human_topic_f1.append(h_per[topic].f1 or 0.0)
                auto_topic_f1.append(s.f1 or 0.0)
            m = macro_average(per_topic)
            ap, ar, af = m.precision, m.recall or 0.0, m.f1 or 0.0
        rows.append(SystemRow(system=system, human=h_macro, auto_precision=ap, auto_recall=ar,
                              auto_f1=af, authors=authors_info_scores(release, system)))
    human_rank = [r.system for r in sorted(rows, key=lambda r: -(r.human.f1 or 0.0))]
    auto_rank = [r.system for r in sorted(rows, key=lambda r: -r.auto_f1)]
    notes = [("human label = majority of the annotators (tie -> not supported); subclaims "
              "nobody labelled are left out of the agreement numbers"),
             "evidence is text: the reference article (InfoP) or the predicted article (InfoR)"]
    return AgreementReport(
        judge=judge.name, prompt_version=judge.prompt_version, n_items=len(items),
        accuracy=overall["accuracy"], kappa=overall["kappa"], auc=auc, by_role=by_role,
        human_alpha=alpha, human_pairwise_kappa=statistics.fmean(pair_k) if pair_k else float("nan"),
        systems=rows, human_ranking=human_rank, auto_ranking=auto_rank,
        ranking_agrees=human_rank == auto_rank,
        topic_kendall_tau=None if sampled else _kendall(human_topic_f1, auto_topic_f1),
        sampled=sampled, seconds=seconds, notes=notes)
