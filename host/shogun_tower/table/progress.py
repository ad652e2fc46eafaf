"""A progress line for long runs (rich's progress display): redrawn in place on a terminal,
silent elsewhere; lines printed meanwhile appear above it."""

from __future__ import annotations

from typing import TextIO

from rich.console import Console as RichConsole
from rich.progress import Progress, TaskID, TextColumn, TimeElapsedColumn


class ProgressLine:
    def __init__(self, out: TextIO, enabled: bool = True) -> None:
        console = RichConsole(file=out)
        self.enabled = enabled and console.is_terminal
        self._progress = Progress(TextColumn("{task.description}"), TimeElapsedColumn(),
                                  console=console, transient=True) if self.enabled else None
        self._task: TaskID | None = None

    def update(self, text: str) -> None:
        if self._progress is None:
            return
        if self._task is None:
            self._progress.start()
            self._task = self._progress.add_task(text, total=None)
        else:
            self._progress.update(self._task, description=text)

    def clear(self) -> None:
        """Take the line away (before a result line is printed)."""
        if self._progress is not None and self._task is not None:
            self._progress.stop()
            self._progress.remove_task(self._task)
            self._task = None
