"""MiRAGE conformance on the public WikiVideo release (seed 002; issue "Conformance on real data").

(1) Human InfoP/InfoR/InfoF1 per topic and system, computed exactly from the
    three annotators' per-subclaim judgments (majority vote; per-annotator
    values too), beside the authors' automatic reference-mode scores.
(2) murar's automatic judge on the same subclaims vs the reference/predicted
    articles: accuracy, Cohen's kappa, ROC AUC, system ranking, against the
    annotators' own agreement.

Usage::

    python benchmarks/mirage_conformance.py                       # embedding judge (MiniLM)
    python benchmarks/mirage_conformance.py --judge llm --limit 300
    python benchmarks/mirage_conformance.py --json-out /tmp/conf.json

Judgments are cached (``--cache``), so a second run is free.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from murar.eval.conformance import judge_agreement
from murar.eval.judge import CachedJudge, EmbeddingJudge, LLMJudge, SupportJudge
from murar.eval.mirage_data import WikiVideoRelease, human_info_scores

DEFAULT_ROOT = Path(__file__).resolve().parents[1].parent / "shared" / "eval" / "mirage-wikivideo"


def _judge(args: argparse.Namespace) -> SupportJudge:
    inner: SupportJudge
    if args.judge == "embedding":
        if args.embedder == "hashing":
            from murar.embed.fake import HashingEmbedder

            inner = EmbeddingJudge(HashingEmbedder(), threshold=args.threshold)
        else:
            from murar.embed.minilm import MiniLMEmbedder

            inner = EmbeddingJudge(MiniLMEmbedder(), threshold=args.threshold)
    else:
        from murar.llm import load_chat_model

        inner = LLMJudge(load_chat_model(args.llm))
    cache = args.cache or Path("/tmp/murar-eval-cache") / f"conformance-{args.judge}.jsonl"
    return CachedJudge(inner, cache)


def _f(x: float | None) -> str:
    return "  -  " if x is None else f"{x:.3f}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--root", type=Path, default=DEFAULT_ROOT)
    ap.add_argument("--judge", choices=["embedding", "llm"], default="embedding")
    ap.add_argument("--embedder", choices=["minilm", "hashing"], default="minilm")
    ap.add_argument("--threshold", type=float, default=0.6, help="embedding judge cosine threshold")
    ap.add_argument("--llm", default="bundled", help="load_chat_model kind for --judge llm")
    ap.add_argument("--limit", type=int, default=None, help="judge a seeded sample of N subclaims")
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--cache", type=Path, default=None)
    ap.add_argument("--per-topic", action="store_true", help="print human scores per topic")
    ap.add_argument("--json-out", type=Path, default=None)
    args = ap.parse_args(argv)

    rel = WikiVideoRelease(args.root)
    out: dict[str, object] = {"human": {}}
    print("== (1) human InfoP / InfoR / InfoF1 (macro over 10 topics; majority of 3 annotators)")
    print(f"{'system':<16}{'labels':<12}{'InfoP':>7}{'InfoR':>7}{'InfoF1':>7}   micro P/R")
    for system in rel.human_systems():
        labels = rel.human_labels(system)
        per, m = human_info_scores(labels)
        print(f"{system:<16}{'majority':<12}{_f(m.precision):>7}{_f(m.recall):>7}{_f(m.f1):>7}"
              f"   {_f(m.micro_precision)}/{_f(m.micro_recall)}")
        sys_out: dict[str, object] = {"majority": {"precision": m.precision, "recall": m.recall,
                                                   "f1": m.f1, "f1_of_means": m.f1_of_means},
                                      "per_topic": {t: {"precision": s.precision, "recall": s.recall,
                                                        "f1": s.f1, "n_pred": s.n_pred,
                                                        "n_ref": s.n_ref} for t, s in per.items()}}
        for k in rel.annotators(system):
            _, a = human_info_scores(labels, annotator=k)
            print(f"{'':<16}{f'annotator {k}':<12}{_f(a.precision):>7}{_f(a.recall):>7}{_f(a.f1):>7}")
            sys_out[f"annotator_{k}"] = {"precision": a.precision, "recall": a.recall, "f1": a.f1}
        if args.per_topic:
            for t, s in per.items():
                print(f"    {t[:44]:<46}{_f(s.precision):>7}{_f(s.recall):>7}{_f(s.f1):>7}"
                      f"  ({s.n_pred_hit}/{s.n_pred}, {s.n_ref_hit}/{s.n_ref})")
        out["human"][system] = sys_out  # type: ignore[index]

    judge = _judge(args)
    print(f"\n== (2) automatic judge {judge.name} [{judge.prompt_version}] vs human majority")
    rep = judge_agreement(rel, judge, limit=args.limit, seed=args.seed)
    print(f"subclaims judged: {rep.n_items}{' (seeded sample)' if rep.sampled else ''}; "
          f"{rep.seconds:.1f} s")
    print(f"accuracy {rep.accuracy:.3f}   Cohen's kappa {rep.kappa:.3f}   ROC AUC {_f(rep.auc)}")
    for role, d in rep.by_role.items():
        name = "InfoP (pred vs ref article)" if role == "pred" else "InfoR (ref vs prediction)"
        print(f"  {name:<30} n={int(d['n']):4d} acc {d['accuracy']:.3f} kappa {d['kappa']:.3f} "
              f"yes-rate human {d['human_positive_rate']:.3f} judge {d['judge_positive_rate']:.3f}")
    print(f"human ceiling: Krippendorff alpha {rep.human_alpha:.3f}, mean pairwise Cohen's kappa "
          f"{rep.human_pairwise_kappa:.3f}")
    print(f"{'system':<16}{'human F1':>9}{'auto P':>8}{'auto R':>8}{'auto F1':>8}{'authors P/R/F1 (qwen-7b)':>28}")
    for r in rep.systems:
        a = r.authors
        auth = f"{a['precision']:.3f}/{a['recall']:.3f}/{a['f1']:.3f}" if a else "-"
        print(f"{r.system:<16}{_f(r.human.f1):>9}{r.auto_precision:>8.3f}{r.auto_recall:>8.3f}"
              f"{r.auto_f1:>8.3f}{auth:>28}")
    print(f"ranking human {rep.human_ranking} / auto {rep.auto_ranking}: "
          f"{'agree' if rep.ranking_agrees else 'DISAGREE'}; per-(system, topic) InfoF1 Kendall tau "
          f"{_f(rep.topic_kendall_tau)}")
    out["agreement"] = rep.to_json()
    if args.json_out:
        args.json_out.write_text(json.dumps(out, indent=2))
        print(f"wrote {args.json_out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
