"""What every local embedder must do (the ``Embedder`` protocol in ``murar.embed.base``).

Run on the deterministic fake, the bundled MiniLM and, when this machine has
prepared it (``murar models prepare --embedder mpnet``; CI does in
scripts/setup.sh), all-mpnet-base-v2. The OpenAI-compatible client is checked
against a real llama.cpp server in ``test_openai_embedder.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np
import pytest

from murar.embed.base import Embedder
from murar.embed.fake import HashingEmbedder


def _minilm() -> Embedder:
    from murar.embed.minilm import MiniLMEmbedder

    return MiniLMEmbedder(threads=1)


def _mpnet() -> Embedder:
    from murar.embed import mpnet

    if not mpnet.is_prepared():
        pytest.skip("mpnet is not prepared here: murar models prepare --embedder mpnet")
    return mpnet.MPNetEmbedder(threads=1)


FACTORIES: dict[str, Callable[[], Embedder]] = {
    "hashing": lambda: HashingEmbedder(dim=64, max_tokens=32),
    "minilm": _minilm,
    "mpnet": _mpnet,
}


@pytest.fixture(scope="module", params=[
    "hashing",
    pytest.param("minilm", marks=pytest.mark.slow),
    pytest.param("mpnet", marks=pytest.mark.slow),
])
def embedder(request: pytest.FixtureRequest) -> Iterator[Embedder]:
    yield FACTORIES[request.param]()


TEXTS = [
    "Run pip install murar to install the package.",
    "A journey canvas holds the custom events you drag from the side panel.",
    "",
    "Tables list every option with its default value.",
    "x",
]


def test_is_an_embedder_with_a_stable_name(embedder: Embedder) -> None:
    assert isinstance(embedder, Embedder)
    assert embedder.name and embedder.name == embedder.name.strip()
    assert embedder.dim > 0 and embedder.max_tokens > 0


def test_shape_dtype_and_unit_rows(embedder: Embedder) -> None:
    v = embedder.embed(TEXTS)
    assert v.shape == (len(TEXTS), embedder.dim) and v.dtype == np.float32
    assert np.isfinite(v).all()
    norms = np.linalg.norm(v[[0, 1, 3, 4]], axis=1)  # the empty text may be the zero vector (fake) or not
    assert np.allclose(norms, 1.0, atol=1e-4)


def test_empty_input_gives_zero_rows(embedder: Embedder) -> None:
    v = embedder.embed([])
    assert v.shape == (0, embedder.dim) and v.dtype == np.float32


def test_deterministic_and_batch_order_preserved(embedder: Embedder) -> None:
    batched = embedder.embed(TEXTS)
    assert np.array_equal(batched, embedder.embed(TEXTS))
    singles = np.vstack([embedder.embed([t]) for t in TEXTS])
    assert np.allclose(batched, singles, atol=1e-4)  # padding inside a batch changes nothing
    reversed_ = embedder.embed(TEXTS[::-1])[::-1]
    assert np.allclose(batched, reversed_, atol=1e-4)


def test_progress_counts_every_text(embedder: Embedder) -> None:
    seen: list[int] = []
    embedder.embed(TEXTS * 20, progress=seen.append)
    assert seen and sum(seen) == len(TEXTS) * 20 and all(n > 0 for n in seen)  # texts done per batch


def test_token_spans_match_count_tokens_and_the_text(embedder: Embedder) -> None:
    text = "Open Settings > Privacy, then select Export data."
    spans = embedder.token_spans(text)
    assert len(spans) == embedder.count_tokens(text) > 0
    assert all(0 <= a < b <= len(text) for a, b in spans)
    assert [a for a, _ in spans] == sorted(a for a, _ in spans)
    assert all(text[a:b].strip() for a, b in spans)  # every piece covers text, never only spaces
    assert text[spans[0][0]:spans[0][1]].lower().startswith("open"[: spans[0][1] - spans[0][0]])


def test_text_beyond_max_tokens_is_ignored(embedder: Embedder) -> None:
    words = ["the", "cat", "sat", "on", "the", "mat", "and"]
    long = " ".join(words[i % len(words)] for i in range(embedder.max_tokens + 8))
    assert embedder.count_tokens(long) > embedder.max_tokens
    extended = long + " quantum chromodynamics of distant galaxies " * 4
    a, b = embedder.embed([long, extended])
    assert float(a @ b) > 0.999  # what lies past the window does not move the vector


def test_similar_meaning_scores_higher(embedder: Embedder) -> None:
    q, near, far = embedder.embed([
        "How do I install the package?",
        "To install the package, run pip install.",
        "The weather was sunny over the mountains.",
    ])
    assert float(q @ near) > float(q @ far) + 0.1
