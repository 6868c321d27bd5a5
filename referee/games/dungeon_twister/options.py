"""DT-1.3: the supported options, validated (one clear ``BadOptions`` message each)."""
from __future__ import annotations

from typing import Any

from referee.engine import BadOptions, Option, OptionsSpec

from .data import content
from .info import MAX_TURNS_LIMIT

OPTIONS = OptionsSpec(
    Option("vp_target", 5, "DT-1.3: victory points that trigger the end of the game", choices=(5, 6, 7, 8)),
    Option("max_turns", 200, "DT-8.3: total turns (both seats) after which the game stops", min=2,
           max=MAX_TURNS_LIMIT),
    Option("first_seat", -1, "test hook (DT-4.1 draw 4): seat of the first game turn, -1 = random",
           choices=(-1, 0, 1)),
    Option("placement_first_seat", -1, "test hook (DT-4.1 draw 3): seat placing the first face-down token, "
           "-1 = random", choices=(-1, 0, 1)),
    Option("fixed_layout", [], "test hook (DT-4.1 draws 1-2): 8 [room_id, orientation] pairs for slots 0-7, "
           "[] = random"),
)


def check_options(players: int, options: dict[str, Any]) -> None:
    """DT-1.2/DT-1.3 cross-field checks."""
    if players != 2:
        raise BadOptions("dungeon_twister is played by exactly 2 seats")
    layout = options["fixed_layout"]
    if layout == []:
        return
    rooms = set(content().rooms)
    ok = len(layout) == 8 and all(
        isinstance(e, list) and len(e) == 2 and e[0] in rooms and isinstance(e[1], int)
        and not isinstance(e[1], bool) and 0 <= e[1] <= 3 for e in layout)
    if not ok or len({e[0] for e in layout}) != 8:
        raise BadOptions("option 'fixed_layout' must be [] or 8 distinct [room_id, orientation 0-3] pairs, "
                         f"room ids {sorted(rooms)}")
