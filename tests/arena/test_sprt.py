"""The SPRT of ``arena gauntlet``: the LLR against closed forms, and its error rates measured on
simulated bots of known strength (pure logic: the statistics, not the games, are under test).

The default run plays 2,000 simulated gauntlets a side (its power is computed and checked);
``pytest -m soak tests/arena/test_sprt.py`` runs 20,000 a side over several bounds."""
from __future__ import annotations

import math
import random

import numpy as np
import pytest

from arena.sprt import Run, Sprt, SprtError, elo_to_score, llr, llr_table, score_to_elo, unit_values


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


def test_the_batch_llr_is_the_run_llr() -> None:
    """The error-rate runs below use ``llr_table`` (many runs at once); the gauntlet uses ``Run``."""
    rng = random.Random(3)
    test = Sprt(-10, 35)
    vals = unit_values(2)
    runs = [Run.start(test, 2) for _ in range(8)]
    for r in runs:
        for _ in range(rng.randrange(1, 30)):
            r.add(rng.choice(vals))
    table = np.array([[r.counts.get(v, 0) for v in vals] for r in runs], dtype=float)
    batch = llr_table(table, elo_to_score(-10), elo_to_score(35), vals)
    assert batch == pytest.approx([r.llr for r in runs], rel=1e-12, abs=1e-12)


def simulate(test: Sprt, elo: float, runs: int, rng: np.random.Generator, *, draw: float = 0.2,
             pair_luck: float = 0.0, cap: int = 20_000) -> tuple[np.ndarray, np.ndarray]:
    """``runs`` gauntlets between simulated bots, side by side: the subject is ``elo`` stronger (its
    expected score per game is exactly ``elo_to_score(elo)``). ``pair_luck`` shifts the two games of a
    unit by the same deal luck in opposite seats (what paired deals cancel). Returns each run's
    decision (1 = H1, -1 = H0, 0 = none by ``cap``) and its number of units."""
    s = elo_to_score(elo)
    vals = unit_values(2)
    counts = np.zeros((runs, len(vals)))
    decision = np.zeros(runs, dtype=int)
    units = np.zeros(runs, dtype=int)
    active = np.arange(runs)
    s0, s1 = elo_to_score(test.elo0), elo_to_score(test.elo1)
    for step in range(1, cap + 1):
        luck = rng.uniform(-pair_luck, pair_luck, len(active))
        total = np.zeros(len(active))
        for sign in (1, -1):  # the same deal, the subject in each seat
            pw = np.clip(s - draw / 2 + sign * luck, 0.0, 1.0 - draw)
            r = rng.random(len(active))
            total += np.where(r < pw, 1.0, np.where(r < pw + draw, 0.5, 0.0))
        counts[active, np.rint(total * 2).astype(int)] += 1  # unit score total/2 -> index total*2
        value = llr_table(counts[active], s0, s1, vals)
        h1, h0 = value >= test.upper, value <= test.lower  # as Sprt.decide
        decision[active[h1]], decision[active[h0]] = 1, -1
        units[active[h1 | h0]] = step
        active = active[~(h1 | h0)]
        if not len(active):
            break
    return decision, units


def error_rates(test: Sprt, runs: int, seed: int, **kw) -> tuple[float, float, float]:
    rng = np.random.default_rng(seed)
    d0, n0 = simulate(test, test.elo0, runs, rng, **kw)
    d1, n1 = simulate(test, test.elo1, runs, rng, **kw)
    assert (d0 != 0).all() and (d1 != 0).all()  # the test always stops
    return float((d0 == 1).mean()), float((d1 == -1).mean()), float((n0.sum() + n1.sum()) / (2 * runs))


def threshold(nominal: float, runs: int, z: float) -> float:
    """The most a measured rate may be: ``nominal`` plus z binomial standard errors (one-sided)."""
    return nominal + z * math.sqrt(nominal * (1 - nominal) / runs)


def power(nominal: float, true_rate: float, runs: int, z: float) -> float:
    """The chance that ``threshold`` catches a true error rate of ``true_rate`` (normal approximation)."""
    se = math.sqrt(true_rate * (1 - true_rate) / runs)
    return 0.5 * math.erfc((threshold(nominal, runs, z) - true_rate) / se / math.sqrt(2))


#: the default run: 2,000 gauntlets a side; a rate above nominal + 2.58 SE fails (a correct test at
#: exactly nominal fails with probability 0.5 %); power against a rate 1.5x nominal is checked below
RUNS, Z = 2000, 2.58


def test_error_rates_stay_within_alpha_and_beta() -> None:
    """A short test (60 Elo apart: ~70 units a run), where the GSPRT's asymptotics are weakest.

    Measured (numpy simulation of this model, 20,000 runs a side): false H1 4.84 % and false H0 4.78 %
    (standard error 0.15 %), so nominal holds here too; the 6.3 % once reported for these bounds did
    not reproduce (the same seed and code gave 5.2 % over 2,000 runs)."""
    test = Sprt(0, 60, alpha=0.05, beta=0.05)
    assert power(test.alpha, 1.5 * test.alpha, RUNS, Z) > 0.95  # the check can fail
    fh1, fh0, units = error_rates(test, RUNS, seed=15, pair_luck=0.2)
    assert fh1 <= threshold(test.alpha, RUNS, Z), fh1
    assert fh0 <= threshold(test.beta, RUNS, Z), fh0
    assert 40 < units < 120


def test_a_clear_edge_is_found_quickly_and_a_wrong_claim_rejected() -> None:
    rng = np.random.default_rng(7)
    test = Sprt(0, 50)
    assert (simulate(test, 200, 20, rng)[0] == 1).all()
    assert (simulate(test, -150, 20, rng)[0] == -1).all()


def test_the_check_catches_an_sprt_that_errs_too_often() -> None:
    """The same runs judged against bounds that are too narrow for the alpha and beta claimed (Wald's
    bounds for alpha = beta = 0.1, so errors near 10 %): the threshold for 5 % must reject them."""
    loose, runs = Sprt(0, 60, alpha=0.1, beta=0.1), 500
    assert power(0.05, 0.1, runs, Z) > 0.95
    fh1, fh0, _ = error_rates(loose, runs, seed=16, pair_luck=0.2)
    assert fh1 > threshold(0.05, runs, Z) and fh0 > threshold(0.05, runs, Z), (fh1, fh0)


@pytest.mark.soak
@pytest.mark.parametrize("elo0, elo1, alpha, beta", [(0, 20, 0.05, 0.05), (0, 40, 0.05, 0.1),
                                                     (-10, 50, 0.05, 0.05),
                                                     (0, 60, 0.05, 0.05), (0, 100, 0.05, 0.05)])
@pytest.mark.parametrize("pair_luck", [0.0, 0.2])
def test_error_rates_large_run(elo0: float, elo1: float, alpha: float, beta: float, pair_luck: float) -> None:
    test = Sprt(elo0, elo1, alpha, beta)
    runs, z = 20_000, 3.0
    fh1, fh0, units = error_rates(test, runs, seed=2026, pair_luck=pair_luck)
    print(f"SPRT [{elo0}, {elo1}] alpha {alpha} beta {beta} luck {pair_luck}: false H1 {fh1:.4f}, "
          f"false H0 {fh0:.4f}, {units:.0f} units on average over {2 * runs} runs")
    assert fh1 <= threshold(alpha, runs, z) and fh0 <= threshold(beta, runs, z)
