"""BC-4.1 options, validated (one clear ``BadOptions`` message), and BC-1.1 seat counts per mode."""
from __future__ import annotations

from typing import Any

from referee.engine import BadOptions, Option, OptionsSpec

MODES = ("boss", "team", "overlord", "extreme")
FACTIONS = ("human", "monster", "undead")
MAX_ROUNDS_CAP = 100  # [design] a bound for the safety limit (the spec says only ">= 1")


def _mode(value: Any) -> Any:
    """`mode`: null (the seat count's default, ``default_mode``) or one of ``MODES``."""
    if value is not None and value not in MODES:
        raise BadOptions(f"option 'mode' must be null or one of {list(MODES)}, not {value!r}")
    return value


def default_mode(players: int) -> str:
    """[design] The mode played when none is given (the spec says "required"): one that separates bots at
    this seat count. Solo: `extreme` (the only 1-seat mode). From 2 seats: `overlord`, the last player
    standing wins; `extreme` with 2+ seats nearly always ends with every seat dead, all ranked 1
    (issue 17)."""
    return "extreme" if players == 1 else "overlord"


def resolve(players: int, options: dict[str, Any]) -> dict[str, Any]:
    """The options with a concrete mode."""
    return {**options, "mode": options["mode"] or default_mode(players)}


def _team_factions(value: Any) -> Any:
    """`team_factions`: null (random pair) or a list of 2 distinct faction ids."""
    if value is None:
        return None
    if (not isinstance(value, list | tuple) or len(value) != 2 or len(set(value)) != 2
            or any(v not in FACTIONS for v in value)):
        raise BadOptions(f"option 'team_factions' must be null or 2 distinct of {list(FACTIONS)}, "
                         f"not {value!r}")
    return list(value)


def _max_rounds(value: Any) -> Any:
    """`max_rounds`: null (40, or 36 solo: spec 1.1) or an integer 1..100."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_ROUNDS_CAP:
        raise BadOptions(f"option 'max_rounds' must be null or an integer 1..{MAX_ROUNDS_CAP}, not {value!r}")
    return value


OPTIONS = OptionsSpec(
    Option("mode", None, "game mode (BC-1.1); null = extreme with 1 seat, overlord with 2 or more (the mode "
           "that separates bots at that seat count)", choices=MODES, validator=_mode, type_name="str|null"),
    Option("team_split", "three_factions",
           "team mode with 6 players: three_factions (3x2) or two_factions (2x3)",
           choices=("three_factions", "two_factions")),
    Option("team_factions", None, "team mode with 2 factions: the 2 factions, or null for a random pair",
           choices=FACTIONS, validator=_team_factions, type_name="list|null"),
    Option("max_rounds", None, "round limit (BC-8.6); null = 40 (36 with 1 player)", min=1,
           max=MAX_ROUNDS_CAP,
           validator=_max_rounds, type_name="int|null"),
    Option("admin_seat", 0, "the administrator: the seat that takes the first turn", min=0, max=9),
)


def allowed_players(mode: str) -> tuple[int, ...]:
    """BC-1.1: seat counts per mode."""
    if mode == "boss":
        return tuple(range(2, 11))
    if mode == "team":
        return (3, 4, 6, 9)
    if mode == "overlord":
        return tuple(range(2, 11))
    return tuple(range(1, 11))


def check_options(players: int, options: dict[str, Any]) -> None:
    """BC-4.1: setup fails if N is not allowed for the mode; cross-field checks."""
    mode = options["mode"] or default_mode(players)
    if players not in allowed_players(mode):
        raise BadOptions(f"mode {mode!r} takes {list(allowed_players(mode))} players, not {players}")
    if options["admin_seat"] >= players:
        raise BadOptions(f"option 'admin_seat' must be a seat 0..{players - 1}, not {options['admin_seat']}")
    two = players == 4 or (players == 6 and options["team_split"] == "two_factions")
    if options["team_factions"] is not None and not (mode == "team" and two):
        raise BadOptions("option 'team_factions' applies only to two-faction team games (4 players, or 6 "
                         "with team_split two_factions)")


def variants(players: int, rounds: int | None = None) -> list[dict[str, Any]]:
    """Every mode valid at this seat count (team with 6 players: both splits)."""
    out: list[dict[str, Any]] = []
    for mode in MODES:
        if players not in allowed_players(mode):
            continue
        if mode == "team" and players == 6:
            out.append({"mode": mode, "team_split": "three_factions"})
            out.append({"mode": mode, "team_split": "two_factions"})
        else:
            out.append({"mode": mode})
    if rounds is not None:
        out = [dict(v, max_rounds=rounds) for v in out]
    return out
