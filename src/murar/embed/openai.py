"""Embedder backed by an OpenAI-compatible ``/embeddings`` endpoint (OpenAI, vLLM, Ollama, llama.cpp server)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

import httpx
import numpy as np
import numpy.typing as npt

from murar.embed.base import BatchingEmbedder, Vectors, l2_normalise
from murar.errors import EmbeddingError
from murar.llm.openai import _JSONEndpoint


class _Encoding(Protocol):
    ids: list[int]
    offsets: list[tuple[int, int]]


class Tokenizer(Protocol):
    """What :class:`OpenAICompatibleEmbedder` needs from a tokenizer (a ``tokenizers.Tokenizer`` fits)."""

    def encode(self, sequence: str, *, add_special_tokens: bool = ...) -> _Encoding: ...


class OpenAICompatibleEmbedder(BatchingEmbedder):
    """Embeddings from ``POST {base_url}/embeddings``.

    ``embed(texts)`` returns shape ``(len(texts), dim)``, float32, each row
    L2-normalised (the server's vectors are re-normalised whatever it sends;
    token-level vectors, sent by servers for models without pooling, are mean-pooled first).

    Args:
        base_url: API root, e.g. ``http://127.0.0.1:8080/v1``.
        model: embedding model name sent with each request.
        dim: expected vector size; when ``None`` it is taken from the first
            response (reading :attr:`dim` before any ``embed`` call sends one
            probe request) and fixed from then on.
        api_key: bearer token; defaults to ``$OPENAI_API_KEY``.
        batch_size: texts per request.
        transport: httpx transport (``httpx.MockTransport`` in tests).
        timeout: seconds per request.
        max_tokens: how many tokens the model sees (used for chunk budgeting).
        tokenizer: the model's tokenizer, for exact :meth:`count_tokens` /
            :meth:`token_spans`; without it, whitespace words approximate tokens.
        max_retries, retry_backoff: as for :class:`murar.llm.openai.OpenAICompatibleChatModel`.

    The constructor does no I/O.

    Raises (from ``embed``):
        EmbeddingError: unreachable endpoint, non-2xx answer, malformed JSON,
            a wrong number of vectors, or vectors whose size differs from ``dim``.
    """

    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        dim: int | None = None,
        api_key: str | None = None,
        batch_size: int = 64,
        transport: httpx.BaseTransport | None = None,
        timeout: float = 60.0,
        max_tokens: int = 512,
        tokenizer: Tokenizer | None = None,
        max_retries: int = 2,
        retry_backoff: float = 0.5,
    ) -> None:
        if batch_size < 1:
            raise ValueError(f"batch_size must be >= 1, got {batch_size}")
        self._model = model
        self._dim = dim
        self.batch_size = batch_size
        self._max_tokens = max_tokens
        self._tokenizer = tokenizer
        self._http = _JSONEndpoint(
            base_url,
            api_key=api_key,
            timeout=timeout,
            transport=transport,
            max_retries=max_retries,
            retry_backoff=retry_backoff,
            error=EmbeddingError,
        )

    @property
    def name(self) -> str:
        return self._model

    @property
    def dim(self) -> int:
        """Vector size; discovered with one probe request if not given and not yet seen."""
        if self._dim is None:
            self.embed_batch(["dimension probe"])
        assert self._dim is not None
        return self._dim

    @property
    def max_tokens(self) -> int:
        return self._max_tokens

    def close(self) -> None:
        """Close the HTTP connection pool (reopened on next use)."""
        self._http.close()

    def embed(self, texts: Sequence[str], *, progress: Callable[[int], None] | None = None) -> Vectors:
        """Embed ``texts`` in batches; returns ``(len(texts), dim)`` float32, L2-normalised.

        When ``dim`` is not yet known, the first batch discovers it (no extra probe request).
        """
        if self._dim is not None or not texts:
            return super().embed(texts, progress=progress)
        head = self.embed_batch(list(texts[: self.batch_size]))
        if progress is not None:
            progress(len(head))
        rest = super().embed(texts[self.batch_size :], progress=progress)
        return np.concatenate([head, rest]) if len(rest) else head

    def embed_batch(self, texts: Sequence[str]) -> Vectors:
        """Embed one batch with one request; returns ``(len(texts), dim)`` float32, L2-normalised."""
        if not texts:
            return np.zeros((0, self._dim or 0), dtype=np.float32)
        url = self._http.url("embeddings")
        # many servers reject empty strings; a single space embeds as "nothing"
        inputs = [t if t.strip() else " " for t in texts]
        data = self._http.post_json("embeddings", {"model": self._model, "input": inputs})
        try:
            items: list[dict[str, Any]] = list(data["data"])
            items.sort(key=lambda item: int(item.get("index", 0)))
            vectors = [item["embedding"] for item in items]
        except (KeyError, TypeError, ValueError, AttributeError) as err:
            raise EmbeddingError(f"{url} returned JSON without data[].embedding: {str(data)[:200]}") from err
        if len(vectors) != len(texts):
            raise EmbeddingError(f"{url} returned {len(vectors)} embeddings for {len(texts)} inputs")
        try:
            arr = np.stack([_pool(v) for v in vectors])
        except (ValueError, TypeError) as err:
            raise EmbeddingError(f"{url} returned embeddings of unequal length or non-numeric values") from err
        if arr.ndim != 2 or arr.shape[1] == 0:
            raise EmbeddingError(f"{url} returned embeddings of shape {arr.shape}, expected (n, dim)")
        if self._dim is None:
            self._dim = int(arr.shape[1])
        elif arr.shape[1] != self._dim:
            raise EmbeddingError(
                f"{url} model {self._model!r} returned {arr.shape[1]}-d embeddings, expected {self._dim}-d; "
                "an index built with one embedding model cannot be searched with another"
            )
        if not np.isfinite(arr).all():
            raise EmbeddingError(f"{url} returned non-finite embedding values")
        return l2_normalise(arr)

    def count_tokens(self, text: str) -> int:
        """Tokens the model sees (special tokens excluded); whitespace words without a tokenizer."""
        if self._tokenizer is None:
            return super().count_tokens(text)
        return len(self._tokenizer.encode(text, add_special_tokens=False).ids)

    def token_spans(self, text: str) -> list[tuple[int, int]]:
        """Character spans ``(start, end)`` of each token."""
        if self._tokenizer is None:
            return super().token_spans(text)
        return [(int(s), int(e)) for s, e in self._tokenizer.encode(text, add_special_tokens=False).offsets]


def _pool(vector: Any) -> npt.NDArray[np.float32]:
    """One input's embedding as a 1-D array. Token-level output (a list of per-token
    vectors, as llama-cpp-python's server sends for models without a pooling layer,
    e.g. a chat LLM started with ``--embedding true``) is mean-pooled."""
    arr = np.asarray(vector, dtype=np.float32)
    if arr.ndim == 2 and arr.shape[0] > 0:
        return arr.mean(axis=0, dtype=np.float32)  # type: ignore[no-any-return]
    if arr.ndim != 1:
        raise ValueError(f"embedding of shape {arr.shape}")
    return arr


__all__ = ["OpenAICompatibleEmbedder", "Tokenizer"]
