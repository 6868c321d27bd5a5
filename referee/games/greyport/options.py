"""GB-4.1 options, validated (one clear ``BadOptions`` message per problem)."""
from __future__ import annotations

from typing import Any

from referee.engine import BadOptions, Option, OptionsSpec

CHARACTERS = ("WAR", "ROG", "PYR", "LGT", "CHR")
ROUND_LIMIT_MAX = 40  # [design] GB-4.1 bounds round_limit so the safety limit (info.py) is finite


def _characters(v: Any) -> Any:
    if v is None:
        return None
    if not isinstance(v, list | tuple) or not all(isinstance(c, str) for c in v):
        raise BadOptions(f"option 'characters' must be null or a list of character codes, not {v!r}")
    bad = [c for c in v if c not in CHARACTERS]
    if bad:
        raise BadOptions(f"option 'characters' has unknown code(s) {bad}; known: {list(CHARACTERS)}")
    if len(set(v)) != len(v):
        raise BadOptions("option 'characters' must not repeat a character")
    return list(v)


def _first_player(v: Any) -> Any:
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, int) or v < 0:
        raise BadOptions(f"option 'first_player' must be null or a seat index, not {v!r}")
    return v


def _wounded(v: Any) -> Any:
    if v in ("off", "choose"):
        return v
    if isinstance(v, bool) or not isinstance(v, int) or v < 0:
        raise BadOptions(f"option 'wounded_warrior' must be 'off', 'choose' or a seat index, not {v!r}")
    return v


OPTIONS = OptionsSpec(
    Option("chapter", "CH1", "GB-1.2 chapter to play", choices=("CH1", "CH2")),
    Option("characters", None, "GB-4.2.1 list of N distinct codes (WAR/ROG/PYR/LGT/CHR); null = seats choose",
               validator=_characters, type_name="list|null"),
    Option("first_player", None, "GB-4.2.5 first defending seat; null = random", validator=_first_player,
               type_name="int|null"),
    Option("starting_hp", 10, "GB-4.1 starting HP", choices=(10, 8, 6)),
    Option("wounded_warrior", "off", "GB-4.2.6 'off', 'choose' or a seat index", validator=_wounded,
               type_name="str|int"),
    Option("extra_factions", 0, "GB-6.13.1 extra monster factions in the first encounter", min=0, max=2),
    Option("random_locations", False, "GB-6.13.2 random locations instead of the encounter's"),
    Option("open_hands", False, "GB-7.3 every hand is public"),
    Option("silence", False, "GB-6.13.3 silence (forces open_hands off)"),
    Option("rest_healing", 2, "GB-5.7 HP healed between encounters (0 = hardcore)", min=0, max=3),
    Option("round_limit", 25, "GB-5.6.7 rounds per encounter before the team loses", min=5,
           max=ROUND_LIMIT_MAX),
)


def check_options(players: int, options: dict[str, Any]) -> None:
    """Cross-field checks (GB-4.1)."""
    chars = options["characters"]
    if chars is not None and len(chars) != players:
        raise BadOptions(f"option 'characters' lists {len(chars)} characters for {players} seats")
    fp = options["first_player"]
    if fp is not None and fp >= players:
        raise BadOptions(f"option 'first_player' is seat {fp}, but seats are 0..{players - 1}")
    ww = options["wounded_warrior"]
    if isinstance(ww, int) and ww >= players:
        raise BadOptions(f"option 'wounded_warrior' is seat {ww}, but seats are 0..{players - 1}")
