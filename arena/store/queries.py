"""The read API of the store (the dashboard and the CLI use these; nobody needs raw SQL).

Every function takes a ``Store`` and returns plain frozen dataclasses (JSON-able via ``asdict``),
so callers hold no session and no ORM object.
"""
from __future__ import annotations

import gzip
import json
from collections import defaultdict
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from sqlalchemy import exists, func, select
from sqlalchemy.orm import aliased

from . import models as m
from .db import Store
from .models import utcnow


# -- views -----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class BotView:
    name: str
    kind: str
    command: str | None
    agent: str | None
    games: list[str]
    active: bool
    created_at: datetime
    status: str = m.B_ACTIVE  # a submitted version's status (issue 20): active | suspended | retired | ...


@dataclass(frozen=True)
class RatingRow:
    player: str
    kind: str  # bot | scenario
    rating: float
    lo: float
    hi: float
    games: int
    wins: int
    draws: int
    losses: int


@dataclass(frozen=True)
class LadderView:
    game: str
    results: int
    anchor: str | None
    computed_at: datetime | None
    rows: list[RatingRow]


@dataclass(frozen=True)
class Progress:
    total: int
    queued: int
    running: int
    done: int
    failed: int
    cancelled: int
    per_minute: float  # finished matches per minute since the first started
    eta_s: float | None
    waiting: int = 0  # running matches whose worker waits out an outage ("waiting for referee")

    @property
    def finished(self) -> int:
        return self.done + self.failed + self.cancelled


@dataclass(frozen=True)
class TournamentView:
    id: int
    name: str
    game: str
    format: str
    seats: list[int]
    games_per_pairing: int
    bots: list[str]
    subject: str | None
    options: dict[str, Any]
    seed: int  # the public label of the deals
    executor: str
    status: str
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    progress: Progress
    deal_mode: str = "auto"
    deal_key: str | None = None  # the secret key: None until the tournament is over (``key_published``)

    @property
    def status_text(self) -> str:
        """``done, 3 failed`` rather than a plain ``done`` when matches failed for good."""
        if self.status == m.T_DONE and self.progress.failed:
            return f"done, {self.progress.failed} failed"
        return self.status


@dataclass(frozen=True)
class MatchView:
    """A match as anyone may see it. While its deal group is open (``sealed``), everything that
    depends on the deal is withheld: ``seed``, ``outcome``, ranks, scores, plies and the replay."""

    id: int
    tournament_id: int
    number: int
    game: str
    players: int
    seed: int | None
    options: dict[str, Any]
    scenario: str | None
    bots: list[str]
    status: str
    reason: str | None
    attempts: int
    ranks: list[int] | None
    scores: list[float] | None
    outcome: dict[str, Any] | None
    plies: int | None
    seconds: float | None
    started_at: datetime | None
    finished_at: datetime | None
    has_replay: bool
    deal: str = ""
    sealed: bool = False  # its deal group is not finished: nothing of the deal is published


@dataclass(frozen=True)
class Page:
    items: list[Any]
    total: int
    limit: int
    offset: int


@dataclass(frozen=True)
class HeadToHead:
    """``cells[a][b]`` = [wins, draws, losses] of a against b (pairwise by rank)."""

    players: list[str]
    cells: dict[str, dict[str, list[int]]] = field(default_factory=dict)

    def score(self, a: str, b: str) -> float | None:
        w, d, l_ = self.cells.get(a, {}).get(b, [0, 0, 0])
        n = w + d + l_
        return (w + d / 2) / n if n else None


@dataclass(frozen=True)
class HistoryPoint:
    snapshot_id: int
    results: int
    tournament_id: int | None
    created_at: datetime
    rating: float
    lo: float
    hi: float
    games: int


# -- bots ------------------------------------------------------------------------------------------
def _bot_view(b: m.Bot) -> BotView:
    return BotView(b.name, b.kind, b.command, b.agent, list(b.games or []), b.active, b.created_at, b.status)


def bots(store: Store, *, include_removed: bool = False, game: str | None = None) -> list[BotView]:
    with store.read() as s:
        q = select(m.Bot).order_by(m.Bot.name)
        if not include_removed:
            q = q.where(m.Bot.active.is_(True))
        out = [_bot_view(b) for b in s.scalars(q)]
    return [b for b in out if game is None or not b.games or game in b.games]


def bot(store: Store, name: str) -> BotView | None:
    with store.read() as s:
        b = s.scalar(select(m.Bot).where(m.Bot.name == name))
        return _bot_view(b) if b else None


# -- ladders ---------------------------------------------------------------------------------------
def ladder_games(store: Store) -> list[str]:
    """Games that have a published ladder."""
    with store.read() as s:
        games = s.scalars(select(m.Ladder.game).where(m.Ladder.results > 0).order_by(m.Ladder.game))
        return [g for g in games if "@" not in g]


def seat_counts(store: Store, game: str) -> list[int]:
    """The seat counts of ``game`` that have a published ladder of their own.

    Each is read as ``ladder(store, "clank@4")``."""
    with store.read() as s:
        ids = s.scalars(select(m.Ladder.game).where(m.Ladder.game.like(f"{game}@%"), m.Ladder.results > 0))
        return sorted(int(g.rpartition("@")[2]) for g in ids if g.rpartition("@")[2].isdigit())


def ladder(store: Store, game: str, *, include_scenarios: bool = True) -> LadderView:
    with store.read() as s:
        head = s.get(m.Ladder, game)
        q = select(m.Rating).where(m.Rating.game == game).order_by(m.Rating.rating.desc(), m.Rating.player)
        rows = [RatingRow(r.player, r.kind, r.rating, r.lo, r.hi, r.games, r.wins, r.draws, r.losses)
                for r in s.scalars(q) if include_scenarios or r.kind == "bot"]
    return LadderView(game, head.results if head else 0, head.anchor if head else None,
                      head.computed_at if head else None, rows)


def rating_history(store: Store, game: str, player: str | None = None) -> dict[str, list[HistoryPoint]]:
    """Per player, the ladder snapshots oldest first (for sparklines)."""
    with store.read() as s:
        q = (select(m.RatingSnapshot.id, m.RatingSnapshot.results, m.RatingSnapshot.tournament_id,
                    m.RatingSnapshot.created_at, m.RatingHistory.player, m.RatingHistory.rating,
                    m.RatingHistory.lo, m.RatingHistory.hi, m.RatingHistory.games)
             .join(m.RatingHistory, m.RatingHistory.snapshot_id == m.RatingSnapshot.id)
             .where(m.RatingSnapshot.game == game).order_by(m.RatingSnapshot.results, m.RatingHistory.player))
        if player is not None:
            q = q.where(m.RatingHistory.player == player)
        out: dict[str, list[HistoryPoint]] = defaultdict(list)
        for sid, results, tid, created, name, rating, lo, hi, games in s.execute(q):
            out[name].append(HistoryPoint(sid, results, tid, created, rating, lo, hi, games))
    return dict(out)


# -- tournaments -----------------------------------------------------------------------------------
def _progress(s, tid: int) -> Progress:
    counts = dict(s.execute(select(m.Match.status, func.count()).where(m.Match.tournament_id == tid)
                            .group_by(m.Match.status)).all())
    first, last = s.execute(select(func.min(m.Match.started_at), func.max(m.Match.finished_at))
                            .where(m.Match.tournament_id == tid)).one()
    waiting = s.scalar(select(func.count()).select_from(m.Match).where(
        m.Match.tournament_id == tid, m.Match.status == m.RUNNING, m.Match.reason.like("waiting for%"))) or 0
    return replace(_make_progress(counts, first, last), waiting=int(waiting))


@dataclass(frozen=True)
class Failure:
    match_id: int
    number: int
    reason: str


def failures(store: Store, tid: int, limit: int = 50) -> list[Failure]:
    """A tournament's failed matches with their reasons (in tournament order)."""
    with store.read() as s:
        rows = s.execute(select(m.Match.id, m.Match.number, m.Match.reason).where(
            m.Match.tournament_id == tid,
            m.Match.status == m.FAILED).order_by(m.Match.number).limit(limit)).all()
    return [Failure(mid, n, reason or "") for mid, n, reason in rows]


def _make_progress(counts: dict[str, int], first: datetime | None, last: datetime | None) -> Progress:
    total = sum(counts.values())
    done, failed, cancelled = counts.get(m.DONE, 0), counts.get(m.FAILED, 0), counts.get(m.CANCELLED, 0)
    finished = done + failed
    remaining = counts.get(m.QUEUED, 0) + counts.get(m.RUNNING, 0)
    per_minute, eta = 0.0, None
    if first is not None and finished:
        end = utcnow() if remaining else (last or utcnow())
        minutes = max((end - first).total_seconds(), 1e-3) / 60
        per_minute = finished / minutes
        eta = remaining / per_minute * 60 if per_minute else None
    return Progress(total, counts.get(m.QUEUED, 0), counts.get(m.RUNNING, 0), done, failed, cancelled,
                    per_minute, eta if remaining else 0.0)


def key_published(status: str, progress: Progress) -> bool:
    """The deal key is published once the tournament is over and no match of it is left to play."""
    return status in (m.T_DONE, m.T_CANCELLED) and not progress.queued and not progress.running


def _tournament_view(t: m.Tournament, progress: Progress) -> TournamentView:
    key = t.deal_key if key_published(t.status, progress) else None
    return TournamentView(t.id, t.name, t.game, t.format, list(t.seats), t.games_per_pairing, list(t.bots),
                          t.subject, dict(t.options), t.seed, t.executor, t.status, t.created_at,
                          t.started_at, t.finished_at, progress, t.deal_mode, key)


def tournament(store: Store, tid: int) -> TournamentView | None:
    with store.read() as s:
        t = s.get(m.Tournament, tid)
        return _tournament_view(t, _progress(s, tid)) if t else None


def progress(store: Store, tid: int) -> Progress:
    with store.read() as s:
        return _progress(s, tid)


def tournaments(store: Store, *, game: str | None = None, status: str | None = None, limit: int = 50,
                offset: int = 0) -> Page:
    """Newest first, each with its progress."""
    with store.read() as s:
        q = select(m.Tournament)
        if game:
            q = q.where(m.Tournament.game == game)
        if status:
            q = q.where(m.Tournament.status == status)
        total = s.scalar(select(func.count()).select_from(q.subquery())) or 0
        ts = list(s.scalars(q.order_by(m.Tournament.id.desc()).limit(limit).offset(offset)))
        ids = [t.id for t in ts]
        counts: dict[int, dict[str, int]] = defaultdict(dict)
        spans: dict[int, tuple[datetime | None, datetime | None]] = {}
        if ids:
            for tid, st, n in s.execute(select(m.Match.tournament_id, m.Match.status, func.count())
                                        .where(m.Match.tournament_id.in_(ids))
                                        .group_by(m.Match.tournament_id, m.Match.status)):
                counts[tid][st] = n
            for tid, first, last in s.execute(select(m.Match.tournament_id, func.min(m.Match.started_at),
                                                     func.max(m.Match.finished_at))
                                              .where(m.Match.tournament_id.in_(ids))
                                              .group_by(m.Match.tournament_id)):
                spans[tid] = (first, last)
        items = [_tournament_view(t, _make_progress(counts[t.id], *spans.get(t.id, (None, None))))
                 for t in ts]
    return Page(items, int(total), limit, offset)


# -- the embargo -----------------------------------------------------------------------------------
OPEN = (m.QUEUED, m.RUNNING)


def group_open():
    """SQL: some match dealt like ``m.Match`` (same tournament, same deal) is still to be played.

    The one definition of the embargo: the store's reads (and so the dashboard and the CLI) hide
    the seed, result and replay of every match for which this holds, and the ladders leave its
    result out until the whole deal group is finished.
    """
    twin = aliased(m.Match)
    return exists().where(twin.tournament_id == m.Match.tournament_id, twin.deal == m.Match.deal,
                          twin.status.in_(OPEN))


def sealed(store: Store, match_id: int) -> bool:
    """True while anything of this match's deal may not be published (itself or a twin unfinished)."""
    with store.read() as s:
        return bool(s.scalar(select(group_open()).where(m.Match.id == match_id)))


@dataclass(frozen=True)
class PairingView:
    """A pairing (or group, or team) of a tournament and whether its deals were shared."""

    group: str
    matches: int
    deals: int
    paired: bool  # every match shares its deal with another (luck cancels); False: independent deals


def pairings(store: Store, tid: int) -> list[PairingView]:
    """Which pairings were played on paired deals (the tournament summary shows it)."""
    with store.read() as s:
        size = dict(s.execute(select(m.Match.deal, func.count()).where(m.Match.tournament_id == tid)
                              .group_by(m.Match.deal)).all())
        rows = s.execute(select(m.Match.group_key, m.Match.deal).where(m.Match.tournament_id == tid)
                         .order_by(m.Match.number)).all()
    groups: dict[str, list[str]] = {}
    for g, d in rows:
        groups.setdefault(g, []).append(d)
    return [PairingView(g, len(ds), len(set(ds)), all(size[d] > 1 for d in ds)) for g, ds in groups.items()]


def deal_results(store: Store, tid: int) -> list[tuple[Any, str, str, bool]]:
    """Published results of a tournament with their pairing, deal and whether the pairing was paired
    (what ``arena.luck.report`` takes)."""
    from arena import ratings

    paired = {p.group: p.paired for p in pairings(store, tid)}
    with store.read() as s:
        rows = s.execute(select(m.Match.id, m.Match.number, m.Match.group_key, m.Match.deal, m.Match.scenario,
                                m.Outcome.data)
                         .join(m.Outcome, m.Outcome.match_id == m.Match.id)
                         .where(m.Match.tournament_id == tid, m.Match.status == m.DONE, ~group_open())
                         .order_by(m.Match.number)).all()
        seats: dict[int, list[str]] = defaultdict(list)
        for mid, bot in s.execute(select(m.MatchSeat.match_id, m.MatchSeat.bot)
                                  .join(m.Match, m.Match.id == m.MatchSeat.match_id)
                                  .where(m.Match.tournament_id == tid).order_by(m.MatchSeat.match_id,
                                                                                m.MatchSeat.seat)):
            seats[mid].append(bot)
    return [(ratings.Result((tid, number), tuple(seats[mid]), data, scenario), group, deal,
             paired.get(group, False))
            for mid, number, group, deal, scenario, data in rows]


@dataclass(frozen=True)
class DealRow:
    match_id: int
    deal: str
    seed: int


def deals(store: Store, tid: int) -> tuple[str, int, list[DealRow]] | None:
    """The published key, label and every match's deal and seed, or None before they are published."""
    t = tournament(store, tid)
    if t is None or t.deal_key is None:
        return None
    with store.read() as s:
        rows = s.execute(select(m.Match.id, m.Match.deal, m.Match.seed).where(m.Match.tournament_id == tid)
                         .order_by(m.Match.number)).all()
    return t.deal_key, t.seed, [DealRow(a, b, c) for a, b, c in rows]


# -- matches ---------------------------------------------------------------------------------------
def _match_query():
    return (select(m.Match, m.Outcome, m.ReplayBlob.size, group_open().label("sealed"))
            .outerjoin(m.Outcome, m.Outcome.match_id == m.Match.id)
            .outerjoin(m.ReplayBlob, m.ReplayBlob.match_id == m.Match.id))


def _match_view(match: m.Match, outcome: m.Outcome | None, replay_size: int | None,
                is_sealed: bool) -> MatchView:
    data = outcome.data if outcome and not is_sealed else None
    return MatchView(match.id, match.tournament_id, match.number, match.game, match.players,
                     None if is_sealed else match.seed, dict(match.options), match.scenario, match.bot_names,
                     match.status, match.reason, match.attempts, list(data["ranks"]) if data else None,
                     list(data["scores"]) if data else None, data,
                     outcome.plies if outcome and data else None, outcome.seconds if outcome else None,
                     match.started_at, match.finished_at, replay_size is not None and not is_sealed,
                     match.deal, bool(is_sealed))


def matches(store: Store, *, tournament_id: int | None = None, game: str | None = None,
            bot: str | None = None, status: str | None = None, limit: int = 50, offset: int = 0,
            newest_first: bool = False) -> Page:
    """A page of matches, in tournament order (or newest finished first)."""
    with store.read() as s:
        q = _match_query()
        cq = select(func.count()).select_from(m.Match)
        conds = []
        if tournament_id is not None:
            conds.append(m.Match.tournament_id == tournament_id)
        if game:
            conds.append(m.Match.game == game)
        if status:
            conds.append(m.Match.status == status)
        if bot:
            conds.append(m.Match.id.in_(select(m.MatchSeat.match_id).where(m.MatchSeat.bot == bot)))
        q, cq = q.where(*conds), cq.where(*conds)
        order = ([m.Match.finished_at.desc(), m.Match.id.desc()] if newest_first
                 else [m.Match.tournament_id, m.Match.number])
        rows = s.execute(q.order_by(*order).limit(limit).offset(offset)).all()
        items = [_match_view(a, b, c, d) for a, b, c, d in rows]
        total = s.scalar(cq) or 0
    return Page(items, int(total), limit, offset)


def match(store: Store, match_id: int) -> MatchView | None:
    with store.read() as s:
        row = s.execute(_match_query().where(m.Match.id == match_id)).first()
        return _match_view(*row) if row else None


def replay(store: Store, match_id: int) -> dict[str, Any] | None:
    """The stored replay JSON (``Replay.from_json`` reads it), or None (also while its deal group is open)."""
    with store.read() as s:
        blob = s.scalar(select(m.ReplayBlob.data).join(m.Match, m.Match.id == m.ReplayBlob.match_id)
                        .where(m.ReplayBlob.match_id == match_id, ~group_open()))
    return json.loads(gzip.decompress(blob)) if blob is not None else None


def head_to_head(store: Store, game: str, *, tournament_id: int | None = None) -> HeadToHead:
    """Pairwise W/D/L between bots (and scenarios) from recorded results."""
    from arena import ratings

    from .ladders import load_results

    results = load_results(store, game)
    if tournament_id is not None:
        results = [r for r in results if r.key[0] == tournament_id]
    cells: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0, 0]))
    for r in results:
        for p in ratings.decompose(r):
            idx = 0 if p.score == 1.0 else 1 if p.score == 0.5 else 2
            cells[p.a][p.b][idx] += 1
            cells[p.b][p.a][2 - idx] += 1
    players = sorted(cells)
    return HeadToHead(players, {a: dict(v) for a, v in cells.items()})


def status_counts(store: Store, *, game: str | None = None) -> dict[str, int]:
    with store.read() as s:
        q = select(m.Match.status, func.count()).group_by(m.Match.status)
        if game:
            q = q.where(m.Match.game == game)
        return dict(s.execute(q).all())


def workers_seen(store: Store, tid: int) -> dict[str, int]:
    """Results per worker id in a tournament (shows that scale-out spread the work)."""
    with store.read() as s:
        rows = s.execute(select(m.Outcome.worker, func.count()).join(m.Match,
                                                                     m.Match.id == m.Outcome.match_id)
                         .where(m.Match.tournament_id == tid).group_by(m.Outcome.worker)).all()
    return {w or "?": n for w, n in rows}


__all__ = [
    "OPEN",
    "BotView",
    "DealRow",
    "HeadToHead",
    "HistoryPoint",
    "LadderView",
    "MatchView",
    "Page",
    "PairingView",
    "Progress",
    "RatingRow",
    "TournamentView",
    "bot",
    "bots",
    "deal_results",
    "deals",
    "group_open",
    "head_to_head",
    "key_published",
    "ladder",
    "ladder_games",
    "match",
    "matches",
    "pairings",
    "progress",
    "rating_history",
    "replay",
    "sealed",
    "seat_counts",
    "status_counts",
    "tournament",
    "tournaments",
    "workers_seen",
]
