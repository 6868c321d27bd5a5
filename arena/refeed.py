"""``arena refeed``: send a bot the decision requests one seat received in a recorded match.

A stand-in referee (one ``BotService`` session, on a free local port) re-simulates the replay and,
at every decision of the chosen seat, sends the bot the request that seat received then: the same
view, legal list and events since its previous decision, built from the same position (for a
simultaneous decision, the position before any seat's choice is applied). Whatever the bot answers,
the recorded action is played, so the match goes on exactly as recorded; each answer that differs
from the recorded one is reported. A regression test for bots.
"""
from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import shlex
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc

from referee.engine import Replay, State, get_game
from referee.engine.jsonutil import canonical
from referee.protocol import bot_pb2, bot_pb2_grpc

#: after the bot's process has exited, how long its stream may take to end before the refeed stops waiting
EXIT_GRACE_S = 5.0
#: seconds a started bot has to open its session (``arena check-bot`` gives it as long)
CONNECT_S = 30.0

_dumps = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode


class _CancelledFilter(logging.Filter):
    """Drops gRPC's record of a servicer cancelled by the refeed's own server stop."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        return not isinstance(exc, asyncio.CancelledError)


class RefeedError(ValueError):
    """The replay, seat or command cannot be refed."""


@dataclass
class Step:
    """One decision of the seat: the request's content and the recorded answer."""

    ply: int
    state_view: dict[str, Any]
    legal: list[dict[str, Any]]
    events: list[dict[str, Any]]
    recorded: dict[str, Any]


@dataclass
class Difference:
    ply: int
    decision: int
    recorded: dict[str, Any]
    answered: str  # the bot's action as JSON, or what went wrong


@dataclass
class RefeedReport:
    decisions: int = 0
    same: int = 0
    differences: list[Difference] = field(default_factory=list)
    bot_log: str = ""


def seat_steps(replay: Replay, seat: int) -> Iterator[Step]:
    """The seat's decisions in ``replay``, each with what the referee sent for it."""
    game = get_game(replay.game)
    if replay.game_version != game.info.version:
        raise RefeedError(
            f"the replay is of {replay.game} v{replay.game_version}; this is v{game.info.version}")
    if not 0 <= seat < replay.players:
        raise RefeedError(
            f"no seat {seat} in this {replay.players}-seat match (seats 0-{replay.players - 1})")
    st: State = game.new_state(replay.players, replay.options, replay.seed)
    cursor = 0
    i = 0
    actions = replay.actions
    while i < len(actions):
        pending = st.pending()
        batch = actions[i:i + len(pending)]
        if [a["seat"] for a in batch] != pending:  # a seat forfeited mid-batch: play what was recorded
            batch = actions[i:i + 1]
        mine = [a for a in batch if a["seat"] == seat]
        if mine:
            events = st.events_for(seat, cursor)
            cursor = len(st.log.entries)
            yield Step(i + 1 + batch.index(mine[0]), st.observe(seat), st.legal_actions(seat), events,
                       mine[0]["action"])
        for a in batch:
            st.apply(a["seat"], a["action"])
        i += len(batch)


class _Session(bot_pb2_grpc.BotServiceServicer):
    """The one session the refed bot opens."""

    def __init__(self, replay: Replay, seat: int, token: str, bot_seed: int, time_ms: int) -> None:
        self.replay, self.seat, self.token = replay, seat, token
        self.bot_seed, self.time_ms = bot_seed, time_ms
        self.report = RefeedReport()
        self.done = asyncio.Event()
        #: set when the bot opens its session (it gets one)
        self.connected = asyncio.Event()
        #: the decision sent and not answered yet: (its number, its step)
        self.pending: tuple[int, Step] | None = None

    def _record(self, n: int, step: Step, answered: dict[str, Any] | str) -> None:
        self.report.decisions += 1
        if isinstance(answered, dict) and canonical(answered) == canonical(step.recorded):
            self.report.same += 1
        else:
            shown = answered if isinstance(answered, str) else canonical(answered)
            self.report.differences.append(Difference(step.ply, n, step.recorded, shown))

    def lost(self, why: str) -> None:
        """The session ended with a decision unanswered (the call cancelled, the bot's process gone): that
        decision failed with ``why``. Without this the report could say "0 decisions refed, 0 differ"."""
        if self.pending is not None:
            n, step = self.pending
            self.pending = None
            self._record(n, step, why)

    async def _answer(self, context: grpc.aio.ServicerContext, decision_id: int) -> bot_pb2.Answer | str:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.time_ms / 1000
        while True:
            left = deadline - loop.time()
            if left <= 0:
                return f"no answer within {self.time_ms} ms"
            try:
                msg = await asyncio.wait_for(context.read(), left)
            except TimeoutError:
                return f"no answer within {self.time_ms} ms"
            if msg is grpc.aio.EOF:
                return "the bot closed its stream"
            kind = msg.WhichOneof("kind")
            if kind == "ping":
                await context.write(bot_pb2.RefereeMessage(pong=bot_pb2.Pong(nonce=msg.ping.nonce)))
            elif kind == "answer" and msg.answer.decision_id == decision_id:
                return msg.answer

    @staticmethod
    def _action(answer: bot_pb2.Answer, legal: list[dict[str, Any]]) -> dict[str, Any] | str:
        which = answer.WhichOneof("choice")
        if which == "index":
            if answer.index < len(legal):
                return legal[answer.index]
            return f"index {answer.index} (outside the legal list 0..{len(legal) - 1})"
        if which == "action_json":
            try:
                action = json.loads(answer.action_json)
            except ValueError:
                return "action_json that is not JSON"
            keys = [canonical(a) for a in legal]
            if isinstance(action, dict) and canonical(action) in keys:
                return action
            return f"{answer.action_json[:200]} (not in the legal list)"
        return "an answer with neither index nor action_json"

    async def Connect(self, request_iterator: Any, context: grpc.aio.ServicerContext) -> None:
        if self.connected.is_set():
            await context.abort(grpc.StatusCode.UNAVAILABLE, "refeed plays one session only")
        self.connected.set()
        try:
            await self._play(context)
        finally:
            self.lost("the bot's connection was lost")
            self.done.set()

    async def _play(self, context: grpc.aio.ServicerContext) -> None:
        hello = await context.read()
        if hello is grpc.aio.EOF or hello.WhichOneof("kind") != "hello" or hello.hello.token != self.token:
            await context.abort(grpc.StatusCode.UNAUTHENTICATED,
                                "the first message must be Hello with ARENA_TOKEN")
        rep = self.replay
        if hello.hello.games and rep.game not in hello.hello.games:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"the bot does not play {rep.game}")
        bots = [str(s.get("bot", "")) for s in sorted(rep.seats, key=lambda s: s["seat"])]
        await context.write(bot_pb2.RefereeMessage(welcome=bot_pb2.Welcome(
            bot=bots[self.seat], session_id="refeed", capacity=1, games=[rep.game], max_message_bytes=1 << 20,
            max_action_bytes=64 << 10, server_version="arena refeed")))
        match_id = rep.match_id or "refeed"
        await context.write(bot_pb2.RefereeMessage(match_start=bot_pb2.MatchStart(
            match_id=match_id, game=rep.game, game_version=rep.game_version, options_json=_dumps(rep.options),
            seat=self.seat, players=rep.players, bots=bots,
            time_control=bot_pb2.TimeControl(per_decision_ms=self.time_ms), bot_seed=self.bot_seed)))
        for n, step in enumerate(seat_steps(rep, self.seat), 1):
            await context.write(bot_pb2.RefereeMessage(decision=bot_pb2.DecisionRequest(
                match_id=match_id, decision_id=n, seat=self.seat, game=rep.game,
                view_json=_dumps(step.state_view), legal_json=_dumps(step.legal),
                events_json=_dumps(step.events), deadline_ms=self.time_ms, legal_count=len(step.legal))))
            self.pending = (n, step)
            got = await self._answer(context, n)
            if self.pending is None:
                return   # already counted as lost (the bot's process ended first)
            self.pending = None
            self._record(n, step, got if isinstance(got, str) else self._action(got, step.legal))
            if got == "the bot closed its stream":
                return
        await context.write(bot_pb2.RefereeMessage(match_end=bot_pb2.MatchEnd(
            match_id=match_id, outcome_json=_dumps(rep.outcome), seat=self.seat)))
        await context.write(bot_pb2.RefereeMessage(goodbye=bot_pb2.Goodbye(reason="match over")))


async def _refeed(replay: Replay, seat: int, argv: list[str], *, bot_seed: int, time_ms: int, cwd: str | None,
                  timeout_s: float, connect_s: float) -> RefeedReport:
    token = "refeed_" + secrets.token_urlsafe(12)
    session = _Session(replay, seat, token, bot_seed, time_ms)
    server = grpc.aio.server()
    bot_pb2_grpc.add_BotServiceServicer_to_server(session, server)
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    log_path = Path(os.environ.get("TMPDIR", "/tmp")) / f"arena-refeed-{secrets.token_hex(4)}.log"
    env = {k: v for k, v in os.environ.items() if k != "ARENA_ORGANIZER_TOKEN"}
    env.update(ARENA_REFEREE=f"127.0.0.1:{port}", ARENA_TOKEN=token,
               ARENA_MATCH_ID=replay.match_id or "refeed")
    try:
        with open(log_path, "wb") as log:  # noqa: ASYNC230 - created once, before the bot starts
            try:
                proc = await asyncio.create_subprocess_exec(*argv, env=env, cwd=cwd,
                                                            stdin=asyncio.subprocess.DEVNULL, stdout=log,
                                                            stderr=asyncio.subprocess.STDOUT)
            except OSError as exc:
                raise RefeedError(f"cannot run {shlex.join(argv)}: {exc.strerror or exc}") from None
        try:
            waiter = asyncio.ensure_future(session.done.wait())
            exited = asyncio.ensure_future(proc.wait())
            connected = asyncio.ensure_future(session.connected.wait())
            connect_s = min(connect_s, timeout_s)
            await asyncio.wait({connected, exited}, timeout=connect_s, return_when=asyncio.FIRST_COMPLETED)
            connected.cancel()
            if not session.connected.is_set() and proc.returncode is None:
                waiter.cancel()
                exited.cancel()
                raise RefeedError(f"the bot did not connect within {connect_s:g} s (stopped it); its output: "
                                  f"{log_path}")
            await asyncio.wait({waiter, exited}, timeout=timeout_s, return_when=asyncio.FIRST_COMPLETED)
            if not session.done.is_set():
                # the bot exited (or never connected) before the session was over: its stream ends soon
                await asyncio.wait({waiter}, timeout=EXIT_GRACE_S)
            if not session.connected.is_set():
                raise RefeedError(
                    f"the bot never connected (exit status {proc.returncode}); its output: {log_path}")
            if not session.done.is_set():
                session.lost(f"the bot exited (status {proc.returncode}) before answering"
                             if proc.returncode is not None else f"the refeed ran out of its {timeout_s:g} s")
            waiter.cancel()
            exited.cancel()
        finally:
            if proc.returncode is None:
                with contextlib.suppress(ProcessLookupError):
                    proc.terminate()
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(proc.wait(), 5)
                if proc.returncode is None:
                    proc.kill()
    finally:
        # a session still waiting on the bot is cancelled here, on purpose: gRPC would log that with a
        # traceback (its decision is already reported as failed)
        quiet = _CancelledFilter()
        grpc_log = logging.getLogger("grpc._cython.cygrpc")
        grpc_log.addFilter(quiet)
        try:
            await server.stop(0)
            await asyncio.sleep(0.1)   # the cancelled handler's last callbacks
        finally:
            grpc_log.removeFilter(quiet)
    session.report.bot_log = str(log_path)
    return session.report


def refeed(replay: Replay, seat: int, argv: list[str], *, bot_seed: int = 0, time_ms: int = 10_000,
           cwd: str | None = None, timeout_s: float = 600.0, connect_s: float = CONNECT_S) -> RefeedReport:
    """Play ``replay``'s decisions of ``seat`` to the bot run by ``argv``; compare its answers."""
    list(seat_steps(replay, seat))[:0]  # bad seat or version: fail before starting anything
    return asyncio.run(_refeed(replay, seat, argv, bot_seed=bot_seed, time_ms=time_ms, cwd=cwd,
                               timeout_s=timeout_s, connect_s=connect_s))
