"""A hosted bot's output (stdout, stderr) kept per seat: its owner reads it once its deal group is over."""
from __future__ import annotations

import random

from sqlalchemy import update

from arena.ladder import open_season, tick
from arena.store import Store, health, models, ops
from arena.tasks import seat_outputs
from tests.ladder.agents import OPTIONS
from tests.ladder.test_matchmaker import add_field, cfg, matches


def test_the_referee_keeps_the_start_and_the_end_of_a_long_output() -> None:
    from referee.service.capped import CappedOutput

    out = CappedOutput(20)
    for i in range(100):
        out.add(f"{i:02d}|".encode())
    # the first 10 bytes, the last 10, and how much is missing between them
    assert out.text() == "00|01|02|0\n[... 280 bytes not kept ...]\n|97|98|99|"
    small = CappedOutput(64)
    small.add(b"hello\n")
    small.add(b"Traceback: boom\n")
    assert small.text() == "hello\nTraceback: boom\n"


def test_only_what_a_bot_wrote_is_kept() -> None:
    logs = {"seat0": "\n[exit code 0]\n", "seat1": "Traceback (most recent call last):\nValueError: x\n"
            "[exit code 1]", "seat2": "", "referee": "seat 1 crashed", "seconds": "1.250"}
    assert seat_outputs(logs) == {1: logs["seat1"]}
    assert seat_outputs(None) == {} and seat_outputs({"seat3": "[exit code -9]"}) == {}


def test_the_output_waits_for_the_deal_group_and_reaches_only_its_bot(store: Store) -> None:
    add_field(store)
    with store.tx() as s:  # two seats, so deals are paired: each match has a twin with the seats swapped
        s.execute(update(models.Bot).values(seats={"sealed_bids": [2]}))
    tid = open_season(store, "sealed_bids", executor="referee", options=OPTIONS)
    tick(store, "sealed_bids", cfg=cfg(ladder_inflight=40, ladder_placement=0), rng=random.Random(3))
    by_deal: dict[str, list[models.Match]] = {}
    for mt in matches(store, tid):
        by_deal.setdefault(mt.deal, []).append(mt)
    a, b = next(g for g in by_deal.values() if len(g) == 2)
    writer = a.seats[0].bot
    long_text = "x" * (ops.OUTPUT_CAP + 500) + "\nthe end\n"
    assert ops.claim(store, a.id, "w", 60).ok
    assert ops.record(store, a.id, {"ranks": [2, 1], "scores": [0, 1], "reason": "normal"}, None,
                      outputs={0: long_text})
    # its twin (the same deal, seats swapped) is still to play: what the bot saw is that twin's deal
    assert health.outputs(store, writer) == ([], 1)
    assert ops.claim(store, b.id, "w", 60).ok
    assert ops.record(store, b.id, {"ranks": [1, 2], "scores": [1, 0], "reason": "normal"}, None)
    rows, sealed = health.outputs(store, writer)
    assert sealed == 0 and [(r.match_id, r.seat, r.rank) for r in rows] == [(a.id, 0, 2)]
    assert len(rows[0].text) == ops.OUTPUT_CAP and rows[0].text.endswith("the end\n")   # the tail is kept
    assert health.outputs(store, a.seats[1].bot) == ([], 0)   # the opponent wrote nothing, sees nothing


def test_a_suspended_version_points_to_its_output() -> None:
    from types import SimpleNamespace

    from arena.cli.common import console
    from arena.cli.submit_cmd import _suspended_hint

    versions = [SimpleNamespace(name="ada/bidder@2", status="suspended"),
                SimpleNamespace(name="ada/bidder@3", status="active")]
    with console.capture() as cap:
        _suspended_hint(versions)
    assert cap.get() == "what ada/bidder@2 wrote in its latest matches: arena developer logs ada/bidder@2\n"


def test_a_bots_output_cannot_drive_the_readers_terminal(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """An organizer reads any bot's output: escape sequences in it (retitle, clear, clipboard) are shown,
    not obeyed."""
    from tests.ladder.test_cli import arena

    store = Store(f"sqlite:///{tmp_path}/arena.db")
    store.migrate()
    add_field(store)
    with store.tx() as s:
        s.execute(update(models.Bot).values(seats={"sealed_bids": [2]}))
    tid = open_season(store, "sealed_bids", executor="referee", options=OPTIONS)
    tick(store, "sealed_bids", cfg=cfg(ladder_inflight=1, ladder_placement=0), rng=random.Random(1))
    (only,) = matches(store, tid)
    evil = "\x1b]0;pwned\x07\x1b]52;c;ZWNobyBvd25lZA==\x07\x1b[2Jdone\r\n\x9b31m"
    assert ops.claim(store, only.id, "w", 60).ok
    assert ops.record(store, only.id, {"ranks": [1, 2], "scores": [1, 0], "reason": "normal"}, None,
                      outputs={0: evil})
    out = arena(tmp_path, "bot", "output", only.seats[0].bot)
    assert "done" in out and "\\x1b]0;pwned\\x07" in out
    assert not any(c in out for c in "\x1b\x07\r\x9b"), repr(out)


def test_a_bot_keeps_its_latest_outputs_only(store: Store) -> None:
    add_field(store)
    tid = open_season(store, "sealed_bids", executor="referee", options=OPTIONS)
    tick(store, "sealed_bids", cfg=cfg(ladder_inflight=40, ladder_placement=0), rng=random.Random(5))
    bot = matches(store, tid)[0].seats[0].bot
    mine = [mt for mt in matches(store, tid) if bot in [s.bot for s in mt.seats]][:3]
    assert len(mine) == 3
    for mt in mine:
        seat = next(s.seat for s in mt.seats if s.bot == bot)
        assert ops.claim(store, mt.id, "w", 60).ok
        n = len(mt.seats)
        outcome = {"ranks": list(range(1, n + 1)), "scores": [0] * n, "reason": "normal"}
        assert ops.record(store, mt.id, outcome, None, outputs={seat: f"match {mt.id}"}, outputs_kept=2)
    # every twin played too, so nothing waits for its deal group
    for mt in matches(store, tid):
        if mt.status == models.QUEUED and ops.claim(store, mt.id, "w", 60).ok:
            n = len(mt.seats)
            ops.record(store, mt.id, {"ranks": list(range(1, n + 1)), "scores": [0] * n, "reason": "normal"},
                       None)
    rows, sealed = health.outputs(store, bot, limit=10)
    assert sealed == 0 and sorted(r.text for r in rows) == sorted(f"match {mt.id}" for mt in mine[1:])
