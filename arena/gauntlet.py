"""``arena gauntlet``: one bot against the field, in-process, optionally stopped by an SPRT.

A *unit* is one deal played with the subject in every seat (copies of one opponent in the other
seats): the deal's luck cancels within the unit. Units are played in batches on a process pool;
after each batch the SPRT (``arena.sprt``) looks at every finished unit and stops the gauntlet once
it accepts H0 or H1. Deals come from a fresh secret key (``arena.scheduling.deals``), so no bot can
know them in advance; ``--key`` replays a run.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from . import evaluate
from .luck import bot_score
from .scheduling.deals import Dealer
from .sprt import Decision, Run, Sprt


@dataclass
class Unit:
    opponent: str
    index: int
    scores: list[float] = field(default_factory=list)


@dataclass
class Outcome:
    units: int
    games: int
    score: float  # the subject's mean score
    llr: float | None
    decision: Decision | None
    per_opponent: dict[str, tuple[int, float]]  # opponent -> (units, mean score)


def unit_jobs(game: str, subject: str, opponent: str, players: int, options: dict[str, Any], dealer: Dealer,
              index: int) -> list[evaluate.Job]:
    seed = dealer.seed(f"gauntlet/{subject}|{opponent}/{index}")
    jobs = []
    for seat in range(players):
        lineup = [opponent] * players
        lineup[seat] = subject
        jobs.append(evaluate.Job(game, players, seed, tuple(lineup), options, seat, dealer.key))
    return jobs


def play(game: str, subject: str, field_bots: list[str], players: int, options: dict[str, Any],
         dealer: Dealer, *, max_units: int, test: Sprt | None = None, batch: int = 8,
         workers: int | None = None, on_unit: Callable[[Outcome], None] | None = None) -> Outcome:
    """Play units round-robin over the field until ``max_units`` or the SPRT decides."""
    run = Run.start(test, players, players - 1) if test else None
    units: list[Unit] = []
    decision: Decision | None = None
    index = 0
    while len(units) < max_units and decision is None:
        todo = []
        for _ in range(min(batch, max_units - len(units))):
            opp = field_bots[index % len(field_bots)]
            todo.append(Unit(opp, index // len(field_bots)))
            index += 1
        jobs = [j for u in todo
                for j in unit_jobs(game, subject, u.opponent, players, options, dealer, u.index)]
        results: Iterator[tuple[evaluate.Job, dict[str, Any]]] = evaluate.run(jobs, workers)
        by_seed = {(u.opponent, dealer.seed(f"gauntlet/{subject}|{u.opponent}/{u.index}")): u for u in todo}
        for job, outcome in results:
            opp = next(b for b in job.bots if b != subject)
            by_seed[(opp, job.seed)].scores.append(bot_score(job.bots, list(outcome["ranks"]), subject))
        for u in todo:  # in schedule order: the SPRT sees the same sequence however the pool ran
            units.append(u)
            if run is not None and decision is None:
                decision = run.add(sum(u.scores) / len(u.scores))
        if on_unit:
            on_unit(summary(units, run))
    return summary(units, run)


def summary(units: list[Unit], run: Run | None) -> Outcome:
    per: dict[str, list[float]] = {}
    for u in units:
        per.setdefault(u.opponent, []).append(sum(u.scores) / len(u.scores))
    allm = [x for xs in per.values() for x in xs]
    return Outcome(len(units), sum(len(u.scores) for u in units), sum(allm) / len(allm) if allm else 0.0,
                   run.llr if run else None, run.decision if run else None,
                   {o: (len(xs), sum(xs) / len(xs)) for o, xs in per.items()})
