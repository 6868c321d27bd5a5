"""``arena eval``: measure a bot against the field (or a team) over many games."""
from __future__ import annotations

import time

import click
from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeRemainingColumn
from rich.table import Table

from bots.builtin import UnknownBot

from .. import evaluate
from ..botspec import load_bot
from .common import COUNT, NON_NEGATIVE, console, game_arg, parse_options
from .progress import progress


def register(cli: click.Group) -> None:
    @cli.command("eval")
    @click.argument("game_id", metavar="GAME")
    @click.option("--bots", "-b", default="heuristic,random", show_default=True,
                  help="Competitive: SUBJECT,FIELD (the subject rotates through the seats). "
                       "Cooperative: each bot plays as a whole team.")
    @click.option("--seats", "-n", type=COUNT, default=None,
                  help="Seats per game (default: the game's minimum).")
    @click.option("--games", "-g", type=COUNT, default=200, show_default=True,
                  help="Games per bot (or pairing).")
    @click.option("--seed-base", type=int, default=0, show_default=True)
    @click.option("--jobs", "-j", type=NON_NEGATIVE, default=0,
                  help="Worker processes (default: one per core).")
    @click.option("--option", "-o", "option_items", multiple=True, metavar="KEY=VALUE", help="A game option.")
    def eval_cmd(game_id: str, bots: str, seats: int | None, games: int, seed_base: int, jobs: int,
                 option_items: tuple[str, ...]) -> None:
        """Play GAMES games and print win rates.

        Example: arena eval clank --bots heuristic,random --seats 4 --games 200
        """
        game = game_arg(game_id)
        players = seats or game.info.min_players
        options = parse_options(option_items)
        game.new_state(players, options, seed_base)  # validate early: one clear error
        names = [b.strip() for b in bots.split(",") if b.strip()]
        try:
            plan = evaluate.plan(game.info.id, names, players, games, options, seed_base)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--bots") from None
        for name in dict.fromkeys(names):  # an unknown bot fails here, not inside a worker process
            try:
                load_bot(name, game.info.id, seed_base)
            except UnknownBot as exc:
                raise click.BadParameter(str(exc), param_hint="--bots") from None
        t0 = time.perf_counter()
        with progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                      TimeRemainingColumn(), console=console) as bar:
            n_seats = f"{players} seat" + "s" * (players != 1)
            task = bar.add_task(f"{game.info.id} {n_seats}", total=len(plan))
            tallies = evaluate.tally(evaluate.run(plan, jobs or None), on_result=lambda: bar.advance(task))
        elapsed = time.perf_counter() - t0
        how = (" (team play)" if game.info.cooperative else " (solo, the same seeds for every bot)"
               if players == 1 else f" (vs {names[-1]}, paired seeds, rotated seats)")
        table = Table("bot", "games", "wins", "draws", "losses", "win rate", "mean score",
                      title=f"{game.info.name}, {n_seats}, options {options or 'default'}" + how)
        for t in tallies.values():
            table.add_row(t.bot, str(t.games), str(t.wins), str(t.draws), str(t.losses), f"{t.win_rate:.1%}",
                          f"{t.score / max(1, t.games):.2f}")
        console.print(table)
        console.print(f"{len(plan)} games in {elapsed:.1f}s")
