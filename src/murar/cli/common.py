"""Helpers shared by CLI commands: defaults, backend construction, error exit."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import NoReturn

import typer

from murar.embed.base import Embedder
from murar.errors import ConfigError, MurarError

DEFAULT_INDEX = Path(".murar/index")


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
