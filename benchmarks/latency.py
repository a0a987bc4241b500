"""Latency of a multimodal answer with the bundled model: old three-call path vs the streamed path.

For the first ``--limit`` (20) questions of ``../shared/eval/dev.jsonl``, in one
run and on one loaded model, each question is answered by both paths in turn
(alternating, so load changes on the machine hit both alike):

- ``three-call``: MuRAR as published (whole top-5 snippets in the prompt; one
  call for the answer, one for display captions, one rewriting the answer
  around the placeholders), without the prefix cache, as murar did before;
- ``streamed``: one call with the selected evidence sentences, the fixed
  prompt prefix restored from the llama.cpp state cache, attribution and media
  selection per sentence while the answer streams, captions from the docs;
- ``lead-in`` (optional, ``--paths``): the answer from the selected sentences,
  then one short call writing a validated lead-in per media item;
- ``streamed-no-defer`` (optional): the streamed path placing each screenshot
  at the sentence it was chosen at (``MediaOptions(step_defer=False)``), to see
  what waiting one sentence for the screenshot's step costs the first media.

Printed per path: time to the first answer token (for three-call also to the
first *final* text, which only exists at the end), to the first media item, to
the complete answer (p50/p95/max), per-stage p50/p95 from the answer traces,
prompt tokens per model call (all / reused from cache), media P/R/F1 against
the gold and MiRAGE CiteP/InfoP in collection mode (sentence subclaims,
embedding judge; ``--judge llm`` uses the same model as a yes/no judge).
The bare model's prompt-evaluation and generation tokens/s are measured in the
same run (at the start and at the end) so that the figures compare across
machines. The machine's load average is printed at the start and the end.

Stages of the streamed path before its first answer token, in order:
``question_embedding`` (part of ``retrieve``, which adds the vector search and
the snippet vectors), ``evidence`` (sentence split, sentence embeddings,
selection and the prompt), ``llm: tokenize + prefix state`` (restoring the fixed
prefix's llama.cpp state), ``llm: prompt eval + 1st token``, and ``first token
held back`` (from the model's first token to the first text shown).

    flock /work/bench.lock python benchmarks/latency.py                   # 1.5B, 20 questions
    flock /work/bench.lock python benchmarks/latency.py --llm bundled-small
    python benchmarks/latency.py --limit 3 --llm bundled-small             # quick look
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

from murar.answer.evidence import EvidenceOptions
from murar.answer.media import MediaOptions
from murar.answer.pipeline import Pipeline, PipelineConfig, load_pipeline
from murar.answer.service import AnswerEvent, IndexStats
from murar.eval.claims import SentenceDecomposer
from murar.eval.judge import EmbeddingJudge, LLMJudge, SupportJudge
from murar.eval.media_metrics import GoldQuestion, load_gold
from murar.eval.run import EvalRun, evaluate_service
from murar.eval.scorer import MirageScorer
from murar.llm import load_chat_model
from murar.llm.base import ChatMessage
from murar.llm.llamacpp import LlamaCppChatModel
from murar.schema import Answer

SHARED = REPO.parent / "shared"
PATHS = ("three-call", "streamed")
OPTIONAL_PATHS = ("lead-in", "streamed-no-defer")


def pct(values: list[float], q: float) -> float | None:
    return round(float(np.percentile(np.asarray(values), q)), 2) if values else None


@dataclass
class Run:
    """Measurements of one path over all questions."""

    first_token_s: list[float] = field(default_factory=list)
    first_final_text_s: list[float] = field(default_factory=list)
    first_media_s: list[float] = field(default_factory=list)
    total_s: list[float] = field(default_factory=list)
    stages_ms: dict[str, list[float]] = field(default_factory=dict)
    calls: dict[str, list[tuple[int, int, int]]] = field(default_factory=dict)
    answers: dict[str, Answer] = field(default_factory=dict)
    refinement: dict[str, int] = field(default_factory=dict)


def timed_answer(pipeline: Pipeline, question: str, run: Run) -> Answer:
    """Answer through the event stream, recording when text and media first appear."""
    t0 = time.perf_counter()
    first_tok = first_final = first_media = None
    answer: Answer | None = None
    for ev in pipeline.stream(question):
        now = time.perf_counter() - t0
        if ev.type == "token" and ev.text.strip():
            first_tok = first_tok if first_tok is not None else now
            if ev.name == "answer":
                first_final = first_final if first_final is not None else now
        elif ev.type == "media":
            first_media = first_media if first_media is not None else now
        elif ev.type == "error":
            raise RuntimeError(ev.text)
        elif ev.type == "answer":
            answer = ev.answer
    total = time.perf_counter() - t0
    assert answer is not None
    if answer.media and first_media is None:
        first_media = total  # three-call path: media exist only in the final answer
    if answer.found:
        run.first_token_s.append(first_tok if first_tok is not None else total)
        run.first_final_text_s.append(first_final if first_final is not None else total)
    if first_media is not None:
        run.first_media_s.append(first_media)
    run.total_s.append(total)
    for k, v in answer.trace.timings_ms.items():
        if k not in ("total", "first_token", "first_media", "first_model_token"):
            run.stages_ms.setdefault(k, []).append(v)
    tm = answer.trace.timings_ms
    if "first_token" in tm and "first_model_token" in tm:  # streamed: text held back after the model's first token
        run.stages_ms.setdefault("first token held back", []).append(tm["first_token"] - tm["first_model_token"])
    for c in answer.trace.llm_calls:
        run.calls.setdefault(c.stage, []).append((c.prompt_tokens, c.cached_tokens, c.completion_tokens))
        if c.stage == "generate":  # the first answer token's model time, split
            run.stages_ms.setdefault("llm: tokenize + prefix state", []).append(c.prefix_s * 1000)
            run.stages_ms.setdefault("llm: prompt eval + 1st token", []).append((c.first_token_s - c.prefix_s) * 1000)
    run.refinement[answer.trace.refinement.used] = run.refinement.get(answer.trace.refinement.used, 0) + 1
    run.answers[question] = answer
    return answer


class Replay:
    """An AnswerService that returns answers computed before (to score them with ``evaluate_service``)."""

    def __init__(self, answers: dict[str, Answer]) -> None:
        self._answers = answers

    def answer(self, question: str) -> Answer:
        return self._answers[question]

    def stream(self, question: str) -> Any:
        yield AnswerEvent(type="answer", answer=self._answers[question])

    def media_file(self, media_id: str) -> None:
        return None

    def stats(self) -> IndexStats:
        raise NotImplementedError


def bare_speed(model: LlamaCppChatModel, text: str) -> dict[str, float]:
    """Prompt-eval and generation tokens/s of the model alone (fresh prompt, no cache)."""
    msgs = [ChatMessage("user", f"[{time.time_ns()}] Summarise these notes in detail:\n{text}")]
    out = model.complete(msgs, max_tokens=96)
    c = model.last_call
    assert c is not None
    evaluated = c.prompt_tokens - c.cached_tokens
    gen_s = max(c.total_s - c.first_token_s, 1e-6)
    return {"prompt_tokens": c.prompt_tokens, "prompt_tokens_per_s": round(evaluated / c.first_token_s, 1),
            "generated_tokens": c.completion_tokens,
            "generation_tokens_per_s": round((c.completion_tokens - 1) / gen_s, 1) if out else 0.0}


def summary(name: str, run: Run, ev: EvalRun) -> dict[str, Any]:
    media = ev.media.micro["all"] if ev.media else {}
    calls = {stage: {"n": len(v), "prompt_tokens_p50": pct([a for a, _, _ in v], 50),
                     "evaluated_tokens_p50": pct([a - b for a, b, _ in v], 50),
                     "completion_tokens_p50": pct([c for _, _, c in v], 50)} for stage, v in run.calls.items()}
    return {
        "path": name,
        "first_token_s": {"p50": pct(run.first_token_s, 50), "p95": pct(run.first_token_s, 95)},
        "first_final_text_s": {"p50": pct(run.first_final_text_s, 50), "p95": pct(run.first_final_text_s, 95)},
        "first_media_s": {"p50": pct(run.first_media_s, 50), "p95": pct(run.first_media_s, 95),
                          "n": len(run.first_media_s)},
        "total_s": {"p50": pct(run.total_s, 50), "p95": pct(run.total_s, 95),
                    "max": round(max(run.total_s), 2) if run.total_s else None},
        "stages_ms": {k: {"p50": pct(v, 50), "p95": pct(v, 95)} for k, v in sorted(run.stages_ms.items())},
        "llm_calls": calls,
        "refinement": run.refinement,
        "media_micro": {k: media.get(k) for k in ("precision", "recall", "f1", "n_pred", "n_gold")},
        "media_macro_f1": ev.media.macro["all"]["f1"] if ev.media else None,
        "cite_precision": ev.cite_collection.precision if ev.cite_collection else None,
        "info_precision": ev.info_collection.precision if ev.info_collection else None,
        "answers_found": sum(1 for a in run.answers.values() if a.found),
    }


def fmt(x: Any) -> str:
    if x is None:
        return "-"
    return f"{x:.3f}" if isinstance(x, float) and x < 1.5 else str(x)


def print_table(rows: list[dict[str, Any]]) -> None:
    names = [r["path"] for r in rows]
    print(f"\n{'':34s}" + "".join(f"{n:>22s}" for n in names))

    def line(label: str, get: Any) -> None:
        print(f"{label:34s}" + "".join(f"{get(r)!s:>22s}" for r in rows))

    line("first answer token s p50/p95", lambda r: f"{r['first_token_s']['p50']}/{r['first_token_s']['p95']}")
    line("first final text s p50/p95", lambda r: f"{r['first_final_text_s']['p50']}/{r['first_final_text_s']['p95']}")
    line("first media s p50/p95 (n)", lambda r: f"{r['first_media_s']['p50']}/{r['first_media_s']['p95']} "
                                              f"({r['first_media_s']['n']})")
    line("complete answer s p50/p95/max", lambda r: f"{r['total_s']['p50']}/{r['total_s']['p95']}/{r['total_s']['max']}")
    stages = sorted({k for r in rows for k in r["stages_ms"]})
    for st in stages:
        line(f"  {st} ms p50/p95", lambda r, st=st: (f"{r['stages_ms'][st]['p50']}/{r['stages_ms'][st]['p95']}"
                                                     if st in r["stages_ms"] else "-"))
    cstages = sorted({k for r in rows for k in r["llm_calls"]})
    for st in cstages:
        line(f"  {st} call: prompt/evaluated/out", lambda r, st=st: (
            f"{r['llm_calls'][st]['prompt_tokens_p50']}/{r['llm_calls'][st]['evaluated_tokens_p50']}/"
            f"{r['llm_calls'][st]['completion_tokens_p50']} (n={r['llm_calls'][st]['n']})"
            if st in r["llm_calls"] else "-"))
    line("media P/R/F1 (micro)", lambda r: "/".join(fmt(r["media_micro"][k]) for k in ("precision", "recall", "f1")))
    line("media F1 (macro)", lambda r: fmt(r["media_macro_f1"]))
    line("CiteP / InfoP (collection)", lambda r: f"{fmt(r['cite_precision'])}/{fmt(r['info_precision'])}")
    line("answers found", lambda r: r["answers_found"])
    line("refinement", lambda r: ",".join(f"{k}:{v}" for k, v in sorted(r["refinement"].items())))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--index", type=Path, default=REPO / "benchmarks" / "out" / "adobe-minilm")
    ap.add_argument("--corpus", type=Path, default=SHARED / "corpora" / "adobe-docs")
    ap.add_argument("--questions", type=Path, default=SHARED / "eval" / "dev.jsonl")
    ap.add_argument("--llm", default="bundled", choices=["bundled", "bundled-small"])
    ap.add_argument("--limit", type=int, default=20)
    ap.add_argument("--paths", default=",".join(PATHS),
                    help="comma-separated: three-call, streamed, lead-in (answer from the selected sentences, then "
                         "one short call writing lead-ins for the media; not streamed), streamed-no-defer (the "
                         "streamed path placing each screenshot where it was chosen: MediaOptions(step_defer=False))")
    ap.add_argument("--draft-tokens", type=int, default=0, help="prompt-lookup decoding on the model (0 = off)")
    ap.add_argument("--judge", default="embedding", choices=["embedding", "llm"])
    ap.add_argument("--json-out", type=Path, default=None)
    ap.add_argument("--deadline-s", type=float, default=None,
                    help="stop taking new questions after this many seconds and summarise those answered")
    args = ap.parse_args()
    t_start = time.perf_counter()

    load_start = os.getloadavg()
    from query import ensure_index

    ensure_index(args.corpus, args.index)
    golds: list[GoldQuestion] = load_gold(args.questions)[: args.limit]
    model = load_chat_model(args.llm, draft_tokens=args.draft_tokens)
    assert isinstance(model, LlamaCppChatModel)
    t = time.perf_counter()
    model.load()
    load_s = time.perf_counter() - t
    paths = [p for p in args.paths.split(",") if p]
    pipes = {
        "three-call": load_pipeline(args.index, chat_model=model, config=PipelineConfig.three_call()),
        "streamed": load_pipeline(args.index, chat_model=model, config=PipelineConfig()),
        # the streamed path as before step_defer: a screenshot placed at the sentence it was chosen at
        "streamed-no-defer": load_pipeline(args.index, chat_model=model,
                                           config=PipelineConfig(media=MediaOptions(step_defer=False))),
        "lead-in": load_pipeline(args.index, chat_model=model, config=PipelineConfig.three_call(
            refine_mode="lead-in", display_captions=False, evidence=EvidenceOptions())),
    }
    corpus_text = golds[0].question + "\n" + " ".join(
        s.snippet.text for s in pipes["streamed"].retrieve(golds[0].question)[0])[:1800]
    speed = bare_speed(model, corpus_text)
    print(f"model {model.name}: load {load_s:.1f} s; bare prompt eval {speed['prompt_tokens_per_s']} tok/s "
          f"({speed['prompt_tokens']} tokens), generation {speed['generation_tokens_per_s']} tok/s; "
          f"load average at start {load_start[0]:.2f} {load_start[1]:.2f} {load_start[2]:.2f}", flush=True)
    runs = {p: Run() for p in paths}
    warm = "How do I warm up?"
    for p in paths:  # untimed: embedder sessions, first-call allocations
        model.prefix_cache = p != "three-call"
        pipes[p].answer(warm)
    for i, g in enumerate(golds, 1):
        if args.deadline_s is not None and time.perf_counter() - t_start > args.deadline_s:
            print(f"  deadline reached: summarising the first {i - 1} question(s)", flush=True)
            golds = golds[: i - 1]
            break
        for p in paths:
            model.prefix_cache = p != "three-call"
            model.forget_prompt()  # no path reuses the KV cache of another path's identical prompt
            a = timed_answer(pipes[p], g.question, runs[p])
            r = runs[p]
            print(f"  [{i}/{len(golds)}] {p:10s} first token {r.first_token_s[-1] if a.found else float('nan'):5.1f} s  "
                  f"total {r.total_s[-1]:5.1f} s  media {len(a.media)}  found {a.found}  "
                  f"refine {a.trace.refinement.used}", flush=True)
    model.prefix_cache = True
    load_end = os.getloadavg()
    speed_end = bare_speed(model, corpus_text)
    print(f"bare model at the end: prompt eval {speed_end['prompt_tokens_per_s']} tok/s, generation "
          f"{speed_end['generation_tokens_per_s']} tok/s", flush=True)
    judge: SupportJudge = (LLMJudge(model) if args.judge == "llm"
                           else EmbeddingJudge(pipes["streamed"].embedder))
    rows = []
    for p in paths:
        ev = evaluate_service(Replay(runs[p].answers), golds, scorer=MirageScorer(judge),
                              decomposer=SentenceDecomposer(), corpus_root=pipes[p].corpus_root)
        rows.append(summary(p, runs[p], ev))
    print(f"\n{len(golds)} questions of {args.questions.name}, model {model.name}, judge {judge.name}; "
          f"load average at start {load_start[0]:.2f}, at end {load_end[0]:.2f} {load_end[1]:.2f} {load_end[2]:.2f} "
          f"(2 cores; the machine may be shared)")
    print_table(rows)
    out = {"model": model.name, "n_questions": len(golds), "load_s": round(load_s, 2), "bare_model": speed,
           "bare_model_end": speed_end,
           "draft_tokens": args.draft_tokens, "judge": judge.name, "cpu_count": os.cpu_count(),
           "load_average_start": load_start, "load_average_end": load_end, "paths": rows,
           "statistics_note": "first_token for three-call is the first draft token; its final text exists only at the end"}
    path = args.json_out or REPO / "benchmarks" / "out" / f"latency-{args.llm}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(out, indent=2, default=str))
    print(f"\nwritten {path}")


if __name__ == "__main__":
    main()
