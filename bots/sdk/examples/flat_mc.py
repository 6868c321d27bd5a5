"""Flat Monte-Carlo with the forward model: the example of docs/protocol.md, "Forward model".

For every legal action, ``per_action`` determinized samples of the position: apply the action, play
random moves to the end, score the outcome for our seat; play the action with the best mean. Two
calls a decision whatever the number of simulations: one ``sample``, one ``batch`` of
apply + playout + release per sample. The same class runs through a referee (the SDK binds a
``RemoteForwardModel``: the referee simulates) and in-process (``arena play clank --bots
bots/sdk/examples/flat_mc.py:FlatMonteCarlo,random``: the runner binds a sampler, simulated here)::

    ARENA_REFEREE=127.0.0.1:50051 ARENA_TOKEN=... python -m bots.sdk.examples.flat_mc [GAME ...]

(hosted: ``command="{python} -m bots.sdk.examples.flat_mc"``).
"""
from __future__ import annotations

import sys
from typing import Any

from bots.sdk import Bot, DecisionRequest, run
from bots.sdk.forward import ForwardModel, Sampler
from bots.sdk.remote_forward import RemoteForwardModel
from bots.search.rewards import reward_of


class FlatMonteCarlo(Bot):
    per_action = 4  # samples per legal action
    max_simulations = 64  # per decision, whatever the number of legal actions
    depth = 0  # decisions per playout (0: to the end)

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.fm: ForwardModel | RemoteForwardModel | None = None
        self.simulations = 0

    def bind_forward(self, fm: RemoteForwardModel) -> None:  # through a referee
        self.fm = fm

    def bind_sampler(self, sampler: Sampler) -> None:  # in-process
        self.fm = ForwardModel(sampler)

    def act(self, request: DecisionRequest) -> int | dict[str, Any]:
        n = len(request.legal)
        if self.fm is None or n == 1:
            return 0
        fm, seat = self.fm, request.seat
        seed = f"{self.seed}:{request.decision_id}"
        k = max(n, min(n * self.per_action, self.max_simulations))
        handles = fm.sample(k, seed)  # the position as our seat knows it, re-drawn k times
        batch = fm.batch()
        for j, h in enumerate(handles):
            # a sample's legal list for our seat is the request's (its information set is ours)
            batch.apply(h, seat, j % n).playout(h, f"{seed}:{j}", self.depth or None).release(h)
        results = batch.run()
        totals = [0.0] * n
        counts = [0] * n
        players = self.match.players if self.match is not None else 2
        for j in range(len(handles)):
            outcome = results[3 * j + 1]
            totals[j % n] += reward_of(outcome, players)[seat] if outcome is not None else 0.5
            counts[j % n] += 1
        self.simulations += len(handles)
        return max(range(n), key=lambda i: totals[i] / max(1, counts[i]))

    def end(self, outcome: dict[str, Any]) -> None:
        print(f"flat_mc: {self.simulations} simulations", file=sys.stderr, flush=True)


if __name__ == "__main__":
    stats = run(FlatMonteCarlo, games=sys.argv[1:])
    print(f"flat_mc: {stats.matches} match(es), {stats.decisions} decisions", file=sys.stderr)
