"""OpenAICompatibleEmbedder against httpx.MockTransport."""

from __future__ import annotations

import json

import httpx
import numpy as np
import pytest

from murar.embed.base import Embedder
from murar.embed.openai import OpenAICompatibleEmbedder
from murar.errors import EmbeddingError


def _vec(text: str, dim: int) -> list[float]:
    rng = np.random.default_rng(abs(hash(text)) % 2**32)
    return (rng.normal(size=dim) * 3).tolist()


def _server(dim: int = 8, calls: list[list[str]] | None = None, shuffle: bool = True):  # type: ignore[no-untyped-def]
    def handler(request: httpx.Request) -> httpx.Response:
        assert request.url.path == "/v1/embeddings"
        body = json.loads(request.content)
        if calls is not None:
            calls.append(body["input"])
        data = [{"object": "embedding", "index": i, "embedding": _vec(t, dim)} for i, t in enumerate(body["input"])]
        if shuffle:
            data.reverse()  # servers may return out of order: index decides
        return httpx.Response(200, json={"object": "list", "data": data, "model": body["model"]})

    return httpx.MockTransport(handler)


def _emb(transport: httpx.BaseTransport, **kw) -> OpenAICompatibleEmbedder:  # type: ignore[no-untyped-def]
    kw.setdefault("retry_backoff", 0.0)
    return OpenAICompatibleEmbedder("http://emb.test/v1", "e1", transport=transport, **kw)


def test_embeds_batches_normalises_and_keeps_order() -> None:
    calls: list[list[str]] = []
    e = _emb(_server(8, calls), batch_size=2)
    texts = ["alpha", "beta gamma", "delta", "", "epsilon zeta eta"]
    out = e.embed(texts)
    assert out.shape == (5, 8) and out.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(out, axis=1), 1.0, rtol=1e-5)
    assert len(calls) == 3 and all(len(c) <= 2 for c in calls)
    assert any(" " in c for c in calls)  # empty string sent as a space
    # row i belongs to text i, whatever the batching and response order
    for i, t in enumerate(texts):
        ref = np.asarray(_vec(t if t else " ", 8), dtype=np.float32)
        np.testing.assert_allclose(out[i], ref / np.linalg.norm(ref), rtol=1e-5)
    assert e.dim == 8
    # on Python 3.11 a runtime-checkable isinstance reads ``dim``: after the first batch it is free
    assert isinstance(e, Embedder)
    assert len(calls) == 3


def test_dim_probe_when_unknown() -> None:
    calls: list[list[str]] = []
    e = _emb(_server(5, calls))
    assert calls == []  # constructor does no I/O
    assert e.dim == 5
    assert len(calls) == 1
    assert e.embed([]).shape == (0, 5)


def test_dim_mismatch_raises() -> None:
    e = _emb(_server(6), dim=4)
    with pytest.raises(EmbeddingError, match="6-d embeddings, expected 4-d"):
        e.embed(["x"])


def test_500_retries_then_embedding_error() -> None:
    calls: list[int] = []

    def handler(request: httpx.Request) -> httpx.Response:
        calls.append(1)
        return httpx.Response(500, text="oops")

    with pytest.raises(EmbeddingError, match=r"http://emb.test/v1/embeddings.*500"):
        _emb(httpx.MockTransport(handler), dim=3).embed(["a"])
    assert len(calls) == 3


def test_malformed_json_and_wrong_count() -> None:
    with pytest.raises(EmbeddingError, match="malformed JSON"):
        _emb(httpx.MockTransport(lambda r: httpx.Response(200, text="nope")), dim=3).embed(["a"])
    bad = httpx.MockTransport(lambda r: httpx.Response(200, json={"data": [{"index": 0, "embedding": [1, 2]}]}))
    with pytest.raises(EmbeddingError, match="1 embeddings for 2 inputs"):
        _emb(bad, dim=2).embed(["a", "b"])
    with pytest.raises(EmbeddingError, match="data"):
        _emb(httpx.MockTransport(lambda r: httpx.Response(200, json={"x": 1})), dim=2).embed(["a"])


def test_count_tokens_whitespace_or_tokenizer() -> None:
    e = _emb(_server())
    assert e.count_tokens("one two  three") == 3
    assert e.token_spans("ab cd") == [(0, 2), (3, 5)]

    class Enc:
        def __init__(self, text: str) -> None:
            self.ids = list(range(len(text)))
            self.offsets = [(i, i + 1) for i in range(len(text))]

    class CharTokenizer:
        def encode(self, sequence: str, *, add_special_tokens: bool = True) -> Enc:
            assert add_special_tokens is False
            return Enc(sequence)

    e2 = _emb(_server(), tokenizer=CharTokenizer(), max_tokens=8191)
    assert e2.count_tokens("abc") == 3
    assert e2.token_spans("ab") == [(0, 1), (1, 2)]
    assert e2.max_tokens == 8191


def test_token_level_embeddings_are_mean_pooled() -> None:
    # llama-cpp-python's server returns per-token vectors for models without pooling
    tokens = {"a": [[1.0, 0.0], [0.0, 1.0]], "b": [[3.0, 4.0]]}

    def handler(request: httpx.Request) -> httpx.Response:
        inputs = json.loads(request.content)["input"]
        return httpx.Response(200, json={"data": [{"index": i, "embedding": tokens[t]} for i, t in enumerate(inputs)]})

    out = _emb(httpx.MockTransport(handler)).embed(["a", "b"])
    np.testing.assert_allclose(out, [[2**-0.5, 2**-0.5], [0.6, 0.8]], rtol=1e-6)
