"""Helpers shared by CLI commands: defaults, backend construction, error exit."""

from __future__ import annotations

import math
import os
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


def finite(value: float | None) -> float | None:
    """Option callback for float options: ``nan`` and ``inf`` are refused as a usage
    error (exit 2). Click's ranges (``min=``/``max=``) let them through: ``nan``
    compares false with every bound, and ``--max-file-seconds inf`` failed every page
    with an OverflowError while ``nan`` silently turned the limit off."""
    if value is not None and not math.isfinite(value):
        raise typer.BadParameter(f"{value} is not a finite number")
    return value


def out_folder(path: Path, option: str = "--out") -> Path:
    """Create the output folder ``path`` of a command before its work starts and check
    that a file can be written in it, so a path that cannot hold the output fails at
    once, not after the work: ``murar eval run --out FILE`` answered every question,
    then ended in a FileExistsError traceback that lost the run.

    Raises:
        ConfigError: ``path`` is a file, or cannot be created or written (the reason given).
    """
    try:
        path.mkdir(parents=True, exist_ok=True)
        probe = path / f".murar-write-check-{os.getpid()}"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as err:
        raise ConfigError(f"{option} {path}: cannot write there ({err.strerror or err})") from err
    return path


def out_file(path: Path, option: str = "--out") -> Path:
    """Check before the work that the output file ``path`` can be written (its folder
    created as :func:`out_folder` does; ``path`` itself not a folder).

    Raises:
        ConfigError: as :func:`out_folder`, or ``path`` is a folder.
    """
    if path.is_dir():
        raise ConfigError(f"{option} {path} is a folder; name a file")
    out_folder(path.parent, option)
    return path


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


EMBEDDER_KINDS = ("auto", "minilm", "mpnet", "openai", "hashing")
"""What ``--embedder`` accepts."""

AUTO_FALLBACK_NOTICE = ("embedder: MiniLM, because all-mpnet-base-v2 is not prepared on this machine; it finds "
                        "the right section far more often on docs murar was never tuned on. Once: "
                        "murar models prepare --embedder mpnet")
"""The one line ``murar ingest`` prints when ``auto`` falls back to MiniLM for a new index."""


def auto_embedder_kind(cache_dir: Path | None = None) -> str:
    """What ``--embedder auto`` means for a new index on this machine: ``mpnet`` when
    ``murar models prepare --embedder mpnet`` has run (its folder in the model cache
    ``cache_dir``, default :func:`murar.models.default_cache_dir`), else ``minilm``.

    Why mpnet first: on documentation never tuned on it ranks the gold section first
    far more often (held-out docs-site questions, dense recall@1 0.524 -> 0.730) and the
    bundled model's answers then get more right screenshots (pooled image F1 over 103
    held-out questions 0.474 -> 0.564; README, "Which embedder"), at about a fifth of
    MiniLM's embedding speed. No I/O beyond a stat of the prepared folder.
    """
    from murar.embed.mpnet import is_prepared

    return "mpnet" if is_prepared(cache_dir) else "minilm"


def build_embedder(kind: str, base_url: str | None = None, model: str | None = None) -> Embedder:
    """The embedder named on the command line (one of :data:`EMBEDDER_KINDS`);
    ``auto`` is :func:`auto_embedder_kind`.

    Raises:
        ConfigError: unknown kind or missing endpoint settings.
        ModelError: ``mpnet`` is not prepared on this machine (the message
            names ``murar models prepare --embedder mpnet``).
    """
    if kind == "auto":
        kind = auto_embedder_kind()
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


def recorded_embedder(target: Path | str) -> str:
    """The embedder name the index at ``target`` records, or ``""`` when there is no index yet."""
    from murar.errors import IndexError_
    from murar.ingest.index import open_index

    try:
        return open_index(target).manifest.embedder
    except IndexError_:  # none yet, or unreadable: the ingest itself rebuilds or reports it
        return ""


def ingest_embedder(kind: str, target: Path | str, base_url: str | None = None,
                    model: str | None = None, *, recorded: str | None = None) -> Embedder:
    """The embedder an ingest into ``target`` uses.

    - ``auto`` (the default): a refresh keeps the embedder the index records
      (MiniLM, mpnet, a tuned MiniLM, hashing), so nothing is re-embedded behind
      the user's back; a new index gets :func:`auto_embedder_kind`. An index built
      with an OpenAI-compatible endpoint needs ``--embedder openai`` and its settings.
    - ``minilm``: the index's tuned MiniLM when ``murar tune-embedder`` made one for
      it (its folder is present), so a refresh keeps the tuning.
    - otherwise :func:`build_embedder`; an embedder other than the recorded one
      rebuilds the whole index.

    ``recorded``: the embedder name the index records (:func:`recorded_embedder`), when
    the caller has read it already; ``None`` reads it here when the choice needs it.

    Raises:
        ConfigError: unknown kind or missing endpoint settings (also ``auto`` over an
            index built with an OpenAI-compatible endpoint).
        ModelError: ``mpnet`` is not prepared on this machine (also ``auto`` over an
            index built with mpnet).
    """
    folder = target if isinstance(target, Path) else None
    if recorded is None:
        recorded = recorded_embedder(target) if kind == "auto" or (kind == "minilm" and folder is not None) else ""
    from murar.embed.tuned import is_tuned_name

    if kind == "auto" and is_tuned_name(recorded):
        kind = "minilm"  # a tuned MiniLM: the minilm rule below keeps it
    elif kind == "auto" and recorded:
        from murar.answer.pipeline import embedder_for

        try:
            return embedder_for(recorded, folder)
        except ConfigError as err:
            if base_url and model:  # an endpoint-built index, its endpoint given
                return build_embedder("openai", base_url, model)
            raise ConfigError(f"the index records embedder {recorded!r}; refresh it with --embedder openai "
                              "--embed-base-url URL --embed-model NAME, or rebuild it with another "
                              "--embedder") from err
    if kind == "minilm" and folder is not None:
        from murar.embed.tuned import resolve_embedder
        from murar.errors import EmbedderMismatchError

        if is_tuned_name(recorded):
            try:
                return resolve_embedder(recorded, folder)
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
