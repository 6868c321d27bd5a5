"""The continuous ladder in the store: one long-lived tournament per game, fed by a matchmaker tick.

A ladder *season* is a Tournament row with format ``continuous``, status running, its own secret
deal key; the matchmaker appends matches to it, so claiming, recording exactly once, the embargo,
replays, ratings and the dashboard's pages work unchanged. A tick (the periodic Celery task, or
``arena ladder run``) tops the season up to ``ARENA_LADDER_INFLIGHT`` matches queued or running,
choosing line-ups with ``arena.ladder.pairing``. Concurrent ticks are safe: a tick holds the season's
row lock (``SELECT ... FOR UPDATE`` on PostgreSQL; SQLite's write transactions are serial) while
it counts what is in flight and appends, and match numbers are unique per tournament.

The deal key of a season is published when the season is closed (``close``: queued matches are
cancelled, the key appears once the running ones finish, ``arena tournament verify`` checks every
seed); the next tick then opens a new season with a new key. Ratings span every season of a game.
"""
from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select, text
from sqlalchemy.orm import Session, aliased

from referee.engine import get_game

from ..config import Settings, settings
from ..scheduling import Dealer, new_key
from ..scheduling.formats import Pairing
from ..store import Store, ladders, ops
from ..store import models as m
from .pairing import Entrant, Group, plan

FORMAT = m.CONTINUOUS
_OPEN_LOCK = 724532  # PostgreSQL advisory lock serialising the opening of seasons (migrations use 724531)
REFIT_EVERY_S = 2.0  # as arena.tasks.after_result: a refit reads every result of the game
_refit_at: dict[str, float] = {}


@dataclass(frozen=True)
class Tick:
    tournament_id: int | None
    created: list[int]
    inflight: int  # queued or running after the tick


def season(store: Store, game: str) -> int | None:
    """The id of ``game``'s running ladder season, or None."""
    with store.read() as s:
        return s.scalar(select(m.Tournament.id).where(m.Tournament.game == game,
                                                      m.Tournament.format == FORMAT,
                                                      m.Tournament.status == m.T_RUNNING)
                        .order_by(m.Tournament.id.desc()).limit(1))


def seasons(store: Store) -> list[tuple[int, str]]:
    """Every running season: (tournament id, game)."""
    with store.read() as s:
        return [(tid, g) for tid, g in s.execute(
            select(m.Tournament.id, m.Tournament.game).where(m.Tournament.format == FORMAT,
                                                             m.Tournament.status == m.T_RUNNING)
            .order_by(m.Tournament.game, m.Tournament.id))]


def open_season(store: Store, game: str, *, executor: str = "referee", options: dict[str, Any] | None = None,
                time_control: dict[str, int] | None = None, key: str | None = None) -> int:
    """The running season of ``game``, opened now (fresh key) if there is none."""
    from ..scheduling.deals import check_key

    g = get_game(game)
    if executor not in ("referee", "inprocess"):
        raise ops.TournamentError(f"executor must be referee or inprocess, not {executor!r}")
    opts = g.options.validate(options or {})
    with store.tx() as s:
        if store.dialect == "postgresql":
            s.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _OPEN_LOCK})
        tid = s.scalar(select(m.Tournament.id).where(m.Tournament.game == g.info.id,
                                                     m.Tournament.format == FORMAT,
                                                     m.Tournament.status == m.T_RUNNING))
        if tid is not None:
            return int(tid)
        n = s.scalar(select(func.count()).select_from(m.Tournament).where(m.Tournament.game == g.info.id,
                                                                          m.Tournament.format == FORMAT)) or 0
        t = m.Tournament(name=f"{g.info.id} ladder, season {n + 1}", game=g.info.id, format=FORMAT,
                         seats=list(range(g.info.min_players, g.info.max_players + 1)), bots=[], options=opts,
                         time_control=dict(time_control or {}), seed=0, executor=executor,
                         deal_key=check_key(key) if key else new_key(), status=m.T_RUNNING,
                         started_at=m.utcnow())
        s.add(t)
        s.flush()
        return t.id


def close_season(store: Store, game: str) -> int | None:
    """End ``game``'s season: queued matches are cancelled; the key is published once none runs."""
    tid = season(store, game)
    if tid is not None:
        ops.cancel_tournament(store, tid)
    return tid


def _accepts(bot: m.Bot, game: str, lo: int, hi: int) -> tuple[int, ...]:
    """The seat counts of ``game`` the bot accepts (``Bot.seats``: game -> counts; null = all)."""
    every = tuple(range(lo, hi + 1))
    wanted = (bot.seats or {}).get(game) if isinstance(bot.seats, dict) else None
    if not wanted:
        return every
    return tuple(sorted({int(n) for n in wanted if isinstance(n, int) and lo <= n <= hi}))


def _ladder_matches(game: str) -> Any:
    return (select(m.Match.id).join(m.Tournament, m.Tournament.id == m.Match.tournament_id)
            .where(m.Tournament.game == game, m.Tournament.format == FORMAT, m.Match.status != m.CANCELLED))


def meetings(s: Session, game: str) -> Counter[frozenset[str]]:
    """Ladder matches of ``game`` each pair of versions has played (the matchmaker spreads them)."""
    a, b = aliased(m.MatchSeat), aliased(m.MatchSeat)
    rows = s.execute(select(a.bot, b.bot, func.count(func.distinct(a.match_id)))
                     .join(b, (a.match_id == b.match_id) & (a.bot < b.bot))
                     .where(a.match_id.in_(_ladder_matches(game))).group_by(a.bot, b.bot))
    return Counter({frozenset((x, y)): int(n) for x, y, n in rows})


def entrants(s: Session, game: str, executor: str) -> tuple[list[Entrant], set[str]]:
    """Active versions that play ``game`` (with their ladder record), and which of them are memoryless."""
    g = get_game(game)
    lo, hi = g.info.min_players, g.info.max_players
    bots = [b for b in s.scalars(select(m.Bot).where(m.Bot.active.is_(True), m.Bot.status == m.B_ACTIVE)
                                 .order_by(m.Bot.name))
            if b.plays(game) and (executor != "inprocess" or b.agent)]
    ladder_matches = _ladder_matches(game)
    record = {bot: (int(n), int(last)) for bot, n, last in s.execute(
        select(m.MatchSeat.bot, func.count(func.distinct(m.MatchSeat.match_id)),
               func.max(m.MatchSeat.match_id))
        .where(m.MatchSeat.match_id.in_(ladder_matches)).group_by(m.MatchSeat.bot))}
    rating = dict(s.execute(select(m.Rating.player, m.Rating.rating).where(m.Rating.game == game)).all())
    out = []
    for b in bots:
        seats = _accepts(b, game, lo, hi)
        if not seats:
            continue
        n, last = record.get(b.name, (0, -1))
        out.append(Entrant(b.name, rating.get(b.name), n, last, seats))
    return out, ops.memoryless_bots(bots, executor)


def tick(store: Store, game: str, *, cfg: Settings | None = None, rng: random.Random | None = None) -> Tick:
    """Top ``game``'s running season up to the in-flight limit. Safe to run concurrently."""
    cfg = cfg or settings()
    rng = rng or random.Random()
    g = get_game(game)
    # Workers refit after results, at most every few seconds each: the last results of a burst are
    # fitted here (published only if newer), so the pairing sees current ratings; at most as often.
    now = time.monotonic()
    if now - _refit_at.get(game, -REFIT_EVERY_S) >= REFIT_EVERY_S:
        _refit_at[game] = now
        ladders.refresh(store, game)
    with store.tx() as s:
        t = s.scalar(select(m.Tournament).where(m.Tournament.game == game, m.Tournament.format == FORMAT,
                                                m.Tournament.status == m.T_RUNNING)
                     .order_by(m.Tournament.id.desc()).limit(1).with_for_update())
        if t is None:
            return Tick(None, [], 0)
        inflight = int(s.scalar(select(func.count()).select_from(m.Match).where(
            m.Match.tournament_id == t.id, m.Match.status.in_([m.QUEUED, m.RUNNING]))) or 0)
        slots = cfg.ladder_inflight - inflight
        if slots <= 0:
            return Tick(t.id, [], inflight)
        field_, memoryless = entrants(s, game, t.executor)
        pairing = Pairing(memoryless, g.info.hidden_information)
        groups = plan(field_, slots, placement=cfg.ladder_placement, window=cfg.ladder_window, rng=rng,
                      can_pair=pairing.paired, cooperative=g.info.cooperative, met=meetings(s, game))
        number = int(s.scalar(select(func.max(m.Match.number))
                              .where(m.Match.tournament_id == t.id)) or -1) + 1
        dealer = Dealer(t.deal_key or new_key(), t.seed)
        created = []
        for group in groups:
            number, ids = _append(s, t, g, group, number, dealer, rng)
            created += ids
        return Tick(t.id, created, inflight + len(created))


def _append(s: Session, t: m.Tournament, game: Any, group: Group, number: int, dealer: Dealer,
            rng: random.Random) -> tuple[int, list[int]]:
    """Store one deal group's matches (deal ``ladder/<first number>``); returns the next number and ids."""
    deal = f"ladder/{number}"
    options, scenario = dict(t.options), None
    if group.scenario_players:
        sc = rng.choice(game.scenarios(group.scenario_players))
        scenario, options = sc.id, {**options, **sc.options}
    label = "|".join(group.bots)
    ids = []
    for order in group.orders:
        match = m.Match(tournament_id=t.id, number=number, game=t.game, players=len(order),
                        seed=dealer.seed(deal),
                        options=options, scenario=scenario, group_key=label, deal=deal, status=m.QUEUED,
                        attempts=0)
        match.seats = [m.MatchSeat(seat=i, bot=b) for i, b in enumerate(order)]
        s.add(match)
        s.flush()
        ids.append(match.id)
        number += 1
    return number, ids
