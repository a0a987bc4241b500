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


EMBEDDER_KINDS = ("minilm", "mpnet", "openai", "hashing")
"""What ``--embedder`` accepts."""


def build_embedder(kind: str, base_url: str | None = None, model: str | None = None) -> Embedder:
    """The embedder named on the command line (one of :data:`EMBEDDER_KINDS`).

    Raises:
        ConfigError: unknown kind or missing endpoint settings.
        ModelError: ``mpnet`` is not prepared on this machine (the message
            names ``murar models prepare --embedder mpnet``).
    """
    if kind == "minilm":
        from murar.embed.minilm import MiniLMEmbedder

        return MiniLMEmbedder()
    if kind == "mpnet":
        from murar.embed.mpnet import MPNetEmbedder

        return MPNetEmbedder()
    if kind == "hashing":
        from murar.embed.fake import HashingEmbedder

        return HashingEmbedder()
    if kind == "openai":
        if not base_url or not model:
            raise ConfigError("--embedder openai needs --embed-base-url and --embed-model")
        from murar.embed.openai import OpenAICompatibleEmbedder

        return OpenAICompatibleEmbedder(base_url, model)
    raise ConfigError(f"unknown embedder {kind!r}; choose {', '.join(EMBEDDER_KINDS[:-1])} or {EMBEDDER_KINDS[-1]}")


def ingest_embedder(kind: str, target: Path | str, base_url: str | None = None,
                    model: str | None = None) -> Embedder:
    """The embedder an ingest into ``target`` uses: for ``minilm``, the index's tuned MiniLM
    when ``murar tune-embedder`` made one for it (its folder is present), so a refresh keeps
    the tuning; otherwise :func:`build_embedder`.

    Raises:
        ConfigError: unknown kind or missing endpoint settings.
        ModelError: ``mpnet`` is not prepared on this machine.
    """
    if kind == "minilm" and not isinstance(target, str):
        from murar.embed.tuned import is_tuned_name, resolve_embedder
        from murar.errors import EmbedderMismatchError, IndexError_
        from murar.ingest.index import open_index

        try:
            recorded = open_index(target).manifest.embedder
        except IndexError_:
            recorded = ""
        if is_tuned_name(recorded):
            try:
                return resolve_embedder(recorded, target)
            except EmbedderMismatchError:
                pass  # folder gone: back to the bundled weights (a full rebuild)
    return build_embedder(kind, base_url, model)


RETRIEVER_HELP = ("Snippet retriever: dense (embeddings, as MuRAR) | hybrid (full-text BM25 + embeddings, "
                  "fused) | lexical (full-text only).")
REMOTE_IMAGES_HELP = ("Remote images the docs link (https://...): hide (default: a page that loads them "
                      "tells third-party hosts who reads it) | show.")


def parse_remote_images(value: str) -> bool:
    """``--remote-images show|hide`` as a bool; anything else exits with a readable error."""
    if value not in ("show", "hide"):
        fail(f"--remote-images must be show or hide, not {value!r}")
    return value == "show"
