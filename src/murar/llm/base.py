"""The generator protocol: a chat model that turns messages into text.

Backends: :mod:`murar.llm.llamacpp` (bundled GGUF via llama-cpp-python),
:mod:`murar.llm.openai` (any OpenAI-compatible server), :mod:`murar.llm.fake`
(scripted replies for tests) and :mod:`murar.llm.extractive` (no model: picks
sentences from the retrieved snippets).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal, Protocol, runtime_checkable

Role = Literal["system", "user", "assistant"]


@dataclass(frozen=True, slots=True)
class ChatMessage:
    """One chat turn."""

    role: Role
    content: str


@runtime_checkable
class ChatModel(Protocol):
    """A chat-completion model.

    ``complete`` returns the assistant reply as text; ``stream`` yields it in
    pieces as generated. ``max_tokens`` bounds the reply length in tokens;
    ``temperature`` 0 asks for greedy, reproducible decoding.

    Raises:
        murar.errors.LLMError: the model failed or the endpoint is unreachable.
    """

    @property
    def name(self) -> str:
        """Model name recorded in traces and evaluation reports."""
        ...

    def complete(
        self,
        messages: list[ChatMessage],
        *,
        max_tokens: int = 512,
        temperature: float = 0.0,
        stop: list[str] | None = None,
    ) -> str: ...

    def stream(
        self,
        messages: list[ChatMessage],
        *,
        max_tokens: int = 512,
        temperature: float = 0.0,
        stop: list[str] | None = None,
    ) -> Iterator[str]: ...
