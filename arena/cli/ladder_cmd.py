"""``arena ladder``: the published Elo ladders, and the continuous ladder (run, status, retire, close).

``arena ladder GAME`` (= ``arena ladder show GAME``) prints a game's ladder; the other subcommands
run the continuous ladder of ``arena.ladder`` without beat, show its season and versions, and take
a version off it or put it back.
"""
from __future__ import annotations

import re
import time
from typing import TYPE_CHECKING

import click
from rich.progress import BarColumn, TextColumn, TimeRemainingColumn

from .common import COUNT, SECONDS, BadInput, console, game_arg, parse_options
from .progress import progress

if TYPE_CHECKING:
    from ..store import Store

_DURATION = re.compile(r"^(\d+(?:\.\d+)?)([smh]?)$")


class Duration(click.ParamType):
    """``90``, ``90s``, ``10m`` or ``2h``: seconds."""

    name = "duration"

    def convert(self, value: object, param: click.Parameter | None, ctx: click.Context | None) -> float:
        if isinstance(value, (int, float)):
            return float(value)
        match = _DURATION.match(str(value).strip().lower())
        if not match or float(match.group(1)) <= 0:
            self.fail(f"{value!r} is not a duration (like 90s, 10m or 2h)", param, ctx)
        return float(match.group(1)) * {"": 1, "s": 1, "m": 60, "h": 3600}[match.group(2)]


class LadderGroup(click.Group):
    """A group whose default subcommand is ``show``: ``arena ladder clank`` keeps working."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if not args or (args[0] not in self.commands and args[0] not in ("-h", "--help")):
            args = ["show", *args]
        return super().parse_args(ctx, args)


def register(cli: click.Group) -> None:
    @cli.group("ladder", cls=LadderGroup)
    def ladder() -> None:
        """Ladders: `arena ladder GAME` shows one; run, status, retire and close drive the continuous
        ladder."""

    @ladder.command("show")
    @click.argument("game_id", metavar="GAME", required=False)
    @click.option("--refit", is_flag=True, help="Refit from the stored results first.")
    @click.option("--top", type=COUNT, default=None, help="Show the best N only.")
    @click.option("--seats", "-n", type=COUNT, default=None, help="Only the ladder of this seat count.")
    @click.option("--combined", is_flag=True,
                  help="One ladder over every seat count instead of one per seat count.")
    def show(game_id: str | None, refit: bool, top: int | None, seats: int | None, combined: bool) -> None:
        """Ratings of GAME (every game with results when omitted), anchored to the random bot at 0.

        One ladder per seat count (2-seat and 4-seat Clank are different games for a bot); --combined
        shows one ladder fitted over all of them."""
        from ..store import ladders, open_store, queries
        from .tournament_cmd import print_ladder

        if seats is not None and combined:
            raise click.BadParameter("choose --seats N or --combined, not both", param_hint="--seats")
        store = open_store()
        games = [game_arg(game_id).info.id] if game_id else queries.ladder_games(store)
        if not games:
            console.print("no ladders yet: run a tournament first (arena demo)")
        for g in games:
            if refit:
                ladders.refresh(store, g, force=True)
            if combined:
                print_ladder(g, top=top)
                continue
            counts = queries.seat_counts(store, g)
            if seats is not None:
                if seats not in counts:
                    console.print(f"no rated results of {g} at {seats} seats (played at: "
                                  f"{', '.join(map(str, counts)) or 'none'})")
                    continue
                counts = [seats]
            if not counts:  # results fitted before per-seat ladders existed: the combined one
                print_ladder(g, top=top)
            for n in counts:
                print_ladder(ladders.seat_ladder(g, n), top=top, label=f"{g} {n}-seat")

    @ladder.command("run")
    @click.argument("game_id", metavar="GAME")
    @click.option("--for", "seconds", type=Duration(), default="10m", show_default=True,
                  help="How long to make new matches (90s, 10m, 2h); then the ones in flight finish.")
    @click.option("--executor", type=click.Choice(["referee", "inprocess"]), default="referee",
                  show_default=True,
                  help="Who plays a new season's matches (inprocess: each bot's in-process agent, for "
                       "trials).")
    @click.option("--workers", "-w", type=COUNT, default=None,
                  help="Local worker processes (default: CPU count).")
    @click.option("--tick", "tick_s", type=click.FloatRange(min=0.05), default=0.5, show_default=True,
                  help="Seconds between matchmaker ticks.")
    @click.option("--drain", "drain_s", type=SECONDS, default=120.0, show_default=True,
                  help="Longest wait for the matches in flight once the time is up.")
    @click.option("--option", "options", multiple=True, metavar="KEY=VALUE",
                  help="Game option of a new season (repeatable).")
    def run_cmd(game_id: str, seconds: float, executor: str, workers: int | None, tick_s: float,
                drain_s: float,
                options: tuple[str, ...]) -> None:
        """Run GAME's continuous ladder here, without beat: the matchmaker keeps the active versions playing
        (placement matches first, then rating neighbours) through the local pool, or Celery with
        ARENA_BROKER_URL. Opens a season if none is running."""
        from ..ladder import open_season
        from ..ladder.run import run
        from ..scheduling.driver import dispatcher_from_env
        from ..store import open_store, queries

        game = game_arg(game_id).info.id
        store = open_store()
        tid = open_season(store, game, executor=executor, options=parse_options(options))
        dispatcher = dispatcher_from_env(workers)
        console.print(f"{game} ladder (tournament {tid}) for {seconds:g} s", highlight=False)
        t0 = time.monotonic()
        before = queries.progress(store, tid).finished
        try:
            with progress(TextColumn("[bold]{task.description}"), BarColumn(),
                          TextColumn("{task.fields[detail]}"), TimeRemainingColumn(), console=console) as bar:
                task = bar.add_task(f"{game} ladder", total=seconds, detail="starting", unit="s")

                def show(created: int) -> None:
                    played = queries.progress(store, tid).finished - before
                    bar.update(task, completed=min(seconds, time.monotonic() - t0),
                               detail=f"{created} matches made, {played} played")

                summary = run(store, game, tid, dispatcher, seconds=seconds, tick_s=tick_s, drain_s=drain_s,
                              on_tick=show)
                show(summary.created)
        finally:
            dispatcher.close()
        console.print(f"{summary.created} matches made in {summary.ticks} ticks"
                      + (f"; {summary.left_in_flight} still in flight" if summary.left_in_flight else ""),
                      highlight=False)
        _print_status(store, game)

    @ladder.command("status")
    @click.argument("game_id", metavar="GAME", required=False)
    def status(game_id: str | None) -> None:
        """The continuous ladder of GAME (every game with a season when omitted): season, progress,
        versions."""
        from ..ladder import seasons
        from ..store import open_store

        store = open_store()
        games = [game_arg(game_id).info.id] if game_id else sorted({g for _, g in seasons(store)})
        if not games:
            console.print("no ladder season is running (arena ladder run GAME, or a worker with --beat)")
        for g in games:
            _print_status(store, g)

    @ladder.command("retire")
    @click.argument("bot")
    @click.option("--reason", default=None, help="Shown with the version's status.")
    def retire(bot: str, reason: str | None) -> None:
        """Take version BOT off the continuous ladder for good (its matches and ratings stay)."""
        from ..ladder import retire as retire_bot
        from ..store import open_store

        retire_bot(open_store(), bot, reason)
        console.print(f"{bot} retired", highlight=False)

    @ladder.command("reinstate")
    @click.argument("bot")
    def reinstate(bot: str) -> None:
        """Put a suspended or retired version BOT back on the continuous ladder."""
        from ..ladder import reinstate as reinstate_bot
        from ..store import open_store

        reinstate_bot(open_store(), bot)
        console.print(f"{bot} is active again", highlight=False)

    @ladder.command("close")
    @click.argument("game_id", metavar="GAME")
    def close(game_id: str) -> None:
        """End GAME's ladder season: queued matches are cancelled, and its deal key is published (arena
        tournament verify) once the running ones finish. The next tick opens a new season."""
        from ..ladder import close_season
        from ..store import open_store

        game = game_arg(game_id).info.id
        tid = close_season(open_store(), game)
        if tid is None:
            raise BadInput(f"no {game} ladder season is running")
        console.print(f"{game} ladder season (tournament {tid}) closed", highlight=False)


def _print_status(store: Store, game: str) -> None:
    from rich.table import Table

    from ..ladder.views import season_view

    view = season_view(store, game)
    if view is None:
        console.print(f"{game}: no ladder season yet (arena ladder run {game})", highlight=False)
        return
    p = view.progress
    console.print(f"[bold]{view.name}[/bold] (tournament {view.tournament_id}, {view.status}): {p.done} "
                  f"done, "
                  f"{p.running} running, {p.queued} queued, {p.failed} failed", highlight=False)
    table = Table(show_edge=False)
    for col in ("version", "status", "Elo", "95% interval", "games", "ladder matches", "reason"):
        table.add_column(col, justify="right" if col in ("Elo", "games", "ladder matches") else "left")
    for v in view.versions:
        table.add_row(v.name, v.status, "" if v.rating is None else f"{v.rating:.0f}",
                      "" if v.lo is None else f"{v.lo:.0f} .. {v.hi:.0f}", str(v.games),
                      str(v.ladder_matches),
                      v.reason or "")
    console.print(table)
