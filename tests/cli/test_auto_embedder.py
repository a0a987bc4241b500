"""``--embedder auto`` (the default of ``murar ingest`` and ``murar.build_index``).

A new index gets mpnet when this machine has prepared it, else MiniLM with a
one-line notice; a refresh keeps whatever embedder the index records. The
mpnet folder is a stand-in (``is_prepared`` checks the manifest and file sizes
only), so nothing here loads the 416 MB model; one slow test uses the real one
when it is prepared (CI prepares it in scripts/setup.sh).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

import murar
from murar.cli.common import (
    AUTO_FALLBACK_NOTICE,
    auto_embedder_kind,
    build_embedder,
    ingest_embedder,
)
from murar.cli.main import app
from murar.config import EmbedderSettings
from murar.embed import mpnet
from murar.embed.fake import HashingEmbedder
from murar.embed.minilm import MiniLMEmbedder
from murar.errors import ModelError
from murar.ingest.index import build_index, open_index

runner = CliRunner()


def test_auto_is_the_default_everywhere() -> None:
    assert EmbedderSettings().kind == "auto"
    r = runner.invoke(app, ["ingest", "--help"])
    assert r.exit_code == 0 and "auto" in r.output
    import inspect

    assert inspect.signature(murar.build_index).parameters["embedder"].default == "auto"


def test_a_new_index_gets_mpnet_when_it_is_prepared(tmp_path: Path, stand_in_mpnet: Callable[[], Path]) -> None:
    assert auto_embedder_kind() == "minilm"
    assert isinstance(build_embedder("auto"), MiniLMEmbedder)
    assert isinstance(ingest_embedder("auto", tmp_path / "new-idx"), MiniLMEmbedder)
    stand_in_mpnet()
    assert auto_embedder_kind() == "mpnet"
    chosen = ingest_embedder("auto", tmp_path / "new-idx")
    assert isinstance(chosen, mpnet.MPNetEmbedder) and chosen.name == mpnet.NAME


def test_unprepared_machine_indexes_with_minilm_and_says_how_to_get_mpnet(
        tmp_path: Path, model_cache: Path, install_docs: Path) -> None:
    index = tmp_path / "idx"
    r = runner.invoke(app, ["ingest", str(install_docs), "--index", str(index), "-q"])
    assert r.exit_code == 0, r.output
    assert AUTO_FALLBACK_NOTICE in r.output and "murar models prepare --embedder mpnet" in AUTO_FALLBACK_NOTICE
    assert open_index(index).manifest.embedder == MiniLMEmbedder().name
    assert MiniLMEmbedder().name in r.output  # the summary names the embedder used
    # a refresh of that index says nothing: it keeps its embedder on purpose
    r = runner.invoke(app, ["ingest", str(install_docs), "--index", str(index), "-q"])
    assert r.exit_code == 0 and AUTO_FALLBACK_NOTICE not in r.output
    # JSON output stays clean for scripts
    r = runner.invoke(app, ["ingest", str(install_docs), "--index", str(tmp_path / "other"), "-q",
                            "--format", "json"])
    assert r.exit_code == 0 and json.loads(r.stdout)["manifest"]["embedder"] == MiniLMEmbedder().name


def test_a_refresh_keeps_the_recorded_embedder_instead_of_re_embedding(
        tmp_path: Path, stand_in_mpnet: Callable[[], Path], install_docs: Path) -> None:
    docs, index = install_docs, tmp_path / "idx"
    build_index(docs, index, embedder=HashingEmbedder())
    stand_in_mpnet()  # mpnet is now what a *new* index would get
    r = runner.invoke(app, ["ingest", str(docs), "--index", str(index), "-q", "--format", "json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["manifest"]["embedder"] == HashingEmbedder().name
    assert out["report"]["changes"]["unchanged"] == 1 and out["report"]["changes"]["changed"] == 0
    # the Python API does the same
    report = murar.build_index(docs, index)
    assert report.changes["unchanged"] == 1 and open_index(index).manifest.embedder == HashingEmbedder().name


def test_a_refresh_of_an_mpnet_index_on_an_unprepared_machine_is_a_readable_error(
        model_cache: Path, install_docs: Path, mpnet_index: Path) -> None:
    docs, index = install_docs, mpnet_index
    before = open_index(index).manifest.version
    r = runner.invoke(app, ["ingest", str(docs), "--index", str(index), "-q"])
    assert r.exit_code == 1 and "murar models prepare --embedder mpnet" in r.output
    assert "Traceback" not in r.output
    assert open_index(index).manifest.version == before  # not silently rebuilt with MiniLM
    with pytest.raises(ModelError, match="not prepared"):
        murar.build_index(docs, index)


@pytest.mark.slow
@pytest.mark.skipif(not mpnet.is_prepared(), reason="mpnet is not prepared here: murar models prepare --embedder mpnet")
def test_default_ingest_uses_the_real_prepared_mpnet(tmp_path: Path, install_docs: Path) -> None:
    r = runner.invoke(app, ["ingest", str(install_docs), "--index", str(tmp_path / "idx"), "-q",
                            "--format", "json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["manifest"]["embedder"] == mpnet.NAME
