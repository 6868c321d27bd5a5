"""A ladder refit's memory per stored result (issue 16, point 9: a worker's memory stays flat).

Every refit reads all published results of the game, so whatever it holds per result sets the
high-water mark of a worker's resident memory, which then grows with every match stored. Loading
whole Clank outcomes (per-seat breakdowns and statistics) cost ~4.4 KB of Python objects per
result; the rated parts alone ~1.1 KB."""
from __future__ import annotations

import tracemalloc

from sqlalchemy import select, update

from arena.store import Store, ladders, models, ops
from bots.random_bot import RandomBot
from referee.engine import get_game, run_match

RESULTS = 400
#: bytes of Python objects per stored result at the refit's peak (measured 1,083 at 500 results;
#: 4,397 when whole outcomes were loaded)
PEAK_PER_RESULT = 2000


def test_a_refit_holds_only_the_rated_parts_of_each_outcome(sqlite_store: Store) -> None:
    outcome = run_match(get_game("clank"), [RandomBot(1), RandomBot(2)], seed=5).outcome.to_json()
    assert len(outcome["details"]) > 2  # a real Clank outcome, with the details a refit does not need
    for b in ("random", "r2"):
        ops.add_bot(sqlite_store, b, command="x", agent="random")
    tid = ops.create_tournament(sqlite_store, ops.TournamentRequest("clank", ("random", "r2"),
                                                                    games_per_pairing=RESULTS // 2,
                                                                    executor="inprocess"))
    with sqlite_store.tx() as s:
        ids = list(s.scalars(select(models.Match.id).where(models.Match.tournament_id == tid)))
        s.execute(update(models.Match).where(models.Match.tournament_id == tid).values(status=models.DONE))
        s.add_all([models.Outcome(match_id=i, data=outcome) for i in ids])
    results = ladders.load_results(sqlite_store, "clank")
    assert len(results) == RESULTS
    assert all(r.outcome == {k: outcome[k] for k in ladders.RATED if k in outcome} for r in results)
    ladders.refresh(sqlite_store, "clank", force=True)  # warm: imports, compiled statements
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        ladders.refresh(sqlite_store, "clank", force=True)
        peak = tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()
    assert peak / RESULTS < PEAK_PER_RESULT, f"{peak / RESULTS:.0f} bytes per result at the refit's peak"
