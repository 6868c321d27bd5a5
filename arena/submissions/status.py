"""A submitted version's status, and the one place that changes it.

    building -> failed | active | retired
    active   -> suspended | retired
    suspended -> active | retired
    failed   -> retired

``Bot.active`` (what tournaments and the referee's side filter on) is True exactly while the status
is ``active``. The ladder (``arena/ladder``) suspends, retires and reinstates through ``change`` too,
and a bot that leaves play loses its queued ladder matches here, whoever took it out. An
organizer-registered bot (no family) has no build: it moves freely between active, suspended and
retired.
"""

from __future__ import annotations

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from arena.store import models as m
from arena.store.db import Store, updated
from referee.engine.errors import ArenaError

ALLOWED: dict[str, frozenset[str]] = {
    m.B_BUILDING: frozenset({m.B_FAILED, m.B_ACTIVE, m.B_RETIRED}),
    m.B_ACTIVE: frozenset({m.B_SUSPENDED, m.B_RETIRED}),
    m.B_SUSPENDED: frozenset({m.B_ACTIVE, m.B_RETIRED}),
    m.B_FAILED: frozenset({m.B_RETIRED}),
    m.B_RETIRED: frozenset(),
}
ORGANIZER_ALLOWED: dict[str, frozenset[str]] = {
    m.B_ACTIVE: frozenset({m.B_SUSPENDED, m.B_RETIRED}),
    m.B_SUSPENDED: frozenset({m.B_ACTIVE, m.B_RETIRED}),
    m.B_RETIRED: frozenset({m.B_ACTIVE}),
}


class StatusError(ArenaError):
    """An unknown version, or a transition the life cycle above does not allow."""

    code = "status_error"


def set_status(
    store: Store, bot_name: str, status: str, reason: str | None = None, *, log: str | None = None
) -> str:
    """Move version ``bot_name`` to ``status`` (with ``reason``; ``log`` replaces its build log when
    given) and return the status it had. Raises ``StatusError`` for an unknown version or a
    transition that is not allowed (setting the status it already has is one)."""
    with store.tx() as s:
        return change(s, bot_name, status, reason, log=log, versions_only=True)


def change(s: Session, bot_name: str, status: str, reason: str | None = None, *, log: str | None = None,
           versions_only: bool = False) -> str:
    """``set_status`` inside the caller's transaction; organizer bots too unless ``versions_only``."""
    if status not in ALLOWED:
        raise StatusError(f"unknown status {status!r}")
    bot = s.scalar(select(m.Bot).where(m.Bot.name == bot_name).with_for_update())
    if bot is None or (versions_only and bot.family is None):
        raise StatusError(f"no submitted version named {bot_name!r}" if versions_only
                          else f"no bot named {bot_name!r}")
    before = bot.status
    rules = ALLOWED if bot.family is not None else ORGANIZER_ALLOWED
    if status not in rules.get(before, frozenset()):
        raise StatusError(f"{bot_name} is {before}: it cannot become {status}")
    bot.status, bot.status_reason, bot.active = status, reason, status == m.B_ACTIVE
    if log is not None:
        bot.build_log = log
    if status != m.B_ACTIVE:
        cancel_queued(s, bot_name)
    return before


def cancel_queued(s: Session, bot: str) -> int:
    """Cancel the queued ladder matches ``bot`` sits in (it was suspended or retired)."""
    ids = list(s.scalars(
        select(m.Match.id).join(m.Tournament, m.Tournament.id == m.Match.tournament_id)
        .where(m.Tournament.format == m.CONTINUOUS, m.Match.status == m.QUEUED,
               m.Match.id.in_(select(m.MatchSeat.match_id).where(m.MatchSeat.bot == bot)))))
    if not ids:
        return 0
    return updated(s, update(m.Match).where(m.Match.id.in_(ids), m.Match.status == m.QUEUED)
                   .values(status=m.CANCELLED, reason=f"{bot} left the ladder", finished_at=m.utcnow())
                   .execution_options(synchronize_session=False))
