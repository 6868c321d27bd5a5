"""``arena``: one entry point; each command lives in its own module under ``arena/cli/``.

A command module defines ``register(cli: click.Group) -> None``. Modules are listed here once;
a module that does not exist yet is skipped, so parts of the platform land independently.
"""
from __future__ import annotations

import importlib
import logging
import os
import sys

import click

from bots.builtin import UnknownBot
from referee.engine.errors import ArenaError
from referee.matchspec import MatchRejected, RefereeUnavailable

from .common import BadInput

COMMAND_MODULES = [
    "games", "play", "replay", "eval", "gauntlet", "bench",  # engine core
    "check_game",                                        # game authors
    "referee", "bot", "bridge",                          # referee service and bots
    "tournament", "ladder", "worker", "demo",            # tournaments
    "dashboard",                                         # dashboard
    "newbot", "checkbot", "refeed",                      # the bot developer's kit
    "devserver", "submit",                               # bot submission (developer service)
]


class ArenaGroup(click.Group):
    """Turns every error into one clear line instead of a traceback.

    Errors the user can fix (ArenaError, a missing file, an unknown bot) exit with status 2 like a
    usage error; anything else is a bug in arena: one line naming it, exit status 1, and the
    traceback only with ``-vv`` or ``ARENA_DEBUG=1``.
    """

    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except (click.exceptions.Exit, click.ClickException, click.Abort):
            raise
        except (ArenaError, UnknownBot, FileNotFoundError, PermissionError, IsADirectoryError) as exc:
            raise BadInput(str(exc)) from None
        except (RefereeUnavailable, MatchRejected) as exc:
            raise click.ClickException(str(exc)) from None
        except KeyboardInterrupt:
            click.secho("interrupted", fg="yellow", err=True)
            sys.exit(130)
        except Exception as exc:
            if os.environ.get("ARENA_DEBUG") or logging.getLogger().level <= logging.DEBUG:
                raise
            click.secho(f"error: internal error ({type(exc).__name__}: {exc}); "
                        "run with -vv or ARENA_DEBUG=1 for the traceback", fg="red", err=True)
            sys.exit(1)


@click.group(cls=ArenaGroup,
             context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.option("-v", "--verbose", count=True, help="More log output (-vv for debug).")
@click.version_option(package_name="arena")
def cli(verbose: int) -> None:
    """Arena: referee, tournaments, ladders and replays for five board games.

    Start with `arena demo`, or `arena games` to see what can be played.

    Exit status: 0 done, 1 something failed while running (a referee unreachable, a match failed),
    2 bad input (a usage error, an unknown name or id), 130 interrupted.
    """
    level = logging.WARNING - 10 * verbose
    logging.basicConfig(level=max(level, logging.DEBUG),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")


def _load_commands() -> None:
    for name in COMMAND_MODULES:
        module_name = f"arena.cli.{name}_cmd"
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name == module_name:
                continue
            raise
        module.register(cli)


_load_commands()


def main() -> None:
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    cli(prog_name="arena")


if __name__ == "__main__":
    main()
