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
    return [SEALED_BIDS, *all_games()]


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
    while True:
        yield ply, state
        pending = state.pending()
        if not pending:
            return
        picks = [(s, rng.choice(state.legal_actions(s))) for s in pending]
        for seat, action in picks:
            state.apply(seat, action)
            ply += 1
        assert ply <= game.info.safety_limit, f"{game.info.id} passed its safety limit"


def sample_every(game: Game) -> int:
    """A stride so that a typical playout gets about SAMPLES expensive checks."""
    return max(1, game.info.safety_limit // (SAMPLES * 20))
