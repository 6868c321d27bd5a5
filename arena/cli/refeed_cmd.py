"""``arena refeed REPLAY --seat N -- CMD``.

Does a bot still answer a recorded match's decisions the same way?
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import click
from rich.markup import escape
from rich.table import Table

from .common import COUNT, NON_NEGATIVE, BadInput, console


def register(cli: click.Group) -> None:
    @cli.command("refeed", context_settings={"ignore_unknown_options": True})
    @click.argument("replay_path", metavar="REPLAY", type=click.Path(dir_okay=False, path_type=Path))
    @click.argument("command", nargs=-1, required=True, type=click.UNPROCESSED)
    @click.option("--seat", type=NON_NEGATIVE, required=True, help="The seat whose decisions are sent.")
    @click.option("--bot-seed", type=click.IntRange(0, 2**64 - 1), default=0, show_default=True,
                  help="MatchStart.bot_seed sent to the bot (a bot seeded by it repeats its choices).")
    @click.option("--time-ms", type=COUNT, default=10_000, show_default=True, help="Time per decision.")
    @click.option("--connect-s", type=click.FloatRange(0.1, 3600), default=30.0, show_default=True,
                  help="Seconds the bot has to connect once started.")
    @click.option("--show", type=NON_NEGATIVE, default=20, show_default=True,
                  help="Differences listed (0 = all).")
    def refeed_cmd(replay_path: Path, command: tuple[str, ...], seat: int, bot_seed: int, time_ms: int,
                   connect_s: float, show: int) -> None:
        """Send CMD (a bot, started like a hosted one) every decision request SEAT received in REPLAY, in
        order, and list where its answers differ from the recorded ones. The recorded actions are
        played whatever the bot answers, so every request is exactly the one sent in the match.

        Exit status 0 when every answer is the same, 1 when some differ.

        Example: arena refeed replays/clank-seed7.json --seat 0 -- python bot.py
        """
        from referee.engine import Replay

        from ..refeed import RefeedError, refeed

        rep = Replay.load(replay_path)
        try:
            report = refeed(rep, seat, list(command), bot_seed=bot_seed, time_ms=time_ms, connect_s=connect_s)
        except RefeedError as exc:
            raise BadInput(str(exc)) from None
        diffs = report.differences
        if diffs:
            table = Table("ply", "decision", "recorded", "the bot answered",
                          title=f"{rep.game} seat {seat}: answers that differ")
            for d in diffs[:show or None]:
                table.add_row(str(d.ply), str(d.decision),
                              escape(json.dumps(d.recorded, separators=(",", ":"))), escape(d.answered))
            console.print(table)
            if show and len(diffs) > show:
                console.print(f"... and {len(diffs) - show} more", highlight=False)
        console.print(f"{report.decisions} decisions refed to seat {seat}: {report.same} same, {len(diffs)} "
                      f"differ (bot output: {report.bot_log})", highlight=False)
        if diffs:
            sys.exit(1)
