"""Shared machinery of the conformance suite: which games, which seat counts, which modes."""
from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

from referee.engine import Game, Rng, State, all_games
from tests.fixtures.sealed_bids import GAME as SEALED_BIDS

#: hypothesis examples per (game, seats, mode); CI keeps it small, ARENA_CONFORMANCE_EXAMPLES=50 digs deeper.
EXAMPLES = int(os.environ.get("ARENA_CONFORMANCE_EXAMPLES", "3"))
#: expensive checks (snapshot round trip, redeterminize) at about this many plies per playout.
SAMPLES = int(os.environ.get("ARENA_CONFORMANCE_SAMPLES", "12"))


def games() -> list[Game]:
    """The fixture game and every registered game, each once."""
    out: dict[str, Game] = {SEALED_BIDS.info.id: SEALED_BIDS}
    for game in all_games():
        out.setdefault(game.info.id, game)
    return list(out.values())


def cases() -> list[Any]:
    """(game, players, options) for every game, every legal seat count and every mode."""
    out = []
    for game in games():
        for players in game.info.seat_counts():
            for i, variant in enumerate(game.variants(players)):
                out.append(pytest.param(game, players, variant, id=f"{game.info.id}-{players}p-v{i}"))
    return out


def walk(game: Game, players: int, options: dict[str, Any], seed: int) -> Iterator[tuple[int, State]]:
    """Yield (ply, state) at every decision point of a random playout, then the final state."""
    state = game.new_state(players, options, seed)
    rng = Rng(f"walk:{seed}")
    ply = 0
    limit = game.decision_limit(players, state.options)
    assert 0 < limit <= game.info.safety_limit, "decision_limit must stay within info.safety_limit"
    while True:
        yield ply, state
        pending = state.pending()
        if not pending:
            return
        picks = [(s, rng.choice(state.legal_actions(s))) for s in pending]
        for seat, action in picks:
            state.apply(seat, action)
            ply += 1
        assert ply <= limit, f"{game.info.id} passed its safety limit of {limit} decisions"


def sample_points(seed: int, limit: int = 10**9) -> frozenset[int]:
    """Plies that get the expensive checks: geometric (about 1.45x apart, so a 2,000-ply game gets ~20
    and a 20-ply game ~8), shifted by the seed so different examples probe different plies."""
    points = {0, 1, 2}
    x = 2.0 + seed % 3
    while x < limit:
        points.add(int(x))
        x *= 1.45
    return frozenset(points)
