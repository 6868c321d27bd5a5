"""The in-process match runner: agents play through exactly what a remote bot receives.

The rules of play (requests, simultaneous batches, faults, strikes, forfeits, checkpoints, the
safety limit, the outcome and replay) are the ``MatchDriver``'s, shared with the referee; this
module only calls each agent and measures its time. What an agent does wrong here:

* raises ``SystemExit`` (e.g. ``sys.exit(3)``): the bot exited, like a hosted process that dies,
  so the seat forfeits at once (``exit_reason``);
* raises any other exception: a ``bot_error`` fault (random legal move and a strike);
* answers something wrong (an index out of range, an action not in the legal list, malformed JSON
  text): re-asked ``policy.reasks`` times with the same request, then a fault;
* answers after its deadline: a ``timeout`` fault (it cannot be interrupted, so it is measured).
"""
from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .agent import Agent, DecisionRequest, MatchStart, TimeControl
from .driver import Ask, EngineBug, Fault, FaultPolicy, MatchDriver, exit_reason, resolve_answer
from .game import Game
from .outcome import Outcome
from .replay import Replay
from .rng import Rng
from .sampling import SeatSampler
from .state import State

__all__ = ["EngineBug", "FaultPolicy", "MatchResult", "random_playout", "resolve_answer", "run_match"]


@dataclass
class MatchResult:
    outcome: Outcome
    replay: Replay
    plies: int
    seconds: float
    strikes: dict[int, int] = field(default_factory=dict)
    faults: list[dict[str, Any]] = field(default_factory=list)


def _exit_code(exc: SystemExit) -> int:
    code = exc.code
    return code if isinstance(code, int) else (0 if code is None else 1)


def _decide(driver: MatchDriver, agent: Agent, ask: Ask, request: DecisionRequest) -> None:
    """Ask ``agent`` (again after a wrong answer, as the policy says) until the driver has a result."""
    t0 = time.perf_counter()
    while True:
        try:
            answer = agent.act(request)
        except SystemExit as exc:
            driver.lose(ask.seat, exit_reason(_exit_code(exc)))
            return
        except Exception as exc:  # noqa: BLE001 - a failing bot is a fault, not our crash
            ms = int((time.perf_counter() - t0) * 1000)
            driver.fail(ask.seat, Fault("bot_error", f"{type(exc).__name__}: {exc}"[:300]), ms)
            return
        ms = int((time.perf_counter() - t0) * 1000)
        if driver.answer(ask.seat, answer, ms).consequence != "reask":
            return


def run_match(
    game: Game,
    agents: Sequence[Agent],
    *,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    time_control: TimeControl | None = None,
    match_id: str = "",
    bot_names: Sequence[str] | None = None,
    checkpoint_every: int = 50,
    policy: FaultPolicy | None = None,
    on_ply: Callable[[State, int], None] | None = None,
) -> MatchResult:
    """Play one match to the end and return its outcome and replay."""
    tc = time_control or TimeControl(per_decision_ms=0)
    players = len(agents)
    state = game.new_state(players, options, seed)
    names = list(bot_names) if bot_names else [type(a).__name__ for a in agents]
    driver = MatchDriver(game, state, seed, names, match_id, tc, policy or FaultPolicy(), checkpoint_every)
    started = time.perf_counter()

    for s, agent in enumerate(agents):
        start = getattr(agent, "start", None)
        if start is not None:
            start(MatchStart(match_id, game.info.id, game.info.version, dict(state.options), s, players,
                             names, tc))
        # The forward model (referee/engine/sampling.py): samples of the live position as this seat sees it.
        bind_sampler = getattr(agent, "bind_sampler", None)
        if bind_sampler is not None:
            bind_sampler(SeatSampler(state, s))

    while True:
        asks = driver.ask()
        if not asks:
            break
        # every request of the batch is built (by ask) before any agent answers
        for ask in asks:
            if driver.forfeits:
                break
            _decide(driver, agents[ask.seat], ask, driver.request(ask))
        if driver.complete:
            driver.settle()
            if on_ply is not None and not driver.forfeits:
                on_ply(state, driver.plies)

    outcome = driver.finish()
    for agent in agents:
        end = getattr(agent, "end", None)
        if end is not None:
            end(outcome.to_json())
    strikes = {s: n for s, n in enumerate(driver.strikes) if n}
    return MatchResult(outcome, driver.replay, driver.plies, time.perf_counter() - started, strikes,
                       driver.faults)


def random_playout(state: State, rng: Rng, *, with_views: bool = False, limit: int | None = None) -> int:
    """Play uniformly random legal moves to the end (trusted apply); return the number of decisions."""
    n = 0
    cap = limit if limit is not None else state.game.decision_limit(state.players, state.options)
    while True:
        pending = state.pending()
        if not pending:
            return n
        picks = []
        for seat in pending:
            legal = state.legal_actions(seat)
            if with_views:
                state.observe(seat)
            picks.append((seat, legal[rng.below(len(legal))]))
        for seat, action in picks:
            state.apply_trusted(seat, action)
            n += 1
        if n > cap:
            raise EngineBug(f"{state.game.info.id} passed its safety limit of {cap} decisions")
