"""``arena bench forward``: the local forward model's simulation speed next to the engine's own.

Side by side in one run, per game: (a) the engine's ``random_playout`` on fresh games, decisions per
second; (b) the search loop's path through the forward model: ``sample`` a determinization from a
``SeatSampler`` (redeterminize for seat 0), then ``playout`` on the handle, then ``release``; its
decisions per second count the sampling cost too. The ratio (a)/(b) is the local mode's overhead.
The two are timed alternately, ``--runs`` times each, and the medians compared (a busy machine
slows both alike).

``--remote`` adds (c), timed in the same alternation: the same work through a referee's forward-model
service, by a bot in another process, in batches of ``--batch`` samples (``forward_remote.py``);
simulated decisions per second per bot (goal: 5,000).
"""
from __future__ import annotations

import statistics
import time

import click
from rich.table import Table

from referee.engine import Rng, all_games, get_game, random_playout
from referee.engine.sampling import SeatSampler

from ..cli.common import console


def _engine(game_id: str, players: int, seconds: float) -> float:
    game = get_game(game_id)
    rng = Rng("bench-engine")
    n, g, t0 = 0, 0, time.perf_counter()
    while True:
        n += random_playout(game.new_state(players, None, g), rng)
        g += 1
        if time.perf_counter() - t0 >= seconds:
            return n / (time.perf_counter() - t0)


def _forward(game_id: str, players: int, seconds: float) -> float:
    from bots.sdk.forward import ForwardModel

    game = get_game(game_id)
    n, g, t0 = 0, 0, time.perf_counter()
    while True:
        fm = ForwardModel(SeatSampler(game.new_state(players, None, g), 0))
        (h,) = fm.sample(1, g)
        fm.playout(h, g)
        fm.release(h)
        n += fm.decisions
        g += 1
        if time.perf_counter() - t0 >= seconds:
            return n / (time.perf_counter() - t0)


@click.command()
@click.option("--game", "games", multiple=True, help="Game id (repeatable; default: every game).")
@click.option("--seconds", type=click.FloatRange(min=0, min_open=True), default=1.0, show_default=True,
              help="Time per timed run.")
@click.option("--runs", type=click.IntRange(min=1), default=5, show_default=True,
              help="Alternating timed runs per figure.")
@click.option("--remote", is_flag=True,
              help="Also through a referee's forward-model service (a bot in another process).")
@click.option("--batch", type=click.IntRange(min=1, max=4096), default=64, show_default=True,
              help="With --remote: samples per batch (one call samples them, one plays them out).")
def command(games: tuple[str, ...], seconds: float, runs: int, remote: bool, batch: int) -> None:
    """Local forward model (sample + playout through handles) vs the engine's random playout."""
    from .forward_remote import RemoteBench

    ids = list(games) or [g.info.id for g in all_games()]
    cols = ["game", "seats", "engine dec/s", "forward model dec/s", "engine / forward"]
    if remote:
        cols += [f"remote dec/s (batch {batch})", "engine / remote"]
    table = Table(*cols, title="Forward model vs engine playouts (same run, alternating)")
    bench = RemoteBench(seconds, batch) if remote else None
    try:
        for gid in ids:
            players = get_game(gid).info.min_players
            ea, fb, rc = [], [], []
            for _ in range(max(1, runs)):
                ea.append(_engine(gid, players, seconds))
                fb.append(_forward(gid, players, seconds))
                if bench is not None:
                    rc.append(bench.run(gid, players))
            a, b = statistics.median(ea), statistics.median(fb)
            row = [gid, str(players), f"{a:,.0f}", f"{b:,.0f}", f"{a / b:.2f}x"]
            if rc:
                c = statistics.median(rc)
                row += [f"{c:,.0f}", f"{a / c:.2f}x"]
            table.add_row(*row)
    finally:
        if bench is not None:
            bench.close()
    console.print(table)
