"""The forward model: determinized samples as handles, simulated by the engine.

Design (docs/forward-model.md): a bot cannot rebuild the hidden part of a position from its views
alone without game-specific inference, so the samples come from the side that holds the true state,
drawn with ``State.redeterminize(seat, rng)`` (leak-free by the engine's contract: the copy is a
function of the seat's information set and the bot's seed only). The same class serves both modes:

* **local** (``bots.sdk.forward``): in the bot's process, the in-process runner binds a
  ``SeatSampler`` (``Bot.bind_sampler``) and every step runs here with no round trip;
* **remote** (``referee/service/forward.py``): the referee keeps one per seat and decision, and runs
  the ops of a bot's ``ForwardCall`` on it (limits and errors are the same).

    fm = ForwardModel(sampler)
    for h in fm.sample(8, seed=request.decision_id):
        fm.apply(h, request.seat, action)
        outcome = fm.playout(h, seed=1)
        fm.release(h)
"""
from __future__ import annotations

from collections.abc import Generator, Mapping
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from .errors import ArenaError
from .registry import get_game
from .rng import Rng
from .state import State

ErrorKind = Literal["bad_handle", "handle_limit", "decision_limit", "memory_limit", "no_sampler"]

#: Decisions a playout simulates between two checks of its caller's time slice (``playout_steps``).
PLAYOUT_CHUNK = 32


class ForwardModelError(ArenaError):
    code = "forward_model"

    def __init__(self, message: str, kind: ErrorKind = "bad_handle") -> None:
        super().__init__(message)
        self.kind = kind


class Sampler(Protocol):
    seat: int

    def sample(self, k: int, seed: int | str) -> list[State]: ...


@dataclass(frozen=True)
class Limits:
    """Per-bot limits (the remote service enforces the same ones, with its own defaults)."""

    max_handles: int = 4096
    max_decisions: int = 50_000_000  # simulated decisions per match
    #: Approximate memory cap: live handles x ``ForwardModel.state_bytes`` (0 = not checked).
    max_memory_bytes: int = 0


class ForwardModel:
    """Handles on determinized states. Handles are small integers, valid until released."""

    def __init__(self, sampler: Sampler | None = None, limits: Limits | None = None, *,
                 decisions: int = 0, state_bytes: int = 0) -> None:
        self._sampler = sampler
        self.limits = limits or Limits()
        self._states: dict[int, State] = {}
        self._next = 1
        self.decisions = decisions  # simulated decisions so far (apply + playout moves)
        #: estimated size of one state (its snapshot's JSON length); the memory cap counts it per handle
        self.state_bytes = state_bytes

    # -- handles ------------------------------------------------------------------------------
    def _room(self, k: int) -> None:
        lim = self.limits
        if len(self._states) + k > lim.max_handles:
            raise ForwardModelError(f"handle limit reached ({lim.max_handles} live); release some",
                                    "handle_limit")
        if lim.max_memory_bytes and self.state_bytes * (len(self._states) + k) > lim.max_memory_bytes:
            cap = lim.max_memory_bytes // max(1, self.state_bytes)
            raise ForwardModelError(f"memory limit reached (~{lim.max_memory_bytes >> 20} MiB: {cap} states "
                                    f"of ~{self.state_bytes >> 10} KiB); release some", "memory_limit")

    def _new(self, state: State) -> int:
        self._room(1)
        h = self._next
        self._next += 1
        self._states[h] = state
        return h

    def state(self, h: int) -> State:
        try:
            return self._states[h]
        except (KeyError, TypeError):
            raise ForwardModelError(f"no handle {h!r} (released or never issued)") from None

    def sample(self, k: int, seed: int | str) -> list[int]:
        """K determinized samples of the current position for the bot's seat."""
        if self._sampler is None:
            raise ForwardModelError("no sampler: this match gives no forward model (load snapshots instead)",
                                    "no_sampler")
        self._room(k)
        return [self._new(s) for s in self._sampler.sample(k, seed)]

    def load(self, snapshot: Mapping[str, Any]) -> int:
        """A handle on a sample received as a snapshot (the remote service's ``sample`` with snapshots)."""
        return self._new(get_game(str(snapshot["game"])).restore(dict(snapshot)))

    def clone(self, h: int) -> int:
        return self._new(self.state(h).clone())

    def release(self, *handles: int) -> None:
        for h in handles:
            self._states.pop(h, None)

    def release_all(self) -> None:
        self._states.clear()

    @property
    def live(self) -> int:
        return len(self._states)

    def batch(self) -> Batch:
        """Several ops in one go (here: in order, at once; remotely: one round trip)."""
        return Batch(self)

    # -- reading and moving -------------------------------------------------------------------
    def pending(self, h: int) -> list[int]:
        return self.state(h).pending()

    def legal(self, h: int, seat: int) -> list[dict[str, Any]]:
        return self.state(h).legal_actions(seat)

    def view(self, h: int, seat: int) -> dict[str, Any]:
        return self.state(h).observe(seat)

    def outcome(self, h: int) -> dict[str, Any] | None:
        out = self.state(h).outcome()
        return out.to_json() if out is not None else None

    def _count(self, n: int) -> None:
        self.decisions += n
        if self.decisions > self.limits.max_decisions:
            raise ForwardModelError(f"simulated-decision limit reached ({self.limits.max_decisions} a match)",
                                    "decision_limit")

    def apply(self, h: int, seat: int, action: int | dict[str, Any]) -> dict[str, Any]:
        """Checked apply of an action or of an index into ``legal(h, seat)``; returns the action."""
        st = self.state(h)
        self._count(1)
        if isinstance(action, int) and not isinstance(action, bool):
            return st.apply_index(seat, action)
        return st.apply(seat, action)

    def apply_trusted(self, h: int, seat: int, action: dict[str, Any]) -> None:
        """Apply an action taken from ``legal(h, seat)`` unchecked (the search loop's fast path)."""
        self._count(1)
        self.state(h).apply_trusted(seat, action)

    def playout(self, h: int, seed: int | str, max_decisions: int | None = None) -> dict[str, Any] | None:
        """Random legal moves to the end (or ``max_decisions``); the outcome, None if cut short."""
        steps = self.playout_steps(h, seed, max_decisions, chunk=1 << 62)
        while True:
            try:
                next(steps)
            except StopIteration as stop:
                outcome: dict[str, Any] | None = stop.value
                return outcome

    def playout_steps(self, h: int, seed: int | str, max_decisions: int | None = None,
                      chunk: int = PLAYOUT_CHUNK) -> Generator[int, None, dict[str, Any] | None]:
        """``playout`` as a generator that yields the decisions so far every ``chunk`` decisions (the
        referee runs a long playout in time slices) and returns the outcome. Same moves as ``playout``."""
        st = self.state(h)
        rng = Rng(f"playout:{seed}")
        cap = max_decisions if max_decisions is not None else st.game.decision_limit(st.players, st.options)
        # one past what the per-match limit leaves: the playout stops there and _count raises, instead of
        # simulating a whole game over the limit first
        cap = min(cap, self.limits.max_decisions - self.decisions + 1)
        n = counted = 0
        mark = chunk
        try:
            while n < cap:
                pending = st.pending()
                if not pending:
                    break
                picks = []
                for seat in pending:
                    legal = st.legal_actions(seat)
                    picks.append((seat, legal[rng.below(len(legal))]))
                for seat, action in picks:
                    st.apply_trusted(seat, action)
                    n += 1
                if n >= mark:
                    mark = n + chunk
                    step, counted = n - counted, n
                    self._count(step)  # counted at each slice: the limit holds mid-playout
                    yield n
        finally:
            if n > counted:
                self._count(n - counted)
        out = st.outcome()
        return out.to_json() if out is not None else None


class Batch:
    """Ops collected and run together: ``fm.batch().sample(4, 1).run()``. Locally they simply run in
    order; ``RemoteForwardModel.batch`` sends them in one ``ForwardCall`` (one round trip).
    ``run()`` returns one result per op, as the single calls would."""

    def __init__(self, fm: ForwardModel) -> None:
        self._fm = fm
        self._ops: list[tuple[Any, tuple[Any, ...]]] = []

    def __len__(self) -> int:
        return len(self._ops)

    def _add(self, method: Any, *args: Any) -> Batch:
        self._ops.append((method, args))
        return self

    def sample(self, k: int, seed: int | str) -> Batch:
        return self._add(self._fm.sample, k, seed)

    def apply(self, h: int, seat: int, action: int | dict[str, Any]) -> Batch:
        return self._add(self._fm.apply, h, seat, action)

    def legal(self, h: int, seat: int) -> Batch:
        return self._add(self._fm.legal, h, seat)

    def view(self, h: int, seat: int) -> Batch:
        return self._add(self._fm.view, h, seat)

    def outcome(self, h: int) -> Batch:
        return self._add(self._fm.outcome, h)

    def pending(self, h: int) -> Batch:
        return self._add(self._fm.pending, h)

    def clone(self, h: int) -> Batch:
        return self._add(self._fm.clone, h)

    def release(self, *handles: int) -> Batch:
        return self._add(self._fm.release, *handles)

    def playout(self, h: int, seed: int | str, max_decisions: int | None = None) -> Batch:
        return self._add(self._fm.playout, h, seed, max_decisions)

    def run(self) -> list[Any]:
        ops, self._ops = self._ops, []
        return [method(*args) for method, args in ops]
