"""The FastAPI application: JSON and streaming API, media, feedback, web page.

Routes (see ``/docs`` for the OpenAPI description):

====================================  ============================================
``GET  /``                            the assistant web page (static files)
``POST /v1/answer``                   a multimodal answer as JSON (blocks + trace)
``POST /v1/answer/stream``            the same, streamed as server-sent events
``GET  /v1/answer/stream?question=``  the same for ``EventSource`` clients
``GET  /v1/media/{id}``               an image file of the index
``POST /v1/feedback``                 thumbs up/down, appended to a JSONL file
``GET  /v1/stats``, ``/v1/health``    index statistics, queue state
``GET  /healthz``                     liveness
``GET  /v1/models``                   OpenAI-compatible model list
``POST /v1/chat/completions``         OpenAI-compatible chat (Markdown answers)
====================================  ============================================

Every pipeline call goes through one :class:`~murar.server.gate.WorkerGate`
(bounded concurrency, bounded queue, bounded wait -> ``503`` + ``Retry-After``)
and runs in a worker thread, so the event loop keeps serving health checks,
media and the page while the model works.
"""

from __future__ import annotations

import asyncio
import logging
import re
import secrets
import time
from collections.abc import AsyncIterator
from importlib import resources
from pathlib import Path
from typing import Any

import anyio
from fastapi import FastAPI, HTTPException, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import (
    FileResponse,
    HTMLResponse,
    JSONResponse,
    StreamingResponse,
)
from fastapi.staticfiles import StaticFiles

from murar.answer.service import AnswerService
from murar.errors import ConfigError, LLMConnectionError, MurarError
from murar.ingest.videos import VIDEO_MEDIA_TYPES
from murar.schema import Answer, to_jsonable
from murar.server import openai_compat
from murar.server.api_models import (
    AnswerOut,
    AnswerRequest,
    ErrorOut,
    FeedbackOut,
    FeedbackRequest,
)
from murar.server.bad_input import check_text, validation_error_response
from murar.server.config import ServerConfig
from murar.server.feedback import FeedbackStore, RecentAnswers, answer_summary
from murar.server.gate import Overloaded, WorkerGate
from murar.server.payload import (
    MediaLinker,
    answer_json,
    media_block_json,
    render_markdown,
)
from murar.server.security import BodyLimit, SecurityHeaders
from murar.server.streaming import ThreadedStream, sse, sse_comment

log = logging.getLogger(__name__)

MEDIA_ID = re.compile(r"^[A-Za-z0-9_.-]{1,128}$")
#: Image types served by ``/v1/media`` (plus the video types of :mod:`murar.ingest.videos`); anything else is refused (415).
IMAGE_TYPES = {
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".gif": "image/gif",
    ".webp": "image/webp",
    ".svg": "image/svg+xml",
    ".bmp": "image/bmp",
    ".avif": "image/avif",
}
SSE_HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}


def static_dir() -> Path:
    """The folder of the web page's files (package data)."""
    return Path(str(resources.files("murar.server") / "static"))


class AppState:
    """Everything one app instance owns (no module-level mutable state)."""

    def __init__(self, service: AnswerService, config: ServerConfig) -> None:
        self.service = service
        self.config = config
        self.gate = WorkerGate(
            max_concurrency=config.max_concurrency,
            max_queue=config.max_queue,
            max_wait_s=config.max_wait_s,
            default_retry_after_s=config.retry_after_s,
        )
        self.feedback = FeedbackStore(config.feedback_dir)
        self.recent = RecentAnswers(config.recent_answers)
        self.started = time.time()
        self.requests = {"answer": 0, "stream": 0, "chat": 0, "errors": 0}

    def question(self, text: str) -> str:
        """The cleaned question, or HTTP 422."""
        q = check_text(text).strip()
        if not q:
            raise HTTPException(422, "question is empty")
        if len(q) > self.config.max_question_chars:
            raise HTTPException(
                422,
                f"question is {len(q)} characters; the limit is {self.config.max_question_chars}",
            )
        return q

    def base_url(self, request: Request) -> str:
        return self.config.public_url or str(request.base_url)

    def payload(self, answer: Answer, request: Request) -> dict[str, Any]:
        """The API JSON of an answer; remembered for feedback."""
        linker = MediaLinker(self.service)
        absolute = linker.with_base(self.base_url(request))
        markdown = render_markdown(answer, linker=absolute)
        answer_id = "ans_" + secrets.token_hex(8)
        data = answer_json(
            answer, answer_id=answer_id, linker=linker, markdown=markdown
        )
        self.recent.put(answer_id, answer_summary(data))
        return data


def overloaded_response(err: Overloaded) -> JSONResponse:
    return JSONResponse(
        {"detail": str(err), "retry_after": err.retry_after_s},
        status_code=503,
        headers={"Retry-After": str(err.retry_after_s)},
    )


def service_error(err: Exception) -> HTTPException:
    """An HTTP error for a failed pipeline call (details only for murar's own errors)."""
    if isinstance(err, LLMConnectionError):
        return HTTPException(502, str(err))
    if isinstance(err, MurarError):
        return HTTPException(500, str(err))
    log.error("answer failed", exc_info=err)
    return HTTPException(500, "internal error while answering (see the server log)")


def create_app(
    service: AnswerService, *, config: ServerConfig | None = None
) -> FastAPI:
    """Build the HTTP app around ``service``.

    Args:
        service: any :class:`~murar.answer.service.AnswerService` (the pipeline,
            or a fake in tests).
        config: server options; defaults to :class:`ServerConfig` ().

    Returns:
        A FastAPI app; run it with uvicorn. Nothing is loaded or started here.
    """
    cfg = config or ServerConfig()
    state = AppState(service, cfg)
    app = FastAPI(
        title=cfg.title,
        summary="Multimodal answers over documentation (MuRAR): text with inline "
        "screenshots, tables and videos, with citations.",
        version=_version(),
        docs_url=None,
        redoc_url=None,
    )
    app.state.murar = state
    app.add_middleware(BodyLimit, max_bytes=cfg.max_body_bytes)
    app.add_middleware(SecurityHeaders, remote_images=cfg.remote_images)
    if cfg.cors_origins:
        from fastapi.middleware.cors import CORSMiddleware

        app.add_middleware(
            CORSMiddleware,
            allow_origins=list(cfg.cors_origins),
            allow_methods=["GET", "POST"],
            allow_headers=["*"],
            expose_headers=["Retry-After"],
        )

    app.add_exception_handler(RequestValidationError, validation_error_response)  # type: ignore[arg-type]

    @app.exception_handler(Overloaded)
    async def _overloaded(request: Request, err: Overloaded) -> JSONResponse:
        return overloaded_response(err)

    # ------------------------------------------------------------ answers

    @app.post(
        "/v1/answer",
        response_model=AnswerOut,
        tags=["answers"],
        responses={
            422: {"model": ErrorOut},
            503: {
                "model": ErrorOut,
                "description": "Overloaded; retry after the Retry-After seconds.",
            },
        },
    )
    async def answer(body: AnswerRequest, request: Request) -> dict[str, Any]:
        """Answer a question with a multimodal answer (text, images, tables, videos)."""
        question = state.question(body.question)
        state.requests["answer"] += 1
        slot = await state.gate.acquire()
        try:
            result = await anyio.to_thread.run_sync(service.answer, question)
        except Exception as err:
            state.requests["errors"] += 1
            raise service_error(err) from err
        finally:
            slot.release()
        return await anyio.to_thread.run_sync(state.payload, result, request)

    async def _stream(question: str, request: Request) -> StreamingResponse:
        question = state.question(question)
        state.requests["stream"] += 1
        slot = await state.gate.acquire()
        worker = ThreadedStream(
            lambda: service.stream(question), slot=slot, loop=asyncio.get_running_loop()
        )
        worker.start()

        linker = MediaLinker(service)

        async def body() -> AsyncIterator[str]:
            yield sse(
                {"question": question, "queue": to_jsonable(state.gate.stats())},
                event="start",
            )
            final = False
            async for event in worker.events(keepalive_s=cfg.keepalive_s):
                if event is None:
                    yield sse_comment()
                elif event.type == "answer" and event.answer is not None:
                    data = await anyio.to_thread.run_sync(
                        state.payload, event.answer, request
                    )
                    yield sse(data, event="answer")
                    final = True
                elif event.type == "error":
                    state.requests["errors"] += 1
                    yield sse({"message": event.text}, event="error")
                    final = True
                elif event.type == "stage":
                    yield sse({"name": event.name}, event="stage")
                elif event.type == "token":
                    yield sse(
                        {"text": event.text, "final": event.name == "answer"},
                        event="token",
                    )
                elif event.type == "media" and event.block is not None:
                    block = await anyio.to_thread.run_sync(
                        media_block_json, event.block, linker
                    )
                    yield sse({"index": event.index, "block": block}, event="media")
            if not final:
                state.requests["errors"] += 1
                yield sse(
                    {"message": "the answer stream ended without an answer"},
                    event="error",
                )
            yield sse({}, event="done")

        return StreamingResponse(
            worker.coalesce(body()), media_type="text/event-stream", headers=SSE_HEADERS
        )

    _stream_doc = (
        "Stream an answer as server-sent events: `start`, then `stage` "
        "(`{name}`), `token` (`{text, final}`: pieces of the answer text; `final` "
        "true when they are the answer itself, false for a draft that is rewritten "
        "later), `media` (`{index, block}`: an image, table or video block, shaped "
        "like the answer's `blocks`, placed right after answer sentence `index`, "
        "sent while the text is still streaming), then one `answer` (the same JSON "
        "as `POST /v1/answer`) or `error` (`{message}`), then `done`. Comment lines "
        "keep the connection alive."
    )

    # one route, documented once: the question in a JSON body (POST) or the query (GET, EventSource)
    stream_route: dict[str, Any] = {
        "tags": ["answers"],
        "description": _stream_doc,
        "response_class": StreamingResponse,
        "responses": {
            200: {"content": {"text/event-stream": {}}},
            503: {"model": ErrorOut},
        },
    }

    @app.post("/v1/answer/stream", **stream_route)
    async def answer_stream(body: AnswerRequest, request: Request) -> StreamingResponse:
        return await _stream(body.question, request)

    @app.get("/v1/answer/stream", **stream_route)
    async def answer_stream_get(
        request: Request, question: str = Query(..., min_length=1)
    ) -> StreamingResponse:
        return await _stream(question, request)

    # -------------------------------------------------------------- media

    @app.get(
        "/v1/media/{media_id}",
        tags=["media"],
        response_class=FileResponse,
        responses={200: {"content": {"image/*": {}}}, 404: {"model": ErrorOut}},
    )
    async def media(media_id: str) -> FileResponse:
        """An image of the index, by media id. Only files that the index itself
        maps to the id are served; nothing in the request is used as a path."""
        if not MEDIA_ID.match(media_id):
            raise HTTPException(404, "unknown media id")
        path = await anyio.to_thread.run_sync(service.media_file, media_id)
        if path is None or not await anyio.to_thread.run_sync(Path(path).is_file):
            raise HTTPException(404, "unknown media id")
        media_type = IMAGE_TYPES.get(Path(path).suffix.lower()) or VIDEO_MEDIA_TYPES.get(Path(path).suffix.lower())
        if media_type is None:
            raise HTTPException(
                415, "this media item is not an image or video type the server serves"
            )
        return FileResponse(
            path,
            media_type=media_type,
            headers={
                "Cache-Control": "public, max-age=3600",
                "Content-Disposition": "inline",
            },
        )

    # ----------------------------------------------------------- feedback

    @app.post("/v1/feedback", response_model=FeedbackOut, tags=["feedback"])
    async def feedback(body: FeedbackRequest) -> FeedbackOut:
        """Store a thumbs up/down (and comment) on an answer for later evaluation."""
        stored = state.recent.get(body.answer_id)
        record: dict[str, Any] = {
            "answer_id": body.answer_id,
            "rating": body.rating,
            "comment": body.comment.strip(),
        }
        if stored is not None:
            record.update(stored)
        else:
            record.update({"question": body.question, "answer_text": body.answer_text})
        try:
            await anyio.to_thread.run_sync(state.feedback.append, record)
        except ConfigError as err:
            log.error("%s", err)
            raise HTTPException(500, "feedback could not be stored") from err
        return FeedbackOut(ok=True, stored_answer=stored is not None)

    # ------------------------------------------------------- health/stats

    @app.get("/healthz", tags=["service"])
    async def healthz() -> dict[str, str]:
        """Liveness: the process answers HTTP."""
        return {"status": "ok"}

    @app.get("/v1/health", tags=["service"])
    async def health() -> dict[str, Any]:
        """Readiness and queue state: ``status`` is ``busy`` when the queue is full."""
        g = state.gate.stats()
        busy = g.active >= g.max_concurrency and g.waiting >= g.max_queue
        return {
            "status": "busy" if busy else "ok",
            "queue": to_jsonable(g),
            "uptime_s": round(time.time() - state.started, 1),
        }

    @app.get("/v1/stats", tags=["service"])
    async def stats() -> dict[str, Any]:
        """Index statistics (pages, sections, snippets, media, embedder) and server counters."""
        index = await anyio.to_thread.run_sync(service.stats)
        return {
            "index": to_jsonable(index),
            "queue": to_jsonable(state.gate.stats()),
            "requests": dict(state.requests),
        }

    @app.get("/v1/info", tags=["service"])
    async def info() -> dict[str, Any]:
        """What the web page needs: title, example questions, limits, model name."""
        return {
            "title": cfg.title,
            "examples": list(cfg.examples),
            "model": cfg.model_name,
            "max_question_chars": cfg.max_question_chars,
            "version": _version(),
        }

    openai_compat.add_routes(app, state)

    # --------------------------------------------------------- web + docs

    static = static_dir()

    @app.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(
            static / "index.html",
            media_type="text/html; charset=utf-8",
            headers={"Cache-Control": "no-cache"},
        )

    _add_docs(app)
    app.mount("/static", StaticFiles(directory=static), name="static")
    return app


def _add_docs(app: FastAPI) -> None:
    """``/docs``: Swagger UI from the ``swagger-ui-bundle-v2`` package (offline),
    or a plain page pointing at ``/openapi.json`` when it is not installed."""
    try:
        import swagger_ui_bundle

        assets: Path | None = Path(swagger_ui_bundle.swagger_ui_path)
    except ImportError:
        assets = None

    if assets is not None and (assets / "swagger-ui-bundle.js").is_file():
        app.mount("/docs/assets", StaticFiles(directory=assets), name="docs-assets")
        html = (
            "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
            f"<title>{_html_escape(app.title)} API</title>"
            "<link rel='stylesheet' href='/docs/assets/swagger-ui.css'></head>"
            "<body><div id='swagger-ui'></div>"
            "<script src='/docs/assets/swagger-ui-bundle.js'></script>"
            "<script src='/static/docs.js'></script></body></html>"
        )
    else:
        html = (
            "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
            f"<title>{_html_escape(app.title)} API</title></head><body>"
            "<h1>API description</h1><p>The OpenAPI description is at "
            "<a href='/openapi.json'>/openapi.json</a>. Install "
            "<code>pip install 'murar[server]'</code> for the interactive page.</p></body></html>"
        )

    @app.get("/docs", include_in_schema=False)
    async def docs() -> HTMLResponse:
        return HTMLResponse(html)


def _html_escape(text: str) -> str:
    return (
        text.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("'", "&#39;")
        .replace('"', "&quot;")
    )


def _version() -> str:
    try:
        from importlib.metadata import version

        return version("murar")
    except Exception:  # noqa: BLE001 - not installed (running from a checkout)
        return "0"


__all__ = ["AppState", "create_app", "static_dir"]
