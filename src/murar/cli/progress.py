"""Rich progress bars for long CLI work (a :class:`murar.ingest.index.ProgressHook`)."""

from __future__ import annotations

from types import TracebackType
from typing import Self

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)


class RichProgress:
    """One bar per stage, on stderr; silent when ``enabled`` is False."""

    def __init__(self, *, enabled: bool = True) -> None:
        self._progress = Progress(
            TextColumn("[bold]{task.description:<15}"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
            TextColumn("[dim]{task.fields[current]}"),
            console=Console(stderr=True),
            disable=not enabled,
            transient=False,
        )
        self._tasks: dict[str, TaskID] = {}

    def __enter__(self) -> Self:
        self._progress.start()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self._progress.stop()

    def start(self, stage: str, total: int) -> None:
        self._tasks[stage] = self._progress.add_task(stage, total=total, current="")

    def describe(self, stage: str, text: str) -> None:
        """Show ``text`` (the file being worked on) beside the bar of ``stage``."""
        task = self._tasks.get(stage)
        if task is not None:
            shown = text if len(text) <= 60 else "…" + text[-59:]
            self._progress.update(task, current=shown)

    def advance(self, stage: str, n: int = 1) -> None:
        task = self._tasks.get(stage)
        if task is not None:
            self._progress.advance(task, n)
