"""Cooperative ratings: one rating per bot, separated from its partners (mixed teams, reference partners)."""
from __future__ import annotations

import random

import pytest

from arena.ratings import Result, TeamResult, decompose, fit, fit_teams, ladder

TRUTH = {"ace": 300.0, "dud": -300.0, "ref": 0.0}  # ref: the reference partner
SCENARIOS = {"scenario:easy@2": -100.0, "scenario:hard@2": 150.0}


def p_win(team: tuple[str, str], scenario: str) -> float:
    strength = sum(TRUTH[b] for b in team) / len(team)
    return 1.0 / (1.0 + 10 ** (-(strength - SCENARIOS[scenario]) / 400))


def results(teams: list[tuple[str, str]], n: int, seed: int) -> list[Result]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        for team in teams:
            for sc in SCENARIOS:
                won = rng.random() < p_win(team, sc)
                out.append(Result((1, len(out)), team, {"team_result": "win" if won else "loss"},
                                  sc.split(":")[1].split("@")[0]))
    return out


def test_a_weak_bot_carried_by_a_strong_partner_is_not_credited_with_its_wins() -> None:
    # "dud" only ever plays beside "ace" or the reference partner; "ace" also plays with "ref".
    teams = [("ace", "dud"), ("ace", "ref"), ("dud", "ref"), ("ref", "ref")]
    rs = results(teams, 400, seed=4)
    rows, _ = ladder(rs, anchor="ref")
    rating = {r.player: r.rating for r in rows}
    for bot, true in TRUTH.items():
        assert rating[bot] == pytest.approx(true, abs=45), (bot, rating)
    assert rating["ace"] > rating["ref"] > rating["dud"]
    # The pairwise decomposition (every bot of a winning team "beats" the scenario) cannot tell
    # dud from its partners: it puts dud far above its true strength.
    pairwise = fit([p for r in rs for p in decompose(r)], "ref").ratings
    assert pairwise["dud"][0] - TRUTH["dud"] > 100


def test_team_fit_recovers_expected_counts_exactly() -> None:
    """Fractional expected counts (no noise): the maximum-likelihood fit is the truth, up to the prior."""
    teams = [("ace", "dud"), ("ace", "ref"), ("dud", "ref"), ("ace", "ace"), ("ref", "ref")]
    data = []
    for team in teams:
        for sc in SCENARIOS:
            shares = tuple(sorted({b: team.count(b) / 2 for b in team}.items()))
            p = p_win(team, sc)
            data += [TeamResult(shares, sc, 1.0)] * round(p * 10_000) + [TeamResult(shares, sc, 0.0)] * round(
                (1 - p) * 10_000)
    f = fit_teams(data, anchor="ref")
    for name, true in {**TRUTH, **SCENARIOS}.items():
        assert f.ratings[name][0] == pytest.approx(true, abs=3), name
        assert 0 < f.ratings[name][1] < 20 or name == "ref"
