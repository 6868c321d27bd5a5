"""The Blockcraft heuristic's ``frugal`` mode (overlord): at most one hunger-costing action a turn."""
from __future__ import annotations

from bots.heuristic.blockcraft import COSTLY, HeuristicBot
from referee.engine import get_game
from referee.engine.runner import run_match


def _costly_per_turn(frugal_seat: int | None, seed: int) -> dict[int, int]:
    """The most costed actions any one turn of each seat took in a 4-seat overlord game."""
    bots = [HeuristicBot(seed * 10 + s) for s in range(4)]
    if frugal_seat is not None:
        bots[frugal_seat].frugal = True
    replay = run_match(get_game("blockcraft"), bots, seed=seed, options={"mode": "overlord"}).replay
    most: dict[int, int] = {}
    run, last = 0, None
    for entry in replay.actions:
        seat, action = entry["seat"], entry["action"]
        if seat != last:  # turns are taken in order: another seat's action ends a run (a turn ends on
            run, last = 0, seat  # end_action_phase or when its AP run out, with no action of its own)
        kind = action.get("type") if isinstance(action, dict) else None
        if kind == "end_action_phase":
            run = 0
        elif kind in COSTLY:
            run += 1
            most[seat] = max(most.get(seat, 0), run)
    return most


def test_a_frugal_seat_takes_at_most_one_costed_action_a_turn_and_the_others_are_unchanged() -> None:
    plain = _costly_per_turn(None, 3)
    frugal = _costly_per_turn(2, 3)
    assert frugal[2] == 1
    assert plain[2] > 1  # the plain heuristic spends more when fed: the mode changes something
    assert max(plain.values()) > 1


def test_frugal_is_off_by_default() -> None:
    assert HeuristicBot().frugal is False
