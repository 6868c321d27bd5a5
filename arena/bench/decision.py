"""``arena bench decision``: the referee's own CPU per decision, without the network.

A real ``LiveMatch`` with real ``Session`` objects, in this process; a stand-in bot reads each
request from the session's out-queue (serialized and parsed, as gRPC would) and answers with a
legal index, then yields to the event loop as a bot's round trip would. Measured with this
process's CPU clock, which a loaded machine disturbs far less than the wall-clock figures of
``arena bench protocol`` (on 2 shared cores those swing by 2x between runs). Two figures:

* **critical**: what a bot waits for, from its answer to its next request (engine, JSON,
  protobuf, timers), plus match set-up and end, per decision;
* **idle**: what the referee does after the requests are sent (``MatchDriver.idle``: the due
  checkpoint, the log's text for the next digest), while the bots think.
"""
from __future__ import annotations

import asyncio
import os
import statistics
import time
from typing import Any

import click

from ..cli.common import console

_IDLE = [0.0]


def _timed_match() -> Any:
    """``LiveMatch`` with its idle work timed (into ``_IDLE``)."""
    from referee.service.match import LiveMatch

    class TimedMatch(LiveMatch):
        def _idle(self) -> None:
            t = time.process_time()
            super()._idle()
            _IDLE[0] += time.process_time() - t

    return TimedMatch


async def _one(i: int, game_id: str, players: int, router: Any, config: Any) -> int:
    from referee.engine import TimeControl, get_game
    from referee.matchspec import MatchSpec, SeatSpec
    from referee.protocol import bot_pb2
    from referee.service.sessions import Close, Session

    game = get_game(game_id)
    spec = MatchSpec(f"bench-{i}", game_id, i, [SeatSpec("bench")] * players,
                     time_control=TimeControl(per_decision_ms=10_000))
    match = _timed_match()(spec, game, game.new_state(players, None, i), config)
    session = Session("s1", "bench", None, players, "bench")
    for slot in match.slots:
        match.attach(slot, session, resumed=False)
    task = asyncio.ensure_future(match.run())
    n = 0
    while not task.done():
        while session.out.items:
            item = session.out.items.popleft()
            if isinstance(item, Close):
                continue
            msg = bot_pb2.RefereeMessage.FromString(item.SerializeToString())
            if msg.WhichOneof("kind") != "decision":
                continue
            d = msg.decision
            answer = bot_pb2.BotMessage(answer=bot_pb2.Answer(match_id=d.match_id, decision_id=d.decision_id,
                                                              index=d.decision_id % d.legal_count))
            router.on_message(session, bot_pb2.BotMessage.FromString(answer.SerializeToString()))
            n += 1
            await asyncio.sleep(0)  # the bot's round trip: the loop runs its callbacks meanwhile
        await asyncio.sleep(0)
    await task
    return n


async def _run(game_id: str, players: int, matches: int) -> tuple[float, float, int]:
    """(critical CPU s/decision, idle CPU s/decision, decisions)."""
    from referee.service.config import RefereeConfig
    from referee.service.routing import SessionRouter
    from referee.service.tokens import TokenStore

    config = RefereeConfig()
    router = SessionRouter(config, TokenStore("sqlite://"), {})  # no Hello here: the store stays empty
    await _one(10_000, game_id, players, router, config)  # warm-up: imports, content, static views
    _IDLE[0] = 0.0
    t0, n = time.process_time(), 0
    for i in range(matches):
        n += await _one(i, game_id, players, router, config)
    total = time.process_time() - t0
    return (total - _IDLE[0]) / n, _IDLE[0] / n, n


@click.command("decision")
@click.option("--game", "games", multiple=True, help="Game(s) [default: sealed_bids and clank].")
@click.option("--matches", type=click.IntRange(min=1), default=None,
              help="Matches a run [default: 100 sealed_bids, 6 of a longer game: ~2,000 decisions].")
@click.option("--runs", type=click.IntRange(min=1), default=5, show_default=True,
              help="Timed runs (the median is reported).")
def command(games: tuple[str, ...], matches: int | None, runs: int) -> None:
    """The referee's CPU per decision in this process, no network: on the bot's path and idle."""
    from referee.engine import game_ids, get_game, register
    from referee.service.server import tune_gc

    from .protocol import _fixture_game, _players

    chosen = list(games) or ["sealed_bids", "clank"]
    if "sealed_bids" in chosen:
        try:
            register(_fixture_game())
        except ImportError:
            if games:
                raise click.UsageError("sealed_bids is a test fixture: run from the repository") from None
            chosen.remove("sealed_bids")
    unknown = [g for g in chosen if g not in game_ids()]
    if unknown:
        raise click.UsageError(f"unknown game(s) {unknown}; known: {', '.join(game_ids())}")
    tune_gc()  # as `arena referee` does
    load0 = os.getloadavg()[0]
    med = statistics.median
    for g in chosen:
        players = _players(g)
        n_matches = matches or (100 if get_game(g).info.id == "sealed_bids" else 6)
        figures = [asyncio.run(_run(g, players, n_matches)) for _ in range(runs)]
        crit, idle = med(f[0] for f in figures), med(f[1] for f in figures)
        console.print(f"[bold]{g}[/bold], {players} seats, {figures[0][2]} decisions a run: critical "
                      f"{crit * 1e6:.1f} us, idle {idle * 1e6:.1f} us of referee CPU per decision "
                      f"(runs: {', '.join(f'{f[0] * 1e6:.0f}' for f in figures)})", highlight=False)
    load1 = os.getloadavg()[0]
    console.print(f"{runs} runs; load average {load0:.1f} -> {load1:.1f} on {os.cpu_count()} cores",
                  highlight=False)
