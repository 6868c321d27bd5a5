"""Ladders, standings and head-to-head tables, aggregated from results and cached per source version.

Multiplayer results decompose into pairwise results by rank (a lower rank beats a higher one,
equal ranks draw). A cooperative match is the team against its scenario, which appears on the
ladder as a rated opponent. W/D/L per match: a win is rank 1 alone, a draw rank 1 shared.

Ratings come from the store's published fit (``Source.ratings``). Without one (the in-memory
source) the same fit is computed here with ``arena.ratings`` (the one rating model: rows become
its ``Result``) — once per source version, never per request.
"""
from __future__ import annotations

import threading
import time
from collections import defaultdict
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, TypeVar

from arena import ratings

from .schemas import BotGameRating, BotRef, H2HCell, LadderOut, LadderRow, StandingRow
from .source import FittedRating, MatchRow, Source

T = TypeVar("T")


def participants(r: MatchRow) -> list[tuple[str, str, int]]:
    """(id, name, rank) per side: the seats, plus the scenario for a cooperative match."""
    sides = [(s.bot_id, s.name, s.rank) for s in r.seats]
    if r.team_result is not None:
        scenario, _, n = r.scenario.partition("@")
        scen = ratings.scenario_player(scenario, int(n or len(r.seats)))  # the fit's id for it
        sides = [(s.bot_id, s.name, 1 if r.team_result == "win" else 2) for s in r.seats]
        sides.append((scen, f"Scenario: {r.scenario}", 2 if r.team_result == "win" else 1))
    return sides


def pairwise(r: MatchRow) -> list[tuple[str, str, float]]:
    """(a, b, score of a against b) for every pair of distinct sides (team mates are not opponents)."""
    sides = participants(r)
    out = []
    for i, (a, _, ra) in enumerate(sides):
        for b, _, rb in sides[i + 1:]:
            if a == b or (r.team_result is not None
                          and not (a.startswith("scenario:") or b.startswith("scenario:"))):
                continue
            out.append((a, b, 1.0 if ra < rb else 0.5 if ra == rb else 0.0))
    return out


def rating_result(i: int, r: MatchRow) -> ratings.Result:
    """A row as the rating model's ``Result`` (``i`` keeps the source's order)."""
    outcome: dict[str, Any] = {"ranks": [s.rank for s in r.seats], "scores": [s.score for s in r.seats]}
    if r.team_result is not None:
        outcome["team_result"] = r.team_result
    return ratings.Result((i,), tuple(s.bot_id for s in r.seats), outcome, r.scenario.partition("@")[0])


def fit_ratings(results: list[MatchRow]) -> dict[str, FittedRating]:
    """The ladder of ``results`` by ``arena.ratings.ladder`` (as the store publishes it), anchored
    to the random bot when it played."""
    rows = [rating_result(i, r) for i, r in enumerate(results)]
    players = {b for r in rows for b in r.bots}
    rated, _ = ratings.ladder(rows, "random" if "random" in players else None)
    return {x.player: FittedRating(x.rating, x.lo, x.hi, (), (x.record.games, x.record.wins, x.record.draws,
                                                               x.record.losses)) for x in rated}


def downsample(values: list[float], points: int = 40) -> list[float]:
    if len(values) <= points:
        return list(values)
    step = (len(values) - 1) / (points - 1)
    return [values[round(i * step)] for i in range(points)]


def tally(results: list[MatchRow]) -> tuple[dict[str, str], dict[str, list[int]],
                                            dict[tuple[str, str], H2HCell]]:
    """Names, per-side [games, wins, draws, losses], and pairwise cells keyed (a, b) from a's side."""
    names: dict[str, str] = {}
    wdl: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    h2h: dict[tuple[str, str], H2HCell] = {}
    for r in results:
        sides = participants(r)
        firsts = sum(1 for _, _, rank in sides if rank == 1)
        seen = set()
        for pid, name, rank in sides:
            names.setdefault(pid, name)
            if pid in seen:
                continue
            seen.add(pid)
            row = wdl[pid]
            row[0] += 1
            if rank == 1 and firsts == 1:
                row[1] += 1
            elif rank == 1:
                row[2] += 1
            else:
                row[3] += 1
        for a, b, s in pairwise(r):
            for x, y, sx in ((a, b, s), (b, a, 1 - s)):
                cell = h2h.setdefault((x, y), H2HCell())
                if sx == 1:
                    cell.wins += 1
                elif sx == 0:
                    cell.losses += 1
                else:
                    cell.draws += 1
    return names, wdl, h2h


def build_ladder(game: str, game_name: str, results: list[MatchRow], fitted: dict[str, FittedRating] | None,
                 max_h2h: int = 30) -> LadderOut:
    names, wdl, h2h = tally(results)
    if not fitted:
        fitted = fit_ratings(results)
    ids = sorted(set(names) | set(fitted), key=lambda p: (-(fitted[p].rating if p in fitted else -1e9),
                                                           (names.get(p) or p).lower()))
    rows = []
    for i, p in enumerate(ids, 1):
        f = fitted.get(p)
        g, w, d, lost = f.record if f and f.record else wdl.get(p, [0, 0, 0, 0])
        rows.append(LadderRow(rank=i, bot=BotRef(id=p, name=names.get(p, p)),
                              rating=round(f.rating, 1) if f else None, lo=round(f.lo, 1) if f else None,
                              hi=round(f.hi, 1) if f else None, games=g, wins=w, draws=d, losses=lost,
                              history=list(downsample(list(f.history))) if f else []))
    top = ids[:max_h2h]
    matrix = [[None if a == b else h2h.get((a, b)) for b in top] for a in top]
    return LadderOut(game=game, game_name=game_name, rows=rows, head_to_head=matrix, matches=len(results),
                     computed_at=datetime.now(UTC).isoformat(timespec="seconds"))


def build_standings(results: list[MatchRow]) -> tuple[list[StandingRow], list[list[H2HCell | None]]]:
    """Tournament standings (1 point a win, half a draw, pairwise) and the crosstable."""
    names, wdl, h2h = tally(results)
    points: dict[str, float] = defaultdict(float)
    for r in results:
        for a, b, s in pairwise(r):
            points[a] += s
            points[b] += 1 - s
    ids = sorted(names, key=lambda p: (-points[p], names[p].lower()))
    rows = [StandingRow(rank=i, bot=BotRef(id=p, name=names[p]), played=wdl[p][0], points=points[p],
                        wins=wdl[p][1], draws=wdl[p][2], losses=wdl[p][3]) for i, p in enumerate(ids, 1)]
    cross = [[None if a == b else h2h.get((a, b)) for b in ids] for a in ids]
    return rows, cross


def bot_ratings(ladders: list[LadderOut], bot_id: str) -> list[BotGameRating]:
    out = []
    for lad in ladders:
        for row in lad.rows:
            if row.bot.id == bot_id:
                out.append(BotGameRating(game=lad.game, rank=row.rank, rating=row.rating, lo=row.lo,
                                         hi=row.hi,
                                         games=row.games, wins=row.wins, draws=row.draws, losses=row.losses,
                                         history=row.history))
    return out


class VersionedCache:
    """Memoises values per key for one source version; the version is re-read at most every ``ttl`` s.

    One thread re-reads the version while the others keep serving the values they have (no
    stampede of version queries), and a missing value is computed once while other readers of
    the same key wait for it. ``peek`` never does I/O: it serves what it holds and, once the
    version is ``ttl`` old, starts one background re-read (so a value is at most ``ttl`` plus
    one version query stale).
    """

    def __init__(self, source: Source, ttl: float = 1.0) -> None:
        self.source = source
        self.ttl = ttl
        self._version = ""
        self._checked = -1e9
        self._values: dict[Any, Any] = {}
        self._lock = threading.Lock()
        self._refreshing = threading.Lock()
        self._key_locks: dict[Any, threading.Lock] = {}
        self._bg: threading.Thread | None = None

    def version(self) -> str:
        now = time.monotonic()
        if now - self._checked >= self.ttl and self._refreshing.acquire(blocking=not self._version):
            try:
                if now - self._checked >= self.ttl:
                    v = self.source.version()
                    with self._lock:
                        self._checked = time.monotonic()
                        if v != self._version:
                            self._version = v
                            self._values = {}
            finally:
                self._refreshing.release()
        return self._version

    def peek(self, key: Any) -> Any:
        """The cached value or None, without I/O (safe on the event loop); revalidates in the background."""
        if time.monotonic() - self._checked >= self.ttl and not self._refreshing.locked():
            bg = self._bg
            if bg is None or not bg.is_alive():
                self._bg = threading.Thread(target=self.version, name="dashboard-cache-version", daemon=True)
                self._bg.start()
        return self._values.get(key)

    def get(self, key: Any, compute: Callable[[], T]) -> T:
        self.version()
        values = self._values
        if key in values:
            return values[key]
        with self._lock:
            klock = self._key_locks.setdefault(key, threading.Lock())
        with klock:
            values = self._values
            if key in values:
                return values[key]
            value = compute()
            with self._lock:
                if values is self._values:
                    values[key] = value
        return value

    def invalidate(self) -> None:
        with self._lock:
            self._checked = -1e9
            self._version = ""
            self._values = {}
