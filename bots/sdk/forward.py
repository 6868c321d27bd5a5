"""The forward model in-process ("local mode"): determinized samples as handles, simulated by the engine.

Design (docs/protocol.md, "Forward model"): a bot cannot rebuild the hidden part of a position from
its views alone without game-specific inference, so the samples come from the referee side, which
holds the true state and draws them with ``State.redeterminize(seat, rng)`` (leak-free by the engine's
contract: the copy is a function of the seat's information set and the bot's seed only). What the
bot then does with a sample (apply, legal, view, clone, playout) runs here, in the bot's process,
with the same engine, so a search step costs no round trip. In-process matches (``arena play``,
``arena eval``) hand the sampler to the bot through ``Bot.bind_sampler``; a remote bot gets the same
samples as snapshots (``ForwardModel.load``).

    fm = ForwardModel(sampler)
    for h in fm.sample(8, seed=request.decision_id):
        fm.apply(h, request.seat, action)
        outcome = fm.playout(h, seed=1)
        fm.release(h)
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from referee.engine.errors import ArenaError
from referee.engine.registry import get_game
from referee.engine.rng import Rng
from referee.engine.state import State


class ForwardModelError(ArenaError):
    code = "forward_model"


class Sampler(Protocol):
    seat: int

    def sample(self, k: int, seed: int | str) -> list[State]: ...


@dataclass(frozen=True)
class Limits:
    """Per-bot limits (the remote service enforces the same ones)."""

    max_handles: int = 4096
    max_decisions: int = 50_000_000  # simulated decisions per match


class ForwardModel:
    """Handles on determinized states. Handles are small integers, valid until released."""

    def __init__(self, sampler: Sampler | None = None, limits: Limits | None = None) -> None:
        self._sampler = sampler
        self.limits = limits or Limits()
        self._states: dict[int, State] = {}
        self._next = 1
        self.decisions = 0  # simulated decisions so far (apply + playout moves)

    # -- handles ------------------------------------------------------------------------------
    def _new(self, state: State) -> int:
        if len(self._states) >= self.limits.max_handles:
            raise ForwardModelError(f"handle limit reached ({self.limits.max_handles}); release some")
        h = self._next
        self._next += 1
        self._states[h] = state
        return h

    def state(self, h: int) -> State:
        try:
            return self._states[h]
        except KeyError:
            raise ForwardModelError(f"no handle {h!r} (released or never issued)") from None

    def sample(self, k: int, seed: int | str) -> list[int]:
        """K determinized samples of the current position for the bot's seat."""
        if self._sampler is None:
            raise ForwardModelError("no sampler: this match gives no forward model (load snapshots instead)")
        if len(self._states) + k > self.limits.max_handles:
            raise ForwardModelError(f"handle limit reached ({self.limits.max_handles}); release some")
        return [self._new(s) for s in self._sampler.sample(k, seed)]

    def load(self, snapshot: Mapping[str, Any]) -> int:
        """A handle on a sample received as a snapshot (from the remote service's ``sample``)."""
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
            raise ForwardModelError(f"simulated-decision limit reached ({self.limits.max_decisions})")

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
        self.state(h)._apply(seat, action)

    def playout(self, h: int, seed: int | str, max_decisions: int | None = None) -> dict[str, Any] | None:
        """Random legal moves to the end (or ``max_decisions``); the outcome, None if cut short."""
        st = self.state(h)
        rng = Rng(f"playout:{seed}")
        cap = max_decisions if max_decisions is not None else st.game.decision_limit(st.players, st.options)
        n = 0
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
                    st._apply(seat, action)
                    n += 1
        finally:
            self._count(n)
        out = st.outcome()
        return out.to_json() if out is not None else None
