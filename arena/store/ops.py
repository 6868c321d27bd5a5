"""Writes: bots, tournaments and the life of a match (claim with a lease, record exactly once).

A worker *claims* a match with a conditional update: it wins only if the match is queued (and
past any retry backoff) or running under an expired lease. While it plays it renews the lease;
a worker killed mid-match stops renewing, the lease runs out and the next delivery of the task
(or the driver's sweep) re-runs the match. Recording is a conditional update too (only a match
that is not finished can become done) plus the outcome row keyed by the match id, so a result is
recorded once even if two workers finish the same match.
"""
from __future__ import annotations

import gzip
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Update, and_, delete, func, or_, select, update
from sqlalchemy.exc import IntegrityError

from referee.engine.errors import ArenaError
from referee.health import match_health

from . import models as m
from .db import Store, updated
from .models import utcnow


class BotError(ArenaError):
    """Unknown bot, duplicate name, or a bot that does not play the game."""

    code = "bot_error"


class TournamentError(ArenaError):
    code = "tournament_error"


BUILTIN_COMMAND = "{python} -m bots.serve {name}"
NAME_RE = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")  # same rule as referee.service.tokens


def _update(model: type[m.Base]) -> Update:
    """A bulk UPDATE that leaves the session's objects alone (we never rely on them after)."""
    return update(model).execution_options(synchronize_session=False)


# -- bots ------------------------------------------------------------------------------------------
def add_bot(store: Store, name: str, *, kind: str = "hosted", command: str | None = None,
            agent: str | None = None, games: Sequence[str] = (), cwd: str | None = None,
            env: dict[str, str] | None = None, replace: bool = False) -> int:
    """Register a bot (``replace`` updates an existing one, and re-activates a removed one)."""
    name = name.strip()
    if not NAME_RE.match(name):
        raise BotError(f"bad bot name {name!r}: 1-64 letters, digits, '_', '.' or '-' (the referee's rule)")
    if kind not in ("hosted", "live"):
        raise BotError(f"bot kind must be hosted or live, not {kind!r}")
    if kind == "hosted" and not command:
        raise BotError(f"hosted bot {name!r} needs a command")
    with store.tx() as s:
        bot = s.scalar(select(m.Bot).where(m.Bot.name == name))
        if bot is not None and bot.active and not replace:
            raise BotError(f"a bot named {name!r} already exists (remove it first, or pick another name)")
        if bot is None:
            bot = m.Bot(name=name)
            s.add(bot)
        bot.kind, bot.command, bot.agent, bot.games = kind, command, agent, list(games)
        bot.cwd, bot.env, bot.active = cwd, dict(env or {}), True
        s.flush()
        return bot.id


def remove_bot(store: Store, name: str) -> None:
    """Deactivate a bot: it joins no new tournament; its matches and ratings stay."""
    with store.tx() as s:
        n = updated(s, _update(m.Bot).where(m.Bot.name == name, m.Bot.active.is_(True))
                       .values(active=False))
        if not n:
            raise BotError(f"no bot named {name!r}")


def bots_by_name(store: Store, names: Sequence[str]) -> dict[str, m.Bot]:
    with store.read() as s:
        rows = s.scalars(select(m.Bot).where(m.Bot.name.in_(list(names)))).all()
        return {b.name: b for b in rows}


# -- tournaments -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class TournamentRequest:
    game: str
    bots: tuple[str, ...]
    format: str = "auto"
    seats: tuple[int, ...] = ()
    games_per_pairing: int = 1
    seed: int = 0
    options: dict[str, Any] | None = None
    subject: str | None = None
    mixed_teams: bool = False
    executor: str = "referee"
    name: str = ""
    time_control: dict[str, int] | None = None
    deals: str = "auto"  # auto | paired | independent (see arena.scheduling.formats)
    deal_key: str | None = None  # the secret key (hex); None: a fresh random one


def create_tournament(store: Store, req: TournamentRequest) -> int:
    """Validate, schedule and store a tournament and all its matches (seeds fixed now)."""
    from arena import scheduling
    from referee.engine import get_game
    from referee.engine.errors import UnknownGame

    try:
        game = get_game(req.game)
    except UnknownGame as exc:
        raise TournamentError(str(exc)) from None
    info = game.info
    if req.executor not in ("referee", "inprocess"):
        raise TournamentError(f"executor must be referee or inprocess, not {req.executor!r}")
    bots = bots_by_name(store, req.bots)
    for name in req.bots:
        bot = bots.get(name)
        if bot is None or not bot.active:
            raise BotError(f"unknown bot {name!r} (see `arena bot list`)")
        if not bot.plays(info.id):
            raise BotError(f"bot {name!r} does not play {info.id} (it plays {', '.join(bot.games)})")
        if req.executor == "inprocess" and not bot.agent:
            raise BotError(
                f"bot {name!r} has no in-process equivalent; it cannot run with --executor inprocess")
    seats = list(req.seats) or [scheduling.default_seats(info)]
    fmt = scheduling.default_format(info, seats[0]) if req.format == "auto" else req.format
    options = game.options.validate(req.options or {})
    dealer = scheduling.Dealer(scheduling.deals.check_key(req.deal_key) if req.deal_key
                               else scheduling.new_key(), req.seed)
    plan = scheduling.schedule(info, fmt, list(req.bots), seats, req.games_per_pairing, dealer,
                               options=req.options or {}, subject=req.subject, scenarios=game.scenarios,
                               mixed=req.mixed_teams, memoryless=memoryless_bots(bots.values(), req.executor),
                               deals=req.deals)
    # Every distinct (seat count, options) must be playable: one clear error now, not N failed matches.
    for n, opts in {(p.players, json.dumps(p.options, sort_keys=True)) for p in plan}:
        game.new_state(n, json.loads(opts), 0)
    if not plan:
        raise TournamentError("the schedule is empty")
    with store.tx() as s:
        t = m.Tournament(name=req.name or f"{info.id} {fmt}", game=info.id, format=fmt, seats=seats,
                         games_per_pairing=req.games_per_pairing, bots=list(req.bots), subject=req.subject,
                         options=options, time_control=dict(req.time_control or {}), seed=req.seed,
                         executor=req.executor, deal_key=dealer.key, deal_mode=req.deals)
        s.add(t)
        s.flush()
        for number, p in enumerate(plan):
            match = m.Match(tournament_id=t.id, number=number, game=info.id, players=p.players, seed=p.seed,
                            options=p.options, scenario=p.scenario, group_key=p.group, deal=p.deal,
                            status=m.QUEUED, attempts=0)
            match.seats = [m.MatchSeat(seat=i, bot=b) for i, b in enumerate(p.seats)]
            s.add(match)
        return t.id


def memoryless_bots(bots: Iterable[m.Bot], executor: str) -> set[str]:
    """Bots that cannot carry anything from one match to the next, so they may share a deal.

    Hosted bots: the referee launches them per match in the sandbox with a throw-away working
    directory. In-process agents (executor ``inprocess``): a fresh object per match, built-in code.
    Live bots run wherever their developer likes and remember whatever they like.
    """
    if executor == "inprocess":
        return {b.name for b in bots}
    return {b.name for b in bots if b.kind == "hosted"}


def start_tournament(store: Store, tid: int) -> None:
    with store.tx() as s:
        s.execute(_update(m.Tournament).where(m.Tournament.id == tid, m.Tournament.status == m.T_CREATED)
                  .values(status=m.T_RUNNING, started_at=utcnow()))


def cancel_tournament(store: Store, tid: int) -> int:
    """Cancel what has not started; running matches finish (and count). Returns matches cancelled."""
    with store.tx() as s:
        t = s.get(m.Tournament, tid)
        if t is None:
            raise TournamentError(f"no tournament {tid}")
        n = updated(s, _update(m.Match).where(m.Match.tournament_id == tid, m.Match.status == m.QUEUED)
                       .values(status=m.CANCELLED, reason="tournament cancelled",
                               finished_at=utcnow()))
        if t.status not in (m.T_DONE, m.T_CANCELLED):
            t.status, t.finished_at = m.T_CANCELLED, utcnow()
        return n


def finish_if_complete(store: Store, tid: int) -> bool:
    """Mark the tournament done once no match is queued or running (only the first caller wins).

    A continuous ladder season (``arena.ladder``) never finishes this way: it is closed explicitly."""
    with store.tx() as s:
        open_ = s.scalar(select(func.count()).select_from(m.Match).where(
            m.Match.tournament_id == tid, m.Match.status.in_([m.QUEUED, m.RUNNING])))
        if open_:
            return False
        n = updated(s, _update(m.Tournament).where(m.Tournament.id == tid,
                                                  m.Tournament.status.in_([m.T_CREATED, m.T_RUNNING]),
                                                  m.Tournament.format != m.CONTINUOUS)
                       .values(status=m.T_DONE, finished_at=utcnow()))
        return bool(n)


# -- the life of a match ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Claim:
    """``ok``: this worker plays it. Otherwise ``state`` says why not, ``wait_s`` when to look again."""

    ok: bool
    state: str  # claimed | done | failed | cancelled | missing | busy | backoff
    wait_s: float = 0.0
    attempts: int = 0


def claim(store: Store, match_id: int, owner: str, lease_s: float) -> Claim:
    now = utcnow()
    with store.tx() as s:
        n = updated(s,
            _update(m.Match).where(
                m.Match.id == match_id,
                or_(and_(m.Match.status == m.QUEUED,
                         or_(m.Match.not_before.is_(None), m.Match.not_before <= now)),
                    and_(m.Match.status == m.RUNNING, m.Match.lease_expires < now)))
            .values(status=m.RUNNING, lease_owner=owner, lease_expires=now + timedelta(seconds=lease_s),
                    attempts=m.Match.attempts + 1, started_at=now)
        )
        row = s.execute(select(m.Match.status, m.Match.lease_expires, m.Match.not_before, m.Match.attempts)
                        .where(m.Match.id == match_id)).first()
    if row is None:
        return Claim(False, "missing")
    status, expires, not_before, attempts = row
    if n:
        return Claim(True, "claimed", 0.0, attempts)
    if status == m.RUNNING:
        return Claim(False, "busy", max(0.5, (expires - now).total_seconds()) if expires else lease_s,
                     attempts)
    if status == m.QUEUED:
        return Claim(False, "backoff", max(0.1, (not_before - now).total_seconds()) if not_before else 0.1,
                     attempts)
    return Claim(False, status, 0.0, attempts)


def renew(store: Store, match_id: int, owner: str, lease_s: float) -> bool:
    """Extend this worker's lease; False if it lost the match (lease taken over or match finished)."""
    with store.tx() as s:
        return bool(updated(s, _update(m.Match).where(m.Match.id == match_id, m.Match.status == m.RUNNING,
                                                     m.Match.lease_owner == owner)
                               .values(lease_expires=utcnow() + timedelta(seconds=lease_s))))


def release(store: Store, match_id: int, owner: str, reason: str, delay_s: float, *,
            refund: bool = False) -> bool:
    """Give a match back for a retry after ``delay_s``; ``refund``: the claim was spent on an outage
    (referee or store unreachable), not on the match, and does not count as an attempt.

    The retry counts as a dispatch at its due time: the worker re-sends it (Celery retry), so
    the driver's sweep leaves it alone unless that message is lost too."""
    later = utcnow() + timedelta(seconds=delay_s)
    values: dict[str, Any] = {"status": m.QUEUED, "reason": reason, "lease_owner": None,
                              "lease_expires": None, "not_before": later, "dispatched_at": later}
    if refund:
        values["attempts"] = func.greatest(m.Match.attempts - 1, 0) if store.dialect == "postgresql" \
            else func.max(m.Match.attempts - 1, 0)
    with store.tx() as s:
        return bool(updated(s, _update(m.Match).where(m.Match.id == match_id, m.Match.status == m.RUNNING,
                                                     m.Match.lease_owner == owner)
                               .values(**values)))


def note(store: Store, match_id: int, owner: str, reason: str) -> bool:
    """Say why a match this worker holds is not progressing (e.g. "waiting for referee: ...")."""
    with store.tx() as s:
        return bool(updated(s, _update(m.Match).where(m.Match.id == match_id, m.Match.status == m.RUNNING,
                                                     m.Match.lease_owner == owner)
                               .values(reason=reason[:2000])))


def retry_failed(store: Store, tid: int) -> int:
    """Queue a tournament's failed matches again (same seeds, attempts reset); returns how many.

    The tournament is running again until they finish; their messages go to the front of the queue."""
    with store.tx() as s:
        t = s.get(m.Tournament, tid)
        if t is None:
            raise TournamentError(f"no tournament {tid}")
        if t.status == m.T_CANCELLED:
            raise TournamentError(f"tournament {tid} was cancelled")
        n = updated(s, _update(m.Match).where(m.Match.tournament_id == tid, m.Match.status == m.FAILED)
                       .values(status=m.QUEUED, attempts=0, reason="retried", not_before=None,
                               dispatched_at=None, lease_owner=None, lease_expires=None,
                               finished_at=None))
        if n:
            t.status, t.finished_at = m.T_RUNNING, None
        return int(n)


def fail(store: Store, match_id: int, owner: str | None, reason: str) -> bool:
    """Mark a match failed for good (rejected by the referee, or out of attempts)."""
    with store.tx() as s:
        cond = [m.Match.id == match_id, m.Match.status.in_([m.RUNNING, m.QUEUED])]
        if owner is not None:
            cond.append(or_(m.Match.lease_owner == owner, m.Match.status == m.QUEUED))
        return bool(updated(s, _update(m.Match).where(*cond).values(
            status=m.FAILED, reason=reason[:2000], lease_owner=None, lease_expires=None,
            finished_at=utcnow())))


#: characters of a hosted bot's output kept per seat (the tail: a crash's traceback is at the end)
OUTPUT_CAP = 16_000


def record(store: Store, match_id: int, outcome: dict[str, Any], replay: dict[str, Any] | None, *,
           worker: str | None = None, plies: int = 0, seconds: float = 0.0,
           outputs: dict[int, str] | None = None, outputs_kept: int = 50) -> bool:
    """Record a result exactly once; False if the match was already finished (the result is dropped).

    ``outputs``: seat -> what that seat's hosted bot wrote (stdout and stderr), kept for its owner in its
    latest ``outputs_kept`` matches (older ones are let go here, so a chatty bot's share stays bounded)."""
    try:
        with store.tx() as s:
            n = updated(s, _update(m.Match).where(m.Match.id == match_id,
                                                 m.Match.status.in_([m.RUNNING, m.QUEUED]))
                           .values(status=m.DONE, reason=None, lease_owner=None, lease_expires=None,
                                   finished_at=utcnow()))
            if not n:
                return False
            s.add(m.Outcome(match_id=match_id, data=outcome, reason=str(outcome.get("reason", "normal")),
                            team_result=outcome.get("team_result"), plies=plies, seconds=seconds,
                            worker=worker))
            if replay is not None:
                raw = json.dumps(replay, separators=(",", ":")).encode()
                s.add(m.ReplayBlob(match_id=match_id, data=gzip.compress(raw, mtime=0), size=len(raw)))
            ranks, scores = outcome.get("ranks") or [], outcome.get("scores") or []
            writers: set[str] = set()
            health = match_health(replay) if replay is not None else {}
            for seat in s.scalars(select(m.MatchSeat).where(m.MatchSeat.match_id == match_id)):
                if seat.seat < len(ranks):
                    seat.rank = int(ranks[seat.seat])
                    seat.score = float(scores[seat.seat]) if seat.seat < len(scores) else None
                if seat.seat in health:
                    seat.health = health[seat.seat].to_json()
                text = (outputs or {}).get(seat.seat)
                if text:
                    seat.output = text[-OUTPUT_CAP:]
                    writers.add(seat.bot)
            s.flush()
            for bot in sorted(writers):
                for old in s.scalars(select(m.MatchSeat).where(m.MatchSeat.bot == bot,
                                                               m.MatchSeat.output.is_not(None))
                                     .order_by(m.MatchSeat.match_id.desc(), m.MatchSeat.seat)
                                     .offset(max(1, outputs_kept))):
                    old.output = None
        return True
    except IntegrityError:
        return False  # the outcome row exists: another worker recorded it first


def forgive_takeover(store: Store, match_id: int) -> bool:
    """This worker played a match another worker recorded first: two claims were live at once, so one
    was a takeover of a lease whose holder was alive but could not renew it (the store was unreachable,
    or the holder stalled). That claim was not the match's fault: give its attempt back (never below 1)."""
    with store.tx() as s:
        return bool(updated(s, _update(m.Match).where(m.Match.id == match_id, m.Match.status == m.DONE,
                                                     m.Match.attempts > 1)
                               .values(attempts=m.Match.attempts - 1)))


@dataclass(frozen=True)
class Stale:
    match_id: int
    # "undispatched" | "retried" | "lost" (queued but its message vanished) | "expired" (worker died)
    why: str

    @property
    def front(self) -> bool:
        """Re-sent and retried matches jump the queue: they have waited once already."""
        return self.why != "undispatched"


def needs_dispatch(store: Store, tid: int, *, redispatch_after_s: float, limit: int = 10_000) -> list[Stale]:
    """Matches whose task message must be (re)sent: never sent, sent long ago and still queued
    (broker lost it), or running under an expired lease (the worker died)."""
    now = utcnow()
    old = now - timedelta(seconds=redispatch_after_s)
    with store.read() as s:
        rows = s.execute(select(m.Match.id, m.Match.status, m.Match.dispatched_at, m.Match.reason).where(
            m.Match.tournament_id == tid,
            or_(and_(m.Match.status == m.QUEUED,
                     or_(m.Match.dispatched_at.is_(None), m.Match.dispatched_at < old),
                     or_(m.Match.not_before.is_(None), m.Match.not_before <= now)),
                and_(m.Match.status == m.RUNNING, m.Match.lease_expires < now,
                     or_(m.Match.dispatched_at.is_(None), m.Match.dispatched_at < m.Match.lease_expires,
                         m.Match.dispatched_at < old))))
            .order_by(m.Match.number).limit(limit)).all()
    out = []
    for mid, status, sent, reason in rows:
        why = "expired" if status == m.RUNNING else (("retried" if reason == "retried" else "undispatched")
                                                     if sent is None else "lost")
        out.append(Stale(mid, why))
    return out


def mark_dispatched(store: Store, match_ids: Sequence[int], when: datetime | None = None) -> None:
    if not match_ids:
        return
    with store.tx() as s:
        for chunk in range(0, len(match_ids), 500):
            s.execute(_update(m.Match).where(m.Match.id.in_(list(match_ids[chunk:chunk + 500])))
                      .values(dispatched_at=when or utcnow()))


def delete_tournament(store: Store, tid: int) -> None:
    with store.tx() as s:
        s.execute(delete(m.Tournament).where(m.Tournament.id == tid))
