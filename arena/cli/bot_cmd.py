"""``arena bot add|list|remove``: the bots tournaments can enter."""
from __future__ import annotations

import click
from rich.markup import escape
from rich.table import Table

from .common import BadInput, console


def _games(text: str | None) -> list[str]:
    from referee.engine import get_game
    from referee.engine.errors import UnknownGame

    games = [g.strip() for g in (text or "").split(",") if g.strip()]
    for g in games:
        try:
            get_game(g)
        except UnknownGame as exc:
            raise click.BadParameter(str(exc), param_hint="--games") from None
    return games


def register(cli: click.Group) -> None:
    @cli.group("bot")
    def bot() -> None:
        """Register, list and remove bots (hosted commands, built-ins, live bots)."""

    @bot.command("add")
    @click.argument("name")
    @click.option("--command", "command", default=None,
                  help="Hosted bot: the command the referee launches per match "
                       "({python} = this interpreter).")
    @click.option("--builtin", type=click.Choice(["random", "heuristic"]), default=None,
                  help="Shortcut for the built-in hosted bot: {python} -m bots.serve NAME.")
    @click.option("--live", is_flag=True, help="A live bot: ask the referee for a token (printed once).")
    @click.option("--games", default="", help="Comma-separated games it plays (default: all).")
    @click.option("--agent", default=None, metavar="SPEC",
                  help="In-process equivalent for --executor inprocess (random, heuristic, module:Class).")
    @click.option("--cwd", default=None, help="Working directory of the hosted command.")
    @click.option("--env", "env_items", multiple=True, metavar="KEY=VALUE",
                  help="Environment of the hosted command.")
    @click.option("--replace", is_flag=True, help="Update a bot of that name instead of refusing.")
    def add(name: str, command: str | None, builtin: str | None, live: bool, games: str, agent: str | None,
            cwd: str | None, env_items: tuple[str, ...], replace: bool) -> None:
        """Register bot NAME.

        Examples: arena bot add rnd --builtin random;  arena bot add mine --command "python my_bot.py";
        arena bot add remote --live --games clank
        """
        from bots.builtin import heuristic_available
        from referee.engine import game_ids

        from ..store import open_store, ops

        if sum(x is not None and x is not False for x in (command, builtin, live or None)) != 1:
            raise click.UsageError("give exactly one of --command, --builtin or --live")
        game_list = _games(games)
        env = {}
        for item in env_items:
            k, sep, v = item.partition("=")
            if not sep:
                raise click.BadParameter(f"{item!r} must look like KEY=VALUE", param_hint="--env")
            env[k] = v
        store = open_store()
        if builtin:
            command = ops.BUILTIN_COMMAND.format(python="{python}", name=builtin)
            agent = agent or builtin
            if builtin == "heuristic" and not game_list:
                game_list = [g for g in game_ids() if heuristic_available(g)]
                if not game_list:
                    raise click.ClickException("no game has a heuristic bot yet")
        if live:
            from referee.client import RefereeClient

            from ..config import settings

            cfg = settings()
            if not cfg.referees or not cfg.organizer_token:
                raise BadInput("--live needs a running referee: set ARENA_REFEREE and "
                                           "ARENA_ORGANIZER_TOKEN")
            with RefereeClient(cfg.referees[0], cfg.organizer_token) as client:
                try:
                    token = client.register_bot(name, game_list)
                except Exception as exc:  # noqa: BLE001 - RefereeUnavailable / MatchRejected
                    raise click.ClickException(f"the referee refused: {exc}") from None
            ops.add_bot(store, name, kind="live", games=game_list, agent=agent, replace=replace)
            console.print(f"live bot [bold]{name}[/bold] registered; its token (shown once, keep it):")
            click.echo(token)
            return
        ops.add_bot(store, name, kind="hosted", command=command, agent=agent, games=game_list, cwd=cwd,
                    env=env, replace=replace)
        console.print(f"bot [bold]{name}[/bold] registered ({', '.join(game_list) or 'all games'})")

    @bot.command("list")
    @click.option("--all", "show_all", is_flag=True, help="Include removed bots.")
    @click.option("--game", default=None, help="Only bots that play this game.")
    def list_(show_all: bool, game: str | None) -> None:
        """Registered bots."""
        from ..store import open_store, queries

        if game:
            _games(game)
        rows = queries.bots(open_store(), include_removed=show_all, game=game)
        table = Table("name", "kind", "games", "command / agent", *(["active"] if show_all else []))
        for b in rows:
            table.add_row(b.name, b.kind, ", ".join(b.games) or "all", b.command or b.agent or "-",
                          *(["yes" if b.active else "removed"] if show_all else []))
        console.print(table if rows else "no bots yet: arena bot add NAME --builtin random")

    @bot.command("show")
    @click.argument("name")
    @click.option("--recent", type=click.IntRange(min=0), default=5, show_default=True,
                  help="Also list the health of this many recent matches.")
    def show(name: str, recent: int) -> None:
        """Bot NAME: how it is run, and its health per game (answer times, time-outs, wrong answers,
        strikes, crashes, forfeits) over its recorded matches."""
        from ..store import health, open_store, queries

        store = open_store()
        view = queries.bot(store, name)
        if view is None:
            raise BadInput(f"no bot named {name!r} (see `arena bot list --all`)")
        console.print(f"[bold]{escape(view.name)}[/bold]: {view.kind}, "
                      f"{'active' if view.active else 'removed'}, "
                      f"plays {escape(', '.join(view.games) or 'every game')}", highlight=False)
        if view.command or view.agent:
            console.print(f"command: {view.command or '-'}   in-process: {view.agent or '-'}",
                          highlight=False, markup=False)
        rows = health.summary(store, name)
        if not rows:
            console.print("no recorded matches with health figures yet")
            return
        table = Table("game", "matches", "decisions", "mean ms", "p95 ms", "max ms", "time-outs", "illegal",
                      "strikes", "crashes", "forfeits", title=f"{name}: health per game")
        for r in rows:
            table.add_row(r.game, str(r.matches), str(r.decisions), f"{r.mean_ms:g}", str(r.p95_ms),
                          str(r.max_ms), str(r.timeouts), str(r.illegal), str(r.strikes), str(r.crashes),
                          str(r.forfeits))
        console.print(table)
        if recent:
            table = Table("match", "game", "seat", "decisions", "mean ms", "max ms", "strikes", "forfeit",
                          title="recent matches")
            for mh in health.recent(store, name, limit=recent):
                h = mh.health
                table.add_row(str(mh.match_id), mh.game, str(mh.seat), str(h.get("decisions", 0)),
                              f"{h.get('mean_ms', 0):g}", str(h.get("max_ms", 0)), str(h.get("strikes", 0)),
                              escape(h.get("forfeit_reason") or ""))
            console.print(table)
        if health.outputs(store, name, limit=1)[0]:
            console.print(f"what it wrote in its latest matches: arena bot output {escape(name)}",
                          highlight=False)

    @bot.command("output")
    @click.argument("name")
    @click.option("--matches", type=click.IntRange(min=1, max=50), default=3, show_default=True,
                  help="How many of its latest matches that kept any output.")
    def output(name: str, matches: int) -> None:
        """What hosted bot NAME wrote (stdout and stderr, the tail) in its latest finished matches: a
        crash's traceback, its own logging. A match whose deal group is still being played waits."""
        from ..store import health, open_store, queries
        from .outputs import print_outputs

        store = open_store()
        if queries.bot(store, name) is None:
            raise BadInput(f"no bot named {name!r} (see `arena bot list --all`)")
        rows, sealed = health.outputs(store, name, limit=matches)
        print_outputs(rows, sealed)

    @bot.command("remove")
    @click.argument("name")
    def remove(name: str) -> None:
        """Remove bot NAME from new tournaments (its matches and ratings stay)."""
        from ..store import open_store, ops, queries

        store = open_store()
        view = queries.bot(store, name)
        ops.remove_bot(store, name)
        if view is not None and view.kind == "live":
            from ..config import settings

            cfg = settings()
            if cfg.referees and cfg.organizer_token:
                from referee.client import RefereeClient

                try:
                    with RefereeClient(cfg.referees[0], cfg.organizer_token) as client:
                        client.revoke_bot(name)
                except Exception as exc:  # noqa: BLE001
                    console.print(
                        f"[yellow]could not revoke the token on the referee: {escape(str(exc))}[/yellow]")
        console.print(f"bot {name} removed")
