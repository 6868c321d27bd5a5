"""Local forward model (bots.sdk.forward) and the IS-MCTS search bot, with the real engine and runner."""
from __future__ import annotations

import pytest

from bots.builtin import UnknownBot, make_bot
from bots.sdk.forward import ForwardModel, ForwardModelError, Limits
from bots.search import Budget, SearchBot, parse_budget
from referee.engine import get_game, run_match
from referee.engine.agent import DecisionRequest
from referee.engine.sampling import SeatSampler

OPTIONS = {"blockcraft": {"mode": "overlord"}}


def _state(game_id: str, players: int, seed: int = 7):
    return get_game(game_id).new_state(players, OPTIONS.get(game_id), seed)


def test_handles_apply_clone_release_and_playout() -> None:
    state = _state("clank", 2)
    fm = ForwardModel(SeatSampler(state, 0))
    (h,) = fm.sample(1, "s")
    seat = fm.pending(h)[0]
    legal = fm.legal(h, seat)
    c = fm.clone(h)
    took = fm.apply(h, seat, 0)
    assert took == legal[0]
    assert fm.state(c).digest() != fm.state(h).digest()
    assert fm.apply(c, seat, legal[0]) == legal[0]
    assert fm.state(c).digest() == fm.state(h).digest()
    out = fm.playout(h, 1)
    assert out is not None and fm.outcome(h) == out and fm.pending(h) == []
    assert fm.decisions > 2
    fm.release(h, c)
    assert fm.live == 0
    with pytest.raises(ForwardModelError, match="no handle"):
        fm.legal(h, seat)


def test_snapshot_samples_load_like_remote_ones() -> None:
    state = _state("greyport", 3)
    sampler = SeatSampler(state, 1)
    fm = ForwardModel()
    h = fm.load(sampler.sample_snapshots(1, 5)[0])
    assert fm.view(h, 1) == state.observe(1)
    assert fm.state(h).digest() == sampler.sample(1, 5)[0].digest()
    with pytest.raises(ForwardModelError, match="no sampler"):
        fm.sample(1, 0)


def test_same_seed_same_samples_and_cut_off_playout() -> None:
    state = _state("dungeon_twister", 2)
    a, b = SeatSampler(state, 0), SeatSampler(state, 0)
    assert [s.digest() for s in a.sample(3, 9)] == [s.digest() for s in b.sample(3, 9)]
    assert [s.digest() for s in a.sample(2, 9)] != [s.digest() for s in a.sample(2, 10)]
    fm = ForwardModel(a)
    (h,) = fm.sample(1, 0)
    assert fm.playout(h, 0, max_decisions=10) is None
    assert fm.decisions == 10


def test_limits() -> None:
    fm = ForwardModel(SeatSampler(_state("clank", 2), 0), Limits(max_handles=2, max_decisions=5))
    h, _ = fm.sample(2, 0)
    with pytest.raises(ForwardModelError, match="handle limit"):
        fm.clone(h)
    with pytest.raises(ForwardModelError, match="simulated-decision limit"):
        fm.playout(h, 0)
    # the playout stops at the limit: it does not simulate a whole game first and complain after
    assert fm.decisions == 6


def test_a_playout_stops_at_the_decision_limit_and_counts_as_it_goes() -> None:
    fm = ForwardModel(SeatSampler(_state("clank", 2), 0), Limits(max_decisions=100))
    (h,) = fm.sample(1, 0)
    steps = fm.playout_steps(h, 0, chunk=32)
    assert next(steps) == 32 and fm.decisions == 32  # counted at each slice, not only at the end
    with pytest.raises(ForwardModelError, match="simulated-decision limit"):
        while True:
            next(steps)
    assert fm.decisions == 101


def test_budget_names() -> None:
    assert parse_budget("400") == Budget(iterations=400)
    assert parse_budget("25ms").time_ms == 25
    for bad in ("0", "x", "-3", "5s"):
        with pytest.raises(ValueError, match="search budget"):
            parse_budget(bad)
    with pytest.raises(UnknownBot, match="search budget"):
        make_bot("search@fast", "clank")
    assert isinstance(make_bot("search@3", "clank"), SearchBot)


@pytest.mark.parametrize(("game_id", "players"), [("clank", 2), ("blockcraft", 4), ("mice_and_mystics", 2),
                                                  ("greyport", 3)])
def test_search_bot_plays_whole_matches(game_id: str, players: int) -> None:
    bots = [make_bot("search@3", game_id, s) for s in range(players)]
    result = run_match(get_game(game_id), bots, seed=3, options=OPTIONS.get(game_id))
    assert not result.faults
    assert all(b.fm is not None for b in bots)  # the runner bound a sampler to each
    assert sum(b.iterations_done for b in bots) > 0


def test_search_bot_decides_in_dungeon_twister_from_samples_only() -> None:
    # A whole Dungeon Twister match is long (1000+ plies); a few real decisions show the path works.
    state = _state("dungeon_twister", 2)
    bot = SearchBot(1, Budget(iterations=8))
    for _ in range(6):
        seat = state.pending()[0]
        bot.bind_sampler(SeatSampler(state, seat))
        before = state.digest()
        legal = state.legal_actions(seat)
        req = DecisionRequest("m", 1, "dungeon_twister", seat, state.observe(seat), legal, [])
        choice = bot.act(req)
        assert state.digest() == before
        assert isinstance(choice, int) and 0 <= choice < len(legal)
        state.apply(seat, legal[choice])


def test_without_a_forward_model_the_bot_still_answers() -> None:
    state = _state("clank", 2)
    seat = state.pending()[0]
    req = DecisionRequest("m", 1, "clank", seat, state.observe(seat), state.legal_actions(seat), [])
    assert 0 <= int(SearchBot(0).act(req)) < len(req.legal)


def test_search_with_heuristic_prior_plays_and_feeds_the_prior_every_request() -> None:
    bots = [make_bot("search+heuristic@2", "clank", 1), make_bot("heuristic", "clank", 2)]
    result = run_match(get_game("clank"), bots, seed=4)
    assert not result.faults
    assert bots[0].prior is not None and bots[0].budget.prior_visits > 0
