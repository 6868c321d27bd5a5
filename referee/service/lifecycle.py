"""The match lifecycle: a RunMatch from spec to report.

Check the spec, reserve the live seats, launch the hosted ones (through a ``Launcher``), wait
for them to connect, play (``LiveMatch``), then clean up whatever happened: seats released,
hosted credentials revoked, hosted processes stopped, logs collected. A retried RunMatch of a
running or finished match gets the same report (and another spec for the same id is refused).
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import OrderedDict

import grpc

from referee.engine import ArenaError, Outcome, canonical, get_game
from referee.matchspec import MatchSpec
from referee.protocol import bot_pb2, organizer_pb2

from .config import RefereeConfig
from .launcher import BadCommand, HostedHandle, Launcher, LaunchRequest
from .match import LiveMatch
from .reject import Reject
from .routing import SessionRouter
from .sessions import SeatSlot
from .wirejson import dumps

log = logging.getLogger("referee")


class MatchLifecycle:
    """Running and recently finished matches of one referee."""

    def __init__(self, config: RefereeConfig, router: SessionRouter, launcher: Launcher) -> None:
        self.config = config
        self.router = router
        self.launcher = launcher
        self.matches: dict[str, LiveMatch] = router.matches
        self.running: dict[str, asyncio.Future[organizer_pb2.RunMatchResponse]] = {}
        self.finished: OrderedDict[str, tuple[str, organizer_pb2.RunMatchResponse]] = OrderedDict()
        self.address = ""  # where hosted bots connect
        self.tls_ca: str | None = None
        self.closing = False  # shutting down: no new matches

    def check_spec(self, spec: MatchSpec) -> LiveMatch:
        if self.closing:
            raise Reject(grpc.StatusCode.UNAVAILABLE, "the referee is shutting down")
        if not spec.match_id or len(spec.match_id) > 200:
            raise Reject(grpc.StatusCode.INVALID_ARGUMENT, "match_id must be 1-200 characters")
        try:
            game = get_game(spec.game)
            state = game.new_state(len(spec.seats), spec.options, spec.seed)
        except ArenaError as exc:
            raise Reject(grpc.StatusCode.INVALID_ARGUMENT, str(exc)) from None
        for s, seat in enumerate(spec.seats):
            if not seat.bot:
                raise Reject(grpc.StatusCode.INVALID_ARGUMENT, f"seat {s} has no bot name")
        tc = spec.time_control
        if tc.per_decision_ms < 0 or tc.bank_ms < 0:
            raise Reject(grpc.StatusCode.INVALID_ARGUMENT, "time control values must be >= 0")
        return LiveMatch(spec, game, state, self.config)

    async def run_match(self, spec: MatchSpec, live_wait_s: float) -> organizer_pb2.RunMatchResponse:
        key = canonical(spec.to_json())
        done = self.finished.get(spec.match_id)
        if done is not None:
            if done[0] != key:
                raise Reject(grpc.StatusCode.ALREADY_EXISTS,
                             f"match {spec.match_id} was played with another spec")
            return done[1]
        if spec.match_id in self.running:
            # a retried request (e.g. a worker that lost its connection): wait for the same match
            return await asyncio.shield(self.running[spec.match_id])
        match = self.check_spec(spec)
        fut: asyncio.Future[organizer_pb2.RunMatchResponse] = asyncio.get_running_loop().create_future()
        self.running[spec.match_id] = fut
        self.matches[match.id] = match
        try:
            resp = await self._play(match, live_wait_s)
        except BaseException as exc:
            if not fut.done():
                fut.set_exception(exc if isinstance(exc, Exception) else Reject(grpc.StatusCode.UNAVAILABLE,
                                                                              "referee shutting down"))
                fut.exception()  # mark retrieved
            raise
        finally:
            self.running.pop(spec.match_id, None)
            self.matches.pop(match.id, None)
        fut.set_result(resp)
        self.finished[spec.match_id] = (key, resp)
        while len(self.finished) > self.config.keep_reports:
            self.finished.popitem(last=False)
        return resp

    async def _reserve_live(self, match: LiveMatch, wait_s: float) -> None:
        need = [slot for slot in match.slots if not slot.hosted]
        if not need:
            return
        gid = match.game.info.id
        deadline = time.monotonic() + wait_s
        async with self.router.changed:
            while True:
                for slot in need:
                    if slot.session is None:
                        sess = self.router.free_session(slot.bot, gid)
                        if sess is not None:
                            match.attach(slot, sess, resumed=False)
                missing = [s for s in need if s.session is None]
                if not missing:
                    return
                left = deadline - time.monotonic()
                if left <= 0:
                    for slot in need:
                        if slot.session is not None:
                            match.detach(slot, 0, "match not started")
                    names = sorted({s.bot for s in missing})
                    raise Reject(grpc.StatusCode.UNAVAILABLE,
                                 f"no connected session with free capacity for live bot(s) {names} "
                                 f"playing {gid} (waited {wait_s:g}s)")
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(self.router.changed.wait(), left)

    async def _launch(self, match: LiveMatch, hosted: list[HostedHandle]) -> None:
        for slot, seat in zip(match.slots, match.spec.seats, strict=True):
            if not seat.hosted:
                continue
            request = LaunchRequest(match.id, slot.seat, seat.command or "", seat.cwd, dict(seat.env),
                                    self.router.hosted_credential(slot), self.address, self.tls_ca)
            try:
                handle = await self.launcher.launch(request)
            except BadCommand as exc:
                raise Reject(grpc.StatusCode.INVALID_ARGUMENT,
                             f"seat {slot.seat}: bad command: {exc}") from None
            hosted.append(handle)
            if handle.launch_error:
                slot.lose(handle.launch_error)
                continue
            match.note(f"seat {slot.seat} ({slot.bot}) launched: pid {handle.pid}")
            asyncio.get_running_loop().create_task(self._watch_process(slot, handle))

    async def _play(self, match: LiveMatch, live_wait_s: float) -> organizer_pb2.RunMatchResponse:
        hosted: list[HostedHandle] = []
        try:
            # inside the try: a cancelled RunMatch must give reserved seats back (see finally)
            await self._reserve_live(match, live_wait_s)
            await self._launch(match, hosted)
            await self._await_hosted(match)
            outcome, replay = await match.run()
            self._owe_match_ends(match, outcome)
            resp = organizer_pb2.RunMatchResponse(match_id=match.id, outcome_json=dumps(outcome.to_json()),
                                                  replay_json=dumps(replay.to_json()))
        except ArenaError as exc:
            log.exception("match %s: engine error", match.id)
            raise Reject(grpc.StatusCode.INTERNAL, f"engine error: {exc}") from None
        except (Reject, asyncio.CancelledError):
            raise
        except Exception as exc:
            log.exception("match %s: engine error", match.id)
            raise Reject(grpc.StatusCode.INTERNAL, f"engine error: {type(exc).__name__}: {exc}") from None
        finally:
            await self._clean_up(match, hosted)
        for h in hosted:
            resp.logs[f"seat{h.seat}"] = h.log_text()
        resp.logs["referee"] = "\n".join(match.lines)
        return resp

    def _owe_match_ends(self, match: LiveMatch, outcome: Outcome) -> None:
        """A live seat whose bot was away at the end (forfeited after the grace period) gets its
        MatchEnd on the bot's next session."""
        out_json = dumps(outcome.to_json())
        for slot in match.slots:
            if slot.session is None and not slot.hosted and slot.ever_connected:
                self.router.owed.add(slot.bot, bot_pb2.RefereeMessage(match_end=bot_pb2.MatchEnd(
                    match_id=match.id, outcome_json=out_json, seat=slot.seat,
                    strikes=match.driver.strikes[slot.seat])))

    def abort_all(self, why: str) -> int:
        """End every running match now; their RunMatch calls fail with UNAVAILABLE (retry elsewhere)."""
        self.closing = True
        for match in list(self.matches.values()):
            match.abort(Reject(grpc.StatusCode.UNAVAILABLE, why))
        return len(self.matches)

    async def _clean_up(self, match: LiveMatch, hosted: list[HostedHandle]) -> None:
        match.over = True
        match.close()
        connected = {slot.seat for slot in match.slots if slot.session is not None}
        for slot in match.slots:
            if slot.grace is not None:
                slot.grace.cancel()
            sess = slot.session
            if sess is not None:
                match.detach(slot, 0, "match over")
                if sess.hosted_slot is slot:
                    sess.send(bot_pb2.RefereeMessage(goodbye=bot_pb2.Goodbye(reason="match over")))
                    sess.close(None, "match over")
            self.router.forget(slot)
        if hosted:
            # a connected bot got Goodbye and may exit on its own; a disconnected one is killed now
            await asyncio.gather(*(h.stop(2.0 if h.seat in connected else 0.0) for h in hosted),
                                 return_exceptions=True)
        await self.router.notify()

    async def _await_hosted(self, match: LiveMatch) -> None:
        waiting = [s for s in match.slots if s.hosted and not s.lost]
        if not waiting:
            return
        # `connected` is set on the first connection and also when the seat is lost (bot died)
        waits = [asyncio.ensure_future(s.connected.wait()) for s in waiting]
        await asyncio.wait(waits, timeout=self.config.hosted_connect_s)
        for w in waits:
            w.cancel()
        for slot in waiting:
            if slot.session is None and not slot.lost:
                slot.lose(f"hosted bot did not connect within {self.config.hosted_connect_s:g}s")

    @staticmethod
    async def _watch_process(slot: SeatSlot, handle: HostedHandle) -> None:
        await handle.wait()
        if not slot.match.over and slot.lost is None:
            slot.lose(handle.end_reason())
