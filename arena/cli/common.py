"""Helpers shared by CLI commands: option parsing, game lookup, consoles."""
from __future__ import annotations

import json
from typing import Any

import click
from rich.console import Console

from referee.engine import Game, get_game
from referee.engine.errors import BadOptions, UnknownGame

console = Console()
err_console = Console(stderr=True)


def game_arg(game_id: str) -> Game:
    try:
        return get_game(game_id)
    except UnknownGame as exc:
        raise click.BadParameter(str(exc), param_hint="GAME") from None


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
