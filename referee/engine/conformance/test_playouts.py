"""Every game ends within its safety limit; every pending seat has 1-100 legal actions; all JSON."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine import ALL, PUBLIC, Outcome
from referee.engine.jsonutil import canonical, is_jsonable

from .harness import EXAMPLES, MAX_LEGAL, Case, sample_points, walk


@settings(settings.get_profile("conformance"), max_examples=EXAMPLES)
@given(seed=st.integers(0, 2**31 - 1))
def test_random_play_terminates_with_sane_decisions(conformance_case: Case, seed: int) -> None:
    game, players, options = conformance_case
    final = None
    logged = 0
    static: dict[str, str] = {}
    points = sample_points(seed)
    for ply, state in walk(game, players, options, seed):
        pending = state.pending()
        assert pending == sorted(set(pending)), "pending() must be ascending and unique"
        for seat in pending:
            legal = state.legal_actions(seat)
            assert 1 <= len(legal) <= MAX_LEGAL, \
                f"ply {ply}: seat {seat} has {len(legal)} legal actions (1-{MAX_LEGAL})"
        if ply not in points and ply % 25 and pending:
            # The cheap checks above run at every ply; the rest at sampled plies.
            final = state
            continue
        for seat in pending:
            legal = state.legal_actions(seat)
            assert is_jsonable(legal), f"ply {ply}: legal actions are not plain JSON"
            assert legal == state.legal_actions(seat), "legal_actions() must be deterministic"
            assert all(isinstance(a.get("type"), str) for a in legal)
            if game.actions is not None:
                for a in legal:
                    game.actions.validate(a)
        if len(pending) > 1:
            # A simultaneous choice: one seat's submission must not change what the others may choose.
            first = pending[0]
            probe = state.clone()
            probe.apply(first, state.legal_actions(first)[-1])
            for other in pending[1:]:
                assert other in probe.pending(), \
                    f"ply {ply}: seat {other} stopped being asked after seat {first}"
                assert probe.legal_actions(other) == state.legal_actions(other), \
                    f"ply {ply}: seat {other}'s legal list depends on seat {first}'s secret choice"
        for seat in range(players):
            if seat not in pending:
                assert state.legal_actions(seat) == [], \
                    f"ply {ply}: seat {seat} is not pending but has actions"
        for viewer in [*range(players), PUBLIC, ALL]:
            view = state.observe(viewer)
            assert is_jsonable(view), f"ply {ply}: view for {viewer} is not plain JSON"
            for key in type(state).STATIC_VIEW_KEYS:  # the referee encodes these once per match
                assert key in view, f"ply {ply}: static view key {key!r} missing for {viewer}"
                static.setdefault(key, canonical(view[key]))
                assert canonical(view[key]) == static[key], f"ply {ply}: static view key {key!r} changed"
        assert is_jsonable([e.to_json() for e in state.log.entries[logged:]]), \
            f"ply {ply}: events are not JSON"
        logged = len(state.log.entries)
        if pending:
            assert state.outcome() is None, "a game in progress has no outcome"
        final = state
    assert final is not None
    outcome = final.outcome()
    assert isinstance(outcome, Outcome)
    assert len(outcome.ranks) == players and len(outcome.scores) == players
    assert all(1 <= r <= players for r in outcome.ranks)
    assert min(outcome.ranks) == 1
    assert is_jsonable(outcome.to_json())
    if game.info.cooperative:
        assert outcome.team_result in ("win", "loss")
