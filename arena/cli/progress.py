"""Progress for long CLI work: a live bar on a terminal, plain lines in a pipe or a log file.

Rich's live bar draws nothing until the end when its console is not a terminal, so a demo or an evaluation
piped to a file (CI, ``nohup``, ``| tee``) said nothing for minutes. ``LineProgress`` has the part of
``rich.progress.Progress``'s interface the commands use and prints one line per task every ``every_s``
seconds while it advances, and a last line when the task ends. ``step`` does the same for a spinner
(``console.status``): one line when the step starts and one with its duration when it ends.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any

from rich.console import Console
from rich.progress import Progress, ProgressColumn, TaskID

#: seconds between two lines for one task in a pipe
EVERY_S = 15.0


@dataclass
class _Task:
    description: str
    total: float | None
    completed: float = 0.0
    fields: dict[str, Any] = field(default_factory=dict)
    started: float = 0.0
    printed: float = 0.0
    last_line: str = ""


class LineProgress:
    """``add_task`` / ``update`` / ``advance`` as in Rich, printed as lines (see the module docstring)."""

    def __init__(self, console: Console, *, every_s: float = EVERY_S,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.console = console
        self.every_s = every_s
        self.clock = clock
        self.tasks: dict[TaskID, _Task] = {}

    def __enter__(self) -> LineProgress:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        for task in self.tasks.values():
            # where every task ended (a repeated line is skipped); a task of unknown size that never printed
            # (a single match) ended too quickly to need it: the command's own result follows
            if task.total is not None or task.last_line:
                self._print(task)

    def add_task(self, description: str, total: float | None = None, **fields: Any) -> TaskID:
        tid = TaskID(len(self.tasks))
        now = self.clock()
        self.tasks[tid] = _Task(description, total, fields=dict(fields), started=now, printed=now)
        return tid

    def update(self, task_id: TaskID, *, completed: float | None = None, advance: float | None = None,
               total: float | None = None, **fields: Any) -> None:
        task = self.tasks[task_id]
        if total is not None:
            task.total = total
        if completed is not None:
            task.completed = completed
        if advance is not None:
            task.completed += advance
        task.fields.update(fields)
        done = task.total is not None and task.completed >= task.total
        if done or self.clock() - task.printed >= self.every_s:
            self._print(task)

    def advance(self, task_id: TaskID, advance: float = 1) -> None:
        self.update(task_id, advance=advance)

    @staticmethod
    def state(task: _Task) -> str:
        """The task's counts and detail (a line repeats nothing if these are unchanged)."""
        count = f"{task.completed:.0f}" + (f"/{task.total:.0f}" if task.total is not None else "")
        if task.fields.get("unit"):
            count += f" {task.fields['unit']}"
        detail = task.fields.get("detail")
        return f"{task.description}: {count}" + (f", {detail}" if detail else "")

    def _print(self, task: _Task) -> None:
        state = self.state(task)
        if state == task.last_line:
            return
        task.last_line, task.printed = state, self.clock()
        self.console.print(f"{state} ({task.printed - task.started:.0f}s)", highlight=False)

def progress(*columns: str | ProgressColumn, console: Console, transient: bool = False
             ) -> Progress | LineProgress:
    """A Rich progress bar with ``columns`` on a terminal; otherwise a ``LineProgress``."""
    if console.is_terminal:
        return Progress(*columns, console=console, transient=transient)
    return LineProgress(console)


@contextmanager
def step(text: str, *, console: Console, clock: Callable[[], float] = time.monotonic) -> Iterator[None]:
    """A spinner reading ``text`` on a terminal; otherwise a line as the step starts and one as it ends."""
    if console.is_terminal:
        with console.status(text):
            yield
        return
    console.print(f"{text} ...", highlight=False, markup=False)
    started = clock()
    yield
    console.print(f"{text}: done ({clock() - started:.0f}s)", highlight=False, markup=False)
