"""Elo ladders fitted by maximum likelihood over all results (Bradley-Terry with draws).

The model is Davidson's extension of Bradley-Terry: for ratings ``r_i, r_j`` (Elo points) and
``x = (r_i - r_j) ln10 / 400``::

    P(i wins) = e^{x/2} / Z,   P(draw) = nu / Z,   P(j wins) = e^{-x/2} / Z,   Z = e^{x/2} + e^{-x/2} + nu

With ``nu = 0`` this is the plain Elo/logistic model (a 200-point edge scores 76%). ``nu`` is fitted
with the ratings when the results hold draws. Like BayesElo, a weak prior keeps perfect scores
finite: every pair that met gets one virtual game split half won, half lost; a tiny ridge ties
players that never met anyone connected to the anchor. Ratings are anchored at 0 to the anchor
(the random bot), and 95% intervals come from the inverse Fisher information (Newton's Hessian).

Results are decomposed before fitting: a k-seat result gives every pair of seats a win/draw/loss
by rank, each weighted ``1/(k-1)`` (one match counts as one game for each bot). In cooperative
games the team plays the scenario (``scenario:<id>@<seats>``) as an opponent; the published
ladder fits them with ``fit_teams`` (the team's strength is the seat-weighted mean of its bots'
ratings, so a bot is rated apart from its partners), ``decompose`` gives each bot the team's
result weighted by its share of the seats (head-to-head tables). Results are aggregated in sorted order, so
the same results always give the same ladder, whatever order they were recorded in.
"""
from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

K = math.log(10) / 400  # Elo points -> natural log-odds units
Z95 = 1.959963984540054


@dataclass(frozen=True)
class Result:
    """One stored match, as the ladder needs it. ``key`` orders results (tournament id, number)."""

    key: tuple[int, ...]
    bots: tuple[str, ...]
    outcome: dict[str, Any]
    scenario: str | None = None


@dataclass(frozen=True)
class Pairwise:
    a: str
    b: str
    score: float  # 1 a won, 0.5 draw, 0 b won
    weight: float


@dataclass
class Record:
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0


@dataclass
class Rated:
    player: str
    rating: float
    lo: float
    hi: float
    sd: float
    kind: str = "bot"
    record: Record = field(default_factory=Record)


@dataclass
class Fit:
    ratings: dict[str, tuple[float, float]]  # player -> (Elo, standard error)
    nu: float
    anchor: str | None
    iterations: int


def scenario_player(scenario: str | None, seats: int) -> str:
    return f"scenario:{scenario or 'default'}@{seats}"


def decompose(result: Result) -> list[Pairwise]:
    """A match result as weighted pairwise results (see the module docstring)."""
    outcome, bots = result.outcome, result.bots
    k = len(bots)
    if outcome.get("team_result") is not None:
        opponent = scenario_player(result.scenario, k)
        score = 1.0 if outcome["team_result"] == "win" else 0.0
        share: dict[str, int] = defaultdict(int)
        for b in bots:
            share[b] += 1
        return [Pairwise(b, opponent, score, n / k) for b, n in sorted(share.items())]
    ranks = outcome["ranks"]
    out = []
    for i in range(k):
        for j in range(i + 1, k):
            if bots[i] == bots[j]:
                continue
            score = 1.0 if ranks[i] < ranks[j] else 0.0 if ranks[i] > ranks[j] else 0.5
            out.append(Pairwise(bots[i], bots[j], score, 1.0 / (k - 1)))
    return out


def records(results: Iterable[Result]) -> dict[str, Record]:
    """Match-level W/D/L per player (a bot in several seats counts its best seat once)."""
    out: dict[str, Record] = defaultdict(Record)
    for r in results:
        o = r.outcome
        if o.get("team_result") is not None:
            won = o["team_result"] == "win"
            for b in sorted(set(r.bots)):
                _tally(out[b], 1.0 if won else 0.0)
            _tally(out[scenario_player(r.scenario, len(r.bots))], 0.0 if won else 1.0)
            continue
        ranks = o["ranks"]
        firsts = [s for s, rk in enumerate(ranks) if rk == min(ranks)]
        for b in sorted(set(r.bots)):
            seats = [s for s, name in enumerate(r.bots) if name == b]
            if any(s in firsts for s in seats):
                alone = len({r.bots[s] for s in firsts}) == 1
                _tally(out[b], 1.0 if alone else 0.5)
            else:
                _tally(out[b], 0.0)
    return dict(out)


def _tally(rec: Record, score: float) -> None:
    rec.games += 1
    if score == 1.0:
        rec.wins += 1
    elif score == 0.5:
        rec.draws += 1
    else:
        rec.losses += 1


def _parameters(players: list[str], anchor: str | None) -> tuple[str | None, str, dict[str, int]]:
    """The fit's anchor (None when it has no results), the reference player held at 0 and the column of
    every other player's parameter."""
    if anchor not in players:
        anchor = None
    ref = anchor or players[0]
    return anchor, ref, {p: i for i, p in enumerate(p for p in players if p != ref)}


def fit(pairs: Iterable[Pairwise], anchor: str | None = None, *, prior_games: float = 1.0,
        ridge_sd_elo: float = 2000.0, max_iter: int = 200) -> Fit:
    """Maximum-likelihood Elo ratings (Davidson-Bradley-Terry) with standard errors."""
    wdl: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
    for p in pairs:
        if p.a == p.b or p.weight <= 0:
            continue
        a, b, s = (p.a, p.b, p.score) if p.a < p.b else (p.b, p.a, 1.0 - p.score)
        cell = wdl[(a, b)]
        cell[0 if s == 1.0 else 1 if s == 0.5 else 2] += p.weight
    players = sorted({x for ab in wdl for x in ab})
    if not players:
        return Fit({}, 0.0, anchor, 0)
    anchor, ref, index = _parameters(players, anchor)
    free = list(index)
    keys = sorted(wdl)
    W = np.array([wdl[k][0] + prior_games / 2 for k in keys])
    D = np.array([wdl[k][1] for k in keys])
    L = np.array([wdl[k][2] + prior_games / 2 for k in keys])
    N = W + D + L
    ia = np.array([index.get(a, -1) for a, _ in keys])
    ib = np.array([index.get(b, -1) for _, b in keys])
    with_draws = D.sum() > 0
    n_free = len(free)
    dim = n_free + (1 if with_draws else 0)
    ridge = 1.0 / (ridge_sd_elo * K) ** 2

    def unpack(theta: np.ndarray) -> tuple[np.ndarray, float]:
        u = np.concatenate([theta[:n_free], [0.0]])  # index -1 -> the reference, fixed at 0
        nu = math.exp(theta[n_free]) if with_draws else 0.0
        return u, nu

    def loglik(theta: np.ndarray) -> float:
        u, nu = unpack(theta)
        x = u[ia] - u[ib]
        z = 2 * np.cosh(x / 2) + nu
        ll = float(np.sum((W - L) * x / 2 - N * np.log(z)))
        if with_draws:
            ll += float(np.sum(D)) * theta[n_free]
        return ll - ridge / 2 * float(np.sum(theta[:n_free] ** 2))

    def grad_hess(theta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        u, nu = unpack(theta)
        x = u[ia] - u[ib]
        ch, sh = np.cosh(x / 2), np.sinh(x / 2)
        z = 2 * ch + nu
        gx = (W - L) / 2 - N * sh / z
        hxx = -N * (1 + nu * ch / 2) / z ** 2
        g = np.zeros(dim)
        h = np.zeros((dim, dim))
        for idx in range(len(keys)):
            i, j = ia[idx], ib[idx]
            for p, sign in ((i, 1.0), (j, -1.0)):
                if p < 0:
                    continue
                g[p] += sign * gx[idx]
                for q, sign2 in ((i, 1.0), (j, -1.0)):
                    if q >= 0:
                        h[p, q] += sign * sign2 * hxx[idx]
        if with_draws:
            t = n_free
            hxt = N * sh * nu / z ** 2
            g[t] = float(np.sum(D) - np.sum(N * nu / z))
            h[t, t] = float(np.sum(-N * nu * 2 * ch / z ** 2))
            for idx in range(len(keys)):
                for p, sign in ((ia[idx], 1.0), (ib[idx], -1.0)):
                    if p >= 0:
                        h[p, t] += sign * hxt[idx]
                        h[t, p] += sign * hxt[idx]
        g[:n_free] -= ridge * theta[:n_free]
        h[:n_free, :n_free] -= ridge * np.eye(n_free)
        return g, h

    theta = np.zeros(dim)
    if with_draws:
        theta[n_free] = math.log(max(1e-3, 2 * D.sum() / max(1e-9, (N - D).sum())))
    ll = loglik(theta)
    it = 0
    for it in range(1, max_iter + 1):  # noqa: B007 (it counts the iterations, for the Fit)
        g, h = grad_hess(theta)
        step = np.linalg.solve(-h, g)
        t = 1.0
        while True:
            cand = theta + t * step
            cll = loglik(cand)
            if cll >= ll - 1e-12 or t < 1e-6:
                break
            t /= 2
        theta, ll = cand, cll
        if float(np.max(np.abs(t * step))) < 1e-10:
            break
    _, h = grad_hess(theta)
    cov = np.linalg.inv(-h)
    u, nu = unpack(theta)
    out = {ref: (0.0, 0.0)}
    for name, i in index.items():
        out[name] = (float(u[i] / K), float(math.sqrt(max(0.0, cov[i, i])) / K))
    if anchor is None:  # no anchor: centre on the mean (intervals stay relative to the reference)
        mean = sum(r for r, _ in out.values()) / len(out)
        out = {q: (r - mean, sd) for q, (r, sd) in out.items()}
    return Fit(dict(sorted(out.items())), nu, anchor, it)


@dataclass(frozen=True)
class TeamResult:
    """A cooperative match as the team model sees it: each bot's share of the seats against a scenario."""

    shares: tuple[tuple[str, float], ...]  # (bot, seats / all seats), sorted by bot
    scenario: str
    score: float  # 1 the team won, 0 it lost


def team_result(result: Result) -> TeamResult:
    k = len(result.bots)
    share: dict[str, int] = defaultdict(int)
    for b in result.bots:
        share[b] += 1
    return TeamResult(tuple((b, n / k) for b, n in sorted(share.items())),
                      scenario_player(result.scenario, k),
                      1.0 if result.outcome["team_result"] == "win" else 0.0)


def fit_teams(results: Iterable[TeamResult], anchor: str | None = None, *, prior_games: float = 1.0,
              ridge_sd_elo: float = 2000.0, max_iter: int = 100) -> Fit:
    """One rating per bot from team results, separated from its partners.

    A team's strength is the seat-weighted mean of its bots' ratings; it beats a scenario with the
    logistic Elo probability of (team strength - scenario rating). A bot that only ever played
    beside a strong partner is thus not credited with the partner's wins: with mixed teams that
    include reference partners the model tells them apart (the pairwise decomposition, which
    rates every bot of a winning team as the winner, cannot). Same prior as ``fit``: each
    (team, scenario) pairing gets one virtual game split half won, half lost, and a weak ridge.
    """
    cells: dict[tuple[tuple[tuple[str, float], ...], str], list[float]] = defaultdict(lambda: [0.0, 0.0])
    for r in results:
        cell = cells[(r.shares, r.scenario)]
        cell[0] += r.score
        cell[1] += 1.0
    players = sorted({b for shares, _ in cells for b, _ in shares} | {sc for _, sc in cells})
    if not players:
        return Fit({}, 0.0, anchor, 0)
    anchor, ref, index = _parameters(players, anchor)
    free = list(index)
    keys = sorted(cells)
    X = np.zeros((len(keys), len(free)))
    for row, (shares, sc) in enumerate(keys):
        for b, w in shares:
            if b in index:
                X[row, index[b]] += w
        if sc in index:
            X[row, index[sc]] -= 1.0
    W = np.array([cells[k][0] + prior_games / 2 for k in keys])
    N = np.array([cells[k][1] + prior_games for k in keys])
    ridge = 1.0 / (ridge_sd_elo * K) ** 2
    theta = np.zeros(len(free))
    it = 0
    for it in range(1, max_iter + 1):  # noqa: B007 (it counts the iterations, for the Fit)
        p = 1.0 / (1.0 + np.exp(-(X @ theta)))
        g = X.T @ (W - N * p) - ridge * theta
        h = -(X.T * (N * p * (1 - p))) @ X - ridge * np.eye(len(free))
        step = np.linalg.solve(-h, g)
        theta = theta + step
        if float(np.max(np.abs(step))) < 1e-10:
            break
    p = 1.0 / (1.0 + np.exp(-(X @ theta)))
    h = -(X.T * (N * p * (1 - p))) @ X - ridge * np.eye(len(free))
    cov = np.linalg.inv(-h)
    out = {ref: (0.0, 0.0)}
    for name, i in index.items():
        out[name] = (float(theta[i] / K), float(math.sqrt(max(0.0, cov[i, i])) / K))
    if anchor is None:  # centre the bots (not the scenarios) on 0
        bots = [b for b in out if not b.startswith("scenario:")]
        mean = sum(out[b][0] for b in bots) / len(bots) if bots else 0.0
        out = {q: (r - mean, sd) for q, (r, sd) in out.items()}
    return Fit(dict(sorted(out.items())), 0.0, anchor, it)


def ladder(results: Sequence[Result], anchor: str | None = "random") -> tuple[list[Rated], Fit]:
    """The published ladder from stored results: best first; ties broken by name.

    Cooperative results are fitted with the team model (``fit_teams``), competitive ones pairwise."""
    ordered = sorted(results, key=lambda r: r.key)
    if ordered and all(r.outcome.get("team_result") is not None for r in ordered):
        f = fit_teams([team_result(r) for r in ordered], anchor)
    else:
        pairs = [p for r in ordered for p in decompose(r)]
        f = fit(pairs, anchor)
    recs = records(ordered)
    rows = []
    for player, (r, sd) in f.ratings.items():
        rows.append(Rated(player, round(r, 2), round(r - Z95 * sd, 2), round(r + Z95 * sd, 2), sd,
                          "scenario" if player.startswith("scenario:") else "bot",
                          recs.get(player, Record())))
    rows.sort(key=lambda x: (-x.rating, x.player))
    return rows, f


def expected_score(ra: float, rb: float, nu: float = 0.0) -> float:
    """Expected score of a (win 1, draw 1/2) against b under the model."""
    x = (ra - rb) * K
    z = math.exp(x / 2) + math.exp(-x / 2) + nu
    return (math.exp(x / 2) + nu / 2) / z
