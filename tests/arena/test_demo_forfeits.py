"""``arena demo`` says when its matches ended by forfeit (its own bots never should): a demo whose hosted
bots all crashed at launch once printed "0 failed" and ladders of nothing but draws."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from arena.demo import forfeits
from arena.store import Store, ops, queries

CRASH = "the bot exited with code 1 during the match"


def _tournament(store: Store) -> int:
    ops.add_bot(store, "random", command="{python} -m bots.serve random", agent="random")
    ops.add_bot(store, "heuristic", command="{python} -m bots.serve heuristic", agent="random")
    return ops.create_tournament(store, ops.TournamentRequest("sealed_bids", ("random", "heuristic")))


def _play(store: Store, tid: int, outcome_of: Callable[[int], dict[str, Any]]) -> None:
    for i, mv in enumerate(queries.matches(store, tournament_id=tid, limit=100).items):
        assert ops.claim(store, mv.id, "w", 30).ok
        assert ops.record(store, mv.id, outcome_of(i), None, worker="w")


def test_a_demo_whose_bots_all_crash_is_reported(sqlite_store: Store) -> None:
    tid = _tournament(sqlite_store)
    _play(sqlite_store, tid, lambda _i: {"ranks": [1, 1], "scores": [0.0, 0.0], "reason": "forfeit",
                                          "forfeits": {"0": CRASH, "1": CRASH}})
    lost = forfeits(sqlite_store, {tid: "sealed_bids"})
    assert lost.all and lost.count == lost.done == 2
    assert sorted(lost.reasons) == [f"sealed_bids, heuristic: {CRASH}", f"sealed_bids, random: {CRASH}"]


def test_one_forfeit_is_counted_but_is_not_all(sqlite_store: Store) -> None:
    tid = _tournament(sqlite_store)
    _play(sqlite_store, tid, lambda i: {"ranks": [1, 2], "scores": [1.0, 0.0], "reason": "normal"} if i else
          {"ranks": [1, 2], "scores": [0.0, 0.0], "reason": "forfeit", "forfeits": {"1": "3 time-outs"}})
    lost = forfeits(sqlite_store, {tid: "sealed_bids"})
    assert (lost.count, lost.done, lost.all) == (1, 2, False)
    assert len(lost.reasons) == 1 and lost.reasons[0].endswith(": 3 time-outs")
