"""A submitted version's status, and the one place that changes it.

    building -> failed | active | retired
    active   -> suspended | retired
    suspended -> active | retired
    failed   -> retired

``Bot.active`` (what tournaments and the referee's side filter on) is True exactly while the status
is ``active``. The ladder (issue 20, part B) suspends a version through ``set_status`` too.
"""

from __future__ import annotations

from sqlalchemy import select

from arena.store import models as m
from arena.store.db import Store
from referee.engine.errors import ArenaError

ALLOWED: dict[str, frozenset[str]] = {
    m.B_BUILDING: frozenset({m.B_FAILED, m.B_ACTIVE, m.B_RETIRED}),
    m.B_ACTIVE: frozenset({m.B_SUSPENDED, m.B_RETIRED}),
    m.B_SUSPENDED: frozenset({m.B_ACTIVE, m.B_RETIRED}),
    m.B_FAILED: frozenset({m.B_RETIRED}),
    m.B_RETIRED: frozenset(),
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
    if status not in ALLOWED:
        raise StatusError(f"unknown status {status!r}")
    with store.tx() as s:
        bot = s.scalar(select(m.Bot).where(m.Bot.name == bot_name).with_for_update())
        if bot is None or bot.family is None:
            raise StatusError(f"no submitted version named {bot_name!r}")
        before = bot.status
        if status not in ALLOWED.get(before, frozenset()):
            raise StatusError(f"{bot_name} is {before}: it cannot become {status}")
        bot.status, bot.status_reason, bot.active = status, reason, status == m.B_ACTIVE
        if log is not None:
            bot.build_log = log
        return before
