"""``arena bench engine``: random-playout decisions per second, with and without views.

With the optional ``bench`` extra (OpenSpiel) the same loop runs OpenSpiel's Python-implemented
``python_team_dominoes`` in the same process and run, and our figure is printed as a ratio to it.
Each figure is the median of ``--runs`` timed runs of about ``--seconds`` each.
"""
from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from functools import partial

import click
from rich.table import Table

from referee.engine import Game, Rng, all_games, get_game, random_playout

from ..cli.common import console
from ..cli.progress import step

#: the clock of a timed run: wall time by default; ``--cpu`` uses this process's CPU time, which other
#: processes on a shared machine disturb far less (both sides of the ratio use the same clock)
CLOCK: list[Callable[[], float]] = [time.perf_counter]


def _ours(game: Game, players: int, with_views: bool, seconds: float, seed: int) -> float:
    """Decisions per second over whole random games until ``seconds`` have passed."""
    rng = Rng(seed)
    decisions = 0
    clock = CLOCK[0]
    start = clock()
    g = 0
    while True:
        state = game.new_state(players, None, seed * 1000 + g)
        g += 1
        decisions += random_playout(state, rng, with_views=with_views)
        elapsed = clock() - start
        if elapsed >= seconds:
            return decisions / elapsed


def _openspiel(with_views: bool, seconds: float, seed: int) -> float | None:
    try:
        import pyspiel
        from open_spiel.python import games as _python_games  # noqa: F401  (registers python games)
    except ImportError:
        return None
    import random

    game = pyspiel.load_game("python_team_dominoes")
    rnd = random.Random(seed)
    decisions = 0
    clock = CLOCK[0]
    start = clock()
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rnd.randrange(len(outcomes))][0])
                continue
            player = state.current_player()
            legal = state.legal_actions(player)
            if with_views:
                state.observation_tensor(player)
            state.apply_action(legal[rnd.randrange(len(legal))])
            decisions += 1
        elapsed = clock() - start
        if elapsed >= seconds:
            return decisions / elapsed


def _median(fn: Callable[[int], float | None], runs: int) -> float | None:
    values = [fn(r) for r in range(runs)]
    if any(v is None for v in values):
        return None
    return statistics.median(v for v in values if v is not None)


@click.command("engine")
@click.option("--game", "game_ids", multiple=True,
              help="Game id (repeatable; default: every registered game).")
@click.option("--seats", type=click.IntRange(min=1), default=None,
              help="Seats (default: each game's minimum).")
@click.option("--runs", type=click.IntRange(min=1), default=5, show_default=True,
              help="Timed runs per figure (median reported).")
@click.option("--seconds", type=click.FloatRange(min=0, min_open=True), default=1.0, show_default=True,
              help="Length of one timed run.")
@click.option("--cpu", is_flag=True,
              help="Time runs by this process's CPU time (steadier on a shared machine).")
def command(game_ids: tuple[str, ...], seats: int | None, runs: int, seconds: float, cpu: bool) -> None:
    """Decisions per second under random play, with and without views, vs OpenSpiel."""
    CLOCK[0] = time.process_time if cpu else time.perf_counter
    games = [get_game(g) for g in game_ids] if game_ids else all_games()
    if not games:
        raise click.ClickException("no games registered")
    with step("OpenSpiel python_team_dominoes", console=console):
        os_plain = _median(lambda r: _openspiel(False, seconds, r), runs)
        os_views = _median(lambda r: _openspiel(True, seconds, r), runs)
    table = Table("game", "seats", "decisions/s", "with views", "ratio vs OpenSpiel", "ratio (views)",
                  title=f"arena bench engine: random playouts, median of {runs} x {seconds:g}s"
                        f"{' (CPU time)' if cpu else ''}")
    for game in games:
        players = seats or game.info.min_players
        with step(game.info.id, console=console):
            plain = _median(partial(_ours, game, players, False, seconds), runs)
            views = _median(partial(_ours, game, players, True, seconds), runs)
        assert plain is not None and views is not None
        table.add_row(game.info.id, str(players), f"{plain:,.0f}", f"{views:,.0f}",
                      f"{plain / os_plain:.2f}" if os_plain else "n/a",
                      f"{views / os_views:.2f}" if os_views else "n/a")
    if os_plain and os_views:
        table.add_row("[dim]openspiel python_team_dominoes[/dim]", "4", f"{os_plain:,.0f}",
                      f"{os_views:,.0f}", "1.00", "1.00")
    console.print(table)
    if os_plain is None:
        console.print("OpenSpiel is not installed (pip install -e '.[bench]'): no ratio printed.",
                      markup=False)
