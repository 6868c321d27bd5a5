"""Outcomes (ranks, ties, forfeits, teams) and option validation."""
from __future__ import annotations

import pytest

from referee.engine import BadOptions, Option, OptionsSpec, Outcome


def test_ranks_from_scores_with_ties_and_tiebreak() -> None:
    assert Outcome.from_scores([3, 7, 3]).ranks == [2, 1, 2]
    assert Outcome.from_scores([3, 7, 3], tiebreak=[1, 0, 2]).ranks == [3, 1, 2]
    assert Outcome.from_scores([5, 5]).ranks == [1, 1]


def test_forfeit_ranks_the_forfeiter_last() -> None:
    o = Outcome.from_scores([9, 4, 6]).with_forfeit(0, "timeout")
    assert o.ranks == [3, 2, 1]
    assert o.reason == "forfeit" and o.forfeits == {0: "timeout"}
    assert Outcome.from_json(o.to_json()) == o


def test_team_outcome() -> None:
    win = Outcome.team(3, True, 12)
    assert win.ranks == [1, 1, 1] and win.team_result == "win" and win.cooperative
    lost = win.with_forfeit(1, "disconnect")
    assert lost.team_result == "loss" and lost.ranks == [1, 1, 1] and lost.forfeits == {1: "disconnect"}
    assert Outcome.from_json(lost.to_json()) == lost


SPEC = OptionsSpec(
    Option("mode", "boss", "game mode", choices=("boss", "team")),
    Option("rounds", 10, "round limit", min=1, max=50),
    Option("open_hands", False, "show hands"),
    Option("scale", 1.0, "a float", min=0.5, max=2.0),
)


def test_defaults_and_valid_values() -> None:
    assert SPEC.validate(None) == {"mode": "boss", "rounds": 10, "open_hands": False, "scale": 1.0}
    assert SPEC.validate({"rounds": 3, "scale": 2})["scale"] == 2.0


@pytest.mark.parametrize("given, words", [
    ({"mod": "x"}, "unknown option"), ({"mode": "solo"}, "must be one of"), ({"rounds": 0}, "at least 1"),
    ({"rounds": 51}, "at most 50"), ({"rounds": "3"}, "must be an integer"), ({"rounds": True}, "integer"),
    ({"open_hands": 1}, "true or false"), ({"scale": "big"}, "must be a float"), ([1], "JSON object"),
])
def test_bad_options_get_one_clear_error(given: object, words: str) -> None:
    with pytest.raises(BadOptions, match=words):
        SPEC.validate(given)
