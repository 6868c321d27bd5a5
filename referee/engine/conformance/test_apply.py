"""``apply`` rejects anything outside the legal list with a typed error and changes nothing."""
from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine import ArenaError, IllegalAction, MalformedAction, NotYourDecision, canonical

from .harness import EXAMPLES, Case, sample_points, walk

GARBAGE: list[Any] = [None, 3, "move", [], {}, {"type": 7}, {"type": "no_such_action_type"},
                      {"kind": "bid"}]


@settings(settings.get_profile("conformance"), max_examples=EXAMPLES)
@given(seed=st.integers(0, 2**31 - 1))
def test_apply_rejects_and_changes_nothing(conformance_case: Case, seed: int) -> None:
    game, players, options = conformance_case
    points = sample_points(seed)
    for ply, state in walk(game, players, options, seed):
        if ply not in points:
            continue
        before = state.digest()
        pending = state.pending()
        for seat in range(players):
            legal = state.legal_actions(seat)
            keys = {canonical(a) for a in legal}
            for bad in GARBAGE:
                with pytest.raises(ArenaError):
                    state.apply(seat, bad)
            if seat not in pending:
                # Another seat's legal action, or anything, is not this seat's decision.
                for other in pending:
                    for a in state.legal_actions(other)[:2]:
                        with pytest.raises((NotYourDecision, IllegalAction, MalformedAction)):
                            state.apply(seat, a)
                with pytest.raises(NotYourDecision):
                    state.apply_index(seat, 0)
                continue
            with pytest.raises(IllegalAction):
                state.apply_index(seat, len(legal))
            with pytest.raises(IllegalAction):
                state.apply_index(seat, -1)
            # Legal actions of other seats that are not legal for this one.
            for other in pending:
                for a in state.legal_actions(other)[:3]:
                    if canonical(a) not in keys:
                        with pytest.raises(IllegalAction):
                            state.apply(seat, a)
            # A legal action with one field mutated, unless that mutation is itself legal.
            for a in legal[:3]:
                for field, value in a.items():
                    if field == "type":
                        continue
                    mutated = {**a, field: _mutate(value)}
                    if canonical(mutated) not in keys:
                        with pytest.raises((IllegalAction, MalformedAction)):
                            state.apply(seat, mutated)
        assert state.digest() == before, f"ply {ply}: a rejected action changed the state"


def _mutate(value: Any) -> Any:
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1000
    if isinstance(value, str):
        return value + "_x"
    if isinstance(value, list):
        return [*value, 0]
    return None
