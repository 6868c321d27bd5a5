"""The sequential probability ratio test (SPRT) that stops a gauntlet as soon as it is decided.

H0: the subject is ``elo0`` stronger than the field; H1: ``elo1`` stronger (``elo0 < elo1``, logistic
Elo: an edge of ``e`` scores ``1 / (1 + 10^(-e/400))``). After every finished *unit* (one deal played
in every seat order, so paired deals count once: the pentanomial model when there are two seats),
the log-likelihood ratio ``LLR`` is compared with Wald's bounds ``log(beta / (1 - alpha))`` (accept
H0) and ``log((1 - beta) / alpha)`` (accept H1).

The LLR is the generalized SPRT of fastchess and OpenBench (fastchess
``src/matchmaking/sprt/sprt.cpp``, ``getLLR_logistic``; Michel Van den Bergh, "Comments on
Normalized Elo", proposition 1.1): the unit scores take finitely many values ``a_i`` with empirical
frequencies ``p̂_i``; under each hypothesis the distribution is the one closest to the data (maximum
likelihood) whose mean is that hypothesis' score ``s``, namely ``p_i = p̂_i / (1 + θ (a_i - s))``
with ``θ`` solving ``Σ p̂_i (a_i - s) / (1 + θ (a_i - s)) = 0``; and ``LLR = N Σ p̂_i log(p1_i / p0_i)``.
Empty categories count as 1e-3 of a unit (as fastchess regularizes them), so the first results
do not produce infinities. Scoring units rather than games accounts for the correlation the
paired deal puts between a unit's games (Van den Bergh's pentanomial argument); with two seats a
unit's score is one of 0, 1/4, 1/2, 3/4, 1, exactly fastchess's pentanomial.
"""
from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from referee.engine.errors import ArenaError

Decision = Literal["H0", "H1"]


class SprtError(ArenaError):
    code = "sprt_error"


def elo_to_score(elo: float) -> float:
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def score_to_elo(score: float) -> float:
    score = min(max(score, 1e-6), 1 - 1e-6)
    return -400.0 * math.log10(1.0 / score - 1.0)


def _mle(values: np.ndarray, phat: np.ndarray, s: float) -> np.ndarray:
    """Per row of ``phat`` (frequencies over ``values``): the distribution nearest to it (max.
    likelihood) with mean ``s``. Rows are independent (a batch of runs is solved at once)."""
    d = values - s
    hi_d, lo_d = float(d.max()), float(d.min())
    if hi_d <= 0 or lo_d >= 0:  # s outside the observed range: the nearest is all mass at one end
        raise SprtError(f"score {s:.4f} is outside the range of unit scores")
    rows = phat.shape[0]
    lo, hi = np.full(rows, -1.0 / hi_d), np.full(rows, -1.0 / lo_d)  # 1 + θ d_i > 0 for every i
    eps = 1e-12 * (hi - lo)
    lo, hi = lo + eps, hi - eps
    # Newton's method from θ = 0 (no tilt: the data's own mean), safeguarded by the bracket (a step
    # that leaves it bisects instead); f is decreasing, so the bracket shrinks every step
    theta = np.zeros(rows)
    for _ in range(100):
        q = d / (1.0 + theta[:, None] * d)
        f = (phat * q).sum(axis=1)
        fp = -(phat * q * q).sum(axis=1)
        lo = np.where(f > 0, theta, lo)
        hi = np.where(f > 0, hi, theta)
        nxt = theta - f / fp
        nxt = np.where((lo < nxt) & (nxt < hi), nxt, (lo + hi) / 2)
        done = (np.abs(nxt - theta) < 1e-15 * np.maximum(1.0, np.abs(theta))) | (hi - lo < 1e-13)
        theta = nxt
        if done.all():
            break
    return phat / (1.0 + theta[:, None] * d)


def llr(unit_scores: Iterable[float], s0: float, s1: float, values: Iterable[float]) -> float:
    """The GSPRT log-likelihood ratio of H1 (mean ``s1``) against H0 (mean ``s0``).

    ``values``: every score a unit can take (categories that did not occur are regularized).
    """
    return llr_counts(Counter(round(x, 9) for x in unit_scores), s0, s1, values)


def llr_counts(counts: Counter[float], s0: float, s1: float, values: Iterable[float]) -> float:
    """``llr`` from the number of units at each score (keys rounded to 9 decimals)."""
    vals = sorted({round(v, 9) for v in values})
    unknown = set(counts) - set(vals)
    if unknown:
        raise SprtError(f"unit scores {sorted(unknown)} are not among the possible values")
    return float(llr_table(np.array([[counts.get(v, 0) for v in vals]], dtype=float), s0, s1, vals)[0])


def llr_table(counts: np.ndarray, s0: float, s1: float, values: Sequence[float]) -> np.ndarray:
    """``llr`` of many runs at once: ``counts[r, i]`` = units of run r that scored ``values[i]``."""
    n = np.where(counts > 0, counts, 1e-3)
    total = n.sum(axis=1)
    phat = n / total[:, None]
    vals = np.asarray(values, dtype=float)
    p0, p1 = _mle(vals, phat, s0), _mle(vals, phat, s1)
    return np.asarray(total * (phat * (np.log(p1) - np.log(p0))).sum(axis=1))


@dataclass(frozen=True)
class Sprt:
    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not self.elo0 < self.elo1:
            raise SprtError(f"elo0 must be below elo1 (got {self.elo0:g}, {self.elo1:g})")
        if not (0 < self.alpha < 1 and 0 < self.beta < 1 and self.alpha + self.beta < 1):
            raise SprtError("alpha and beta must be in (0, 1) with alpha + beta < 1")

    @property
    def lower(self) -> float:
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        return math.log((1 - self.beta) / self.alpha)

    def llr(self, unit_scores: Iterable[float], values: Iterable[float]) -> float:
        return llr(unit_scores, elo_to_score(self.elo0), elo_to_score(self.elo1), values)

    def decide(self, value: float) -> Decision | None:
        if value >= self.upper:
            return "H1"
        if value <= self.lower:
            return "H0"
        return None


def unit_values(games_per_unit: int, opponents: int = 1) -> list[float]:
    """The mean scores a unit of ``games_per_unit`` games can have, each game scored against
    ``opponents`` other seats (1, 1/2 or 0 against each, averaged)."""
    steps = 2 * games_per_unit * opponents
    return [k / steps for k in range(steps + 1)]


@dataclass
class Run:
    """An SPRT in progress: feed it unit scores, it says when it has decided."""

    test: Sprt
    values: list[float]
    scores: list[float]
    counts: Counter[float] = field(default_factory=Counter)

    @classmethod
    def start(cls, test: Sprt, games_per_unit: int, opponents: int = 1) -> Run:
        return cls(test, unit_values(games_per_unit, opponents), [])

    def add(self, unit_score: float) -> Decision | None:
        self.scores.append(unit_score)
        self.counts[round(unit_score, 9)] += 1
        return self.decision

    @property
    def llr(self) -> float:
        if not self.scores:
            return 0.0
        return llr_counts(self.counts, elo_to_score(self.test.elo0), elo_to_score(self.test.elo1),
                          self.values)

    @property
    def decision(self) -> Decision | None:
        return self.test.decide(self.llr) if self.scores else None
