"""Incremental ingest and killed ingests, on both store backends (LanceDB folder, PostgreSQL)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from murar.embed.fake import HashingEmbedder
from murar.ingest.index import build_index, open_index

REPO = Path(__file__).resolve().parents[2]


def _corpus(root: Path) -> Path:
    docs = root / "docs"
    docs.mkdir(parents=True)
    (docs / "alpha.md").write_text("# Alpha\n\nAlpha explains journeys.\n\n## Steps\n\nClick Save in alpha.\n")
    (docs / "beta.md").write_text("# Beta\n\nBeta explains audiences and segments.\n")
    (docs / "gamma.md").write_text("# Gamma\n\nGamma explains schemas.\n")
    return docs


@pytest.fixture(params=["lance", "postgres"])
def target(request: pytest.FixtureRequest, tmp_path: Path) -> Path | str:
    if request.param == "postgres":
        return str(request.getfixturevalue("pg_url"))
    return tmp_path / "idx"


def _texts(target: Path | str) -> str:
    return " ".join(s.text for s in open_index(target).store.all_snippets())  # type: ignore[attr-defined]


def test_unchanged_changed_added_removed(target: Path | str, tmp_path: Path) -> None:
    docs = _corpus(tmp_path)
    emb = HashingEmbedder()
    m1, r1 = build_index(docs, target, embedder=emb)
    assert r1.changes == {"added": 3, "changed": 0, "removed": 0, "unchanged": 0}
    m2, r2 = build_index(docs, target, embedder=emb)
    assert r2.changes == {"added": 0, "changed": 0, "removed": 0, "unchanged": 3}
    assert r2.reused_embeddings == r2.snippets + r2.images + r2.tables + r2.videos
    assert m2.counts == m1.counts and m2.extra["incremental"] is True

    (docs / "beta.md").write_text("# Beta\n\nBeta now explains destinations only.\n")
    (docs / "gamma.md").unlink()
    (docs / "delta.md").write_text("# Delta\n\nDelta explains datasets.\n")
    m3, r3 = build_index(docs, target, embedder=emb)
    assert r3.changes == {"added": 1, "changed": 1, "removed": 1, "unchanged": 1}
    text = _texts(target)
    assert "destinations" in text and "audiences" not in text and "schemas" not in text and "datasets" in text
    assert "Click Save in alpha" in text
    opened = open_index(target)
    assert opened.manifest.version == m3.version
    assert opened.store.counts() == {k: m3.counts[k] for k in opened.store.counts()}
    assert m3.counts["pages"] == 3


def test_full_rebuild_and_embedder_change(target: Path | str, tmp_path: Path) -> None:
    docs = _corpus(tmp_path)
    build_index(docs, target, embedder=HashingEmbedder())
    _, full = build_index(docs, target, embedder=HashingEmbedder(), incremental=False)
    assert full.changes == {"added": 3, "changed": 0, "removed": 0, "unchanged": 0}
    assert full.reused_embeddings == full.snippets  # vectors reused by exact text, rows rewritten
    if isinstance(target, str):  # PostgreSQL holds one dimension; another one is a clear error
        from murar.errors import StoreSchemaError

        with pytest.raises(StoreSchemaError, match="dimensional"):
            build_index(docs, target, embedder=HashingEmbedder(dim=128))
        return
    m, other = build_index(docs, target, embedder=HashingEmbedder(dim=128))
    assert other.changes["added"] == 3 and other.reused_embeddings == 0 and m.dim == 128


_KILLED_INGEST = """
import sys, time
from pathlib import Path
from murar.embed.fake import HashingEmbedder
from murar.ingest.index import build_index, open_writer

class SlowVersion:
    def __init__(self, inner):
        self.inner = inner
    def __getattr__(self, name):
        return getattr(self.inner, name)
    def put_page(self, page):
        self.inner.put_page(page)
        print("put", page.source_path, flush=True)
        time.sleep(30)

class SlowWriter:
    def __init__(self, inner):
        self.inner = inner
    def __getattr__(self, name):
        return getattr(self.inner, name)
    def begin(self, version, **kw):
        return SlowVersion(self.inner.begin(version, **kw))

target = sys.argv[2]
target = target if target.startswith("postgresql://") else Path(target)
build_index(Path(sys.argv[1]), target, embedder=HashingEmbedder(), writer=SlowWriter(open_writer(target)))
"""


def test_killed_ingest_leaves_previous_version_answering(target: Path | str, tmp_path: Path) -> None:
    docs = _corpus(tmp_path)
    emb = HashingEmbedder()
    m1, _ = build_index(docs, target, embedder=emb)
    before = open_index(target).store.counts()
    (docs / "alpha.md").write_text("# Alpha\n\nAlpha was rewritten completely.\n")
    (docs / "beta.md").write_text("# Beta\n\nBeta was rewritten too.\n")
    script = tmp_path / "slow_ingest.py"
    script.write_text(textwrap.dedent(_KILLED_INGEST))
    env = {**os.environ, "PYTHONPATH": str(REPO / "src"), "TMPDIR": str(tmp_path)}
    proc = subprocess.Popen([sys.executable, str(script), str(docs), str(target)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()  # the first page of the new version is written
        assert line.startswith("put "), proc.stderr.read() if proc.stderr else line
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    opened = open_index(target)
    assert opened.manifest.version == m1.version
    assert opened.store.counts() == before
    assert "rewritten" not in _texts(target)
    del opened  # an open reader would keep its version past the next switch
    # the next ingest cleans up what the killed one left and switches
    m3, r3 = build_index(docs, target, embedder=emb)
    assert r3.changes == {"added": 0, "changed": 2, "removed": 0, "unchanged": 1}
    assert open_index(target).manifest.version == m3.version
    assert "rewritten completely" in _texts(target)
    if isinstance(target, Path):
        assert not list(target.glob(".tmp-*"))
        assert sorted(p.name for p in target.iterdir() if p.name.startswith("v-")) == [m3.version]
