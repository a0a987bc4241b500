"""Per-file budgets, the conversion worker and the walker's reports (issue 11)."""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path

import pytest

from murar.embed.fake import HashingEmbedder
from murar.errors import IngestError
from murar.ingest import budget as budget_mod
from murar.ingest import corpus as corpus_mod
from murar.ingest.budget import (
    ConverterCrash,
    FileBudget,
    FileBudgetExceeded,
    ForkedRunner,
    PageCharBudget,
)
from murar.ingest.index import build_index
from murar.schema import ParsedDocument


def _doc(path: Path) -> ParsedDocument:
    return ParsedDocument(source_path=path.name, title=path.stem, metadata={}, sections=[], media=[], warnings=[])


def _convert(path: Path, markup: str | None) -> ParsedDocument:
    if "hang" in path.name:
        time.sleep(600)
    if "die" in path.name:
        os.kill(os.getpid(), signal.SIGKILL)
    if "bug" in path.name:
        raise KeyError("converter bug")
    if "bad" in path.name:
        raise IngestError(f"{path.name}: bad input")
    return _doc(path)


def test_forked_runner_stops_hangs_and_survives_crashes(tmp_path: Path) -> None:
    runner = ForkedRunner(_convert, max_seconds=1.0)
    try:
        assert runner.run(tmp_path / "a.md").title == "a"
        t = time.perf_counter()
        with pytest.raises(FileBudgetExceeded, match="1 s"):
            runner.run(tmp_path / "hang.md")
        assert time.perf_counter() - t < 15
        assert runner.run(tmp_path / "b.md").title == "b"  # a fresh worker took over
        with pytest.raises(ConverterCrash, match="signal 9"):
            runner.run(tmp_path / "die.md")
        with pytest.raises(ConverterCrash, match="KeyError") as info:
            runner.run(tmp_path / "bug.md")
        assert "Traceback" in info.value.detail
        with pytest.raises(IngestError, match="bad input"):
            runner.run(tmp_path / "bad.md")
        assert runner.run(tmp_path / "c.md").title == "c"
    finally:
        runner.close()


class _SlowToStart:
    """A converter whose worker takes ``delay`` seconds to start (unpickled in the new process)."""

    def __init__(self, delay: float) -> None:
        self.delay = delay

    def __getstate__(self) -> dict[str, float]:
        return {"delay": self.delay}

    def __setstate__(self, state: dict[str, float]) -> None:
        time.sleep(state["delay"])  # a slow start: a loaded machine, a cold disk
        self.delay = state["delay"]

    def __call__(self, path: Path, markup: str | None) -> ParsedDocument:
        return _convert(path, markup)


def test_a_slow_worker_start_is_not_counted_against_the_file(tmp_path: Path) -> None:
    """The clock of a file starts when its worker is up: seen on a loaded machine, the file
    after a hung one failed its 1 s budget while the fresh worker was still starting."""
    runner = ForkedRunner(_SlowToStart(1.5), max_seconds=1.0)
    try:
        assert runner.run(tmp_path / "a.md").title == "a"
        with pytest.raises(FileBudgetExceeded):
            runner.run(tmp_path / "hang.md")
        assert runner.run(tmp_path / "b.md").title == "b"  # the restarted worker's start is free too
    finally:
        runner.close()


def test_a_hung_converter_does_not_stop_the_ingest(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    for name in ("a", "hang", "z"):
        (docs / f"{name}.md").write_text(f"# Page {name}\n\nText of page {name} about budgets.\n")
    real = corpus_mod.convert_file

    def convert_file(path: Path, **kw: object) -> ParsedDocument:
        if path.name == "hang.md":
            time.sleep(600)
        return real(path, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(corpus_mod, "convert_file", convert_file)
    # the patched converter lives in this process only: let the worker fork from it
    monkeypatch.setattr(budget_mod, "_START_METHOD", "fork")
    _manifest, report = build_index(docs, tmp_path / "idx", embedder=HashingEmbedder(),
                                    budget=FileBudget(max_seconds=2.0))
    assert report.pages == 2
    failed = {f.path: f.error for f in report.failed}
    assert "per-file time budget" in failed["hang.md"]
    assert report.slowest(1)[0].path == "hang.md"


def test_size_section_and_snippet_budgets_are_reported(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    body = "".join(f"## Section {i}\n\nParagraph {i} explains setting number {i} in some detail.\n\n" for i in range(40))
    (docs / "many.md").write_text("# Many sections\n\n" + body)
    (docs / "huge.md").write_text("# Huge\n\n" + "word " * 5000)
    (docs / "small.md").write_text("# Small\n\nA small page.\n")
    budget = FileBudget(max_bytes=10_000, max_sections=10, max_snippets=4, max_seconds=0)
    _manifest, report = build_index(docs, tmp_path / "idx", embedder=HashingEmbedder(), budget=budget)
    skipped = {f.path: f.error for f in report.skipped}
    assert "per-file budget of 10000 bytes" in skipped["huge.md"]
    many = next(f for f in report.files if f.path == "many.md")
    assert any("kept 10 of 41 sections" in w for w in many.warnings)
    assert any("snippet budget hit" in w for w in many.warnings)
    assert report.pages == 2 and report.snippets <= 4 + 1
    assert all(f.seconds > 0 for f in report.files if f.status == "ok")


def test_the_media_budget_keeps_the_first_items_of_a_page(tmp_path: Path) -> None:
    """Media were not budgeted: a 477 KB page of 5,000 pictures took 482 s to embed with
    MiniLM (each picture is embedded; mpnet is five times slower), 20,000 half an hour."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "gallery.md").write_text("# Gallery\n\n" + "".join(
        f"Picture {i} of the set.\n\n![Screenshot {i}](https://example.org/{i}.png)\n\n" for i in range(30)))
    (docs / "small.md").write_text("# Small\n\nA small page.\n\n![One](https://example.org/one.png)\n")
    budget = FileBudget(max_media=10, max_seconds=0)
    _manifest, report = build_index(docs, tmp_path / "idx", embedder=HashingEmbedder(), budget=budget)
    gallery = next(f for f in report.files if f.path == "gallery.md")
    assert "media budget hit: kept 10 of 30 images, tables and videos (--max-file-media)" in gallery.warnings
    assert report.images == 11 and report.pages == 2


def test_leftover_temporary_versions_are_removed(tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "p.md").write_text("# P\n\nText.\n")
    idx = tmp_path / "idx"
    stale = idx / ".tmp-v-20240101T000000-deadbeef"
    (stale / "lance").mkdir(parents=True)  # what a killed ingest leaves
    build_index(docs, idx, embedder=HashingEmbedder())
    assert not stale.exists()
    assert not list(idx.glob(".tmp-v-*"))


def test_walker_reports_every_path_it_does_not_read(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text("# Secret\n\nNot to be read.\n")
    docs = tmp_path / "docs"
    (docs / "sub").mkdir(parents=True)
    (docs / "p.md").write_text("# P\n\nText.\n")
    (docs / "sub" / "q.md").write_text("# Q\n\nMore text.\n")
    (docs / "escape").symlink_to(outside, target_is_directory=True)
    (docs / "sub" / "loop").symlink_to(docs, target_is_directory=True)
    (docs / "self.md").symlink_to(docs / "self.md")
    os.mkfifo(docs / "pipe.md")
    (docs / "folder.md").mkdir()
    (docs / "folder.md" / "inner.md").write_text("# Inner\n\nInside a folder named like a page.\n")
    (docs / "notes.xyz").write_text("unknown")
    _manifest, report = build_index(docs, tmp_path / "idx", embedder=HashingEmbedder())
    reasons = {f.path: f.error for f in report.files if f.status != "ok"}
    assert "escapes the corpus root" in reasons["escape/"]
    assert "already walked" in reasons["sub/loop/"]
    assert "not a regular file" in reasons["pipe.md"]
    assert "cannot resolve" in reasons["self.md"] or "not a regular file" in reasons["self.md"]
    assert "notes.xyz" in reasons
    ok = {f.path for f in report.files if f.status == "ok"}
    assert ok == {"p.md", "sub/q.md", "folder.md/inner.md"}


_SHARED_LOCK = threading.Lock()  # stands for any lock a library's thread may hold (no at-fork handler)


def _convert_taking_a_lock(path: Path, markup: str | None) -> ParsedDocument:
    with _SHARED_LOCK:
        return _doc(path)


def test_worker_starts_clean_while_another_thread_holds_a_lock(tmp_path: Path) -> None:
    """A fork taken while a thread of the caller holds a lock (rich's refresh
    thread, a native pool, a web server) copies the lock held, and the worker
    deadlocks on it; workers come from a fork server, so the conversion completes."""
    held, release = threading.Event(), threading.Event()

    def hold() -> None:
        with _SHARED_LOCK:
            held.set()
            release.wait(30)

    t = threading.Thread(target=hold, daemon=True)
    t.start()
    assert held.wait(5)
    runner = ForkedRunner(_convert_taking_a_lock, max_seconds=10.0)
    try:
        doc = runner.run(tmp_path / "page.md")
    finally:
        release.set()
        runner.close()
        t.join(5)
    assert doc.title == "page"


def test_worker_exits_quietly_when_the_parent_is_gone(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    """QA: Ctrl-C during `murar ingest` printed two BrokenPipeError tracebacks from the
    conversion worker (its reply had no reader any more)."""
    from multiprocessing import Pipe

    page = tmp_path / "a.md"
    page.write_text("# A\n\nText.\n")
    parent, child = Pipe()
    parent.send((str(page), None))
    parent.close()  # the parent died before the reply
    old = signal.getsignal(signal.SIGINT)
    try:
        budget_mod._serve(lambda path, markup: ParsedDocument(source_path=path.name, title="A"), child)
    finally:
        signal.signal(signal.SIGINT, old)
    assert "Traceback" not in capfd.readouterr().err


def test_a_script_without_main_guard_can_build_an_index(tmp_path: Path) -> None:
    """QA: the README's Python example (build_index at a script's top level, no
    `if __name__ == "__main__":`) failed every page with "converter process died":
    multiprocessing re-ran the script inside each conversion worker."""
    import subprocess
    import sys

    corpus = tmp_path / "c"
    corpus.mkdir()
    for name in ("a", "b"):
        (corpus / f"{name}.md").write_text(f"# {name}\n\nText about {name}.\n")
    script = tmp_path / "example.py"
    script.write_text("import murar\n\n"
                      f"report = murar.build_index({str(corpus)!r}, {str(tmp_path / 'idx')!r}, embedder='hashing')\n"
                      "print(report.pages, len(report.failed))\n")
    src = Path(budget_mod.__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": str(src)}
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120, env=env,
                         cwd=tmp_path, check=False)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.split() == ["2", "0"]


def test_the_page_char_budget_refuses_the_text_that_goes_over_and_the_later_ones() -> None:
    """One budget, one warning: a text that would pass the characters, or the count of texts
    when there is one (MDX partials, Hugo includes), is refused with every later one."""
    warnings: list[str] = []
    chars = PageCharBudget(10, "{what}: over {limit} characters")
    assert chars.spend("x" * 6, "a", warnings) and chars.spend_chars(4, "b", warnings)
    assert not chars.spend("y", "c", warnings) and chars.spent and not chars.spend("", "d", warnings)
    assert warnings == ["c: over 10 characters"]
    count = PageCharBudget(100, "{what}: over {items} texts or {limit} characters", items=2)
    assert count.spend("a", "p1", warnings) and count.spend("b", "p2", warnings)
    assert not count.spend("", "p3", warnings) and not count.spend("c", "p4", warnings)
    assert warnings[1:] == ["p3: over 2 texts or 100 characters"]
