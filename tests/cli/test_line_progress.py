"""Progress in a pipe or a log file: a line per task every few seconds while it advances, and its end."""
from __future__ import annotations

import io

from rich.console import Console

from arena.cli.progress import LineProgress, progress, step


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


def test_a_quick_task_of_unknown_size_prints_nothing_a_long_one_its_end() -> None:
    # a single match (``arena play``): its result table follows, so a quick one adds no line
    out, clock = io.StringIO(), Clock()
    bar = LineProgress(Console(file=out, width=200), every_s=15, clock=clock)
    with bar:
        task = bar.add_task("Clank! seed 3", total=None, unit="decisions")
        clock.t += 2
        bar.update(task, completed=457)
    assert _lines(out) == []
    with bar:
        task = bar.add_task("Clank! seed 4", total=None, unit="decisions")
        clock.t += 20
        bar.update(task, completed=300)
        clock.t += 5
        bar.update(task, completed=457)
    assert _lines(out) == ["Clank! seed 4: 300 decisions (20s)", "Clank! seed 4: 457 decisions (25s)"]


def test_a_step_in_a_pipe_prints_its_start_and_its_end() -> None:
    out, clock = io.StringIO(), Clock()
    with step("OpenSpiel python_team_dominoes", console=Console(file=out, width=200), clock=clock):
        clock.t += 12
    assert _lines(out) == ["OpenSpiel python_team_dominoes ...", "OpenSpiel python_team_dominoes: done (12s)"]


def test_a_step_on_a_terminal_is_a_spinner_that_leaves_no_line() -> None:
    out = io.StringIO()
    with step("blockcraft", console=Console(file=out, force_terminal=True, width=80)):
        pass
    assert "done" not in out.getvalue()
