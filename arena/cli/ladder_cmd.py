"""``arena ladder GAME``: the published Elo ladder (maximum likelihood, 95% intervals)."""
from __future__ import annotations

import click

from .common import console, game_arg


def register(cli: click.Group) -> None:
    @cli.command("ladder")
    @click.argument("game_id", metavar="GAME", required=False)
    @click.option("--refit", is_flag=True, help="Refit from the stored results first.")
    @click.option("--top", type=int, default=None, help="Show the best N only.")
    def ladder(game_id: str | None, refit: bool, top: int | None) -> None:
        """Ratings of GAME (every game with results when omitted), anchored to the random bot at 0."""
        from ..store import ladders, open_store, queries
        from .tournament_cmd import print_ladder

        store = open_store()
        games = [game_arg(game_id).info.id] if game_id else queries.ladder_games(store)
        if not games:
            console.print("no ladders yet: run a tournament first (arena demo)")
        for g in games:
            if refit:
                ladders.refresh(store, g, force=True)
            print_ladder(g, top=top)
