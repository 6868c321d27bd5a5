"""The in-process match runner: agents play through exactly what a remote bot receives.

Each decision an agent gets a ``DecisionRequest`` (its view, its legal list, the events it may
see since its last decision). Simultaneous choices are asked from the same position and applied
together in seat order. Faults (an exception, an index out of range, an illegal or malformed
action, a decision past its deadline) get the documented consequence: a random legal move and a
strike; more than ``max_strikes`` strikes forfeits the seat.
"""
from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .agent import Agent, DecisionRequest, MatchStart, TimeControl
from .errors import ArenaError, IllegalAction
from .game import Game
from .jsonutil import canonical
from .outcome import Outcome
from .replay import Replay
from .rng import Rng
from .state import State


class EngineBug(RuntimeError):
    """The game broke its own contract (e.g. ran past its safety limit)."""


@dataclass
class FaultPolicy:
    """What happens when a seat misbehaves (the referee uses the same defaults)."""

    max_strikes: int = 3


@dataclass
class MatchResult:
    outcome: Outcome
    replay: Replay
    plies: int
    seconds: float
    strikes: dict[int, int] = field(default_factory=dict)
    faults: list[dict[str, Any]] = field(default_factory=list)


def resolve_answer(request: DecisionRequest, answer: Any) -> dict[str, Any]:
    """An agent's answer (index or action dict) -> the legal action it names, or ``IllegalAction``."""
    if isinstance(answer, int) and not isinstance(answer, bool):
        if 0 <= answer < len(request.legal):
            return request.legal[answer]
        raise IllegalAction(f"index {answer} is outside the legal list (0..{len(request.legal) - 1})")
    if isinstance(answer, Mapping):
        key = canonical(dict(answer))
        for legal in request.legal:
            if canonical(legal) == key:
                return legal
        raise IllegalAction(f"action of type {answer.get('type')!r} is not in the legal list")
    raise IllegalAction("an answer must be an index or an action object")


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
    policy = policy or FaultPolicy()
    tc = time_control or TimeControl(per_decision_ms=0)
    players = len(agents)
    state = game.new_state(players, options, seed)
    names = list(bot_names) if bot_names else [type(a).__name__ for a in agents]
    replay = Replay(game.info.id, game.info.version, players, dict(state.options), seed,
                    [{"seat": s, "bot": names[s]} for s in range(players)], match_id=match_id)
    replay.checkpoints.append({"ply": 0, "digest": state.digest()})
    fallback = Rng(f"runner:{seed}")
    cursors = [0] * players
    strikes: dict[int, int] = {}
    faults: list[dict[str, Any]] = []
    forfeits: dict[int, str] = {}
    started = time.perf_counter()

    for s, agent in enumerate(agents):
        start = getattr(agent, "start", None)
        if start is not None:
            start(MatchStart(match_id, game.info.id, game.info.version, dict(state.options), s, players,
                             names, tc))

    plies = 0
    decision_id = 0
    limit = game.decision_limit(players, state.options)
    while not forfeits:
        pending = state.pending()
        if not pending:
            break
        # Build every pending seat's request before any answer is applied: a simultaneous
        # choice is made from the same position, blind to the others.
        requests = []
        for seat in pending:
            decision_id += 1
            legal = state.legal_actions(seat)
            if not legal:
                raise EngineBug(f"{game.info.id}: seat {seat} is pending with no legal action")
            requests.append(DecisionRequest(match_id, decision_id, game.info.id, seat, state.observe(seat), legal,
                                            state.events_for(seat, cursors[seat]), tc.per_decision_ms))
            cursors[seat] = len(state.log)
        chosen: list[tuple[int, dict[str, Any], int]] = []
        for req in requests:
            t0 = time.perf_counter()
            fault = ""
            try:
                answer = agents[req.seat].act(req)
                action = resolve_answer(req, answer)
            except ArenaError as exc:
                fault, action = f"{exc.code}: {exc}", {}
            except Exception as exc:  # noqa: BLE001 - a crashing bot is a fault, not our crash
                fault, action = f"bot_error: {type(exc).__name__}: {exc}", {}
            ms = int((time.perf_counter() - t0) * 1000)
            if not fault and tc.per_decision_ms and ms > tc.per_decision_ms:
                fault = f"timeout: {ms} ms > {tc.per_decision_ms} ms"
            if fault:
                strikes[req.seat] = strikes.get(req.seat, 0) + 1
                faults.append({"ply": plies + 1, "seat": req.seat, "fault": fault})
                if strikes[req.seat] > policy.max_strikes:
                    forfeits[req.seat] = f"{strikes[req.seat]} strikes, last: {fault}"
                    break
                action = fallback.choice(req.legal)
            chosen.append((req.seat, action, ms))
        if forfeits:
            break
        for seat, action, ms in chosen:
            state.apply(seat, action)
            plies += 1
            replay.actions.append({"seat": seat, "action": action, "ms": ms})
            if checkpoint_every and plies % checkpoint_every == 0:
                replay.checkpoints.append({"ply": plies, "digest": state.digest()})
            if on_ply is not None:
                on_ply(state, plies)
        if plies > limit:
            raise EngineBug(f"{game.info.id} passed its safety limit of {limit} decisions")

    outcome = state.outcome()
    if forfeits:
        from .outcome import undecided

        outcome = outcome or undecided(players, cooperative=game.info.cooperative)
        for seat, why in forfeits.items():
            outcome = outcome.with_forfeit(seat, why)
    assert outcome is not None, "a finished game must have an outcome"
    if not replay.checkpoints or replay.checkpoints[-1]["ply"] != plies:
        replay.checkpoints.append({"ply": plies, "digest": state.digest()})
    replay.outcome = outcome.to_json()
    replay.forfeits = forfeits
    if faults:
        replay.meta["faults"] = faults
    for s, agent in enumerate(agents):
        end = getattr(agent, "end", None)
        if end is not None:
            end(outcome.to_json())
    return MatchResult(outcome, replay, plies, time.perf_counter() - started, strikes, faults)


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
