"""Progress in a pipe or a log file: a line per task every few seconds while it advances, and its end."""
from __future__ import annotations

import io

from rich.console import Console

from arena.cli.progress import LineProgress, progress


class Clock:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


def _lines(out: io.StringIO) -> list[str]:
    return [line for line in out.getvalue().splitlines() if line]


def test_lines_are_spaced_and_the_end_is_printed() -> None:
    out, clock = io.StringIO(), Clock()
    bar = LineProgress(Console(file=out, width=200), every_s=10, clock=clock)
    with bar:
        task = bar.add_task("#1 blockcraft", total=5, detail="starting")
        for k in range(1, 5):
            clock.t += 4
            bar.update(task, completed=k, detail=f"{k} done")
    lines = _lines(out)
    # 4 s, 8 s: too soon; 12 s: a line; 16 s: too soon; the exit prints where it ended
    assert lines == ["#1 blockcraft: 3/5, 3 done (12s)", "#1 blockcraft: 4/5, 4 done (16s)"]


def test_a_finished_task_prints_at_once_and_only_once() -> None:
    out, clock = io.StringIO(), Clock()
    bar = LineProgress(Console(file=out, width=200), every_s=60, clock=clock)
    with bar:
        task = bar.add_task("liars_dice 2 seats", total=3)
        for _ in range(3):
            clock.t += 1
            bar.advance(task)
    assert _lines(out) == ["liars_dice 2 seats: 3/3 (3s)"]


def test_a_terminal_gets_the_live_bar() -> None:
    from rich.progress import Progress

    assert isinstance(progress(console=Console(file=io.StringIO(), force_terminal=True)), Progress)
    assert isinstance(progress(console=Console(file=io.StringIO())), LineProgress)
