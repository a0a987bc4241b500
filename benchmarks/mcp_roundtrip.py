"""MCP round trip: ``murar mcp`` spawned over stdio, called by the official SDK client.

Measures, on one index and the questions of ``../shared/eval/dev.jsonl``:

- server start (spawn + index open + MCP handshake), seconds;
- ``ask_docs`` round trip (client call to decoded result, image blocks
  included), p50/p95 ms, with the generator given by ``--llm`` (extractive by
  default: no model); the first call is reported apart (embedder warm-up);
- ``search_docs`` (k=5) round trip, p50/p95 ms;
- the share of answers holding at least one image block, and their mean size.

    python benchmarks/mcp_roundtrip.py [--index DIR] [--llm extractive] [--limit N]

Without ``--index`` a MiniLM index of the Adobe corpus is built in a temp folder first.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
sys.path.insert(0, str(REPO / "src"))


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 1)


async def measure(index: Path, llm: str, questions: list[str]) -> dict[str, object]:
    from mcp import Client, StdioServerParameters
    from mcp.types import ImageContent

    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO / "src"), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    params = StdioServerParameters(command=sys.executable, env=env,
                                   args=["-m", "murar", "mcp", "--index", str(index), "--llm", llm])
    t0 = time.perf_counter()
    async with Client(params, read_timeout_seconds=600) as client:
        await client.list_tools()
        start_s = time.perf_counter() - t0
        ask_ms: list[float] = []
        image_sizes: list[int] = []
        with_image = 0
        for q in questions:
            t = time.perf_counter()
            result = await client.call_tool("ask_docs", {"question": q})
            images = [c for c in result.content if isinstance(c, ImageContent)]
            image_sizes += [len(base64.b64decode(c.data)) for c in images]
            ask_ms.append((time.perf_counter() - t) * 1000)
            with_image += bool(images)
        search_ms: list[float] = []
        for q in questions:
            t = time.perf_counter()
            await client.call_tool("search_docs", {"query": q, "k": 5})
            search_ms.append((time.perf_counter() - t) * 1000)
    rest = ask_ms[1:] or ask_ms
    return {
        "llm": llm, "questions": len(questions), "server_start_s": round(start_s, 2),
        "ask_first_ms": round(ask_ms[0], 1), "ask_p50_ms": pct(rest, 0.5), "ask_p95_ms": pct(rest, 0.95),
        "search_p50_ms": pct(search_ms, 0.5), "search_p95_ms": pct(search_ms, 0.95),
        "answers_with_image": f"{with_image}/{len(questions)}",
        "mean_image_kb": round(statistics.mean(image_sizes) / 1024, 1) if image_sizes else 0.0,
        "load_average": os.getloadavg(),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--index", type=Path)
    ap.add_argument("--llm", default="extractive")
    ap.add_argument("--limit", type=int, default=20)
    args = ap.parse_args()
    questions = [json.loads(line)["question"] for line in (SHARED / "eval" / "dev.jsonl").read_text().splitlines()
                 if line.strip()][: args.limit]
    index = args.index
    if index is None:
        import murar

        index = Path(tempfile.mkdtemp(prefix="murar-mcp-bench-")) / "idx"
        t = time.perf_counter()
        report = murar.build_index(SHARED / "corpora" / "adobe-docs", index)
        print(f"built {index}: {report.pages} pages in {time.perf_counter() - t:.0f} s", file=sys.stderr)
    print(json.dumps(asyncio.run(measure(index, args.llm, questions)), indent=2))


if __name__ == "__main__":
    main()
