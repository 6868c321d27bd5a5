"""``arena ladder GAME``: the published Elo ladder (maximum likelihood, 95% intervals)."""
from __future__ import annotations

import click

from .common import COUNT, console, game_arg


def register(cli: click.Group) -> None:
    @cli.command("ladder")
    @click.argument("game_id", metavar="GAME", required=False)
    @click.option("--refit", is_flag=True, help="Refit from the stored results first.")
    @click.option("--top", type=COUNT, default=None, help="Show the best N only.")
    @click.option("--seats", "-n", type=COUNT, default=None, help="Only the ladder of this seat count.")
    @click.option("--combined", is_flag=True,
                  help="One ladder over every seat count instead of one per seat count.")
    def ladder(game_id: str | None, refit: bool, top: int | None, seats: int | None, combined: bool) -> None:
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
