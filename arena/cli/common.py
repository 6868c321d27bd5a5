"""Helpers shared by CLI commands: option parsing, game lookup, consoles."""
from __future__ import annotations

import json
import os
import sys
from typing import Any, TextIO

import click
from rich.console import Console

from referee.engine import Game, get_game
from referee.engine.errors import BadOptions, UnknownGame

# Rich wraps at 80 columns when it is not writing to a terminal, which breaks paths and table rows in
# files and pipes; there is no screen to fit then, so lines stay whole (COLUMNS still wins if set).
_UNWRAPPED = 1_000


def _console(stream: TextIO, stderr: bool = False) -> Console:
    width = None if stream.isatty() or os.environ.get("COLUMNS") else _UNWRAPPED
    return Console(stderr=stderr, width=width)


console = _console(sys.stdout)
err_console = _console(sys.stderr, stderr=True)


class BadInput(click.ClickException):
    """Input the user can fix (an unknown id, a bad value): one line and exit status 2, like a usage error."""

    exit_code = 2


# Numeric option types: counts start at 1, sizes and limits at 0 (0 = none where the help says so).
COUNT = click.IntRange(min=1)
NON_NEGATIVE = click.IntRange(min=0)
SECONDS = click.FloatRange(min=0)
PORT = click.IntRange(min=0, max=65535)


def address_arg(ctx: click.Context | None, param: click.Parameter | None, value: str | None) -> str | None:
    """A ``host:port`` option: the port must be a number in 0..65535 (gRPC would pick another one)."""
    if value is None:
        return value
    host, sep, port = value.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 <= int(port) <= 65535:
        raise click.BadParameter(f"{value!r} is not HOST:PORT with a port in 0..65535", ctx, param)
    return value


def game_arg(game_id: str, hint: str = "GAME") -> Game:
    try:
        return get_game(game_id)
    except UnknownGame as exc:
        raise click.BadParameter(str(exc), param_hint=hint) from None


def parse_options(items: tuple[str, ...] | list[str], text: str | None = None) -> dict[str, Any]:
    """``--option key=value`` pairs (values parsed as JSON when they can be) and/or ``--options '{...}'``."""
    out: dict[str, Any] = {}
    if text:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise BadOptions(f"--options is not valid JSON: {exc}") from None
        if not isinstance(data, dict):
            raise BadOptions("--options must be a JSON object")
        out.update(data)
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise BadOptions(f"option {item!r} must look like key=value")
        try:
            out[key] = json.loads(value)
        except json.JSONDecodeError:
            out[key] = value
    return out
