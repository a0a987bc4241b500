"""Speed of the bundled generator: GGUF assembly, load, prompt and generation tokens/s.

Usage::

    python benchmarks/llm_speed.py                       # 1.5B, ~800-token prompt, 128 new tokens
    python benchmarks/llm_speed.py --model bundled-small  # 0.5B
    python benchmarks/llm_speed.py --fresh-assembly       # also time joining the parts into a temp cache

Prints one JSON object. The prompt is real documentation text (the first Adobe pages
of ``../shared/corpora/adobe-docs``) cut to ``--prompt-tokens`` model tokens, framed
as a question-answering prompt like the MuRAR text-answer stage. Each run prefixes
a different number so llama.cpp cannot reuse the previous run's KV cache.

Prompt tokens/s = prompt tokens / time to first streamed piece;
generation tokens/s = (generated tokens - 1) / time from first to last piece.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import tempfile
import time
from pathlib import Path

from murar.llm.base import ChatMessage
from murar.llm.llamacpp import LlamaCppChatModel
from murar.models import QWEN_CODER_0_5B, QWEN_CODER_1_5B, ensure_gguf

ADOBE = Path(__file__).resolve().parents[1].parent / "shared" / "corpora" / "adobe-docs"


def _doc_text(limit_chars: int = 40_000) -> str:
    out: list[str] = []
    total = 0
    manifest = ADOBE / "manifest.jsonl"
    if manifest.exists():
        for line in manifest.read_text().splitlines():
            page = ADOBE / json.loads(line)["local"]
            if page.exists():
                text = page.read_text(errors="replace")
                out.append(text)
                total += len(text)
            if total >= limit_chars:
                break
    if not out:  # shared data absent: synthetic but token-realistic text
        out = ["To crop an image, open the Crop tool, drag the handles, and press Enter to apply. " * 300]
    return "\n\n".join(out)


def _prompt(model: LlamaCppChatModel, n_tokens: int, run: int) -> list[ChatMessage]:
    text = _doc_text()
    # binary search a character cut giving ~n_tokens of snippet text
    lo, hi = 0, len(text)
    while hi - lo > 50:
        mid = (lo + hi) // 2
        if model.count_tokens(text[:mid]) < n_tokens:
            lo = mid
        else:
            hi = mid
    snippets = text[:lo]
    return [
        ChatMessage("system", f"[run {run}] Answer the question using only the snippets. Cite them as [1]."),
        ChatMessage("user", f"Snippets:\n[1] {snippets}\n\nQuestion: What do these pages describe? Answer in detail."),
    ]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", choices=["bundled", "bundled-small"], default="bundled")
    ap.add_argument("--prompt-tokens", type=int, default=800)
    ap.add_argument("--max-tokens", type=int, default=128)
    ap.add_argument("--runs", type=int, default=2)
    ap.add_argument("--n-ctx", type=int, default=4096)
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--fresh-assembly", action="store_true", help="time assembly into a temp cache dir")
    args = ap.parse_args()
    recipe = QWEN_CODER_1_5B if args.model == "bundled" else QWEN_CODER_0_5B
    result: dict[str, object] = {
        "model": recipe.name,
        "cpu_count": os.cpu_count(),
        "machine": platform.machine(),
        "load_average_1m_at_start": round(os.getloadavg()[0], 2),
        "prompt_tokens_target": args.prompt_tokens,
        "max_tokens": args.max_tokens,
    }

    if args.fresh_assembly:
        with tempfile.TemporaryDirectory() as tmp:
            t0 = time.perf_counter()
            ensure_gguf(recipe, Path(tmp))
            result["assembly_s"] = round(time.perf_counter() - t0, 2)
            t0 = time.perf_counter()
            ensure_gguf(recipe, Path(tmp))
            result["assembly_cached_call_s"] = round(time.perf_counter() - t0, 4)

    t0 = time.perf_counter()
    path = ensure_gguf(recipe)
    result["ensure_gguf_s"] = round(time.perf_counter() - t0, 3)

    model = LlamaCppChatModel(path, n_ctx=args.n_ctx, n_threads=args.threads)
    t0 = time.perf_counter()
    model.load()
    result["load_s"] = round(time.perf_counter() - t0, 2)

    runs = []
    for run in range(args.runs):
        msgs = _prompt(model, args.prompt_tokens, run)
        n_prompt = model.count_message_tokens(msgs)
        pieces: list[str] = []
        t_start = time.perf_counter()
        t_first = t_last = t_start
        for piece in model.stream(msgs, max_tokens=args.max_tokens):
            now = time.perf_counter()
            if not pieces:
                t_first = now
            t_last = now
            pieces.append(piece)
        n_gen = model.count_tokens("".join(pieces))
        runs.append(
            {
                "prompt_tokens": n_prompt,
                "generated_tokens": n_gen,
                "time_to_first_piece_s": round(t_first - t_start, 2),
                "prompt_tokens_per_s": round(n_prompt / (t_first - t_start), 1),
                "generation_tokens_per_s": round((n_gen - 1) / (t_last - t_first), 1) if n_gen > 1 else None,
                "total_s": round(t_last - t_start, 2),
            }
        )
    result["runs"] = runs
    result["load_average_1m_at_end"] = round(os.getloadavg()[0], 2)
    result["peak_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    result["prompt_tokens_per_s_median"] = round(statistics.median(r["prompt_tokens_per_s"] for r in runs), 1)  # type: ignore[misc]
    gen = [r["generation_tokens_per_s"] for r in runs if r["generation_tokens_per_s"] is not None]
    result["generation_tokens_per_s_median"] = round(statistics.median(gen), 1) if gen else None  # type: ignore[type-var]
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
