"""``arena check-bot -- CMD`` (or ``--bot NAME`` on a running referee): a pass/fail table for a bot."""
from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import click
from rich.markup import escape
from rich.table import Table

from .common import COUNT, BadInput, address_arg, console, err_console

CHECKED = "checked-bot"
FILLER = "check-filler"


@contextlib.contextmanager
def _private_referee(grace_s: float) -> Iterator[tuple[str, str, Path]]:
    """A referee of our own on a free port, its tokens in a throw-away database."""
    from ..demo import local_referee

    tmp = Path(tempfile.mkdtemp(prefix="arena-check-bot-"))
    with local_referee(log_dir=tmp, extra_args=["--db-url", f"sqlite:///{tmp / 'tokens.db'}",
                                                "--reconnect-grace", str(grace_s)]) as ref:
        yield ref.address, ref.token, tmp


@contextlib.contextmanager
def _filler(address: str, token: str, log_dir: Path) -> Iterator[None]:
    """One live random bot plays every seat that is not the checked bot's."""
    env = {k: v for k, v in os.environ.items() if k != "ARENA_ORGANIZER_TOKEN"}
    with open(log_dir / "filler.log", "ab") as log:
        proc = subprocess.Popen([sys.executable, "-m", "bots.serve", "random", "--live", "--capacity", "64",
                                 "--address", address, "--token", token], env=env, stdout=log,
                                stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    try:
        yield
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)


def print_rows(rows: list) -> None:
    """A table on a terminal; in a file or pipe (a CI log) one line a check, ``FAIL  deadline: ...``, since a
    table as wide as its longest detail is hard to read there."""
    colour = {"pass": "green", "fail": "red", "skip": "yellow"}
    if console.is_terminal:
        table = Table("check", "result", "detail", title="arena check-bot")
        for r in rows:
            table.add_row(r.check, f"[{colour[r.status]}]{r.status.upper()}[/]", escape(r.detail))
        console.print(table)
    else:
        for r in rows:
            console.print(f"{r.status.upper()}  {r.check}: {r.detail}", highlight=False, markup=False)
    failed = [r for r in rows if r.status == "fail"]
    passed = sum(r.status == "pass" for r in rows)
    skipped = sum(r.status == "skip" for r in rows)
    console.print(f"{passed} passed, {len(failed)} failed, {skipped} skipped", highlight=False)


def register(cli: click.Group) -> None:
    @cli.command("check-bot", context_settings={"ignore_unknown_options": True})
    @click.argument("command", nargs=-1, type=click.UNPROCESSED)
    @click.option("--bot", "bot_name", default=None, metavar="NAME",
                  help="Check a live bot already connected to --referee instead of running CMD.")
    @click.option("--referee", "address", default=None, envvar="ARENA_REFEREE", callback=address_arg,
                  help="With --bot: the referee it is connected to [env ARENA_REFEREE].")
    @click.option("--organizer-token", envvar="ARENA_ORGANIZER_TOKEN", default=None,
                  help="With --bot: the referee's organizer token [env ARENA_ORGANIZER_TOKEN].")
    @click.option("--game", "games", multiple=True, metavar="GAME", help="Only this game (repeatable).")
    @click.option("--quick", is_flag=True, help="Only each game's smallest and largest seat count.")
    @click.option("--deadline-ms", type=COUNT, default=500, show_default=True,
                  help="Per-decision limit of the tight-deadline check.")
    @click.option("--capacity", type=COUNT, default=4, show_default=True,
                  help="ARENA_CAPACITY given to CMD (seats it may take at once).")
    @click.option("--cwd", type=click.Path(file_okay=False, exists=True), default=None,
                  help="Working directory of CMD [default: the current one].")
    def check_bot(command: tuple[str, ...], bot_name: str | None, address: str | None,
                  organizer_token: str | None, games: tuple[str, ...], quick: bool, deadline_ms: int,
                  capacity: int, cwd: str | None) -> None:
        """Run a bot through every game and seat count it plays, simultaneous decisions, re-asks after
        a wrong answer, a tight deadline, a dropped connection and several matches at once.

        CMD is started as a live bot of a private referee, with ARENA_REFEREE, ARENA_TOKEN and
        ARENA_CAPACITY in its environment (the way `arena new-bot` kits and the bundled bots read
        them); it must stay connected and reconnect when its connection drops. Exit status 1 when a
        check fails.

        Examples: arena check-bot -- python bot.py;  arena check-bot --quick -- node bots/node/bot.js;
        arena check-bot --bot mybot --referee HOST:PORT
        """
        from referee.client import RefereeClient
        from referee.engine import get_game
        from referee.matchspec import SeatSpec

        from ..checkbot.botproc import BotCommandError, BotProcess
        from ..checkbot.checks import Checker, Settings, Target
        from ..checkbot.proxy import CutProxy

        if bool(command) == bool(bot_name):
            raise click.UsageError("give either a command after -- or --bot NAME")
        for g in games:
            get_game(g)  # an unknown game: one clear line
        if command:
            program = command[0]
            found = (Path(cwd or ".") / program).is_file() if os.sep in program else shutil.which(program)
            if not found:
                raise BadInput(f"cannot run {program}: no such program")
        settings = Settings(deadline_ms=deadline_ms, capacity=capacity, quick=quick, games=list(games))

        def progress(msg: str) -> None:
            err_console.print(f"[dim]{escape(msg)}[/dim]")

        if bot_name:
            if not address or not organizer_token:
                raise BadInput(
                    "--bot needs --referee and --organizer-token (or ARENA_REFEREE / ARENA_ORGANIZER_TOKEN)")
            filler = SeatSpec("random", command="{python} -m bots.serve random")
            with RefereeClient(address, organizer_token) as client:
                rows = Checker(client, Target(bot_name, filler), settings, progress).run()
        else:
            with contextlib.ExitStack() as stack:
                ref_address, token, tmp = stack.enter_context(_private_referee(grace_s=5.0))
                client = stack.enter_context(RefereeClient(ref_address, token))
                bot_token = client.register_bot(CHECKED)
                stack.enter_context(_filler(ref_address, client.register_bot(FILLER), tmp))
                proxy = stack.enter_context(CutProxy(ref_address))
                env = {k: v for k, v in os.environ.items()
                       if k not in ("ARENA_ORGANIZER_TOKEN", "ARENA_MATCH_ID")}
                env.update(ARENA_REFEREE=proxy.address, ARENA_TOKEN=bot_token, ARENA_CAPACITY=str(capacity))
                bot = BotProcess(list(command), env, cwd)
                try:
                    bot.start()
                except BotCommandError as exc:
                    raise BadInput(str(exc)) from None
                stack.callback(bot.stop)
                progress(f"checking `{' '.join(command)}` (its output: {bot.log_path})")
                rows = Checker(client, Target(CHECKED, SeatSpec(FILLER), bot, proxy), settings,
                               progress).run()
        print_rows(rows)
        if any(r.status == "fail" for r in rows):
            sys.exit(1)
