"""``murar serve``: the HTTP API, the OpenAI-compatible API and the web page."""

from __future__ import annotations

import os
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from murar.cli.common import (
    DEFAULT_INDEX,
    REMOTE_IMAGES_HELP,
    RETRIEVER_HELP,
    StoreOption,
    fail,
    finite,
    index_target,
    parse_remote_images,
)

if TYPE_CHECKING:
    from fastapi import FastAPI
from murar.config import DEFAULT_RETRIEVER
from murar.errors import MissingExtraError, MurarError

LLM_HELP = "bundled (Qwen2.5-Coder-1.5B, offline) | bundled-small | openai | extractive (no model) | fake"
LOOPBACK = ("127.0.0.1", "localhost", "::1")


def default_feedback_dir(index: Path | str) -> Path | None:
    """``<index>/feedback`` when the index folder is writable, else ``None``
    (``murar serve`` then makes a temporary folder and says where at start; always
    for a PostgreSQL store). Before, the folder was made at the first rating and
    never named: a server over a read-only index (a container image) kept its
    feedback somewhere under /tmp without a word."""
    if isinstance(index, str):
        return None
    index = index.resolve()
    if index.is_dir() and os.access(index, os.W_OK):
        return index / "feedback"
    return None


def serve(
    index: Annotated[
        Path,
        typer.Option("--index", "-i", help="Index folder built by `murar ingest`."),
    ] = DEFAULT_INDEX,
    host: Annotated[
        str,
        typer.Option(
            help="Address to listen on (loopback by default; the API has no authentication)."
        ),
    ] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="TCP port.")] = 8000,
    llm: Annotated[str, typer.Option(help=LLM_HELP)] = "bundled",
    base_url: Annotated[
        str | None,
        typer.Option(
            help="OpenAI-compatible base URL of the generator, e.g. http://127.0.0.1:8080/v1"
        ),
    ] = None,
    model: Annotated[
        str | None, typer.Option(help="Model name on the OpenAI-compatible server.")
    ] = None,
    api_key: Annotated[
        str | None,
        typer.Option(
            envvar="OPENAI_API_KEY", help="API key of that server (or OPENAI_API_KEY)."
        ),
    ] = None,
    workers: Annotated[
        int,
        typer.Option(min=1, help="Answers computed at the same time (1 for one local model)."),
    ] = 1,
    max_queue: Annotated[
        int, typer.Option(min=0, help="Requests allowed to wait; more get 503 + Retry-After.")
    ] = 8,
    max_wait: Annotated[
        float, typer.Option(min=0.0, callback=finite, help="Seconds a queued request waits before 503.")
    ] = 60.0,
    feedback_dir: Annotated[
        Path | None,
        typer.Option(help="Folder for feedback.jsonl (default: <index>/feedback)."),
    ] = None,
    public_url: Annotated[
        str | None,
        typer.Option(help="Public base URL for image links when behind a proxy."),
    ] = None,
    title: Annotated[
        str, typer.Option(help="Title of the web page.")
    ] = "murar assistant",
    example: Annotated[
        list[str] | None,
        typer.Option(
            "--example", help="An example question shown on the page (repeatable)."
        ),
    ] = None,
    cors_origin: Annotated[
        list[str] | None,
        typer.Option(
            "--cors-origin", help="Browser origin allowed to call the API (repeatable)."
        ),
    ] = None,
    no_refine: Annotated[
        bool,
        typer.Option(
            "--no-refine", help="Keep the code-placed draft; skip the LLM rewrite."
        ),
    ] = False,
    log_level: Annotated[
        str, typer.Option(help="uvicorn log level: critical|error|warning|info|debug.")
    ] = "info",
    store: StoreOption = None,
    remote_images: Annotated[str, typer.Option(help=REMOTE_IMAGES_HELP)] = "hide",
    retriever: Annotated[str, typer.Option(help=RETRIEVER_HELP)] = DEFAULT_RETRIEVER,
) -> None:
    """Serve INDEX over HTTP: the web page at /, the JSON/streaming API at /v1, the
    OpenAI-compatible chat API at /v1/chat/completions, API docs at /docs."""
    try:
        import uvicorn
    except ImportError:
        fail(MissingExtraError("uvicorn", "server"))
    try:
        target = index_target(index, store)
        app = build_app(
            target,
            llm=llm,
            base_url=base_url,
            model=model,
            api_key=api_key,
            workers=workers,
            max_queue=max_queue,
            max_wait=max_wait,
            feedback_dir=feedback_dir,
            public_url=public_url,
            title=title,
            examples=tuple(example or ()),
            cors_origins=tuple(cors_origin or ()),
            refine=not no_refine,
            remote_images=parse_remote_images(remote_images),
            retriever=retriever,
        )
    except MurarError as err:
        fail(err)
    if host not in LOOPBACK:
        typer.secho(
            f"warning: listening on {host}: anyone who can reach it can use the assistant "
            "(there is no authentication)",
            fg=typer.colors.YELLOW,
            err=True,
        )
    warm_up = getattr(app.state.murar.service, "warm_up", None)
    if callable(warm_up):
        # load the models and evaluate the fixed prompt prefix while uvicorn starts
        threading.Thread(target=_warm, args=(warm_up,), name="murar-warm-up", daemon=True).start()
    shown = "localhost" if host in ("127.0.0.1", "::1") else host
    from murar.store.postgres import redact

    typer.echo(
        f"murar: serving {redact(str(target))} at http://{shown}:{port}/ (API docs: /docs)", err=True
    )
    uvicorn.run(
        app, host=host, port=port, log_level=log_level, timeout_graceful_shutdown=10
    )


def _warm(warm_up: Callable[[], None]) -> None:
    try:
        warm_up()
    except MurarError as err:  # the first question reports it again, with context
        typer.secho(f"warning: warm-up failed: {err}", fg=typer.colors.YELLOW, err=True)


def build_app(
    index: Path | str,
    *,
    llm: str = "bundled",
    base_url: str | None = None,
    model: str | None = None,
    api_key: str | None = None,
    workers: int = 1,
    max_queue: int = 8,
    max_wait: float = 60.0,
    feedback_dir: Path | None = None,
    public_url: str | None = None,
    title: str = "murar assistant",
    examples: tuple[str, ...] = (),
    cors_origins: tuple[str, ...] = (),
    refine: bool = True,
    remote_images: bool = False,
    retriever: str = DEFAULT_RETRIEVER,
) -> FastAPI:
    """The FastAPI app of ``murar serve`` for ``index`` (a folder or a
    ``postgresql://`` URL; the pipeline loads its model lazily, on the first
    question).

    Raises:
        MissingExtraError: FastAPI is not installed.
        IndexNotFoundError, IndexError_, ConfigError: from :func:`load_pipeline`
            or :class:`ServerConfig`.
    """
    try:
        from murar.server import ServerConfig, create_app
    except (
        ImportError
    ) as err:  # pragma: no cover - murar.server imports only stdlib at top
        raise MissingExtraError("fastapi", "server") from err
    from murar.answer.media import MediaOptions
    from murar.answer.pipeline import PipelineConfig, load_pipeline
    from murar.store.hybrid import RetrieverOptions

    pipeline = load_pipeline(
        index,
        llm=llm,
        base_url=base_url,
        model=model,
        api_key=api_key,
        config=PipelineConfig(refine=refine, media=MediaOptions(remote_images=remote_images),
                              retriever=RetrieverOptions(kind=retriever)),
    )
    if feedback_dir is None:
        feedback_dir = default_feedback_dir(index)
    if feedback_dir is None:  # made now (the index opened), so its path is said before anyone rates
        feedback_dir = Path(tempfile.mkdtemp(prefix="murar-feedback-"))
        where = "a PostgreSQL store has no folder" if isinstance(index, str) else f"{index} is not writable"
        typer.secho(f"warning: feedback (thumbs up/down) is written to {feedback_dir} ({where}); "
                    "--feedback-dir chooses a folder that is kept", fg=typer.colors.YELLOW, err=True)
    config = ServerConfig(
        max_concurrency=workers,
        max_queue=max_queue,
        max_wait_s=max_wait,
        feedback_dir=feedback_dir,
        public_url=public_url,
        title=title,
        examples=examples,
        model_name="murar",
        cors_origins=cors_origins,
        remote_images=remote_images,
    )
    return create_app(pipeline, config=config)
