"""The SPRT of ``arena gauntlet``: the LLR against closed forms, and its error rates measured on
simulated bots of known strength (pure logic: the statistics, not the games, are under test).

The default run is small; ``pytest -m soak tests/arena/test_sprt.py`` runs the large one."""
from __future__ import annotations

import math
import random

import pytest

from arena.sprt import Run, Sprt, SprtError, elo_to_score, llr, score_to_elo, unit_values


def test_two_outcomes_reduce_to_the_bernoulli_sprt() -> None:
    """With only wins and losses the nearest distribution of mean s is (1 - s, s): Wald's classic LLR."""
    s0, s1 = elo_to_score(0), elo_to_score(50)
    scores = [1.0] * 30 + [0.0] * 20
    want = 30 * math.log(s1 / s0) + 20 * math.log((1 - s1) / (1 - s0))
    assert llr(scores, s0, s1, [0.0, 1.0]) == pytest.approx(want, rel=1e-9)


def test_llr_sign_bounds_and_errors() -> None:
    t = Sprt(0, 20, 0.05, 0.1)
    assert t.lower == pytest.approx(math.log(0.1 / 0.95)) and t.upper == pytest.approx(math.log(0.9 / 0.05))
    vals = unit_values(2)
    assert vals == [0, 0.25, 0.5, 0.75, 1.0]  # the pentanomial pair scores
    assert t.llr([1.0, 0.75, 0.75, 0.5] * 20, vals) > 0 > t.llr([0.0, 0.25, 0.5, 0.5] * 20, vals)
    assert score_to_elo(elo_to_score(123.0)) == pytest.approx(123.0)
    with pytest.raises(SprtError, match="elo0 must be below elo1"):
        Sprt(5, 5)
    with pytest.raises(SprtError, match="alpha and beta"):
        Sprt(0, 5, 0.6, 0.5)
    with pytest.raises(SprtError, match="not among the possible values"):
        t.llr([0.3], vals)


def simulate(test: Sprt, elo: float, rng: random.Random, *, draw: float = 0.2, pair_luck: float = 0.0,
             cap: int = 100_000) -> tuple[str | None, int]:
    """A gauntlet between simulated bots: the subject is ``elo`` stronger. ``pair_luck`` shifts both
    games of a unit by the same deal luck in opposite seats (what paired deals cancel)."""
    s = elo_to_score(elo)
    run = Run.start(test, 2)
    for _ in range(cap):
        luck = rng.uniform(-pair_luck, pair_luck)
        games = []
        for sign in (1, -1):  # the same deal, the subject in each seat
            pw = min(max(s - draw / 2 + sign * luck, 0.0), 1.0 - draw)
            r = rng.random()
            games.append(1.0 if r < pw else 0.5 if r < pw + draw else 0.0)
        decision = run.add(sum(games) / 2)
        if decision:
            return decision, len(run.scores)
    return None, cap


def error_rates(test: Sprt, runs: int, seed: int, **kw) -> tuple[float, float, float]:
    rng = random.Random(seed)
    at0 = [simulate(test, test.elo0, rng, **kw) for _ in range(runs)]
    at1 = [simulate(test, test.elo1, rng, **kw) for _ in range(runs)]
    assert all(d is not None for d, _ in at0 + at1)  # the test always stops
    false_h1 = sum(d == "H1" for d, _ in at0) / runs
    false_h0 = sum(d == "H0" for d, _ in at1) / runs
    mean_units = sum(n for _, n in at0 + at1) / (2 * runs)
    return false_h1, false_h0, mean_units


def within(rate: float, nominal: float, runs: int, z: float) -> bool:
    """``rate`` is no more than ``nominal`` plus z binomial standard errors (one-sided)."""
    return rate <= nominal + z * math.sqrt(nominal * (1 - nominal) / runs)


def test_error_rates_stay_within_alpha_and_beta() -> None:
    """A short test (60 Elo apart: ~70 units) in the default suite. The GSPRT's rates are asymptotic
    (exact for long tests): short ones run slightly above nominal (measured 6% for alpha 5% over
    2000 runs), hence 3 standard errors here; the soak run checks long tests."""
    test = Sprt(0, 60, alpha=0.05, beta=0.05)
    runs = 400
    fh1, fh0, units = error_rates(test, runs, seed=15, pair_luck=0.2)
    assert within(fh1, test.alpha, runs, 3.0), fh1
    assert within(fh0, test.beta, runs, 3.0), fh0
    assert units < 200


def test_a_clear_edge_is_found_quickly_and_a_wrong_claim_rejected() -> None:
    rng = random.Random(7)
    test = Sprt(0, 50)
    assert all(simulate(test, 200, rng)[0] == "H1" for _ in range(20))
    assert all(simulate(test, -150, rng)[0] == "H0" for _ in range(20))


@pytest.mark.soak
@pytest.mark.parametrize("elo0, elo1, alpha, beta", [(0, 40, 0.05, 0.1), (-10, 50, 0.05, 0.05)])
def test_error_rates_large_run(elo0: float, elo1: float, alpha: float, beta: float) -> None:
    test = Sprt(elo0, elo1, alpha, beta)
    runs = 2000
    fh1, fh0, units = error_rates(test, runs, seed=2026, pair_luck=0.2)
    print(f"SPRT [{elo0}, {elo1}] alpha {alpha} beta {beta}: false H1 {fh1:.3f}, false H0 {fh0:.3f}, "
          f"{units:.0f} units on average over {2 * runs} runs")
    assert within(fh1, alpha, runs, 3.0) and within(fh0, beta, runs, 3.0)
