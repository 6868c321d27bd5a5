"""The version life cycle in the store (SQLite): one function moves it, ``active`` follows it."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from arena.store import models as m
from arena.store.db import open_store
from arena.submissions import developers as devs
from arena.submissions.manifest import parse
from arena.submissions.status import ALLOWED, StatusError, set_status

_COUNT = itertools.count()
MANIFEST = 'name = "bot"\nruntime = "python"\ncommand = "{python} bot.py"\ngames = ["clank"]\n'


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """One store for the module (migrating is the slow part); each test registers a developer of its own."""
    return open_store(f"sqlite:///{tmp_path_factory.mktemp('store') / 'arena.db'}", cached=False)


def _version(store, tmp_path: Path) -> devs.VersionView:  # type: ignore[no-untyped-def]
    dev_name = f"dev{next(_COUNT)}"
    token, status = devs.register(store, dev_name, approved=True)
    assert status == devs.APPROVED and devs.authenticate(store, token) is not None
    dev = devs.authenticate(store, token)
    assert dev is not None
    return devs.new_version(store, dev, parse(MANIFEST), "ab" * 32, lambda n: tmp_path / str(n))


def test_a_new_version_is_building_and_inactive(store, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    v = _version(store, tmp_path)
    assert (v.name, v.family, v.version, v.status) == (f"{v.family}@1", v.family, 1, m.B_BUILDING)
    assert v.family.endswith("/bot")
    with store.read() as s:
        bot = s.query(m.Bot).filter_by(name=v.name).one()
        assert (bot.kind, bot.active, bot.command, bot.cwd) == (
            "hosted",
            False,
            "{python} bot.py",
            str(tmp_path / "1"),
        )


@pytest.mark.parametrize(
    ("path", "active"),
    [
        ([m.B_ACTIVE], True),
        ([m.B_FAILED], False),
        ([m.B_ACTIVE, m.B_SUSPENDED], False),
        ([m.B_ACTIVE, m.B_SUSPENDED, m.B_ACTIVE], True),
        ([m.B_ACTIVE, m.B_RETIRED], False),
        ([m.B_FAILED, m.B_RETIRED], False),
    ],
)
def test_allowed_paths_and_the_active_flag(path: list[str], active: bool, store, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    v = _version(store, tmp_path)
    before = m.B_BUILDING
    for status in path:
        assert set_status(store, v.name, status, f"because {status}") == before
        before = status
    with store.read() as s:
        bot = s.query(m.Bot).filter_by(name=v.name).one()
        assert (bot.status, bot.active, bot.status_reason) == (path[-1], active, f"because {path[-1]}")


@pytest.mark.parametrize(
    ("path", "bad"),
    [
        ([], m.B_SUSPENDED),
        ([m.B_FAILED], m.B_ACTIVE),
        ([m.B_ACTIVE, m.B_RETIRED], m.B_ACTIVE),
        ([m.B_ACTIVE], m.B_ACTIVE),
        ([], "exploded"),
    ],
)
def test_other_transitions_are_refused_and_change_nothing(
    path: list[str], bad: str, store, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    v = _version(store, tmp_path)
    for status in path:
        set_status(store, v.name, status)
    with pytest.raises(StatusError):
        set_status(store, v.name, bad, "no")
    with store.read() as s:
        assert s.query(m.Bot).filter_by(name=v.name).one().status == (path or [m.B_BUILDING])[-1]


def test_organizer_bots_and_unknown_names_are_not_versions(store) -> None:  # type: ignore[no-untyped-def]
    from arena.store import ops

    ops.add_bot(store, "plain", command="{python} -m bots.serve random")
    for name in ("plain", "nobody@1"):
        with pytest.raises(StatusError, match="no submitted version"):
            set_status(store, name, m.B_SUSPENDED)


def test_every_status_has_its_transitions() -> None:
    assert set(ALLOWED) == {m.B_BUILDING, m.B_FAILED, m.B_ACTIVE, m.B_SUSPENDED, m.B_RETIRED}


def test_tokens_are_stored_hashed_and_registration_names_checked(store) -> None:  # type: ignore[no-untyped-def]
    token, status = devs.register(store, "eve", approved=False)
    assert status == devs.PENDING and token.startswith(devs.TOKEN_PREFIX)
    with store.read() as s:
        row = s.query(m.Developer).filter_by(name="eve").one()
        assert row.token_sha256 == devs.hash_token(token) and token not in row.token_sha256
    with pytest.raises(devs.NameTaken):
        devs.register(store, "eve", approved=True)
    for bad in ("Eve", "", "a" * 33, "../x", "-x"):
        with pytest.raises(devs.DeveloperError):
            devs.register(store, bad, approved=True)
    assert devs.authenticate(store, token[:-1] + ("A" if token[-1] != "A" else "B")) is None
    devs.set_developer_status(store, "eve", devs.APPROVED)
    dev = devs.authenticate(store, token)
    assert dev is not None and (dev.name, dev.status) == ("eve", devs.APPROVED)
