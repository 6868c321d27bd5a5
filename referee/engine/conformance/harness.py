"""Shared machinery of the conformance suite: which games, which seat counts, which modes, random walks."""
from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

from referee.engine import Game, Rng, State, all_games
from referee.engine.registry import load_game

#: hypothesis examples per (game, seats, mode); CI keeps it small, ARENA_CONFORMANCE_EXAMPLES=50 digs deeper.
EXAMPLES = int(os.environ.get("ARENA_CONFORMANCE_EXAMPLES", "3"))
#: the most legal actions a pending seat may have (multi-part moves are sequences of small decisions).
MAX_LEGAL = 100

#: one conformance case: a game, a seat count and one of its ``variants``.
Case = tuple[Game, int, dict[str, Any]]


def select_games(specs: list[str], extra: list[str]) -> list[Game]:
    """``specs`` (``--arena-game``) if given, else every registered game plus ``extra`` (ini), each once."""
    if specs:
        chosen = [load_game(s) for s in specs]
    else:
        chosen = [load_game(s) for s in extra] + all_games()
    out: dict[str, Game] = {}
    for game in chosen:
        out.setdefault(game.info.id, game)
    return list(out.values())


def cases(games: list[Game]) -> list[tuple[str, Case]]:
    """(id, (game, players, options)) for every game, every legal seat count and every mode."""
    out: list[tuple[str, Case]] = []
    for game in games:
        for players in game.info.seat_counts():
            for i, variant in enumerate(game.variants(players)):
                out.append((f"{game.info.id}-{players}p-v{i}", (game, players, variant)))
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
        assert ply <= limit, f"{game.info.id} passed its decision limit of {limit} decisions"


def sample_points(seed: int, limit: int = 10**9) -> frozenset[int]:
    """Plies that get the expensive checks: geometric (about 1.45x apart, so a 2,000-ply game gets ~20
    and a 20-ply game ~8), shifted by the seed so different examples probe different plies."""
    points = {0, 1, 2}
    x = 2.0 + seed % 3
    while x < limit:
        points.add(int(x))
        x *= 1.45
    return frozenset(points)
