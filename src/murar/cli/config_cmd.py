"""``murar config``: the configuration every command reads, and where each value comes from."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from murar.cli.common import fail
from murar.errors import MurarError

app = typer.Typer(help="Configuration: murar.toml / [tool.murar], MURAR_* variables, flags.", no_args_is_help=True)


def _jsonable(value: Any) -> Any:
    return str(value) if isinstance(value, Path) else value


@app.command("show")
def show(
    output: Annotated[str, typer.Option("--format", "-f", help="text | json")] = "text",
    secrets: Annotated[bool, typer.Option("--secrets", help="Print the API key and store password too.")] = False,
) -> None:
    """Print the configuration in force here: each key, its value and where it comes from
    (default, the file, or an environment variable). Flags given to a command override all of these."""
    from murar.config import load_config

    try:
        config = load_config()
    except MurarError as err:
        fail(err)
    if output == "json":
        data: dict[str, Any] = {"file": str(config.file) if config.file else None, "values": {}, "origins": {}}
        for key, value, origin in config.items(secrets=secrets):
            section, name = key.split(".", 1)
            data["values"].setdefault(section, {})[name] = _jsonable(value)
            data["origins"][key] = origin
        typer.echo(json.dumps(data, indent=2))
        return
    if output != "text":
        fail(f"--format must be text or json, not {output!r}")
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"murar configuration ({config.file or 'no murar.toml found; defaults'})")
    table.add_column("key")
    table.add_column("value")
    table.add_column("from")
    for key, value, origin in config.items(secrets=secrets):
        table.add_row(key, "" if value is None else str(value), origin)
    Console().print(table)
