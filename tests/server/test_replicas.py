"""Stateless replicas: two ``murar serve`` processes on one PostgreSQL store,
answering while an incremental ingest rewrites every page."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from murar.embed.fake import HashingEmbedder
from murar.ingest.index import build_index, open_writer
from murar.store.pg_embedded import free_port

REPO = Path(__file__).resolve().parents[2]
TOPICS = ["journeys", "audiences", "schemas", "destinations", "datasets", "segments"]


def _write_corpus(docs: Path, edition: str) -> None:
    docs.mkdir(parents=True, exist_ok=True)
    for topic in TOPICS:
        (docs / f"{topic}.md").write_text(
            f"# {topic.title()}\n\n## About {topic}\n\nThe {topic} guide, edition {edition}, explains how "
            f"{topic} work and how to configure {topic} in the console.\n\n"
            f"## Steps for {topic}\n\nOpen the {topic} screen and click Create, edition {edition}.\n"
        )


class _SlowVersion:
    """Puts pages slowly so the ingest spans many requests."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def put_page(self, page: Any) -> None:
        self.inner.put_page(page)
        time.sleep(0.4)


class _SlowWriter:
    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def begin(self, version: str, **kw: Any) -> _SlowVersion:
        return _SlowVersion(self.inner.begin(version, **kw))


def _start_replica(url: str, port: int, feedback: Path) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(REPO / "src"), "MURAR_STORE": url}
    cmd = [sys.executable, "-c", "from murar.cli.main import main; main()", "serve", "--llm", "extractive",
           "--port", str(port), "--no-refine", "--workers", "2", "--log-level", "warning",
           "--feedback-dir", str(feedback)]
    return subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def _wait_ready(client: httpx.Client, base: str, proc: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            err = proc.stderr.read().decode() if proc.stderr else ""
            pytest.fail(f"replica exited: {err}")
        try:
            if client.get(f"{base}/healthz").status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.3)
    pytest.fail(f"replica at {base} did not start")


def _editions(answer: dict[str, Any]) -> set[str]:
    texts = [s.get("snippet", s).get("text", "") for s in answer["sources"]]
    return {e for t in texts for e in ("one", "two") if f"edition {e}" in t}


@pytest.mark.slow
def test_two_replicas_answer_consistently_during_an_incremental_ingest(tmp_path: Path, pg_url: str) -> None:
    docs = tmp_path / "docs"
    _write_corpus(docs, "one")
    build_index(docs, pg_url, embedder=HashingEmbedder())
    ports = [free_port(), free_port()]
    procs = [_start_replica(pg_url, p, tmp_path / f"feedback-{p}") for p in ports]
    bases = [f"http://127.0.0.1:{p}" for p in ports]
    try:
        with httpx.Client(timeout=30) as client:
            for base, proc in zip(bases, procs):
                _wait_ready(client, base, proc)
            _write_corpus(docs, "two")
            done = threading.Event()
            failure: list[BaseException] = []

            def ingest() -> None:
                try:
                    _, report = build_index(docs, pg_url, embedder=HashingEmbedder(),
                                            writer=_SlowWriter(open_writer(pg_url)))
                    assert report.changes["changed"] == len(TOPICS)
                except BaseException as err:  # noqa: BLE001 - reported by the main thread
                    failure.append(err)
                finally:
                    done.set()

            thread = threading.Thread(target=ingest)
            thread.start()
            seen: list[set[str]] = []
            errors: list[str] = []
            i = 0
            while not done.is_set() or i < 8:
                topic = TOPICS[i % len(TOPICS)]
                r = client.post(f"{bases[i % 2]}/v1/answer", json={"question": f"How do I configure {topic}?"})
                if r.status_code != 200:
                    errors.append(f"{r.status_code} {r.text[:200]}")
                else:
                    seen.append(_editions(r.json()))
                i += 1
            thread.join()
            assert not failure, failure
            assert not errors, errors
            assert all(len(e) == 1 for e in seen), seen  # never half of one version and half of the other
            assert {"one"} in seen or {"two"} in seen
            # once switched, both replicas give the same answer from the new version
            answers = [client.post(f"{b}/v1/answer", json={"question": "How do I configure audiences?"}).json()
                       for b in bases]
            assert answers[0]["text"] == answers[1]["text"]
            assert [s.get("snippet", s).get("id") for s in answers[0]["sources"]] == \
                [s.get("snippet", s).get("id") for s in answers[1]["sources"]]
            assert _editions(answers[0]) == {"two"}
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
