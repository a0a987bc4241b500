"""Generators: the :class:`ChatModel` protocol, its backends and :func:`load_chat_model`.

Backends:

- ``"bundled"``: :class:`LlamaCppChatModel` with Qwen2.5-Coder-1.5B-Instruct (default, offline).
- ``"bundled-small"``: the same with Qwen2.5-Coder-0.5B-Instruct (faster, hallucinates more).
- ``"openai"``: :class:`OpenAICompatibleChatModel` for any OpenAI-compatible endpoint.
- ``"fake"``: a :class:`ScriptedChatModel` echoing a deterministic answer (tests, load benchmarks).

``llama_cpp`` is imported only when a bundled model is loaded (``LlamaCppChatModel.load``).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from murar.errors import ConfigError
from murar.llm.base import ChatMessage, ChatModel, Role
from murar.llm.fake import ScriptedChatModel
from murar.llm.llamacpp import LlamaCppChatModel  # imports llama_cpp only on load()
from murar.llm.openai import OpenAICompatibleChatModel
from murar.models import QWEN_CODER_0_5B, QWEN_CODER_1_5B

CHAT_MODEL_KINDS = ("bundled", "bundled-small", "openai", "fake")
"""The ``kind`` values :func:`load_chat_model` accepts."""


def echo_answer(messages: list[ChatMessage]) -> str:
    """Deterministic fake answer built from the last user message (first 40 words).

    Same messages -> same answer; costs microseconds, so a server load test
    measures the server, not the model.
    """
    question = next((m.content for m in reversed(messages) if m.role == "user"), "")
    words = re.sub(r"\s+", " ", question).strip().split(" ")[:40]
    topic = " ".join(w for w in words if w) or "nothing"
    return f"This is a deterministic fake answer. You asked about: {topic} [1]."


def load_chat_model(
    kind: str,
    *,
    base_url: str | None = None,
    model: str | None = None,
    api_key: str | None = None,
    model_path: Path | str | None = None,
    **options: Any,
) -> ChatModel:
    """Build the chat model named by ``kind`` (no model is loaded yet: that happens on first use).

    Args:
        kind: one of ``"bundled"``, ``"bundled-small"``, ``"openai"``, ``"fake"``.
        base_url, model, api_key: for ``"openai"`` (``base_url`` and ``model`` required).
        model_path: for the bundled kinds, a GGUF file to use instead of the bundled one.
        **options: passed to the backend constructor, e.g. ``n_ctx``, ``n_threads``,
            ``cache_dir`` for bundled kinds; ``timeout``, ``max_retries`` for ``"openai"``.

    Raises:
        ConfigError: unknown kind or missing ``base_url``/``model`` for ``"openai"``.
        MissingExtraError: a bundled kind without llama-cpp-python installed.
    """
    if kind in ("bundled", "bundled-small"):
        recipe = QWEN_CODER_1_5B if kind == "bundled" else QWEN_CODER_0_5B
        path = Path(model_path) if model_path is not None else None
        return LlamaCppChatModel(path, recipe=recipe, **options)
    if kind == "openai":
        missing = [n for n, v in (("base_url", base_url), ("model", model)) if not v]
        if missing:
            raise ConfigError(
                f"chat model kind 'openai' needs {' and '.join(missing)} "
                "(e.g. base_url='http://127.0.0.1:8080/v1', model='qwen2.5-coder')"
            )
        assert base_url is not None and model is not None
        return OpenAICompatibleChatModel(base_url, model, api_key=api_key, **options)
    if kind == "fake":
        return ScriptedChatModel(responder=echo_answer, name="fake-echo")
    raise ConfigError(f"unknown chat model kind {kind!r}; expected one of {', '.join(CHAT_MODEL_KINDS)}")


__all__ = [
    "CHAT_MODEL_KINDS",
    "ChatMessage",
    "ChatModel",
    "LlamaCppChatModel",
    "OpenAICompatibleChatModel",
    "Role",
    "ScriptedChatModel",
    "echo_answer",
    "load_chat_model",
]
