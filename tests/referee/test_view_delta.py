"""Opt-in view deltas: a bot that asks for them rebuilds exactly the views a full-view bot gets."""
from __future__ import annotations

from typing import Any

from bots.sdk.bot import Bot
from bots.sdk.client import apply_view_patch
from referee.client import RefereeClient
from referee.engine import DecisionRequest, TimeControl, get_game, run_match
from referee.matchspec import MatchSpec, SeatSpec
from referee.service.match import view_texts
from referee.service.sessions import SeatSlot, Session

from .conftest import LiveBot


class _Recorder(Bot):
    """Deterministic (no seed), records every view it is given."""

    def __init__(self, seen: list[tuple[int, int, dict[str, Any]]]) -> None:
        super().__init__(0)
        self.seen = seen

    def act(self, request: DecisionRequest) -> int:
        self.seen.append((request.seat, request.decision_id, request.view))
        return (request.decision_id * 31 + len(request.events)) % len(request.legal)


def _play(ref, name: str, delta: bool) -> tuple[list[tuple[int, int, dict[str, Any]]], Any]:
    seen: list[tuple[int, int, dict[str, Any]]] = []
    with RefereeClient(ref.address, ref.organizer_token) as c:
        token = c.register_bot(name, ["clank"])
        bot = LiveBot(lambda start: _Recorder(seen), ref.address, token, capacity=2, threaded=False,
                      view_delta=delta)
        try:
            spec = MatchSpec(f"vd-{name}", "clank", 7, [SeatSpec(name)] * 2,
                             time_control=TimeControl(per_decision_ms=20_000))
            report = c.run_match(spec, timeout_s=120, live_wait_s=10)
        finally:
            bot.stop()
    assert report.outcome["reason"] in ("normal", "safety_limit")
    return seen, bot.stats


def test_delta_views_rebuild_the_full_views_exactly(referee_thread) -> None:
    full, full_stats = _play(referee_thread, "full", False)
    delta, delta_stats = _play(referee_thread, "delta", True)
    assert full_stats.view_patches == 0
    assert delta_stats.view_patches >= len(delta) - 2  # every view after each seat's first is a patch
    assert len(full) > 50 and delta == full
    # and they are the engine's own views (an in-process match with the same bot)
    here: list[tuple[int, int, dict[str, Any]]] = []
    run_match(get_game("clank"), [_Recorder(here), _Recorder(here)], seed=7, match_id="vd-x",
              time_control=TimeControl(per_decision_ms=20_000))
    assert here == full


class _Sess:
    view_delta = True


def test_view_patches_keep_types_and_deletions() -> None:
    slot = SeatSlot(None, 0, "b")
    slot.session = _Sess()
    views = [{"a": 1, "b": [1, 2], "c": None}, {"a": True, "b": [1, 2], "c": None},
             {"a": 1.0, "b": [1, 2, 3]}, {"a": 1.0, "b": [1, 2, 3], "c": {"x": 0}},
             {"a": 1.0, "b": [1, 2, 3], "c": {"x": 0}}]
    import json

    have: dict[str, Any] = {}
    for i, v in enumerate(views):
        full, patch = view_texts(slot, v)
        assert bool(full) == (i == 0) and bool(patch) == (i > 0)
        have = json.loads(full) if full else apply_view_patch(have, patch)
        assert have == v and [type(x) for x in have.values()] == [type(x) for x in v.values()]
    assert view_texts(slot, views[-1])[1] == '{"set":{},"del":[]}'
    slot.session = Session("s", "b", None, 1, "")  # a session that did not ask: full views
    assert view_texts(slot, views[0]) == (json.dumps(views[0], separators=(",", ":")), "")
