"""Determinized samples of a live match for one seat: the referee's half of the forward model.

A bot that searches asks for K states consistent with everything its seat has observed. The only
source of such states is ``State.redeterminize(seat, rng)``: its contract (checked for every game by
the conformance suite) says the copy depends on what ``seat`` has seen and on ``rng`` only, its RNG is
reseeded (the true future is not in it) and its log keeps the seat's events only. So handing a copy
to the seat reveals nothing the seat did not already know.

The in-process runner gives a ``SeatSampler`` to every agent that asks for one (``bind_sampler``);
the remote forward-model service serves the same samples as snapshots.
"""
from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from .rng import Rng

if TYPE_CHECKING:
    from .state import State


class SeatSampler:
    """Samples of the current position of a live ``state`` as ``seat`` sees it.

    ``sample(k, seed)`` is a pure function of (seat's information set, seed, k): the bot picks the
    seed, never the game; equal seeds give equal sample streams.
    """

    def __init__(self, state: State, seat: int) -> None:
        self._state = state
        self.seat = seat
        self.game = state.game
        self.players = state.players
        self.options: dict[str, Any] = dict(state.options)

    def sample(self, k: int, seed: int | str) -> list[State]:
        if isinstance(k, bool) or not isinstance(k, int) or k < 0:
            raise ValueError(f"k must be a non-negative integer, not {k!r}")
        stream = self.stream(seed)
        return [next(stream) for _ in range(k)]

    def stream(self, seed: int | str) -> Iterator[State]:
        """The endless sample stream of ``seed``: ``sample(k, seed)`` is its first k items (the referee
        draws them one at a time, between time slices)."""
        rng = Rng(f"sample:{seed}")
        while True:
            yield self._state.redeterminize(self.seat, rng)

    def sample_snapshots(self, k: int, seed: int | str) -> list[dict[str, Any]]:
        """The same samples as JSON snapshots (what the remote service sends)."""
        return [s.snapshot() for s in self.sample(k, seed)]
