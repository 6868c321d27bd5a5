"""Ratings: the fit recovers known strengths within its intervals; decomposition; determinism."""
from __future__ import annotations

import math
import random

import pytest

from arena.ratings import (
    K,
    Pairwise,
    Result,
    decompose,
    expected_score,
    fit,
    ladder,
    records,
    scenario_player,
)

TRUE = {"random": 0.0, "weak": -120.0, "mid": 150.0, "good": 300.0, "best": 520.0}


def simulate(true: dict[str, float], games: int, nu: float, seed: int) -> list[Pairwise]:
    """Davidson-model results between every pair (draw parameter ``nu``)."""
    rng = random.Random(seed)
    names = sorted(true)
    out = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            x = (true[a] - true[b]) * K
            pw, pd = math.exp(x / 2), nu
            z = pw + pd + math.exp(-x / 2)
            for _ in range(games):
                u = rng.random() * z
                out.append(Pairwise(a, b, 1.0 if u < pw else 0.5 if u < pw + pd else 0.0, 1.0))
    return out


def test_fit_recovers_known_strengths_within_the_intervals() -> None:
    f = fit(simulate(TRUE, 300, 0.5, seed=1), "random")
    assert f.ratings["random"] == (0.0, 0.0)
    for name, true in TRUE.items():
        r, sd = f.ratings[name]
        if name != "random":
            assert 5 < sd < 40
            assert abs(r - true) <= 1.96 * sd, (name, r, true, sd)
    assert 0.35 < f.nu < 0.65


def test_intervals_cover_the_truth_about_95_percent_of_the_time() -> None:
    hits = total = 0
    for seed in range(30):
        f = fit(simulate(TRUE, 60, 0.0, seed=100 + seed), "random")
        for name, true in TRUE.items():
            if name == "random":
                continue
            r, sd = f.ratings[name]
            hits += abs(r - true) <= 1.96 * sd
            total += 1
    assert 0.88 <= hits / total <= 1.0, hits / total


def test_same_results_any_order_same_ladder() -> None:
    pairs = simulate(TRUE, 40, 0.3, seed=3)
    shuffled = pairs[:]
    random.Random(9).shuffle(shuffled)
    assert fit(pairs, "random").ratings == fit(shuffled, "random").ratings  # exactly, not approximately
    results = [Result((1, i), ("a", "b") if i % 2 else ("b", "a"), {"ranks": [1, 2]}) for i in range(9)]
    rows1, _ = ladder(results, "b")
    rows2, _ = ladder(list(reversed(results)), "b")
    assert [(r.player, r.rating, r.lo, r.hi) for r in rows1] == [(r.player, r.rating, r.lo, r.hi)
                                                                 for r in rows2]


def test_perfect_scores_stay_finite() -> None:
    f = fit([Pairwise("a", "random", 1.0, 1.0)] * 10, "random")
    r, sd = f.ratings["a"]
    assert 200 < r < 1200 and math.isfinite(sd)


def test_disconnected_players_do_not_break_the_fit() -> None:
    f = fit([Pairwise("a", "random", 1.0, 1.0), Pairwise("x", "y", 0.0, 1.0)], "random")
    assert set(f.ratings) == {"a", "random", "x",
                              "y"} and all(math.isfinite(v[0]) for v in f.ratings.values())


def test_no_anchor_centres_on_the_mean() -> None:
    f = fit([Pairwise("a", "b", 1.0, 1.0)] * 3 + [Pairwise("a", "b", 0.0, 1.0)], None)
    assert f.ratings["a"][0] == pytest.approx(-f.ratings["b"][0])


@pytest.mark.parametrize("bots, outcome, expected", [
    (("a", "b"), {"ranks": [1, 2]}, [("a", "b", 1.0, 1.0)]),
    (("a", "b"), {"ranks": [1, 1]}, [("a", "b", 0.5, 1.0)]),
    (("a", "b", "c"), {"ranks": [2, 1, 3]},
     [("a", "b", 0.0, 0.5), ("a", "c", 1.0, 0.5), ("b", "c", 1.0, 0.5)]),
    (("a", "a", "b"), {"ranks": [3, 1, 2]}, [("a", "b", 0.0, 0.5), ("a", "b", 1.0, 0.5)]),
    (("a", "a"), {"ranks": [1, 1], "team_result": "win"}, [("a", "scenario:s1@2", 1.0, 1.0)]),
    (("a", "b", "b"), {"ranks": [2, 2, 2], "team_result": "loss"},
     [("a", "scenario:s1@3", 0.0, 1 / 3), ("b", "scenario:s1@3", 0.0, 2 / 3)]),
])
def test_decompose(bots, outcome, expected) -> None:
    got = [(p.a, p.b, p.score, p.weight) for p in decompose(Result((0,), bots, outcome, "s1"))]
    assert got == [pytest.approx(e) for e in expected]


def test_records_count_matches_once_per_bot() -> None:
    rs = [Result((0,), ("a", "a", "b"), {"ranks": [2, 1, 3]}),
          Result((1,), ("a", "b"), {"ranks": [1, 1]}),
          Result((2,), ("a", "a"), {"ranks": [1, 1], "team_result": "win"}, "s")]
    rec = records(rs)
    assert (rec["a"].games, rec["a"].wins, rec["a"].draws) == (3, 2, 1)
    assert (rec["b"].games, rec["b"].losses, rec["b"].draws) == (2, 1, 1)
    assert rec[scenario_player("s", 2)].losses == 1


def test_expected_score_matches_elo() -> None:
    assert expected_score(200, 0) == pytest.approx(1 / (1 + 10 ** (-0.5)))
    assert expected_score(0, 0, nu=1.0) == pytest.approx(0.5)


def test_ladder_rows_are_sorted_and_cooperative_scenarios_are_rated() -> None:
    rs = [Result((0, i), ("good", "good"), {"ranks": [1, 1], "team_result": "win" if i % 4 else "loss"},
                 "ch1")
          for i in range(20)]
    rs += [Result((1, i), ("random", "random"), {"ranks": [2, 2], "team_result": "loss" if i % 4 else "win"},
                  "ch1") for i in range(20)]
    rows, _ = ladder(rs, "random")
    assert [r.player for r in rows] == ["good", "scenario:ch1@2", "random"]
    assert rows[1].kind == "scenario" and rows[0].record.wins == 15
