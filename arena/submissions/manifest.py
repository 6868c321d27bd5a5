"""``arena-bot.toml``: what a bot package is (name, runtime, command, games) and how it is built.

    name = "mybot"                  # [a-z0-9._-], the bot's name within its developer's bots
    runtime = "python"              # python | node | go (see runtimes.toml)
    command = "{python} bot.py"     # run from the package directory; {python} = the platform's Python
    games = []                      # games it plays; empty = every game
    # seats = { clank = [2, 3] }    # optional: seat counts it accepts per game (default: all)
    # build = "bash build.sh"       # optional: run once in the sandbox, no network, in the package
    # vendor = "npm ci"             # optional: `arena submit` runs it on your machine when
    # vendor_dir = "node_modules"   #   vendor_dir is missing (the build has no network)
    # exclude = ["build"]           # optional: paths `arena submit` leaves out of the upload

``arena new-bot`` writes one for every kit, so its output submits as it is.
"""

from __future__ import annotations

import shlex
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee.engine.errors import ArenaError

MANIFEST = "arena-bot.toml"
RUNTIMES: dict[str, dict[str, Any]] = tomllib.loads((Path(__file__).with_name("runtimes.toml")).read_text())
_KEYS = {"name", "runtime", "command", "games", "seats", "build", "vendor", "vendor_dir", "exclude"}


class ManifestError(ArenaError):
    """A missing or malformed ``arena-bot.toml``."""

    code = "manifest_error"


@dataclass(frozen=True)
class Manifest:
    name: str
    runtime: str
    command: str
    games: tuple[str, ...] = ()
    seats: dict[str, tuple[int, ...]] = field(default_factory=dict)
    build: str = ""
    vendor: str = ""
    vendor_dir: str = ""
    exclude: tuple[str, ...] = ()

    def seat_counts(self, game: str) -> list[int]:
        """The seat counts this bot accepts in ``game`` (the game's whole range unless narrowed)."""
        from referee.engine import get_game

        info = get_game(game).info
        return list(self.seats.get(game) or range(info.min_players, info.max_players + 1))


def _str(data: dict[str, Any], key: str, required: bool = False) -> str:
    value = data.get(key, "")
    if not isinstance(value, str) or (required and not value.strip()):
        raise ManifestError(f"{MANIFEST}: '{key}' must be a {'non-empty ' if required else ''}string")
    return value.strip()


def _str_list(data: dict[str, Any], key: str) -> tuple[str, ...]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise ManifestError(f"{MANIFEST}: '{key}' must be a list of strings")
    return tuple(value)


def parse(text: str) -> Manifest:
    """Validate a manifest's text against the runtimes and the registered games."""
    from arena.starters import NAME_RE
    from referee.engine import game_ids, get_game

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ManifestError(f"{MANIFEST} is not valid TOML: {exc}") from None
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise ManifestError(
            f"{MANIFEST}: unknown key(s) {', '.join(unknown)} (known: {', '.join(sorted(_KEYS))})"
        )
    name = _str(data, "name", required=True)
    if not NAME_RE.match(name):
        raise ManifestError(
            f"{MANIFEST}: name {name!r} must be 1-64 lowercase letters, digits, '.', '_' or '-'"
        )
    runtime = _str(data, "runtime", required=True)
    if runtime not in RUNTIMES:
        raise ManifestError(f"{MANIFEST}: runtime {runtime!r} is not one of {', '.join(sorted(RUNTIMES))}")
    command = _str(data, "command", required=True)
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise ManifestError(f"{MANIFEST}: command {command!r} cannot be split: {exc}") from None
    if not argv or argv[0].startswith("/") and argv[0] != "{python}":
        raise ManifestError(
            f"{MANIFEST}: command must name a program in the package or on the platform, "
            f"not an absolute path ({command!r})"
        )
    games = _str_list(data, "games")
    bad = sorted(set(games) - set(game_ids()))
    if bad:
        raise ManifestError(
            f"{MANIFEST}: unknown game(s) {', '.join(bad)} (this platform has {', '.join(game_ids())})"
        )
    seats_raw = data.get("seats", {})
    if not isinstance(seats_raw, dict):
        raise ManifestError(f"{MANIFEST}: 'seats' must be a table of game = [seat counts]")
    seats: dict[str, tuple[int, ...]] = {}
    for game, counts in seats_raw.items():
        if game not in game_ids() or (games and game not in games):
            raise ManifestError(f"{MANIFEST}: seats for {game!r}, a game the bot does not play")
        info = get_game(game).info
        if (
            not isinstance(counts, list)
            or not counts
            or not all(isinstance(c, int) and info.min_players <= c <= info.max_players for c in counts)
        ):
            raise ManifestError(
                f"{MANIFEST}: seats.{game} must be a non-empty list of seat counts in "
                f"{info.min_players}..{info.max_players}"
            )
        seats[game] = tuple(sorted(set(counts)))
    vendor, vendor_dir = _str(data, "vendor"), _str(data, "vendor_dir")
    if bool(vendor) != bool(vendor_dir):
        raise ManifestError(f"{MANIFEST}: 'vendor' and 'vendor_dir' go together")
    return Manifest(
        name,
        runtime,
        command,
        games,
        seats,
        _str(data, "build"),
        vendor,
        vendor_dir,
        _str_list(data, "exclude"),
    )


def load(directory: Path) -> Manifest:
    path = directory / MANIFEST
    try:
        text = path.read_text()
    except FileNotFoundError:
        raise ManifestError(
            f"{directory} has no {MANIFEST} (arena new-bot writes one; see docs/submitting.md)"
        ) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ManifestError(f"cannot read {path}: {exc}") from None
    return parse(text)
