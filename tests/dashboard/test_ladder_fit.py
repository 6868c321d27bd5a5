"""The dashboard's ladder without a published fit is ``arena.ratings``' fit (one rating model)."""
from __future__ import annotations

from arena import ratings
from dashboard.ladder import build_ladder
from dashboard.source import MatchRow, SeatResult


def _row(i: int, a: str, b: str, ranks: tuple[int, int]) -> MatchRow:
    return MatchRow(f"m{i}", "sealed_bids",
                    (SeatResult(a, a.title(), ranks[0]), SeatResult(b, b.title(), ranks[1])))


def test_unpublished_ladder_is_the_rating_module_s_fit() -> None:
    rows = [_row(i, "random", "greedy", (2, 1)) for i in range(6)] + [_row(9, "greedy", "random", (1, 1))]
    rows += [_row(10 + i, "clever", "greedy", (1, 2) if i % 3 else (2, 1)) for i in range(6)]
    lad = build_ladder("sealed_bids", "Sealed bids", rows, None)
    same = [ratings.Result((i,), tuple(s.bot_id for s in r.seats), {"ranks": [s.rank for s in r.seats]})
            for i, r in enumerate(rows)]
    want, _ = ratings.ladder(same, "random")
    assert [(r.bot.id, r.rating, r.lo, r.hi) for r in lad.rows] == [
        (w.player, round(w.rating, 1), round(w.lo, 1), round(w.hi, 1)) for w in want]
    assert next(r for r in lad.rows if r.bot.id == "random").rating == 0.0  # anchored to random
    assert [r.bot.id for r in lad.rows] == ["clever", "greedy", "random"]


def test_cooperative_results_rate_the_team_against_its_scenario() -> None:
    rows = [MatchRow(f"c{i}", "mice", (SeatResult("a", "A", 1), SeatResult("b", "B", 1)),
                     team_result="win" if i % 2 else "loss", scenario="s1") for i in range(4)]
    ids = {r.bot.id for r in build_ladder("mice", "Mice", rows, None).rows}
    assert ids == {"a", "b", ratings.scenario_player("s1", 2)}
