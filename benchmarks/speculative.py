"""Prompt-lookup speculative decoding vs plain decoding on the streamed path's real prompts.

For the first ``--limit`` questions of ``dev.jsonl`` the streamed path's answer prompt
(selected evidence sentences) is built once; the same prompt is then answered by two
instances of the bundled model, alternating: plain greedy decoding, and llama-cpp-python's
``LlamaPromptLookupDecoding`` proposing up to ``--draft-tokens`` tokens copied from the
prompt. Printed: seconds to the first token and in total, prompt-eval and generation
tokens/s (p50), and whether the two answers are identical (greedy decoding should make
them so). Each model keeps its fixed prefix in its own state cache.

    flock /work/bench.lock python benchmarks/speculative.py [--llm bundled-small] [--draft-tokens 4]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

from murar.answer.pipeline import load_pipeline
from murar.eval.media_metrics import load_gold
from murar.llm import load_chat_model
from murar.llm.llamacpp import LlamaCppChatModel

SHARED = REPO.parent / "shared"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--index", type=Path, default=REPO / "benchmarks" / "out" / "adobe-minilm")
    ap.add_argument("--questions", type=Path, default=SHARED / "eval" / "dev.jsonl")
    ap.add_argument("--llm", default="bundled", choices=["bundled", "bundled-small"])
    ap.add_argument("--limit", type=int, default=6)
    ap.add_argument("--draft-tokens", type=int, default=4)
    ap.add_argument("--max-tokens", type=int, default=200)
    args = ap.parse_args()
    start = os.getloadavg()
    models: dict[str, LlamaCppChatModel] = {}
    for name, draft in (("plain", 0), (f"prompt-lookup-{args.draft_tokens}", args.draft_tokens)):
        m = load_chat_model(args.llm, draft_tokens=draft)
        assert isinstance(m, LlamaCppChatModel)
        m.load()
        models[name] = m
    pipe = load_pipeline(args.index, chat_model=models["plain"])
    gen = pipe.generator
    rows: dict[str, dict[str, list[float]]] = {n: {"first": [], "total": [], "pp": [], "tg": []} for n in models}
    same = 0
    golds = load_gold(args.questions)[: args.limit]
    warm = "How do I warm up?"
    for m in models.values():  # untimed: evaluate and keep the fixed prefix
        m.complete(gen.messages(warm, pipe.retrieve(warm)[0]), max_tokens=4)  # type: ignore[attr-defined]
    for i, g in enumerate(golds, 1):
        msgs = gen.messages(g.question, pipe.retrieve(g.question)[0])  # type: ignore[attr-defined]
        outs = []
        for name, m in models.items():
            outs.append(m.complete(msgs, max_tokens=args.max_tokens))
            c = m.last_call
            assert c is not None
            r = rows[name]
            r["first"].append(c.first_token_s)
            r["total"].append(c.total_s)
            r["pp"].append((c.prompt_tokens - c.cached_tokens) / max(c.first_token_s, 1e-6))
            r["tg"].append((c.completion_tokens - 1) / max(c.total_s - c.first_token_s, 1e-6))
            print(f"  [{i}/{len(golds)}] {name:18s} first {c.first_token_s:5.2f} s total {c.total_s:5.2f} s "
                  f"({c.prompt_tokens - c.cached_tokens} prompt tokens evaluated, {c.completion_tokens} generated)",
                  flush=True)
        same += outs[0] == outs[1]
    end = os.getloadavg()
    result = {n: {k: round(float(np.median(v)), 2) for k, v in r.items()} for n, r in rows.items()}
    print(f"\n{args.llm}, {len(golds)} prompts; identical answers {same}/{len(golds)}; "
          f"load average start {start[0]:.2f}, end {end[0]:.2f} (2 cores, shared machine)")
    for n, r in result.items():
        print(f"  {n:18s} first token p50 {r['first']:5.2f} s  total p50 {r['total']:5.2f} s  "
              f"prompt eval {r['pp']:6.1f} tok/s  generation {r['tg']:5.1f} tok/s")
    out = REPO / "benchmarks" / "out" / f"speculative-{args.llm}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"rows": result, "identical": same, "n": len(golds), "load_start": start,
                               "load_end": end}, indent=2))


if __name__ == "__main__":
    main()
