"""Retrieval and media quality before and after ``murar tune-embedder`` (issue 9, MuRAR section 2.1).

For one corpus: the base index (bundled MiniLM; built when missing) and a
tuned copy of it (``cp -r`` of the base index, then ``tune_embedder`` with the
chosen local LLM; built when missing, or again with ``--retune``; the model's
replies are cached in the tuned index, so a re-tune costs training only).
Both indexes answer every gold question with the extractive generator and
the current media selection (no model); printed side by side:

- snippet recall@1 / @5 and MRR against the gold *section* (retrieval_metrics),
- recall@1 / @5 against the gold *page* (any snippet of the gold page),
- media micro P/R/F1 (all kinds, and images) against the gold media.

The tuning pairs come only from the model over the corpus: the gold
questions are never seen by training.

    /work/bin/heavy python benchmarks/tune_embedder.py                      # Adobe docs, ../shared/eval/dev.jsonl
    /work/bin/heavy python benchmarks/tune_embedder.py --docsite docusaurus-ionic-docs --snippets 100
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import shutil
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))
os.environ.setdefault("LANCEDB_LOG", "error")
os.environ.setdefault("LANCE_LOG", "error")

from murar.answer.generate import ExtractiveAnswerGenerator
from murar.answer.pipeline import Pipeline, PipelineConfig, load_pipeline
from murar.embed.base import Embedder
from murar.embed.minilm import MiniLMEmbedder
from murar.eval.claims import SentenceDecomposer
from murar.eval.media_metrics import GoldQuestion, load_gold, normalise_path
from murar.eval.run import evaluate_service
from murar.ingest.index import build_index, open_index

SHARED = REPO.parent / "shared"
OUT = REPO / "benchmarks" / "out"


def evaluate(index: Path, golds: list[GoldQuestion], embedder: Embedder | None = None) -> dict[str, Any]:
    """Answer every question over ``index`` (extractive, no model) and score retrieval and media.

    ``embedder``: the one the index was built with when its name is not one murar resolves
    by itself (``benchmarks/embedders.py``); default: the index's own."""
    base = load_pipeline(index, llm="extractive", embedder=embedder)
    p = Pipeline(store=base.store, embedder=base.embedder, generator=ExtractiveAnswerGenerator(base.embedder),
                 refiner=None, config=PipelineConfig(refine=False, display_captions=False),
                 corpus_root=base.corpus_root, assets_dir=base.assets_dir)
    t0 = time.perf_counter()
    run = evaluate_service(p, golds, scorer=None, decomposer=SentenceDecomposer(), corpus_root=base.corpus_root)
    secs = time.perf_counter() - t0
    page_rank: list[int | None] = []
    for q in run.results:
        ranked = q.answer.trace.retrieved if q.answer else []
        want = normalise_path(q.question.page)
        page_rank.append(next((i for i, s in enumerate(ranked, 1)
                               if normalise_path(s.snippet.source_path) == want), None))
    n = max(len(page_rank), 1)
    r = run.retrieval
    m = run.media
    return {
        "embedder": base.embedder.name,
        "section_r1": r.recall_at.get(1) if r else None, "section_r5": r.recall_at.get(5) if r else None,
        "section_mrr": r.mrr if r else None,
        "page_r1": sum(1 for k in page_rank if k is not None and k <= 1) / n,
        "page_r5": sum(1 for k in page_rank if k is not None and k <= 5) / n,
        "media_all": m.micro["all"] if m else None, "media_image": m.micro["image"] if m else None,
        "failed": [q.question.id for q in run.results if q.error],
        "seconds_per_question": secs / n,
        "per_question": [{"id": q.question.id, "section_rank": q.retrieval.first_relevant_rank if q.retrieval else None,
                          "page_rank": k} for q, k in zip(run.results, page_rank)],
    }


def _f(x: float | None) -> str:
    return "   -  " if x is None else f"{x:6.3f}"


def print_side_by_side(name: str, n: int, before: dict[str, Any], after: dict[str, Any]) -> None:
    rows = [("section recall@1", "section_r1"), ("section recall@5", "section_r5"), ("section MRR", "section_mrr"),
            ("page recall@1", "page_r1"), ("page recall@5", "page_r5")]
    print(f"\n{name}: {n} questions; load average {os.getloadavg()[0]:.2f}")
    print(f"{'metric':24} {'before':>8} {'after':>8} {'delta':>8}")
    for label, key in rows:
        b, a = before[key], after[key]
        print(f"{label:24} {_f(b):>8} {_f(a):>8} {_f(a - b if a is not None and b is not None else None):>8}")
    for kind in ("all", "image"):
        for part in ("precision", "recall", "f1"):
            b = (before[f"media_{kind}"] or {}).get(part)
            a = (after[f"media_{kind}"] or {}).get(part)
            print(f"{'media ' + kind + ' ' + part[:1].upper() + (part[1:] if part != 'f1' else '1'):24} "
                  f"{_f(b):>8} {_f(a):>8} {_f(a - b if a is not None and b is not None else None):>8}")
    print(f"{'embedder':24} {before['embedder']} -> {after['embedder']}")
    better = sum(1 for x, y in zip(before["per_question"], after["per_question"])
                 if (y["section_rank"] or 99) < (x["section_rank"] or 99))
    worse = sum(1 for x, y in zip(before["per_question"], after["per_question"])
                if (y["section_rank"] or 99) > (x["section_rank"] or 99))
    print(f"{'questions ranked better/worse (section)':40} {better}/{worse}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--docsite", default=None, help="a corpus folder of ../shared/corpora/docsites "
                    "(questions from benchmarks/docsites_questions.jsonl); default: the Adobe docs and dev.jsonl")
    ap.add_argument("--corpus", type=Path, default=None)
    ap.add_argument("--questions", type=Path, default=None)
    ap.add_argument("--base-index", type=Path, default=None)
    ap.add_argument("--tuned-index", type=Path, default=None)
    ap.add_argument("--llm", default="bundled", help="question writer: bundled | bundled-small")
    ap.add_argument("--snippets", type=int, default=300)
    ap.add_argument("--questions-per-snippet", type=int, default=2)
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--hard-negatives", action="store_true")
    ap.add_argument("--retune", action="store_true", help="tune again (cached replies are reused)")
    ap.add_argument("--json-out", type=Path, default=None)
    args = ap.parse_args()
    logging.basicConfig(level=logging.ERROR)

    if args.docsite:
        name = args.docsite
        corpus = args.corpus or SHARED / "corpora" / "docsites" / name
        qfile = args.questions or REPO / "benchmarks" / "docsites_questions.jsonl"
        raw = [json.loads(ln) for ln in qfile.read_text().splitlines() if ln.strip()]
        keep = {r["id"] for r in raw if r.get("corpus") == name}
        golds = [g for g in load_gold(qfile) if g.id in keep]
    else:
        name = "adobe-docs"
        corpus = args.corpus or SHARED / "corpora" / "adobe-docs"
        golds = load_gold(args.questions or SHARED / "eval" / "dev.jsonl")
    base_index = args.base_index or OUT / f"{name}-minilm"
    tuned_index = args.tuned_index or OUT / f"{name}-tuned"
    print(f"load average at start: {os.getloadavg()}", flush=True)
    try:
        open_index(base_index)
    except Exception:  # noqa: BLE001 - no usable base index yet: build one
        print(f"building {base_index} from {corpus} ...", flush=True)
        build_index(corpus, base_index, embedder=MiniLMEmbedder())
    if args.retune or not (tuned_index / "embedders").is_dir():
        from murar.llm import load_chat_model
        from murar.tune import TrainSettings, TuneOptions, tune_embedder

        cache = tuned_index / "tune" / "pairs-cache.jsonl"
        kept = cache.read_bytes() if cache.is_file() else None
        if tuned_index.exists():
            shutil.rmtree(tuned_index)
        shutil.copytree(base_index, tuned_index)
        if kept is not None:
            cache.parent.mkdir(parents=True, exist_ok=True)
            cache.write_bytes(kept)
        t0 = time.perf_counter()
        last = {"stage": "", "t": 0.0}

        def progress(stage: str, done: int, total: int) -> None:
            now = time.perf_counter()
            if stage != last["stage"] or done == total or now - last["t"] > 30:
                print(f"  {stage}: {done}/{total} ({now - t0:.0f} s, load {os.getloadavg()[0]:.2f})", flush=True)
                last.update(stage=stage, t=now)

        report = tune_embedder(tuned_index, load_chat_model(args.llm), progress=progress, options=TuneOptions(
            snippets=args.snippets, questions=args.questions_per_snippet, hard_negatives=args.hard_negatives,
            train=TrainSettings(epochs=args.epochs)))
        s = report.pair_stats
        print(f"tuned: {report.embedder}: {s.pairs} pairs from {s.snippets} snippets ({s.calls} calls, "
              f"{s.cached} cached, {s.empty} unusable); {report.train.steps} steps, loss "
              f"{report.train.loss_first:.3f} -> {report.train.loss_last:.3f}; seconds "
              + ", ".join(f"{k} {v:.0f}" for k, v in report.seconds.items()), flush=True)
    before = evaluate(base_index, golds)
    after = evaluate(tuned_index, golds)
    print_side_by_side(name, len(golds), before, after)
    out = args.json_out or OUT / f"tune-{name}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"corpus": name, "before": before, "after": after,
                               "load_end": os.getloadavg()}, indent=2, default=str))
    print(f"\nwritten {out}")


if __name__ == "__main__":
    main()
