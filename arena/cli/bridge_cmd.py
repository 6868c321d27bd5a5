"""``arena bridge -- CMD`` and ``arena connect BOT``.

``bridge``: a bot in any language, over JSON lines; ``connect``: a live Python bot.
"""
from __future__ import annotations

import os

import click

from .common import COUNT, address_arg, err_console


def _common(f):
    f = click.option("--referee", "address", envvar="ARENA_REFEREE", default="127.0.0.1:50051",
                     show_default=True, callback=address_arg, help="Referee address [env ARENA_REFEREE].")(f)
    f = click.option("--token", envvar="ARENA_TOKEN", required=True,
                     help="The bot's token [env ARENA_TOKEN].")(f)
    f = click.option("--games", default="", help="Comma-separated game ids this bot plays (default: all).")(f)
    f = click.option("--capacity", type=COUNT, default=1, show_default=True,
                     help="Seats at once (several seats of one match count one each).")(f)
    f = click.option("--tls-ca", envvar="ARENA_TLS_CA", default=None,
                     help="CA certificate for a TLS referee.")(f)
    return f


def _run(factory, address: str, token: str, games: str, capacity: int, tls_ca: str | None,
         client: str, threaded: bool | None = None) -> None:
    from bots.sdk.client import BotRefused, run

    hosted = "ARENA_MATCH_ID" in os.environ
    try:
        stats = run(factory, address, token, [g for g in games.split(",") if g], capacity, tls_ca=tls_ca,
                    client=client, threaded=threaded, give_up_s=10.0 if hosted else None)
    except BotRefused as exc:
        raise click.ClickException(f"the referee refused this bot: {exc}") from None
    err_console.print(f"{stats.matches} match(es), {stats.decisions} decisions, {len(stats.errors)} error(s)")


def register(cli: click.Group) -> None:
    @cli.command("bridge", context_settings={"ignore_unknown_options": True})
    @_common
    @click.argument("command", nargs=-1, required=True, type=click.UNPROCESSED)
    def bridge(address: str, token: str, games: str, capacity: int, tls_ca: str | None,
               command: tuple[str, ...]) -> None:
        """Play through a program that reads and writes JSON lines (any language, no gRPC).

        The program is started once per match; see docs/protocol.md, "JSON lines".

        Example: arena bridge --token $ARENA_TOKEN -- python bots/sdk/examples/random_jsonl.py
        """
        from bots.sdk.bridge import PipeBot

        argv = list(command)
        _run(lambda _start: PipeBot(argv), address, token, games, capacity, tls_ca, f"arena bridge {argv[0]}",
             threaded=True)

    @cli.command("connect")
    @_common
    @click.argument("bot")
    def connect(address: str, token: str, games: str, capacity: int, tls_ca: str | None, bot: str) -> None:
        """Connect a live bot: a built-in (random, heuristic), module:Class or file.py:Class.

        Example: ARENA_TOKEN=... arena connect mybot.py:MyBot --capacity 4
        """
        from bots.sdk.client import start_seed

        from ..botspec import load_bot

        _run(lambda start: load_bot(bot, start.game, start_seed(start)), address, token, games, capacity,
             tls_ca, f"arena connect {bot}")
