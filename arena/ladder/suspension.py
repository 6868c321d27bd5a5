"""Suspending a version that keeps failing its ladder matches, and retiring one.

After each recorded ladder match, every version that sat in it is checked: if its last
``ARENA_SUSPEND_AFTER`` ladder matches (N) all went wrong for it — its process crashed, it timed
out or struck out to a forfeit, or it was forfeited for any other reason (``match_seats.health``:
``crashes``, ``forfeits``, ``forfeit_reason``) — it is suspended with the reason
("crashed in 5 consecutive matches; last: ..."). Only ladder matches count: an organizer's
tournament deactivates nobody. A suspended or retired version leaves the ladder at once (its queued
ladder matches are cancelled); its matches and ratings stay.
"""
from __future__ import annotations

from typing import Any

from sqlalchemy import select

from ..config import settings
from ..store import Store, ops
from ..store import models as m
from ..store.queries import group_open
from ..submissions.status import StatusError, change
from .matchmaker import FORMAT


def fault(health: dict[str, Any] | None) -> str | None:
    """What went wrong for a seat in one match ("crashed" / "forfeited"), or None if it played it out."""
    if not health:
        return None
    if int(health.get("crashes", 0)):
        return "crashed"
    if int(health.get("forfeits", 0)):
        return "forfeited"
    return None


def check(store: Store, match_id: int, *, after: int | None = None) -> list[str]:
    """Suspend the versions of this (recorded, ladder) match that failed ``after`` in a row; their names."""
    n = after or settings().suspend_after
    with store.read() as s:
        this = s.execute(select(m.Match.tournament_id, m.Match.deal, m.Tournament.format)
                         .join(m.Tournament, m.Tournament.id == m.Match.tournament_id)
                         .where(m.Match.id == match_id)).first()
        # Like a result, a fault is published only with its whole deal group (a suspension right after a
        # sealed match would tell who lost it): the last match of the group to finish triggers the check.
        if (this is None or this.format != FORMAT
                or s.scalar(select(group_open()).where(m.Match.id == match_id))):
            return []
        seats = s.execute(select(m.MatchSeat.bot, m.MatchSeat.health)
                          .join(m.Match, m.Match.id == m.MatchSeat.match_id)
                          .where(m.Match.tournament_id == this.tournament_id,
                                 m.Match.deal == this.deal)).all()
        # Only a version that went wrong in this deal group can have N faults in a row ending now.
        faulty = sorted({bot for bot, health in seats if fault(health)})
        if not faulty:
            return []
        active = set(s.scalars(select(m.Bot.name).where(m.Bot.name.in_(faulty), m.Bot.status == m.B_ACTIVE)))
        verdicts = {}
        for bot in faulty:
            if bot not in active:
                continue
            rows = s.execute(
                select(m.MatchSeat.match_id, m.MatchSeat.health)
                .join(m.Match, m.Match.id == m.MatchSeat.match_id)
                .join(m.Tournament, m.Tournament.id == m.Match.tournament_id)
                .where(m.MatchSeat.bot == bot, m.Tournament.format == FORMAT, m.Match.status == m.DONE,
                       ~group_open())
                .order_by(m.Match.finished_at.desc(), m.Match.id.desc()).limit(4 * n)).all()
            # a bot in several seats of one match: the match went wrong if any of its seats did
            per_match: dict[int, list[dict[str, Any] | None]] = {}
            for mid, health in rows:
                per_match.setdefault(mid, []).append(health)
            recent = list(per_match.values())[:n]
            faults = [next((f for h in hs if (f := fault(h))), None) for hs in recent]
            if len(faults) == n and all(faults):
                last = next((h.get("forfeit_reason") for h in recent[0] if h and h.get("forfeit_reason")),
                            None)
                what = "crashed" if all(f == "crashed" for f in faults) else "crashed or forfeited"
                verdicts[bot] = (f"{what} in {n} consecutive matches; "
                                 f"last: {_one_line(last or faults[0] or '')}")
    out = []
    for bot, reason in verdicts.items():
        with store.tx() as s:
            still = s.scalar(select(m.Bot.status).where(m.Bot.name == bot))
            if still == m.B_ACTIVE:
                change(s, bot, m.B_SUSPENDED, reason)
                out.append(bot)
    return out


def _one_line(text: str, limit: int = 300) -> str:
    line = " ".join(str(text).split())
    return line if len(line) <= limit else line[:limit - 1] + "…"


def retire(store: Store, bot: str, reason: str | None = None) -> None:
    """Take a version off the ladder for good (its matches and ratings stay)."""
    try:
        with store.tx() as s:
            change(s, bot, m.B_RETIRED, reason or "retired")
    except StatusError as e:
        raise ops.BotError(str(e)) from None


def reinstate(store: Store, bot: str) -> None:
    """Put a suspended (or retired) version back on the ladder."""
    try:
        with store.tx() as s:
            change(s, bot, m.B_ACTIVE, None)
    except StatusError as e:
        raise ops.BotError(str(e)) from None
