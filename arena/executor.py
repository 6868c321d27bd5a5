"""Executors: who actually plays a match for a worker.

* ``RefereeExecutor`` (the default in real runs): asks a referee's organizer service to play the
  ``MatchSpec`` (DESIGN: "the worker never plays moves"). With several referee addresses a match
  goes to one picked by its id, and to the next one if that referee is unreachable.
* ``InProcessExecutor`` (unit tests, ``--executor inprocess`` for debugging): plays the match in
  this process with ``referee.engine.run_match`` and each bot's in-process ``agent``
  (``random``, ``heuristic`` or ``module:Class``).

Both raise ``RefereeUnavailable`` (retry later) or ``MatchRejected`` (fail the match) and return a
``MatchReport``.
"""
from __future__ import annotations

import hashlib
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from referee.matchspec import MatchRejected, MatchReport, MatchSpec, RefereeUnavailable

if TYPE_CHECKING:
    from referee.client import RefereeClient


class Executor(Protocol):
    name: str

    def play(self, spec: MatchSpec, agents: Sequence[str | None]) -> MatchReport:
        """Play ``spec`` to the end. ``agents[i]`` is seat i's in-process equivalent (may be None)."""
        ...


class InProcessExecutor:
    name = "inprocess"

    def play(self, spec: MatchSpec, agents: Sequence[str | None]) -> MatchReport:
        from arena.botspec import load_bot
        from bots.builtin import UnknownBot
        from referee.engine import get_game, run_match
        from referee.engine.errors import ArenaError
        from referee.engine.runner import EngineBug

        try:
            game = get_game(spec.game)
            bots = []
            for seat, agent in enumerate(agents):
                if not agent:
                    raise MatchRejected(f"seat {seat} ({spec.seats[seat].bot}) has no in-process agent")
                bots.append(load_bot(agent, spec.game, (spec.seed * 7919 + seat) & 0x7FFFFFFF))
            result = run_match(game, bots, seed=spec.seed, options=spec.options,
                               time_control=spec.time_control, match_id=spec.match_id,
                               bot_names=[s.bot for s in spec.seats])
        except (ArenaError, UnknownBot, EngineBug) as exc:
            raise MatchRejected(f"{type(exc).__name__}: {exc}") from None
        return MatchReport(spec.match_id, result.outcome.to_json(), result.replay.to_json(),
                           {"plies": str(result.plies), "seconds": f"{result.seconds:.3f}"})


class RefereeExecutor:
    name = "referee"

    def __init__(self, addresses: Sequence[str], organizer_token: str,
                 timeout_s: float | None = None) -> None:
        if not addresses:
            raise RefereeUnavailable(
                "no referee address configured (set ARENA_REFEREE=host:port[,host:port])")
        self.addresses = list(addresses)
        self.token = organizer_token
        self.timeout_s = timeout_s
        self._clients: dict[str, RefereeClient] = {}
        self._lock = threading.Lock()

    def _client(self, address: str) -> RefereeClient:
        from referee.client import RefereeClient  # grpc loads only when a referee is used

        with self._lock:
            if address not in self._clients:
                self._clients[address] = RefereeClient(address, self.token)
            return self._clients[address]

    def order(self, match_id: str) -> list[str]:
        """Referees to try for a match: a stable start picked by the match id, then the others."""
        start = int(hashlib.sha1(match_id.encode()).hexdigest(), 16) % len(self.addresses)
        return self.addresses[start:] + self.addresses[:start]

    def play(self, spec: MatchSpec, agents: Sequence[str | None]) -> MatchReport:
        errors = []
        for address in self.order(spec.match_id):
            try:
                return self._client(address).run_match(spec, timeout_s=self.timeout_s)
            except RefereeUnavailable as exc:
                errors.append(f"{address}: {exc}")
        raise RefereeUnavailable("; ".join(errors))

    def wait_ready(self, timeout_s: float) -> bool:
        """Block until some referee answers its health check (True) or ``timeout_s`` passes (False).

        Polled every quarter second; the channels redial at most a second apart (``referee.client``),
        so a match waiting out an outage resumes within about a second of a referee's return."""
        import time

        deadline = time.monotonic() + timeout_s
        while True:
            for address in self.addresses:
                if self._client(address).health(timeout_s=0.5):
                    return True
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            time.sleep(min(0.25, left))

    def close(self) -> None:
        for c in self._clients.values():
            c.close()
        self._clients.clear()


_cache: dict[str, Executor] = {}


def executor_for(name: str) -> Executor:
    """The executor a tournament asks for, configured from the environment (cached per process)."""
    from arena.config import settings

    cfg = settings()
    key = name if name != "referee" else f"referee:{','.join(cfg.referees)}:{cfg.organizer_token}"
    if name in _cache:  # an explicitly installed executor (tests)
        return _cache[name]
    if key in _cache:
        return _cache[key]
    if name == "inprocess":
        ex: Executor = InProcessExecutor()
    elif name == "referee":
        ex = RefereeExecutor(cfg.referees, cfg.organizer_token, cfg.match_timeout_s)
    else:
        raise MatchRejected(f"unknown executor {name!r}")
    _cache[key] = ex
    return ex


def forget_executors() -> None:
    for ex in _cache.values():
        close = getattr(ex, "close", None)
        if close:
            close()
    _cache.clear()
