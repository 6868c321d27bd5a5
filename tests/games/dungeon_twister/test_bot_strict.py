"""The heuristic's strict mode (the search bot's own): walls count for reveals (DT-5.6.1 b) and as a
detour, and a walled-in character walks to a gear. On a hand-made view: slot 0 revealed, every other
slot face down, a Blue character at (5, 2) on slot 0's east edge."""
from __future__ import annotations

from typing import Any

from bots.heuristic.dungeon_twister import INF, WALL_COST, HeuristicBot, Model
from bots.sdk import DecisionRequest

GEAR = (3, 2)  # slot 0 local (2, 2)
HERE = (5, 2)  # slot 0 local (4, 2), next to face-down slot 1


def _view(open_rows: tuple[int, ...]) -> dict[str, Any]:
    """Slot 0 face up, all floor but its gear, its south side walled, its east side too except on
    ``open_rows`` (its west side is open to Blue's own line)."""
    codes = ["."] * 25
    codes[2 * 5 + 2] = "G"
    walls = [0] * 25
    for r in range(5):
        if r not in open_rows:
            walls[r * 5 + 4] |= 2  # E
    for c in range(5):
        walls[4 * 5 + c] |= 4  # S
    slots: list[dict[str, Any]] = []
    for s in range(8):
        origin = [1 + 5 * (s % 4), 5 * (s // 4)]
        slot: dict[str, Any] = {"slot": s, "revealed": s == 0, "origin": origin}
        if s == 0:
            slot["squares"] = "".join(codes)
            slot["walls"] = "".join(f"{w:x}" for w in walls)
        slots.append(slot)
    tok = {"id": "blue.goblin", "kind": "goblin", "colour": "blue", "character": True, "state": "healthy",
           "carried_by": None, "carrying": None, "square": list(HERE), "blocked": False}
    return {"seat": 0, "colour": "blue", "turn": 9, "slots": slots, "portcullis": [], "tokens": [tok],
            "hand": {"combat": [0, 1]}}


def test_optimistic_bfs_walks_through_the_revealed_tiles_own_wall() -> None:
    # the baseline (and the opponent's) view: the face-down room seems one step away
    assert Model(_view(())).dist_to_line("blue", "normal")[HERE] == 21 - HERE[0]


def test_strict_reveal_access_needs_an_open_side() -> None:
    # row 4 open: down two squares, then east into the face-down room
    assert Model(_view((4,)), strict=True).dist_to_line("blue", "normal")[HERE] == 2 + 21 - HERE[0]


def test_strict_counts_a_wall_as_a_detour_and_finds_the_gear() -> None:
    model = Model(_view(()), strict=True)
    assert model.dist_to_line("blue", "normal")[HERE] == 21 - HERE[0] + WALL_COST
    assert model.dist_to_gear("blue", "normal")[HERE] == 2
    assert model.dist_to_gear("blue", "normal")[GEAR] == 0
    assert model.dist_to_line("blue", "normal").get(HERE, INF) < INF


def _main(bot: HeuristicBot, view: dict[str, Any]) -> dict[str, Any]:
    legal = [{"type": "end_turn"}, {"type": "move", "character": "blue.goblin"}]
    return legal[bot.act(DecisionRequest("m", 1, "dungeon_twister", 0, view, legal, []))]


def test_walled_in_character_walks_to_the_gear_only_in_strict_mode() -> None:
    view = _view(())
    assert _main(HeuristicBot(1), view)["type"] == "end_turn"  # baseline: stuck behind the wall
    bot = HeuristicBot(1)
    bot.strict = True
    assert _main(bot, view)["type"] == "move" and bot.to_gear
    step_w = {"type": "step", "dir": "W"}
    legal = [step_w, {"type": "step", "dir": "N"}, {"type": "end_move"}]
    view["subphase"] = {"kind": "move", "character": "blue.goblin"}
    assert legal[bot.act(DecisionRequest("m", 2, "dungeon_twister", 0, view, legal, []))] == step_w


def test_a_move_out_of_steps_where_it_began_is_noted_stuck_in_strict_mode() -> None:
    # a Troll stepped onto a friend and back: only end_move is left (the baseline never notes that)
    view = _view(())
    view["subphase"] = {"kind": "move", "character": "blue.goblin"}
    for strict in (False, True):
        bot = HeuristicBot(1)
        bot.strict = strict
        bot.move_start = HERE
        bot.act(DecisionRequest("m", 3, "dungeon_twister", 0, view, [{"type": "end_move"}], []))
        assert ((9, "blue.goblin") in bot.stuck) == strict
