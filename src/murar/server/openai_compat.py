"""OpenAI-compatible chat completions, so chat clients can use the assistant.

``POST /v1/chat/completions`` takes the last ``user`` message as the question
and answers with the multimodal answer rendered as Markdown: images as
``![caption](http://server/v1/media/ID)`` (absolute URLs served by this
server), tables as GFM tables, videos as links, sources listed at the end.

Streaming (``"stream": true``) sends ``chat.completion.chunk`` events and
``data: [DONE]``. When the service streams the final answer text (the
``streamed`` pipeline path: ``token`` events named ``answer``), it goes out as
``delta.content`` as it is written, each image, table or video as Markdown
right after its sentence while the rest is still being written, then the
sources list. On the ``three-call`` path the refined answer only exists once
the pipeline has finished (MuRAR section 2.3 rewrites the draft around the
media), so while it runs the stream carries progress — stage names and the
draft answer — as ``delta.reasoning_content`` (shown as "thinking" by chat UIs,
ignored by others; off with ``ServerConfig(chat_stream_progress=False)``), then
the final Markdown as ``delta.content``. Errors follow OpenAI's shape
(``{"error": {"message", "type", "code"}}``); an overloaded server answers 503
with ``Retry-After``, which the ``openai`` SDK honours when it retries.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import AsyncIterator
from functools import partial
from typing import TYPE_CHECKING, Any

import anyio
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, StreamingResponse

from murar.answer.render import StreamNeutralizer
from murar.server.api_models import ChatCompletionRequest, ChatModel, ChatModelList
from murar.server.bad_input import has_lone_surrogate
from murar.server.gate import Overloaded
from murar.server.payload import MediaLinker, media_block_markdown
from murar.server.streaming import ThreadedStream, sse, sse_comment

if TYPE_CHECKING:
    from murar.server.app import AppState

#: Characters of Markdown per streamed content chunk.
CHUNK_CHARS = 48
STAGE_LABELS = {
    "retrieve": "Searching the documentation…",
    "generate": "Writing a draft answer…",
    "attribute": "Matching sentences to sources…",
    "media": "Choosing screenshots, tables and videos…",
    "refine": "Placing the media in the answer…",
    "render": "Formatting…",
}


def openai_error(
    status: int,
    message: str,
    *,
    type_: str,
    code: str | None = None,
    headers: dict[str, str] | None = None,
) -> JSONResponse:
    """An error body as OpenAI's API writes it."""
    return JSONResponse(
        {"error": {"message": message, "type": type_, "param": None, "code": code}},
        status_code=status,
        headers=headers,
    )


def question_of(body: ChatCompletionRequest) -> str:
    """The text of the last ``user`` message ('' when there is none)."""
    for message in reversed(body.messages):
        if message.role == "user":
            return message.text().strip()
    return ""


def _chunks(text: str, size: int = CHUNK_CHARS) -> list[str]:
    """Split ``text`` into pieces of about ``size`` characters at spaces/newlines."""
    out: list[str] = []
    start = 0
    while start < len(text):
        end = min(len(text), start + size)
        if end < len(text):
            cut = max(text.rfind(" ", start, end), text.rfind("\n", start, end))
            if cut > start:
                end = cut + 1
        out.append(text[start:end])
        start = end
    return out


def add_routes(app: FastAPI, state: AppState) -> None:
    """Mount ``GET /v1/models`` and ``POST /v1/chat/completions`` on ``app``."""
    cfg = state.config
    service = state.service

    @app.get("/v1/models", response_model=ChatModelList, tags=["openai"])
    async def models() -> ChatModelList:
        """The one model this server offers (OpenAI-compatible)."""
        return ChatModelList(
            data=[ChatModel(id=cfg.model_name, created=int(state.started))]
        )

    @app.post(
        "/v1/chat/completions",
        tags=["openai"],
        response_model=None,
        responses={
            200: {"content": {"application/json": {}, "text/event-stream": {}}},
            503: {"description": "Overloaded; see Retry-After."},
        },
    )
    async def chat_completions(
        body: ChatCompletionRequest, request: Request
    ) -> JSONResponse | StreamingResponse:
        """OpenAI-compatible chat: the last user message is the question; the
        multimodal answer comes back as Markdown with image URLs of this server."""
        question = question_of(body)
        if not question:
            return openai_error(
                400,
                "no user message with text content in 'messages'",
                type_="invalid_request_error",
                code="missing_user_message",
            )
        if has_lone_surrogate(question):
            return openai_error(
                422,
                "the question is not valid Unicode text (lone surrogate)",
                type_="invalid_request_error",
                code="invalid_unicode",
            )
        if len(question) > cfg.max_question_chars:
            return openai_error(
                400,
                f"the question is {len(question)} characters; the limit is "
                f"{cfg.max_question_chars}",
                type_="invalid_request_error",
                code="question_too_long",
            )
        state.requests["chat"] += 1
        try:
            slot = await state.gate.acquire()
        except Overloaded as err:
            return openai_error(
                503,
                str(err),
                type_="server_overloaded",
                code="overloaded",
                headers={"Retry-After": str(err.retry_after_s)},
            )
        completion_id = "chatcmpl-" + secrets.token_hex(12)
        created = int(time.time())

        if not body.stream:
            try:
                answer = await anyio.to_thread.run_sync(service.answer, question)
            except Exception as err:  # noqa: BLE001 - reported in OpenAI's error shape
                state.requests["errors"] += 1
                from murar.server.app import service_error

                http = service_error(err)
                return openai_error(
                    http.status_code, str(http.detail), type_="server_error"
                )
            finally:
                slot.release()
            data = await anyio.to_thread.run_sync(state.payload, answer, request)
            return JSONResponse(
                {
                    "id": completion_id,
                    "object": "chat.completion",
                    "created": created,
                    "model": cfg.model_name,
                    "choices": [
                        {
                            "index": 0,
                            "finish_reason": "stop",
                            "logprobs": None,
                            "message": {
                                "role": "assistant",
                                "content": data["markdown"],
                            },
                        }
                    ],
                    "murar": {"answer_id": data["id"], "found": data["found"]},
                }
            )

        worker = ThreadedStream(
            lambda: service.stream(question), slot=slot, loop=asyncio.get_running_loop()
        )
        worker.start()

        def chunk(delta: dict[str, Any], finish: str | None = None) -> str:
            return sse(
                {
                    "id": completion_id,
                    "object": "chat.completion.chunk",
                    "created": created,
                    "model": cfg.model_name,
                    "choices": [
                        {
                            "index": 0,
                            "delta": delta,
                            "logprobs": None,
                            "finish_reason": finish,
                        }
                    ],
                }
            )

        linker = MediaLinker(service).with_base(state.base_url(request))

        async def events() -> AsyncIterator[str]:
            yield chunk({"role": "assistant", "content": ""})
            progress = cfg.chat_stream_progress
            failed: str | None = None
            markdown: str | None = None
            live = False  # final answer text already sent as content
            after_media = False
            # answer text quotes the docs: no live HTML in it, as in the non-streamed Markdown
            neutral = StreamNeutralizer()
            async for event in worker.events(keepalive_s=cfg.keepalive_s):
                if event is None:
                    yield sse_comment()
                elif event.type == "token" and event.name == "answer":
                    text = event.text.lstrip() if after_media else event.text
                    after_media = after_media and not text
                    live = True
                    if text and (out := neutral.feed(text)):
                        yield chunk({"content": out})
                elif event.type == "media" and event.block is not None:
                    md = await anyio.to_thread.run_sync(
                        partial(media_block_markdown, event.block, linker=linker)
                    )
                    live, after_media = True, True
                    held, neutral = neutral.flush(), StreamNeutralizer()
                    yield chunk({"content": f"{held}\n\n{md}\n\n"})
                elif event.type == "stage" and progress and not live:
                    label = STAGE_LABELS.get(event.name, event.name)
                    yield chunk({"reasoning_content": f"\n{label}\n"})
                elif event.type == "token" and progress:
                    yield chunk({"reasoning_content": event.text})
                elif event.type == "answer" and event.answer is not None:
                    data = await anyio.to_thread.run_sync(
                        state.payload, event.answer, request
                    )
                    markdown = data["markdown"]
                elif event.type == "error":
                    failed = event.text
            if markdown is None:
                state.requests["errors"] += 1
                message = failed or "the answer stream ended without an answer"
                yield sse(
                    {
                        "error": {
                            "message": message,
                            "type": "server_error",
                            "param": None,
                            "code": None,
                        }
                    }
                )
            elif live:
                # the answer is already out; what is left is its list of sources
                if held := neutral.flush():
                    yield chunk({"content": held})
                cut = markdown.rfind("\n**Sources**")
                if cut >= 0:
                    yield chunk({"content": "\n" + markdown[cut:].rstrip() + "\n"})
                yield chunk({}, finish="stop")
            else:
                for piece in _chunks(markdown):
                    yield chunk({"content": piece})
                yield chunk({}, finish="stop")
            yield "data: [DONE]\n\n"

        return StreamingResponse(
            worker.coalesce(events()),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
        )
