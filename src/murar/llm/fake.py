"""Deterministic fake chat model for tests: replays queued replies."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from murar.errors import LLMError
from murar.llm.base import ChatMessage


class ScriptedChatModel:
    """Replays ``replies`` in order; or calls ``responder(messages)`` when given.

    Every call is recorded in :attr:`calls` so tests can inspect prompts.

    Raises:
        LLMError: when the script is exhausted and no responder is set.
    """

    def __init__(
        self,
        replies: list[str] | None = None,
        *,
        responder: Callable[[list[ChatMessage]], str] | None = None,
        name: str = "scripted-fake",
    ) -> None:
        self._replies = list(replies or [])
        self._responder = responder
        self._name = name
        self.calls: list[list[ChatMessage]] = []

    @property
    def name(self) -> str:
        return self._name

    def complete(
        self,
        messages: list[ChatMessage],
        *,
        max_tokens: int = 512,
        temperature: float = 0.0,
        stop: list[str] | None = None,
    ) -> str:
        self.calls.append(list(messages))
        if self._replies:
            return self._replies.pop(0)
        if self._responder is not None:
            return self._responder(messages)
        raise LLMError("ScriptedChatModel has no reply left; queue more replies or set a responder")

    def stream(
        self,
        messages: list[ChatMessage],
        *,
        max_tokens: int = 512,
        temperature: float = 0.0,
        stop: list[str] | None = None,
    ) -> Iterator[str]:
        text = self.complete(messages, max_tokens=max_tokens, temperature=temperature, stop=stop)
        for i in range(0, len(text), 16):
            yield text[i : i + 16]
