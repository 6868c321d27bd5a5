"""The luck report: how much of a tournament's result variance the paired deals removed.

A *unit* is one deal index of one pairing played in every seat order (``group/a|b/3``: the fourth
deal of a-b). With paired deals every match of a unit shares one seed; with independent deals
each has its own (``group/a|b/3/0``, ``.../3/1``). For the pairing's first bot A, ``x[u][o]`` is
its score in unit ``u``, seat order ``o`` (1 win, 1/2 draw, 0 loss against the other bots, by rank;
averaged over its seats and opponents with more than two seats).

The unit's score is the mean over its seat orders. Its variance across units, observed, is
``var_unit``. Were the orders' results independent (independent deals), that variance would be
``var_indep = sum_o var(x[.][o]) / k^2`` (each order's own variance, so seat advantage is left
out of both). ``ratio = var_unit / var_indep`` is 1 plus the correlation the shared deal puts
between the seat orders: below 1 the luck of the deal cancels (one paired unit is worth
``1 / ratio`` independent ones), around 1 it does not. Independent deals should measure ~1;
the difference between a paired and an independent tournament of the same bots is the luck
the pairing removed.
"""
from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from . import ratings


@dataclass(frozen=True)
class LuckRow:
    pairing: str
    bot: str  # whose score is reported (the pairing's first bot)
    paired: bool
    units: int
    orders: int
    mean: float
    var_game: float  # variance of a single game's score
    var_unit: float  # observed variance of a unit's mean score
    var_indep: float  # the same if the seat orders were independent

    @property
    def ratio(self) -> float | None:
        return self.var_unit / self.var_indep if self.var_indep > 0 else None


def unit_of(deal: str) -> str:
    """``group/a|b/3`` (paired) and ``group/a|b/3/1`` (independent) belong to the unit ``group/a|b/3``."""
    parts = deal.split("/")
    return "/".join(parts[:3])


def bot_score(bots: tuple[str, ...], ranks: list[int], bot: str) -> float:
    """``bot``'s score against the other bots of a match, pairwise by rank (1 / 0.5 / 0), averaged."""
    pts: list[float] = []
    for i, a in enumerate(bots):
        if a != bot:
            continue
        for j, b in enumerate(bots):
            if b == bot:
                continue
            pts.append(1.0 if ranks[i] < ranks[j] else 0.5 if ranks[i] == ranks[j] else 0.0)
    return sum(pts) / len(pts) if pts else 0.5


def report(results: Iterable[tuple[ratings.Result, str, str, bool]]) -> list[LuckRow]:
    """One row per pairing.

    ``results``: ``(result, group label, deal label, paired)`` of each finished competitive match."""
    cells: dict[str, dict[str, dict[tuple[str, ...], float]]] = defaultdict(lambda: defaultdict(dict))
    paired: dict[str, bool] = {}
    for r, group, deal, is_paired in results:
        if r.outcome.get("team_result") is not None or not r.outcome.get("ranks"):
            continue
        bot = group.split("|")[0]
        cells[group][unit_of(deal)][r.bots] = bot_score(r.bots, list(r.outcome["ranks"]), bot)
        paired[group] = paired.get(group, True) and is_paired
    out = []
    for group, units in sorted(cells.items()):
        orders = sorted({o for u in units.values() for o in u})
        full = [u for u in units.values() if len(u) == len(orders)]  # complete units only
        if len(full) < 2 or len(orders) < 1:
            continue
        k = len(orders)
        games = [x for u in full for x in u.values()]
        means = [sum(u.values()) / k for u in full]
        var_indep = sum(statistics.variance([u[o] for u in full]) for o in orders) / k ** 2
        out.append(LuckRow(group, group.split("|")[0], paired[group], len(full), k, statistics.fmean(games),
                           statistics.variance(games), statistics.variance(means), var_indep))
    return out


def pooled(rows: list[LuckRow]) -> tuple[float, float] | None:
    """Sum of observed and of independent-equivalent unit variances over pairings (weighted by units)."""
    if not rows:
        return None
    return (sum(r.var_unit * r.units for r in rows) / sum(r.units for r in rows),
            sum(r.var_indep * r.units for r in rows) / sum(r.units for r in rows))
