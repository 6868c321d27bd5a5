"""Evaluation tallies: paired plans, rotated seats, solo games judged by their result."""
from __future__ import annotations

from arena.evaluate import Job, plan, tally
from referee.engine import register
from tests.fixtures.sealed_bids import GAME


def test_plan_rotates_the_subject_and_pairs_seeds() -> None:
    register(GAME)
    jobs = plan("sealed_bids", ["heuristic", "random"], 2, 4, {})
    assert [(j.seed, j.subject_seat, j.bots) for j in jobs] == [
        (0, 0, ("heuristic", "random")), (0, 1, ("random", "heuristic")),
        (1, 0, ("heuristic", "random")), (1, 1, ("random", "heuristic"))]


def test_a_solo_plan_gives_every_bot_the_same_seeds() -> None:
    register(GAME)
    jobs = plan("blockcraft", ["heuristic", "random"], 1, 3, {"mode": "extreme"}, seed_base=5)
    assert [(j.seed, j.subject_seat, j.bots) for j in jobs] == [
        (5, 0, ("heuristic",)), (6, 0, ("heuristic",)), (7, 0, ("heuristic",)),
        (5, 0, ("random",)), (6, 0, ("random",)), (7, 0, ("random",))]
    assert len(plan("blockcraft", ["heuristic"], 1, 2, {})) == 2  # one bot is enough alone


def test_tally_ranks_and_solo_results() -> None:
    two = Job("g", 2, 0, ("a", "b"), {}, 0)
    solo = Job("g", 1, 0, ("a",), {}, 0)
    results = [
        (two, {"ranks": [1, 2], "scores": [3, 1]}),
        (two, {"ranks": [1, 1], "scores": [2, 2]}),
        (solo, {"ranks": [1], "scores": [5], "team_result": "loss"}),
        (solo, {"ranks": [1], "scores": [9], "team_result": "win"}),
    ]
    t = tally(iter(results))["a"]
    assert (t.games, t.wins, t.draws, t.losses) == (4, 2, 1, 1)
