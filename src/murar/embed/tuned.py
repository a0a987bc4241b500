"""A MiniLM embedder fine-tuned on one corpus, stored beside the index it serves.

``murar tune-embedder`` (:mod:`murar.tune`) writes a *tuned embedder
folder*::

    INDEX/embedders/<name>/
      model.onnx       int8 ONNX, same inputs and output as the bundled MiniLM
      tokenizer.json   the base model's tokenizer (unchanged)
      embedder.json    the manifest: name, model sha256, base model, pairs, training settings

Its name is ``all-MiniLM-L6-v2-int8-onnx+tuned-<first 12 hex of the model's
sha256>``: the index manifest records it like any embedder name, and a query
must embed with the very same model. :func:`resolve_embedder` finds the
folder from the name recorded in an index and checks the model file against
the manifest; anything else is an :class:`~murar.errors.EmbedderMismatchError`.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from murar.embed.base import Embedder
from murar.embed.minilm import DIM, MiniLMEmbedder
from murar.errors import EmbedderMismatchError, ModelError

BASE_NAME = "all-MiniLM-L6-v2-int8-onnx"
"""Name of the bundled embedder a tuned one starts from."""
TUNED_MARK = "+tuned-"
EMBEDDERS_DIR = "embedders"
MANIFEST = "embedder.json"
MODEL_FILE = "model.onnx"
TOKENIZER_FILE = "tokenizer.json"


@dataclass(slots=True, kw_only=True)
class TunedManifest:
    """What ``embedder.json`` records about a tuned embedder.

    ``model_sha256`` is the SHA-256 (hex) of ``model.onnx``; ``name`` embeds its
    first 12 characters. ``method`` is ``"full-finetune"`` (every weight trained,
    contrastive loss with in-batch negatives). ``training`` holds the settings
    (epochs, batch size, learning rate, loss scale, steps, seconds, seed) and
    ``pairs`` how many (question, snippet) pairs were trained on, written by
    ``generator`` (the chat model's name).
    """

    name: str
    model_sha256: str
    base: str = BASE_NAME
    base_weights: str = ""
    dim: int = DIM
    method: str = "full-finetune"
    pairs: int = 0
    snippets: int = 0
    generator: str = ""
    training: dict[str, Any] = field(default_factory=dict)
    created_at: str = ""

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=2, sort_keys=True)


def tuned_name(model_sha256: str) -> str:
    """The embedder name of a tuned model with this SHA-256."""
    return f"{BASE_NAME}{TUNED_MARK}{model_sha256[:12]}"


def is_tuned_name(name: str) -> bool:
    """True when ``name`` is the name of a tuned embedder."""
    return TUNED_MARK in name


def file_sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def read_manifest(folder: Path) -> TunedManifest:
    """The manifest of a tuned embedder folder.

    Raises:
        ModelError: missing or unreadable ``embedder.json``.
    """
    path = folder / MANIFEST
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return TunedManifest(**data)
    except (OSError, ValueError, TypeError) as err:
        raise ModelError(f"{path}: tuned embedder manifest is missing or unreadable: {err}") from err


class TunedEmbedder(MiniLMEmbedder):
    """MiniLM with fine-tuned weights from a tuned embedder folder.

    ``embed`` returns shape ``(n, 384)``, float32, L2-normalised, exactly as
    :class:`MiniLMEmbedder` (same graph signature, same mean pooling). The
    constructor reads the small manifest only; the model loads on first use,
    after its SHA-256 is checked against the manifest.

    Raises:
        ModelError: the folder lacks a file or its manifest (constructor), or
            ``model.onnx`` does not match the manifest's checksum (``load``).
    """

    def __init__(self, folder: Path, *, threads: int | None = None) -> None:
        self.folder = Path(folder)
        self.manifest = read_manifest(self.folder)
        for name in (MODEL_FILE, TOKENIZER_FILE):
            if not (self.folder / name).is_file():
                raise ModelError(f"tuned embedder {self.folder} lacks {name}; run `murar tune-embedder` again")
        super().__init__(model_path=self.folder / MODEL_FILE, tokenizer_path=self.folder / TOKENIZER_FILE,
                         threads=threads, verify_checksum=False)
        self._checked = False

    @property
    def name(self) -> str:
        return self.manifest.name

    def verify(self) -> None:
        """Check ``model.onnx`` against the manifest's SHA-256 and name (once; ~0.1 s).

        Raises:
            ModelError: the model file is not the one the manifest names.
        """
        if self._checked:
            return
        digest = file_sha256(self.folder / MODEL_FILE)
        if digest != self.manifest.model_sha256 or tuned_name(digest) != self.manifest.name:
            raise ModelError(f"{self.folder / MODEL_FILE} has sha256 {digest}, its manifest names "
                             f"{self.manifest.model_sha256} ({self.manifest.name}); run `murar tune-embedder` again")
        self._checked = True

    def load(self) -> None:
        self.verify()
        super().load()


def tuned_folder(index_dir: Path, name: str) -> Path:
    """Where the tuned embedder ``name`` of the index folder ``index_dir`` lives."""
    return Path(index_dir) / EMBEDDERS_DIR / name


def resolve_embedder(name: str, index_dir: Path | None) -> TunedEmbedder:
    """The tuned embedder an index recorded as ``name``, from its folder beside the index.

    Raises:
        EmbedderMismatchError: ``name`` is not a tuned embedder's, the index has
            no folder (a PostgreSQL store: pass the embedder explicitly), the
            folder is missing, or its model is not the one named.
    """
    if not is_tuned_name(name):
        raise EmbedderMismatchError(f"{name!r} is not the name of a tuned embedder")
    if index_dir is None:
        raise EmbedderMismatchError(
            f"the index was built with the tuned embedder {name!r}, which lives beside an index folder; "
            "for a database store pass embedder=TunedEmbedder(FOLDER) explicitly")
    folder = tuned_folder(index_dir, name)
    if not (folder / MANIFEST).is_file():
        raise EmbedderMismatchError(
            f"the index {index_dir} was built with the tuned embedder {name!r}, but {folder} is missing; "
            f"queries cannot be embedded like its vectors: run `murar tune-embedder --index {index_dir}` "
            f"again or rebuild with `murar ingest --full`")
    try:
        emb = TunedEmbedder(folder)
        emb.verify()
    except ModelError as err:
        raise EmbedderMismatchError(f"the tuned embedder of {index_dir} is unusable: {err}") from err
    if emb.name != name:
        raise EmbedderMismatchError(f"{folder} holds the tuned embedder {emb.name!r}, the index records {name!r}")
    return emb


def check_matches(recorded: str, embedder: Embedder, *, where: str) -> None:
    """Raise unless ``embedder`` is the embedder an index recorded as ``recorded``.

    Raises:
        EmbedderMismatchError: the names differ (query vectors would not be
            comparable with the index's vectors).
    """
    if embedder.name != recorded:
        raise EmbedderMismatchError(
            f"{where} was built with the embedder {recorded!r}, the embedder given is {embedder.name!r}; "
            "query and index vectors must come from the same model")


__all__ = [
    "BASE_NAME",
    "TunedEmbedder",
    "TunedManifest",
    "check_matches",
    "file_sha256",
    "is_tuned_name",
    "read_manifest",
    "resolve_embedder",
    "tuned_folder",
    "tuned_name",
]
