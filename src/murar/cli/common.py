"""Helpers shared by CLI commands: defaults, backend construction, error exit."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, NoReturn

import typer

from murar.embed.base import Embedder
from murar.errors import ConfigError, MurarError

DEFAULT_INDEX = Path(".murar/index")

#: ``--store URL`` (or ``MURAR_STORE``): a PostgreSQL store instead of the ``--index`` folder
StoreOption = Annotated[
    str | None,
    typer.Option("--store", envvar="MURAR_STORE", show_envvar=True,
                 help="PostgreSQL store postgresql://USER:PASSWORD@HOST:PORT/DB (pgvector) instead of --index."),
]


def index_target(index: Path, store: str | None) -> Path | str:
    """Where the index lives: the ``--store`` URL when given, else the ``--index`` folder.

    The one place that chooses the store backend for every command.

    Raises:
        ConfigError: ``store`` is not a ``postgresql://`` URL.
    """
    if not store:
        return index
    from murar.ingest.index import is_store_url

    if not is_store_url(store):
        raise ConfigError(f"--store must be a postgresql:// URL, not {store!r} (an index folder goes to --index)")
    return store


def fail(err: MurarError | str, code: int = 1) -> NoReturn:
    """Print a readable error on stderr and exit with ``code`` (no traceback)."""
    typer.secho(f"error: {err}", fg=typer.colors.RED, err=True)
    sys.exit(code)


def build_embedder(kind: str, base_url: str | None = None, model: str | None = None) -> Embedder:
    """The embedder named on the command line.

    Raises:
        ConfigError: unknown kind or missing endpoint settings.
    """
    if kind == "minilm":
        from murar.embed.minilm import MiniLMEmbedder

        return MiniLMEmbedder()
    if kind == "hashing":
        from murar.embed.fake import HashingEmbedder

        return HashingEmbedder()
    if kind == "openai":
        if not base_url or not model:
            raise ConfigError("--embedder openai needs --embed-base-url and --embed-model")
        from murar.embed.openai import OpenAICompatibleEmbedder

        return OpenAICompatibleEmbedder(base_url, model)
    raise ConfigError(f"unknown embedder {kind!r}; choose minilm, openai or hashing")


REMOTE_IMAGES_HELP = ("Remote images the docs link (https://...): hide (default: a page that loads them "
                      "tells third-party hosts who reads it) | show.")


def parse_remote_images(value: str) -> bool:
    """``--remote-images show|hide`` as a bool; anything else exits with a readable error."""
    if value not in ("show", "hide"):
        fail(f"--remote-images must be show or hide, not {value!r}")
    return value == "show"
