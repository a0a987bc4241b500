"""Request and response bodies of the HTTP API (pydantic, for validation and OpenAPI)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class AnswerRequest(BaseModel):
    """A question for ``POST /v1/answer`` and ``POST /v1/answer/stream``."""

    question: str = Field(
        ...,
        min_length=1,
        description="The user's question (plain text).",
        examples=["How do I create a schema?"],
    )


class AnswerOut(BaseModel):
    """A multimodal answer (MuRAR section 2): ordered blocks, sources, trace.

    ``blocks`` items are ``{"type": "text", "text", "citations"}`` or
    ``{"type": "image"|"table"|"video", "caption", "score", "citations", "item"}``
    where ``item`` is the media item and, for images the server can serve,
    ``item.media_url`` is ``/v1/media/{id}``. ``markdown`` is the same answer
    as Markdown with absolute image URLs.
    """

    id: str
    question: str
    found: bool
    text: str
    markdown: str
    blocks: list[dict[str, Any]]
    sources: list[dict[str, Any]]
    trace: dict[str, Any]


class FeedbackRequest(BaseModel):
    """Thumbs up or down on an answer, with an optional comment."""

    answer_id: str = Field(
        ..., min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$"
    )
    rating: Literal["up", "down"]
    comment: str = Field("", max_length=2000)
    question: str = Field(
        "",
        max_length=4000,
        description="Used only when the server no longer holds the answer.",
    )
    answer_text: str = Field(
        "",
        max_length=20000,
        description="Used only when the server no longer holds the answer.",
    )


class FeedbackOut(BaseModel):
    ok: bool
    stored_answer: bool = Field(
        description="Whether the server still held the answer it rates."
    )


class ErrorOut(BaseModel):
    detail: str
    retry_after: int | None = None


# ------------------------------------------------------- OpenAI-compatible API


class ChatMessageIn(BaseModel):
    """One chat message; ``content`` is a string or a list of content parts."""

    model_config = ConfigDict(extra="allow")

    role: str
    content: str | list[dict[str, Any]] | None = None

    def text(self) -> str:
        """The text of the message (text parts joined by newlines)."""
        if self.content is None:
            return ""
        if isinstance(self.content, str):
            return self.content
        return "\n".join(
            str(p.get("text", ""))
            for p in self.content
            if p.get("type") in ("text", "input_text")
        )


class ChatCompletionRequest(BaseModel):
    """The subset of OpenAI's chat completion request murar uses.

    The last ``user`` message is the question; earlier messages, sampling
    options and tools are accepted and ignored.
    """

    model_config = ConfigDict(extra="allow")

    model: str = "murar"
    messages: list[ChatMessageIn] = Field(..., min_length=1)
    stream: bool = False


class ChatModel(BaseModel):
    id: str
    object: Literal["model"] = "model"
    created: int
    owned_by: str = "murar"


class ChatModelList(BaseModel):
    object: Literal["list"] = "list"
    data: list[ChatModel]
