"""Developers and their versions in the store: registration, tokens, approval, version rows.

A token is 32 random bytes shown once; only its SHA-256 is stored (no stretching needed for a
random secret). A version is a ``Bot`` row of its own, ``<developer>/<bot>@<n>``, kind ``hosted``,
its command run from its unpacked package directory.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from arena.store import models as m
from arena.store.db import Store
from arena.store.models import utcnow
from referee.engine.errors import ArenaError

from .manifest import Manifest

NAME_RE = re.compile(r"^[a-z0-9][a-z0-9._-]{0,31}$")
TOKEN_PREFIX = "arenadev_"
PENDING, APPROVED, DISABLED = "pending", "approved", "disabled"
#: A version's name: '<bot>@<n>' or '<developer>/<bot>@<n>'.
VERSION_RE = re.compile(
    r"^(?:(?P<dev>[a-z0-9][a-z0-9._-]{0,31})/)?(?P<bot>[a-z0-9][a-z0-9._-]{0,63})@(?P<n>[0-9]{1,9})$"
)


class DeveloperError(ArenaError):
    code = "developer_error"


class NameTaken(DeveloperError):
    pass


@dataclass(frozen=True)
class DeveloperView:
    id: int
    name: str
    status: str


@dataclass(frozen=True)
class VersionView:
    name: str
    family: str
    version: int
    status: str
    reason: str
    runtime: str
    games: tuple[str, ...]
    seats: dict[str, Any]
    package_sha256: str
    submitted_at: datetime | None
    log: str
    command: str
    cwd: str


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def check_name(name: str) -> str:
    if not NAME_RE.match(name or ""):
        raise DeveloperError(
            f"bad developer name {name!r}: 1-32 lowercase letters, digits, '.', '_' or '-', "
            "starting with a letter or digit"
        )
    return name


def register(store: Store, name: str, *, approved: bool) -> tuple[str, str]:
    """Create developer ``name``; returns (token, status)."""
    check_name(name)
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    status = APPROVED if approved else PENDING
    try:
        with store.tx() as s:
            if s.scalar(select(m.Developer.id).where(m.Developer.name == name)) is not None:
                raise NameTaken(f"a developer named {name!r} already exists")
            s.add(m.Developer(name=name, token_sha256=hash_token(token), status=status))
    except IntegrityError:
        raise NameTaken(f"a developer named {name!r} already exists") from None
    return token, status


def set_developer_status(store: Store, name: str, status: str) -> None:
    """An organizer's decision: ``approved`` or ``disabled``."""
    with store.tx() as s:
        dev = s.scalar(select(m.Developer).where(m.Developer.name == name))
        if dev is None:
            raise DeveloperError(f"no developer named {name!r}")
        dev.status = status


def developers(store: Store) -> list[DeveloperView]:
    with store.read() as s:
        return [
            DeveloperView(d.id, d.name, d.status)
            for d in s.scalars(select(m.Developer).order_by(m.Developer.name))
        ]


def authenticate(store: Store, token: str) -> DeveloperView | None:
    """The developer whose token this is, or None (looked up by hash, compared in constant time)."""
    if not token.startswith(TOKEN_PREFIX):
        return None
    digest = hash_token(token)
    with store.read() as s:
        dev = s.scalar(select(m.Developer).where(m.Developer.token_sha256 == digest))
        if dev is None or not hmac.compare_digest(dev.token_sha256, digest):
            return None
        return DeveloperView(dev.id, dev.name, dev.status)


def submissions_since(store: Store, developer_id: int, since: datetime) -> int:
    with store.read() as s:
        return int(
            s.scalar(
                select(func.count())
                .select_from(m.Bot)
                .where(m.Bot.developer_id == developer_id, m.Bot.submitted_at >= since)
            )
            or 0
        )


def hour_ago() -> datetime:
    return utcnow() - timedelta(hours=1)


def new_version(
    store: Store, dev: DeveloperView, manifest: Manifest, sha: str, package_dir_for: Any
) -> VersionView:
    """A new ``building`` version of ``dev``'s bot ``manifest.name``; ``package_dir_for(n)`` is where
    version ``n``'s package will live (its command runs there)."""
    family = f"{dev.name}/{manifest.name}"
    with store.tx() as s:
        last = s.scalar(select(func.max(m.Bot.version)).where(m.Bot.family == family)) or 0
        n = int(last) + 1
        bot = m.Bot(
            name=f"{family}@{n}",
            kind="hosted",
            command=manifest.command,
            cwd=str(package_dir_for(n)),
            env={},
            agent=None,
            games=list(manifest.games),
            active=False,
            developer_id=dev.id,
            family=family,
            version=n,
            status=m.B_BUILDING,
            status_reason=None,
            runtime=manifest.runtime,
            seats={g: list(c) for g, c in manifest.seats.items()} or None,
            package_sha256=sha,
            build_log="",
            submitted_at=utcnow(),
        )
        s.add(bot)
        s.flush()
        return _view(bot)


def _view(b: m.Bot) -> VersionView:
    return VersionView(
        b.name,
        b.family or "",
        b.version or 0,
        b.status,
        b.status_reason or "",
        b.runtime or "",
        tuple(b.games or ()),
        dict(b.seats or {}),
        b.package_sha256 or "",
        b.submitted_at,
        b.build_log or "",
        b.command or "",
        b.cwd or "",
    )


def versions(store: Store, developer_id: int, family: str | None = None) -> list[VersionView]:
    """A developer's versions, newest first (only its own: the query is keyed on its id)."""
    q = select(m.Bot).where(m.Bot.developer_id == developer_id)
    if family:
        q = q.where(m.Bot.family == family)
    with store.read() as s:
        rows = s.scalars(q.order_by(m.Bot.submitted_at.desc(), m.Bot.id.desc())).all()
        return [_view(b) for b in rows]


def version(store: Store, developer_id: int, name: str) -> VersionView | None:
    with store.read() as s:
        b = s.scalar(select(m.Bot).where(m.Bot.developer_id == developer_id, m.Bot.name == name))
        return None if b is None else _view(b)


def any_version(store: Store, name: str) -> VersionView | None:
    """For the platform's own use (builds): no developer check."""
    with store.read() as s:
        b = s.scalar(select(m.Bot).where(m.Bot.name == name, m.Bot.family.is_not(None)))
        return None if b is None else _view(b)


def active_versions(store: Store, developer_id: int) -> list[str]:
    """Names of a developer's active versions, oldest first."""
    with store.read() as s:
        return list(
            s.scalars(
                select(m.Bot.name)
                .where(m.Bot.developer_id == developer_id, m.Bot.status == m.B_ACTIVE)
                .order_by(m.Bot.submitted_at, m.Bot.id)
            )
        )


def building(store: Store) -> list[str]:
    with store.read() as s:
        return list(
            s.scalars(select(m.Bot.name).where(m.Bot.status == m.B_BUILDING, m.Bot.family.is_not(None)))
        )


def append_log(store: Store, name: str, text: str) -> None:
    with store.tx() as s:
        b = s.scalar(select(m.Bot).where(m.Bot.name == name))
        if b is not None:
            b.build_log = (b.build_log or "") + text
