"""``arena play``: one match in-process, through exactly what a remote bot would receive."""
from __future__ import annotations

import time
from pathlib import Path

import click
from rich.markup import escape
from rich.progress import BarColumn, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.table import Table

from bots.builtin import UnknownBot
from referee.engine import TimeControl, run_match

from ..botspec import load_bot, parse_bot_list
from .common import COUNT, NON_NEGATIVE, console, game_arg, parse_options
from .progress import progress


def register(cli: click.Group) -> None:
    @cli.command("play")
    @click.argument("game_id", metavar="GAME")
    @click.option("--seats", "-n", type=COUNT, default=None,
                  help="Number of seats (default: the game's minimum).")
    @click.option("--seed", "-s", type=int, default=0, show_default=True,
                  help="Game seed (same seed, same deal).")
    @click.option("--bots", "-b", default="random", show_default=True,
                  help="Comma-separated bot per seat: random, heuristic, module:Class or file.py:Class.")
    @click.option("--option", "-o", "option_items", multiple=True, metavar="KEY=VALUE", help="A game option.")
    @click.option("--options", "options_json", default=None, metavar="JSON",
                  help="Game options as a JSON object.")
    @click.option("--replay", "replay_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
                  help="Where to write the replay [default: replays/GAME-seedS.json].")
    @click.option("--no-replay", is_flag=True, help="Do not write a replay.")
    @click.option("--time-ms", type=NON_NEGATIVE, default=0, show_default=True,
                  help="Per-decision limit in ms (0 = none); a late answer is replaced by a random move.")
    def play(game_id: str, seats: int | None, seed: int, bots: str, option_items: tuple[str, ...],
             options_json: str | None, replay_path: Path | None, no_replay: bool, time_ms: int) -> None:
        """Play one match of GAME between bots and print the outcome.

        Example: arena play clank --seats 3 --bots heuristic,random,random --seed 7
        """
        game = game_arg(game_id)
        players = seats or game.info.min_players
        options = parse_options(option_items, options_json)
        try:
            names = parse_bot_list(bots, players)
            agents = [load_bot(n, game.info.id, seed * 100 + s) for s, n in enumerate(names)]
        except UnknownBot as exc:
            raise click.BadParameter(str(exc), param_hint="--bots") from None
        game.new_state(players, options, seed)  # validate seats/options before the progress bar starts
        t0 = time.perf_counter()
        with progress(SpinnerColumn(), TextColumn("[bold]{task.description}"), BarColumn(),
                      TextColumn("{task.completed} decisions"), TimeElapsedColumn(), console=console,
                      transient=True) as bar:
            task = bar.add_task(f"{game.info.name} seed {seed}", total=None, unit="decisions")
            result = run_match(game, agents, seed=seed, options=options, bot_names=names,
                               time_control=TimeControl(per_decision_ms=time_ms), match_id=f"play-{seed}",
                               on_ply=lambda _s, ply: bar.update(task, completed=ply))
        elapsed = time.perf_counter() - t0
        out = result.outcome
        table = Table("seat", "bot", "rank", "score", title=f"{game.info.name}: {result.plies} decisions "
                      f"in {elapsed:.2f}s ({out.reason})")
        for s in range(players):
            table.add_row(str(s), names[s], str(out.ranks[s]), f"{out.scores[s]:g}")
        console.print(table)
        if out.team_result:
            console.print(f"team result: [bold]{out.team_result}[/bold], team score {out.team_score:g}")
        for seat, why in out.forfeits.items():
            console.print(f"[red]seat {seat} forfeited:[/red] {escape(str(why))}")
        if result.faults:
            console.print(f"[yellow]{len(result.faults)} fault(s)[/yellow] (random move substituted): "
                          f"{result.faults[0]['fault']}")
        if not no_replay:
            path = replay_path or Path("replays") / f"{game.info.id}-seed{seed}.json"
            result.replay.save(path)
            console.print(f"replay written to [bold]{path}[/bold] (arena replay show {path})")
