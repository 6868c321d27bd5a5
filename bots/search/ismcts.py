"""Single-observer information-set MCTS (Cowling, Powley & Whitehouse 2012), as OpenSpiel's IS-MCTS.

One tree per decision, from the deciding seat's point of view, with nodes keyed by action (canonical
JSON), not by state. Every iteration draws a fresh determinization of the current position from the
forward model (a sample of the seat's information set, never the true state), walks the tree with
UCB restricted to the actions legal in that sample (a child's "availability" counts the iterations in
which it could have been chosen), expands one action, plays random moves for at most
``rollout_depth`` decisions, and backs up one reward per seat (``rewards.py``): every node is scored
for the seat that chose its action, so opponents are modelled as maximising their own result.

Budget: ``iterations`` per decision and/or ``time_ms`` per decision (whichever ends first); a bot
never uses more than 40 % of the request's deadline. The name ``search`` plays the default budget;
``search@400`` 400 iterations; ``search@250ms`` 250 ms per decision.

``search+heuristic@...``: the same search with a prior: the game's heuristic bot (fed the same
requests, so it sees only what the seat sees) names a move, whose root child starts with
``prior_visits`` virtual visits at a reward of 0.5; the search overrides it only when simulated
evidence says another move is better. With a small budget this plays close to the heuristic.
"""
from __future__ import annotations

import math
import re
import time
from dataclasses import dataclass
from typing import Any

from bots.sdk.bot import Bot
from bots.sdk.forward import ForwardModel, Sampler
from referee.engine.agent import DecisionRequest, MatchStart
from referee.engine.jsonutil import canonical
from referee.engine.rng import Rng

from .rewards import ROLLOUT_DEPTH, cutoff_reward, reward_of


@dataclass(frozen=True)
class Budget:
    iterations: int = 200
    time_ms: int = 0  # 0: iterations only
    rollout_depth: int = 0  # 0: the game's default (rewards.ROLLOUT_DEPTH, else 400)
    exploration: float = 0.7
    #: Virtual visits given to the heuristic bot's choice at the root (0: no prior; see ``SearchBot``).
    prior_visits: int = 0

    def label(self) -> str:
        return f"{self.time_ms}ms" if self.time_ms else f"{self.iterations} it"


DEFAULT = Budget()


def parse_budget(text: str) -> Budget:
    """``"400"`` -> 400 iterations, ``"250ms"`` -> 250 ms per decision (iterations unbounded)."""
    m = re.fullmatch(r"(\d+)(ms)?", text.strip())
    if not m or int(m.group(1)) <= 0:
        raise ValueError("a search budget is a positive number of iterations or milliseconds ('400', "
                         f"'250ms'), not {text!r}")
    n = int(m.group(1))
    return Budget(iterations=1 << 30, time_ms=n) if m.group(2) else Budget(iterations=n)


class _Edge:
    """Statistics of one seat's action at one node (its reward summed for that seat)."""

    __slots__ = ("avail", "seat", "total", "visits")

    def __init__(self, seat: int) -> None:
        self.visits = 0
        self.avail = 0
        self.total = 0.0
        self.seat = seat


class _Node:
    """An information-set node: per-seat action edges, and the node after each (joint) choice.

    A simultaneous choice is decoupled: every pending seat picks from its own edges at the same node,
    blind to the others' picks (keys are ``"<seat>|<action>"``), and the successor is keyed by the
    joint choice; so no seat is modelled as seeing what another chose at the same time."""

    __slots__ = ("edges", "next")

    def __init__(self) -> None:
        self.edges: dict[str, _Edge] = {}
        self.next: dict[str, _Node] = {}


class SearchBot(Bot):
    """IS-MCTS for any game of the engine; needs the forward model (in-process: the runner binds it)."""

    def __init__(self, seed: int = 0, budget: Budget = DEFAULT) -> None:
        super().__init__(seed)
        self.budget = budget
        self.fm: ForwardModel | None = None
        self.rng = Rng(f"search-bot:{seed}")
        self.iterations_done = 0
        self.prior: Bot | None = None

    def start(self, info: MatchStart) -> None:
        super().start(info)
        if self.budget.prior_visits:
            from bots.builtin import UnknownBot, make_bot

            try:
                self.prior = make_bot("heuristic", info.game, self.seed)
            except UnknownBot:
                self.prior = None
            if self.prior is not None:
                self.prior.start(info)

    def bind_sampler(self, sampler: Sampler) -> None:
        self.fm = ForwardModel(sampler)

    def act(self, request: DecisionRequest) -> int | dict[str, Any]:
        hint: int | None = None
        if self.prior is not None:
            answer = self.prior.act(request)  # every request, so its memory of events stays whole
            if isinstance(answer, int) and not isinstance(answer, bool):
                hint = answer
            elif answer in request.legal:
                hint = request.legal.index(answer)
        if len(request.legal) == 1:
            return 0
        if self.fm is None:
            # No forward model in this match (a remote referee without the service): the prior's move,
            # else a random one.
            return hint if hint is not None else self.rng.below(len(request.legal))
        return self._search(request, hint)

    def _search(self, request: DecisionRequest, hint: int | None = None) -> int:
        fm = self.fm
        assert fm is not None
        b = self.budget
        t_end = math.inf
        limit_ms = b.time_ms
        if request.deadline_ms:
            share = request.deadline_ms * 2 // 5
            limit_ms = min(limit_ms, share) if limit_ms else share
        if limit_ms:
            t_end = time.perf_counter() + limit_ms / 1000.0
        me = request.seat
        root = _Node()
        keys = [f"{me}|{canonical(a)}" for a in request.legal]
        if hint is not None and 0 <= hint < len(keys):
            virtual = _Edge(me)
            virtual.visits = virtual.avail = self.budget.prior_visits
            virtual.total = 0.5 * self.budget.prior_visits
            root.edges[keys[hint]] = virtual
        seed_base = f"{self.seed}:{request.decision_id}"
        it = 0
        while it < b.iterations and time.perf_counter() < t_end:
            (h,) = fm.sample(1, f"{seed_base}:{it}")
            try:
                self._iterate(fm, h, root, it)
            finally:
                fm.release(h)
            it += 1
        self.iterations_done += it
        best, best_visits = 0, -1
        for i, k in enumerate(keys):
            edge = root.edges.get(k)
            v = edge.visits if edge is not None else -1
            if v > best_visits:
                best, best_visits = i, v
        return best

    def _iterate(self, fm: ForwardModel, h: int, root: _Node, it: int) -> None:
        st = fm.state(h)
        rng = self.rng
        c = self.budget.exploration
        path: list[_Edge] = []
        node = root
        expanded = False
        while not expanded:
            pending = st.pending()
            if not pending:
                break
            picks = []
            chosen = []
            for seat in pending:
                legal = st.legal_actions(seat)
                lkeys = [f"{seat}|{canonical(a)}" for a in legal]
                edges = node.edges
                unexplored = [i for i, k in enumerate(lkeys) if k not in edges]
                if unexplored:
                    i = unexplored[rng.below(len(unexplored))]
                    edges[lkeys[i]] = _Edge(seat)
                    for k in lkeys:
                        if k in edges:
                            edges[k].avail += 1
                    expanded = True
                else:
                    i, best_u = 0, -math.inf
                    for j, k in enumerate(lkeys):
                        e = edges[k]
                        e.avail += 1
                        u = e.total / e.visits + c * math.sqrt(math.log(e.avail) / e.visits)
                        if u > best_u:
                            i, best_u = j, u
                path.append(edges[lkeys[i]])
                chosen.append(lkeys[i])
                picks.append((seat, legal[i]))
            for seat, action in picks:
                fm.apply_trusted(h, seat, action)
            joint = "\n".join(chosen)
            nxt = node.next.get(joint)
            if nxt is None:
                nxt = node.next[joint] = _Node()
            node = nxt
        depth = self.budget.rollout_depth or ROLLOUT_DEPTH.get(st.game.info.id, 400)
        outcome = fm.playout(h, f"{self.seed}:{it}", depth)
        reward = reward_of(outcome, st.players) if outcome is not None else cutoff_reward(st)
        for e in path:
            e.visits += 1
            e.total += reward[e.seat]
