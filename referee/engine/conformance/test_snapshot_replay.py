"""Snapshot -> restore gives the same digest and the same future; replays re-simulate exactly."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bots.random_bot import RandomBot
from referee.engine import Replay, ReplayError, Rng, run_match, verify
from referee.engine.jsonutil import digest_of, is_jsonable
from referee.engine.runner import random_playout

from .harness import EXAMPLES, Case, sample_points, walk


@settings(settings.get_profile("conformance"), max_examples=EXAMPLES)
@given(seed=st.integers(0, 2**31 - 1))
def test_snapshot_round_trip_and_same_future(conformance_case: Case, seed: int) -> None:
    game, players, options = conformance_case
    points = sample_points(seed + 1)
    for ply, state in walk(game, players, options, seed):
        if ply not in points and state.pending():
            continue
        snap = state.snapshot()
        assert is_jsonable(snap), "snapshot must be plain JSON"
        # digest() puts the canonical text together from parts and a per-entry cache of the log: it
        # must be the hash of the whole snapshot (an event whose data changed after it was logged
        # would show here)
        assert state.digest() == digest_of(snap)
        copy = game.restore(json.loads(json.dumps(snap)))
        assert copy.digest() == state.digest()
        assert copy.pending() == state.pending()
        for seat in state.pending():
            assert copy.legal_actions(seat) == state.legal_actions(seat)
        # Same future: identical random continuations reach identical ends.
        a, b = state.clone(), copy
        random_playout(a, Rng(ply))
        random_playout(b, Rng(ply))
        assert a.digest() == b.digest()
        assert a.outcome() == b.outcome()


@settings(settings.get_profile("conformance"), max_examples=EXAMPLES)
@given(seed=st.integers(0, 2**31 - 1))
def test_replay_resimulates_exactly(conformance_case: Case, seed: int) -> None:
    game, players, options = conformance_case
    agents = [RandomBot(seed + s) for s in range(players)]
    result = run_match(game, agents, seed=seed, options=options, match_id=f"conf-{seed}", checkpoint_every=25)
    replay = Replay.loads(result.replay.dumps())
    report = verify(replay, game)
    assert report.plies == result.plies
    assert report.outcome == result.outcome.to_json()
    # Same seed, same bots -> the same game, digest for digest.
    again = run_match(game, [RandomBot(seed + s) for s in range(players)], seed=seed, options=options,
                      match_id=f"conf-{seed}", checkpoint_every=25)
    assert again.replay.checkpoints == result.replay.checkpoints
    # A tampered replay is caught.
    if replay.actions:
        bad = Replay.loads(result.replay.dumps())
        bad.checkpoints[-1]["digest"] = "0" * 32
        with pytest.raises(ReplayError):
            verify(bad, game)
