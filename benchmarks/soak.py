"""Soak benchmark of ``murar serve`` (issue 11): many clients for a long time, loopback only.

The server runs in a child process (uvicorn, the real pipeline on a real index
with the **extractive** generator, so no model bounds the rate). ``--clients``
asyncio clients send their next request as soon as the last one finished
(a mix of ``/v1/answer``, ``/v1/answer/stream`` and ``/v1/chat/completions``,
questions about the indexed corpus) for ``--minutes``. Every minute it prints
requests/s, p50/p95 latency, errors, overload replies (503) and the server's
resident memory; at the end, totals, requests lost (sent but never answered,
or answered by the server but not received), and whether RSS stayed flat after
the first minute (warm-up).

    python benchmarks/soak.py --index IDX [--clients 32] [--minutes 10]

Without ``--index``, ``../shared/corpora/adobe-docs`` is ingested first with
MiniLM into a temporary folder. Run it under ``flock /work/bench.lock``.
Exit status 0 when there were no errors and nothing was lost.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from load import QUESTIONS, Result, free_port, one_request, percentile

ADOBE = REPO.parent / "shared" / "corpora" / "adobe-docs"


def serve_child(index: str, port: int, workers: int, max_queue: int) -> None:
    """The server process: the real pipeline, extractive generator, on ``index``."""
    import uvicorn

    from murar.answer.pipeline import load_pipeline
    from murar.server import ServerConfig, create_app

    pipeline = load_pipeline(Path(index), llm="extractive")
    config = ServerConfig(max_concurrency=workers, max_queue=max_queue, max_wait_s=30.0,
                          feedback_dir=Path(tempfile.mkdtemp(prefix="murar-soak-fb-")))
    uvicorn.run(create_app(pipeline, config=config), host="127.0.0.1", port=port, log_level="warning",
                access_log=False)


def rss_mb(pid: int) -> float:
    """Resident memory of ``pid`` in MB (``VmRSS``)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def start_server(index: Path, port: int, workers: int, max_queue: int) -> subprocess.Popen[bytes]:
    cmd = [sys.executable, str(Path(__file__).resolve()), "_serve", str(index), str(port), str(workers),
           str(max_queue)]
    proc = subprocess.Popen(cmd, cwd=REPO, stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"server exited with {proc.returncode}")
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return proc
        time.sleep(0.3)
    proc.terminate()
    raise SystemExit("server did not start within 180 s")


def _window(rows: list[tuple[float, Result]], t0: float, t1: float) -> list[Result]:
    return [r for t, r in rows if t0 <= t < t1]


def _line(label: str, res: list[Result], seconds: float, rss: float) -> str:
    lat = sorted(r.latency_s for r in res if r.ok)
    errors = sum(1 for r in res if not r.ok and r.status != 503)
    busy = sum(1 for r in res if r.status == 503)
    return (f"{label:>8} {len(res) / max(seconds, 1e-9):7.1f} {percentile(lat, 50) * 1000:8.0f} "
            f"{percentile(lat, 95) * 1000:8.0f} {errors:7d} {busy:6d} {rss:8.0f}")


async def soak(base: str, pid: int, *, clients: int, seconds: float) -> tuple[list[tuple[float, Result]], int,
                                                                              list[float]]:
    """Run the clients; returns (finish time, result) pairs, requests sent, RSS per minute (MB)."""
    endpoints = ["answer", "stream", "chat"]
    rows: list[tuple[float, Result]] = []
    sent = 0
    rss = [rss_mb(pid)]
    start = time.monotonic()
    deadline = start + seconds
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    async with httpx.AsyncClient(base_url=base, timeout=httpx.Timeout(120.0), limits=limits) as client:

        async def worker(n: int) -> None:
            nonlocal sent
            i = n
            while time.monotonic() < deadline:
                sent += 1
                r = await one_request(client, endpoints[i % 3], QUESTIONS[i % len(QUESTIONS)])
                rows.append((time.monotonic() - start, r))
                i += clients
                if r.status == 503:
                    await asyncio.sleep(min(r.retry_after_s, 5.0))

        async def sampler() -> None:
            minute = 1
            print(f"{'minute':>8} {'req/s':>7} {'p50 ms':>8} {'p95 ms':>8} {'errors':>7} {'503':>6} {'RSS MB':>8}",
                  flush=True)
            while time.monotonic() < deadline:
                await asyncio.sleep(max(0.0, min(start + 60 * minute, deadline) - time.monotonic()))
                rss.append(rss_mb(pid))
                t1 = min(60.0 * minute, seconds)
                print(_line(str(minute), _window(rows, t1 - 60, t1), min(60.0, t1 - (60 * (minute - 1))), rss[-1]),
                      flush=True)
                minute += 1

        await asyncio.gather(sampler(), *(worker(n) for n in range(clients)))
    return rows, sent, rss


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "_serve":
        serve_child(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]))
        return 0
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--index", type=Path, default=None)
    ap.add_argument("--clients", type=int, default=32)
    ap.add_argument("--minutes", type=float, default=10.0)
    ap.add_argument("--workers", type=int, default=2, help="server: pipeline calls at once")
    ap.add_argument("--max-queue", type=int, default=64, help="server: requests waiting at most")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="murar-soak-") as tmp:
        index = args.index
        if index is None:
            from murar.embed.minilm import MiniLMEmbedder
            from murar.ingest.index import build_index

            index = Path(tmp) / "idx"
            build_index(ADOBE, index, embedder=MiniLMEmbedder())
        port = free_port()
        proc = start_server(index, port, args.workers, args.max_queue)
        base = f"http://127.0.0.1:{port}"
        try:
            before = httpx.get(base + "/v1/stats", timeout=30).json()["queue"]["served"]
            load0 = os.getloadavg()
            rows, sent, rss = asyncio.run(soak(base, proc.pid, clients=args.clients, seconds=args.minutes * 60))
            served = httpx.get(base + "/v1/stats", timeout=30).json()["queue"]["served"] - before
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    results = [r for _, r in rows]
    ok = sum(1 for r in results if r.ok)
    errors = [r for r in results if not r.ok and r.status != 503]
    lost = (sent - len(results)) + abs(served - ok)  # as benchmarks/load.py counts it
    load1 = os.getloadavg()
    seconds = args.minutes * 60
    print(_line("total", results, seconds, rss[-1]))
    print(f"\n{args.clients} clients x {args.minutes:g} min, extractive generator, loopback: {len(results)} requests "
          f"({ok} ok, {len(errors)} errors, {sum(1 for r in results if r.status == 503)} busy 503), "
          f"{len(results) / seconds:.1f} req/s; lost {lost} (sent {sent}, server served {served})")
    after_warmup = rss[1:] or rss
    growth = after_warmup[-1] - after_warmup[0]
    print(f"RSS MB by minute: {' '.join(f'{x:.0f}' for x in rss)}; after warm-up "
          f"{after_warmup[0]:.0f} -> {after_warmup[-1]:.0f} ({growth:+.0f} MB), max {max(rss):.0f}")
    print(f"load average at start {load0[0]:.2f}, at end {load1[0]:.2f} {load1[1]:.2f} {load1[2]:.2f} "
          f"(shared 2-core machine; clients and server on the same cores)")
    for r in errors[:5]:
        print(f"  error: {r.endpoint} status {r.status} {r.error}")
    return 0 if not errors and lost == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
