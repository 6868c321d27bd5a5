"""Heuristic-guided playouts: every seat of a sample played by the game's heuristic bot.

Random playouts in these long games carry almost no signal (README, strength table); the heuristic
bots are a far better model of play, and in ``arena eval`` against the heuristic they are exactly the
opponent's policy. A playout asks one fresh heuristic bot per seat (so no memory of the real match
leaks between seats, and none is shared between playouts) with the request the seat would get: its
own view of the sample and its legal list, never the sample's hidden part. ``epsilon`` of the moves
are random instead, so that playouts from one sample still differ a little.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bots.sdk.bot import Bot
from referee.engine.agent import DecisionRequest, MatchStart
from referee.engine.rng import Rng
from referee.engine.state import State


def _heuristic(game_id: str, seed: int) -> Bot | None:
    from bots.builtin import UnknownBot, make_bot

    try:
        return make_bot("heuristic", game_id, seed)
    except UnknownBot:
        return None


def _index(answer: int | dict[str, Any], legal: list[dict[str, Any]]) -> int | None:
    if isinstance(answer, bool):
        return None
    if isinstance(answer, int):
        return answer if 0 <= answer < len(legal) else None
    try:
        return legal.index(answer)
    except ValueError:
        return None


def set_modes(bot: Bot, modes: dict[str, Any]) -> None:
    """Put a heuristic bot in the modes the search bot plays its own seat in (``improve.MODES``)."""
    for name, value in modes.items():
        setattr(bot, name, value)


class PolicyPlayout:
    """Plays a state forward with heuristic bots (epsilon-greedy); random moves where a game has none."""

    def __init__(self, game_id: str, players: int, options: dict[str, Any], epsilon: float = 0.05,
                 modes: dict[int, dict[str, Any]] | None = None) -> None:
        self.game_id = game_id
        #: Attributes set on a seat's heuristic bot (a mode the search bot plays in, for its own seat).
        self.modes = modes or {}
        self.players = players
        self.options = options
        self.epsilon = epsilon
        self.available = _heuristic(game_id, 0) is not None

    def _bots(self, seed: str) -> list[Bot | None]:
        bots: list[Bot | None] = []
        for seat in range(self.players):
            bot = _heuristic(self.game_id, seat)
            if bot is not None:
                set_modes(bot, self.modes.get(seat, {}))
                bot.start(MatchStart(f"playout-{seed}", self.game_id, "", dict(self.options), seat,
                                     self.players, []))
            bots.append(bot)
        return bots

    def run(self, st: State, seed: str, max_decisions: int,
            until: Callable[[State], bool] | None = None) -> int:
        """Play ``st`` in place for at most ``max_decisions`` decisions, or until ``until(st)`` holds;
        returns the decisions played."""
        rng = Rng(f"policy-playout:{seed}")
        bots = self._bots(seed) if self.available else [None] * self.players
        eps_scaled = int(self.epsilon * 1_000_000)
        n = 0
        while n < max_decisions:
            pending = st.pending()
            if not pending or (until is not None and until(st)):
                break
            picks = []
            for seat in pending:
                legal = st.legal_actions(seat)
                i: int | None = None
                bot = bots[seat]
                if len(legal) == 1:
                    i = 0
                elif bot is not None and rng.below(1_000_000) >= eps_scaled:
                    request = DecisionRequest(f"playout-{seed}", n, self.game_id, seat, st.observe(seat),
                                              legal, [])
                    try:
                        i = _index(bot.act(request), legal)
                    except Exception:  # noqa: BLE001 - a heuristic confused by a sample: play on randomly
                        bots[seat] = None
                if i is None:
                    i = rng.below(len(legal))
                picks.append((seat, legal[i]))
            for seat, action in picks:
                st.apply_trusted(seat, action)
                n += 1
        return n
