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

from referee.engine.errors import ArenaError

COMMAND_MODULES = [
    "games", "play", "replay", "eval", "gauntlet", "bench",  # engine core
    "check_game",                                        # game authors
    "referee", "bot", "bridge",                          # referee service and bots
    "tournament", "ladder", "worker", "demo",            # tournaments
    "dashboard",                                         # dashboard
]


class ArenaGroup(click.Group):
    """Turns expected errors into one clear line instead of a traceback."""

    def invoke(self, ctx: click.Context) -> object:
        try:
            return super().invoke(ctx)
        except (ArenaError, FileNotFoundError, PermissionError) as exc:
            click.secho(f"error: {exc}", fg="red", err=True)
            sys.exit(2)
        except click.exceptions.Exit:
            raise
        except (click.ClickException, click.Abort):
            raise
        except KeyboardInterrupt:
            click.secho("interrupted", fg="yellow", err=True)
            sys.exit(130)


@click.group(cls=ArenaGroup, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.option("-v", "--verbose", count=True, help="More log output (-vv for debug).")
@click.version_option(package_name="arena")
def cli(verbose: int) -> None:
    """Arena: referee, tournaments, ladders and replays for five board games.

    Start with `arena demo`, or `arena games` to see what can be played.
    """
    level = logging.WARNING - 10 * verbose
    logging.basicConfig(level=max(level, logging.DEBUG), format="%(asctime)s %(levelname)s %(name)s: %(message)s")


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
