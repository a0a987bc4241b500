"""OpenAI-compatible backends against a real local server: llama-cpp-python's own
(``python -m llama_cpp.server``, started through murar's AMX-guarded launcher
:mod:`murar.llm.llamacpp_server`) serving the bundled 0.5B GGUF on a free loopback port.

Needs the ``llama-cpp-python[server]`` dependencies (fastapi, uvicorn, sse-starlette,
starlette-context, pydantic-settings); skipped when they are missing.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator

import httpx
import numpy as np
import pytest

from murar.embed.openai import OpenAICompatibleEmbedder
from murar.errors import LLMConnectionError, ModelError
from murar.llm.base import ChatMessage
from murar.llm.openai import OpenAICompatibleChatModel

pytest.importorskip("llama_cpp")
for _mod in ("fastapi", "uvicorn", "sse_starlette", "starlette_context", "pydantic_settings"):
    pytest.importorskip(_mod, reason="needs llama-cpp-python[server] dependencies")

from murar.models import QWEN_CODER_0_5B, ensure_gguf

pytestmark = pytest.mark.slow

STARTUP_TIMEOUT = 40.0  # seconds


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Start llama_cpp.server with the 0.5B model (embeddings on); yield its /v1 base URL."""
    try:
        model = ensure_gguf(QWEN_CODER_0_5B)
    except ModelError as err:
        pytest.skip(f"bundled 0.5B model unavailable: {err}")
    port = _free_port()
    log = tmp_path_factory.mktemp("llama-server") / "server.log"
    cmd = [
        sys.executable, "-m", "murar.llm.llamacpp_server",
        "--model", str(model), "--model_alias", "qwen-small",
        "--host", "127.0.0.1", "--port", str(port),
        "--chat_format", "chatml", "--n_ctx", "1024",
        "--n_threads", str(os.cpu_count() or 1), "--embedding", "true",
    ]  # fmt: skip
    with open(log, "wb") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + STARTUP_TIMEOUT
        while True:
            if proc.poll() is not None:
                pytest.fail(f"llama_cpp.server exited with {proc.returncode}:\n{log.read_text()[-3000:]}")
            try:
                if httpx.get(f"{base}/models", timeout=1.0).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"llama_cpp.server not ready after {STARTUP_TIMEOUT:g} s:\n{log.read_text()[-3000:]}")
            time.sleep(0.25)
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


MSGS = [
    ChatMessage("system", "You are a terse assistant."),
    ChatMessage("user", "Reply with the word OK and nothing else."),
]


def test_complete_and_stream_against_real_server(server: str) -> None:
    m = OpenAICompatibleChatModel(server, "qwen-small", timeout=30.0)
    out = m.complete(MSGS, max_tokens=8)
    assert "OK" in out.upper()
    pieces = list(m.stream(MSGS, max_tokens=8))
    assert len(pieces) >= 1 and "".join(pieces).strip() == out.strip()


def test_embeddings_against_real_server(server: str) -> None:
    """Protocol check only. The chat LLM has no pooling layer, so the server sends
    token-level vectors (mean-pooled by the embedder); they are not meaningful sentence
    embeddings, and llama-cpp-python 0.3.36 misaligns token-level vectors when one
    request holds several inputs (each next input shifted by a few floats), hence
    ``batch_size=1`` and no similarity assertion."""
    e = OpenAICompatibleEmbedder(server, "qwen-small", batch_size=1, timeout=30.0)
    v = e.embed(["crop an image", "tax return deadline"])
    assert e.dim == 896  # Qwen2.5-0.5B hidden size, discovered from the first response
    assert v.shape == (2, 896) and v.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(v, axis=1), 1.0, rtol=1e-4)
    again = e.embed(["crop an image"])
    np.testing.assert_allclose(again[0], v[0], atol=1e-4)  # deterministic


def test_real_server_error_status(server: str) -> None:
    m = OpenAICompatibleChatModel(server.removesuffix("/v1"), "qwen-small", max_retries=0)
    with pytest.raises(LLMConnectionError, match="404"):
        m.complete(MSGS, max_tokens=2)
