"""``murar mcp``: serve an index to AI assistants over the Model Context Protocol."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from murar.cli.common import (
    DEFAULT_INDEX,
    RETRIEVER_HELP,
    StoreOption,
    fail,
    index_target,
)
from murar.config import DEFAULT_RETRIEVER
from murar.errors import MurarError

LLM_HELP = ("extractive (no model, fast: the client's own model writes the prose) | bundled | bundled-small "
            "| openai | fake")


def mcp(
    index: Annotated[Path, typer.Option("--index", "-i", help="Index folder built by `murar ingest`.")] = DEFAULT_INDEX,
    llm: Annotated[str, typer.Option(help=LLM_HELP)] = "extractive",
    base_url: Annotated[str | None, typer.Option(help="OpenAI-compatible base URL (--llm openai).")] = None,
    model: Annotated[str | None, typer.Option(help="Model name on the OpenAI-compatible server.")] = None,
    api_key: Annotated[str | None, typer.Option(envvar="OPENAI_API_KEY", help="API key (or OPENAI_API_KEY).")] = None,
    http: Annotated[bool, typer.Option("--http", help="Streamable HTTP at http://HOST:PORT/mcp instead of stdio.")] = False,
    host: Annotated[str, typer.Option(help="Address for --http (loopback by default; no authentication).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(min=0, max=65535, help="TCP port for --http.")] = 8765,
    store: StoreOption = None,
    retriever: Annotated[str, typer.Option(help=RETRIEVER_HELP)] = DEFAULT_RETRIEVER,
) -> None:
    """Serve INDEX as an MCP server: tools ask_docs (answer with screenshots as image content)
    and search_docs, and one resource per page. stdio by default, for Claude Desktop, IDEs and agents."""
    from murar.integrations.mcp import run

    if not store and not index.exists():
        typer.secho(f"warning: no index at {index}; tool calls will return that error "
                    f"(build one with: murar ingest CORPUS --index {index})", fg=typer.colors.YELLOW, err=True)
    if http and host not in ("127.0.0.1", "localhost", "::1"):
        typer.secho(f"warning: listening on {host}: anyone who can reach it can query the docs "
                    "(there is no authentication)", fg=typer.colors.YELLOW, err=True)
    try:
        from murar.answer.pipeline import PipelineConfig
        from murar.store.hybrid import RetrieverOptions

        config = PipelineConfig(retriever=RetrieverOptions(kind=retriever))
        target = index_target(index, store)
        if http:  # stdout stays clean: on stdio it is the protocol's channel
            from murar.store.postgres import redact

            shown = f"[{host}]" if ":" in host else host
            typer.echo(f"murar: MCP server for {redact(str(target))} at http://{shown}:{port}/mcp (streamable HTTP)",
                       err=True)
        run(target, llm=llm, http=http, host=host, port=port, base_url=base_url, model=model,
            api_key=api_key, config=config)
    except MurarError as err:
        fail(err)
