"""The ``murar`` command line: ``ingest``, ``ask``, ``models``, ``eval``, ``serve``, ``mcp``, ``config``,
``tune-embedder``."""

from __future__ import annotations

import logging
import os

# llama.cpp's OpenMP threads busy-wait by default, starving the embedder and the server on small machines
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
# LanceDB's Rust core logs to stderr ("WARN ... No existing dataset at ..."): users see errors only
os.environ.setdefault("LANCEDB_LOG", "error")
os.environ.setdefault("LANCE_LOG", "error")

import typer

from murar import __version__
from murar.cli.ask_cmd import ask
from murar.cli.ingest_cmd import ingest
from murar.cli.models_cmd import app as models_app

app = typer.Typer(
    name="murar",
    help="Multimodal answers over documentation (MuRAR), with evaluation (MiRAGE).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.command(help="Build or refresh an index from a folder of documents.")(ingest)
app.command(help="Answer a question with text, images, tables and videos from the docs.")(ask)
app.add_typer(models_app, name="models", help="Bundled offline models: status and assembly.")


def _mount_optional() -> None:
    try:
        from murar.cli.eval_cmd import app as eval_app

        app.add_typer(eval_app, name="eval", help="Evaluate answers: MiRAGE, media metrics, human evaluation.")
    except ImportError:  # pragma: no cover - eval module always shipped
        pass
    try:
        from murar.cli.serve_cmd import serve

        app.command(help="Serve the HTTP API and the web page.")(serve)
    except ImportError:  # pragma: no cover
        pass
    from murar.cli.config_cmd import app as config_app

    app.add_typer(config_app, name="config", help="Show the configuration (murar.toml, MURAR_* variables).")
    from murar.cli.mcp_cmd import mcp

    app.command(help="Serve an index to AI assistants over MCP (tools ask_docs, search_docs).")(mcp)
    from murar.cli.tune_cmd import tune_embedder

    app.command(name="tune-embedder", help="Fine-tune the embedder on questions a local LLM writes about "
                "the indexed docs, then re-embed the index with it.")(tune_embedder)


_mount_optional()


def _version(value: bool) -> None:
    if value:
        typer.echo(f"murar {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    ctx: typer.Context,
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="Show the version."),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Log details on stderr."),
) -> None:
    """Options of every command default to murar.toml / [tool.murar] and MURAR_* variables
    (see `murar config show`); flags override them."""
    logging.basicConfig(level=logging.INFO if verbose else logging.ERROR, format="%(levelname)s %(name)s: %(message)s")
    _apply_config(ctx)


def _apply_config(ctx: typer.Context) -> None:
    """Make the configuration the defaults of every command's options (click's ``default_map``)."""
    from murar.config import cli_defaults, load_config
    from murar.errors import MurarError

    if ctx.invoked_subcommand == "config":
        return  # `murar config show` reports configuration errors itself
    try:
        defaults = cli_defaults(load_config(), ctx.command)
    except MurarError as err:
        from murar.cli.common import fail

        fail(err, code=2)
    if defaults:
        ctx.default_map = {**defaults, **(ctx.default_map or {})}


def main() -> None:
    """Console-script entry point."""
    app()
