"""``search+rollouts``: one step of policy improvement over the heuristic, by paired simulation.

The rollout algorithm (Tesauro & Galperin 1996; Bertsekas' "rollout"): for every legal move, play the
position on with the heuristic policy (``policy.PolicyPlayout``, every seat, a depth limit, the
leaf scored by ``rewards``) and play the move whose simulated result is best. On determinized samples
(the forward model) that is flat Monte Carlo over the information set, with two changes that make it
work at a budget of a few dozen playouts:

* **paired samples**: every round draws one sample, and every candidate move is played from a clone
  of it with the same playout seed, so candidates are compared on the same hidden cards and dice (the
  difference to the heuristic's move has far less noise than either value);
* **the heuristic's move is the default**: another move is played only when its mean paired gain is
  above ``margin`` and two standard errors; candidates clearly worse than it are dropped as rounds go
  (successive rejection), so the budget goes to the close ones.

A move the heuristic answers with a card play in Clank (it plays the whole hand first) gains nothing
from being searched (``SKIP``): those answer at once.
"""
from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bots.sdk.bot import Bot
from bots.sdk.forward import ForwardModel, Sampler
from referee.engine.agent import DecisionRequest, MatchStart
from referee.engine.rng import Rng
from referee.engine.state import State

from .ismcts import parse_budget
from .policy import PolicyPlayout, set_modes
from .rewards import leaf_reward, reward_of

#: Playout length (decisions) before the leaf estimate, by game (heuristic games: ~250 decisions in
#: 2-seat Clank and Dungeon Twister); else ``Improve.depth``.
DEPTH: dict[str, int] = {"clank": 100, "dungeon_twister": 200, "blockcraft": 60}

#: Playouts stop after this many turns (the game's own turn counter), by game, before ``DEPTH`` if
#: sooner. Dungeon Twister: 4 turns (the rest of mine, the opponent's, mine, the opponent's: ~80
#: decisions), so a move is judged by what the opponent does with it and by the next turn it sets up,
#: at a fraction of the cost of playing the ~300 decisions to the end (2 turns: 23 wins, 3 draws, 14
#: losses in 40 games against the heuristic; 4 turns: 12-1-4 in the first 17 of the same games).
TURNS: dict[str, tuple[Callable[[State], int], int]] = {
    "dungeon_twister": (lambda st: int(getattr(st, "turn", 0)), 4),
}

#: Heuristic answers not worth searching, by game: (action type of the heuristic's move).
SKIP: dict[str, frozenset[str]] = {
    "clank": frozenset({"play_card"}),
    # set-up placements (20-80 moves each, decided by the race later) and the steps of a chosen move
    "dungeon_twister": frozenset({"choose_starter", "place_hidden", "place_revealed", "step"}),
}
#: Playout randomness by game; else ``Improve.epsilon``. Dungeon Twister has no dice after set-up, so
#: greedy playouts from one sample are deterministic: the paired difference of two candidates is then
#: exactly "what the heuristic opponent does against each", and differs between samples only by what is
#: hidden (face-down rooms and tokens), not by playout noise.
EPSILON: dict[str, float] = {"dungeon_twister": 0.0}
#: At most this many candidates a decision (the heuristic's move and a seeded random choice of the
#: others): at a few hundred ms a decision, more would leave each too few paired samples.
MAX_CANDIDATES = 6
#: Fewer by game: Dungeon Twister's come best first by the heuristic's own scores (``_ranked``), and its
#: turn-long playouts cost more, so the budget goes to the heuristic's move and its 3 runners-up.
CANDIDATES: dict[str, int] = {"dungeon_twister": 4}
#: Modes of the heuristic the search bot plays in, by game: set on its own prior and on its own seat's
#: playout bot (never on the opponent's). Dungeon Twister ``strict``: walls count for reveals and as a
#: detour cost, walled-in characters walk to gears (bots/heuristic/dungeon_twister.py); without it a
#: third of the games against the heuristic were 200-turn 0-0 / 1-1 stalls behind walls. Blockcraft
#: ``frugal``: at most one hunger-costing action a turn in ``overlord``, the last one alive wins
#: (bots/heuristic/blockcraft.py).
MODES: dict[str, dict[str, Any]] = {"dungeon_twister": {"strict": True}, "blockcraft": {"frugal": True}}


@dataclass(frozen=True)
class Improve:
    time_ms: int = 300
    rounds: int = 1 << 30  # samples per decision (each plays every live candidate once)
    depth: int = 0  # 0: DEPTH by game, else 200
    turns: int = -1  # playouts stop after this many turns: -1 TURNS by game (else none), 0 none
    epsilon: float = 0.05
    #: Smallest mean paired gain (reward units, 0..1) for which the search leaves the heuristic's move.
    margin: float = 0.02
    min_rounds: int = 3  # before a candidate can be dropped


def _stats(xs: list[float]) -> tuple[float, float]:
    """Mean and standard error."""
    n = len(xs)
    if n == 0:
        return 0.0, math.inf
    m = sum(xs) / n
    if n < 2:
        return m, math.inf
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    return m, math.sqrt(var / n)


class RolloutBot(Bot):
    """The heuristic, improved by paired heuristic playouts on determinized samples."""

    def __init__(self, seed: int = 0, budget: Improve | None = None, *, tuned: bool = False) -> None:
        super().__init__(seed)
        self.budget = budget or Improve()
        self.tuned = tuned  # the budget is chosen by game at the start (``TUNED``)
        self.fm: ForwardModel | None = None
        self.prior: Bot | None = None
        self.playout: PolicyPlayout | None = None
        self.rng = Rng(f"rollout-bot:{seed}")
        self.searched = 0  # decisions searched
        self.deviations = 0  # of which the heuristic's move was overruled
        self.rounds_done = 0

    def start(self, info: MatchStart) -> None:
        super().start(info)
        from bots.builtin import UnknownBot, make_bot

        if self.tuned:
            self.budget = Improve(time_ms=1 << 30, rounds=TUNED.get(info.game, 4))

        try:
            self.prior = make_bot("heuristic", info.game, self.seed)
            set_modes(self.prior, MODES.get(info.game, {}))
            self.prior.start(info)
        except UnknownBot:
            self.prior = None
        self.playout = PolicyPlayout(info.game, info.players, dict(info.options),
                                     EPSILON.get(info.game, self.budget.epsilon),
                                     {info.seat: MODES.get(info.game, {})})

    def bind_sampler(self, sampler: Sampler) -> None:
        self.fm = ForwardModel(sampler)

    def act(self, request: DecisionRequest) -> int | dict[str, Any]:
        hint: int | None = None
        if self.prior is not None:
            answer = self.prior.act(request)  # every request, so its memory of events stays whole
            if isinstance(answer, int) and not isinstance(answer, bool):
                hint = answer if 0 <= answer < len(request.legal) else None
            elif answer in request.legal:
                hint = request.legal.index(answer)
        if len(request.legal) == 1:
            return 0
        if hint is not None and request.legal[hint].get("type") in SKIP.get(request.game, frozenset()):
            return hint
        if self.fm is None or self.playout is None:
            return hint if hint is not None else self.rng.below(len(request.legal))
        return self._search(request, hint if hint is not None else 0)

    def _search(self, request: DecisionRequest, hint: int) -> int:
        fm, playout, b = self.fm, self.playout, self.budget
        assert fm is not None and playout is not None
        limit_ms = b.time_ms
        if request.deadline_ms:
            limit_ms = min(limit_ms, request.deadline_ms * 2 // 5)
        t_end = time.perf_counter() + limit_ms / 1000.0
        me = request.seat
        depth = b.depth or DEPTH.get(request.game, 200)
        alive = list(range(len(request.legal)))
        ranked = self._ranked(request, hint)
        most = CANDIDATES.get(request.game, MAX_CANDIDATES)
        if ranked is not None:
            alive = sorted(ranked[:most])
        elif len(alive) > most:
            others = [i for i in alive if i != hint]
            pick = Rng(f"candidates:{self.seed}:{request.decision_id}")
            for k in range(most - 1):  # partial Fisher-Yates: a seeded sample of the others
                j = k + pick.below(len(others) - k)
                others[k], others[j] = others[j], others[k]
            alive = sorted([hint, *others[:most - 1]])
        gains: dict[int, list[float]] = {i: [] for i in alive if i != hint}
        base = f"{self.seed}:{request.decision_id}"
        r = 0
        while r < b.rounds and len(alive) > 1 and time.perf_counter() < t_end:
            (h,) = fm.sample(1, f"{base}:{r}")
            until = self._until(request.game, b.turns, fm.state(h))
            values: dict[int, float] = {}
            try:
                for i in alive:
                    c = fm.clone(h)
                    try:
                        st = fm.state(c)
                        fm.apply_trusted(c, me, request.legal[i])
                        n = playout.run(st, f"{base}:{r}", depth, until)
                        fm.decisions += n
                        out = st.outcome()
                        rew = reward_of(out.to_json(), st.players) if out is not None else leaf_reward(st)
                        values[i] = rew[me]
                    finally:
                        fm.release(c)
                    if time.perf_counter() >= t_end and i != alive[-1]:
                        break  # an unfinished round is not paired for everyone: keep what pairs with the hint
            finally:
                fm.release(h)
            if hint in values:
                for i, v in values.items():
                    if i != hint:
                        gains[i].append(v - values[hint])
            r += 1
            if r >= b.min_rounds:
                alive = [i for i in alive if i == hint or _stats(gains[i])[0] + 2 * _stats(gains[i])[1] >= 0]
        self.rounds_done += r
        self.searched += 1
        best, best_gain = hint, 0.0
        strict = self.prior is not None  # a heuristic's move is kept unless beaten clearly
        for i, g in gains.items():
            m, se = _stats(g)
            if not g or m <= best_gain:
                continue
            if not strict or (len(g) >= b.min_rounds and m > b.margin and m - 2 * se > 0):
                best, best_gain = i, m
        self.deviations += best != hint
        if best != hint and self.prior is not None and hasattr(self.prior, "chose"):
            self.prior.chose(request.view, request.legal[best])
        return best

    @staticmethod
    def _until(game: str, turns: int, root: State) -> Callable[[State], bool] | None:
        """The playouts' stop test: ``turns`` turns after the decision's own (read before any candidate
        is applied, so an ``end_turn`` candidate is judged at the same moment as the others)."""
        counter, default = TURNS.get(game, (None, 0))
        turns = default if turns < 0 else turns
        if counter is None or turns <= 0:
            return None
        stop = counter(root) + turns
        return lambda st: counter(st) >= stop

    def _ranked(self, request: DecisionRequest, hint: int) -> list[int] | None:
        """The legal moves best first by the heuristic's own scores, when it keeps them for this request
        (Dungeon Twister's main phase): its runners-up are better candidates than a random few."""
        scores = getattr(self.prior, "last_scores", None)
        if not scores or len(scores) != len(request.legal) or request.legal[0].get("type") in (
                "play_action_card", "combat_card"):
            return None
        order = sorted(range(len(scores)), key=lambda i: (-scores[i], i))
        return [hint, *(i for i in order if i != hint)]


#: ``search+rollouts@tuned``: the rounds a decision by game at which the README measures each strength
#: target (load-independent); the demo's search tier.
TUNED: dict[str, int] = {"clank": 4, "dungeon_twister": 3, "blockcraft": 6, "mice_and_mystics": 16,
                         "greyport": 8}


def make_rollout_bot(seed: int, budget: str) -> RolloutBot:
    """``search+rollouts`` (300 ms a decision), ``search+rollouts@500ms``, ``search+rollouts@20`` (20
    rounds, no clock: reproducible, for tests), ``search+rollouts@tuned`` (``TUNED`` rounds by game)."""
    if not budget:
        return RolloutBot(seed)
    if budget == "tuned":
        return RolloutBot(seed, tuned=True)
    try:
        b = parse_budget(budget)
    except ValueError:
        raise ValueError("a search+rollouts budget is a positive number of rounds or milliseconds ('4', "
                         f"'300ms') or 'tuned', not {budget!r}") from None
    if b.time_ms:
        return RolloutBot(seed, Improve(time_ms=b.time_ms))
    return RolloutBot(seed, Improve(time_ms=1 << 30, rounds=b.iterations))
