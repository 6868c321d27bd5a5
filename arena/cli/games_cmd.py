"""``arena games``: what can be played."""
from __future__ import annotations

import json

import click
from rich.table import Table

from referee.engine import all_games

from .common import console, game_arg


def register(cli: click.Group) -> None:
    @cli.command("games")
    @click.argument("words", nargs=-1, metavar="[show] [GAME]")
    @click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
    @click.option("--schema", is_flag=True, help="With GAME_ID: print the JSON Schema of its actions.")
    def games(words: tuple[str, ...], as_json: bool, schema: bool) -> None:
        """List the registered games, or describe GAME (its options and action schema).

        `arena games GAME` and `arena games show GAME` are the same.
        """
        if words[:1] == ("show",):
            words = words[1:]
            if not words:
                raise click.UsageError("arena games show GAME: which game?")
        if len(words) > 1:
            raise click.UsageError(f"one game at a time, not {' '.join(words)!r}")
        game_id = words[0] if words else None
        if schema and not game_id:
            raise click.UsageError("--schema needs a GAME")
        if game_id:
            game = game_arg(game_id)
            if schema:
                click.echo(json.dumps(game.action_schema(), indent=2))
                return
            if as_json:
                click.echo(json.dumps(game.describe(), indent=2))
                return
            info = game.info
            console.print(f"[bold]{info.name}[/bold] ({info.id} v{info.version}) — {info.min_players}-"
                          f"{info.max_players} seats, {'cooperative' if info.cooperative else 'competitive'}")
            if info.description:
                console.print(info.description)
            table = Table("option", "type", "default", "allowed", "meaning")
            for o in game.options.options:
                allowed = ", ".join(map(str, o.choices)) if o.choices else \
                    (f"{o.min}..{o.max}" if o.min is not None or o.max is not None else "")
                table.add_row(o.name, o.type_name or o.kind.__name__, json.dumps(o.default), allowed, o.doc)
            console.print(table)
            return
        rows = [g.info for g in all_games()]
        if as_json:
            click.echo(json.dumps([r.to_json() for r in rows], indent=2))
            return
        table = Table("id", "name", "seats", "cooperative", "version", title="Registered games")
        for info in rows:
            table.add_row(info.id, info.name, f"{info.min_players}-{info.max_players}",
                          "yes" if info.cooperative else "no", info.version)
        console.print(table)
