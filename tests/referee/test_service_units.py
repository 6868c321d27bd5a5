"""The referee's parts one by one: organizer auth, session routing, hosted launching, match lifecycle.

Each runs on a real event loop with a real token store; the launcher is real (processes) except
in the lifecycle tests, where a recording launcher stands in for the process launcher so that the
lifecycle's own rules (forfeits, clean-up, idempotent retries) are tested alone.
"""
from __future__ import annotations

import asyncio
import json
import sys
from typing import Any

import grpc
import pytest

from referee.matchspec import MatchSpec, SeatSpec
from referee.protocol import bot_pb2
from referee.service.auth import OrganizerAuth
from referee.service.config import RefereeConfig
from referee.service.launcher import BadCommand, LaunchRequest, ProcessLauncher
from referee.service.lifecycle import MatchLifecycle
from referee.service.reject import Reject
from referee.service.routing import SessionRouter
from referee.service.tokens import TokenStore


def _drain(session: Any) -> list[Any]:
    out = []
    while not session.out.empty():
        out.append(session.out.get_nowait())
    return out


# -- organizer auth ------------------------------------------------------------------------------
def test_organizer_auth_wants_the_bearer_token_exactly() -> None:
    auth = OrganizerAuth("s3cret")
    auth.check([("authorization", "Bearer s3cret")])
    auth.check([("authorization", b"Bearer s3cret")])
    for md in ([], None, [("authorization", "s3cret")], [("authorization", "Bearer s3cre")],
               [("authorization", "Bearer s3cret2")], [("x-token", "Bearer s3cret")]):
        with pytest.raises(Reject) as exc:
            auth.check(md)
        assert exc.value.code == grpc.StatusCode.UNAUTHENTICATED and "s3cret" not in exc.value.detail
    with pytest.raises(ValueError):
        OrganizerAuth("")


# -- session routing -----------------------------------------------------------------------------
@pytest.fixture()
def store(tmp_path) -> TokenStore:
    return TokenStore(f"sqlite:///{tmp_path / 'tokens.db'}")


def test_routing_welcomes_registered_bots_and_refuses_others(store: TokenStore) -> None:
    token = store.register("alpha", ["sealed_bids", "clank"])

    async def go() -> None:
        router = SessionRouter(RefereeConfig(), store, {})
        with pytest.raises(Reject) as exc:
            await router.open(bot_pb2.Hello(token="nope"))
        assert exc.value.code == grpc.StatusCode.UNAUTHENTICATED
        with pytest.raises(Reject) as exc:
            await router.open(bot_pb2.Hello(token=token, games=["greyport"]))
        assert exc.value.code == grpc.StatusCode.INVALID_ARGUMENT
        s = await router.open(bot_pb2.Hello(token=token, games=["clank", "greyport"], capacity=1000))
        welcome = _drain(s)[0].welcome
        assert welcome.bot == "alpha" and list(welcome.games) == ["clank"] and welcome.capacity == 64
        assert router.free_session("alpha", "clank") is s
        assert router.free_session("alpha", "sealed_bids") is None
        router.on_message(s, bot_pb2.BotMessage(ping=bot_pb2.Ping(nonce=7)))
        router.on_message(s, bot_pb2.BotMessage(answer=bot_pb2.Answer(match_id="m9", decision_id=1, index=0)))
        router.on_message(s, bot_pb2.BotMessage(hello=bot_pb2.Hello(token=token)))
        got = _drain(s)
        assert got[0].pong.nonce == 7
        assert got[1].error.code == bot_pb2.UNKNOWN_MATCH and got[1].error.consequence == bot_pb2.IGNORED
        assert got[2].error.code == bot_pb2.PROTOCOL_VIOLATION
        assert router.revoke("alpha") == 1 and s.closed
        router.close(s, "gone")
        assert router.sessions == {}

    asyncio.run(go())


def test_routing_closes_a_flooding_session(store: TokenStore) -> None:
    token = store.register("noisy")

    async def go() -> None:
        router = SessionRouter(RefereeConfig(flood_rate=1, flood_burst=2, flood_disconnect_after=3), store,
                               {})
        s = await router.open(bot_pb2.Hello(token=token))
        for i in range(10):
            router.on_message(s, bot_pb2.BotMessage(ping=bot_pb2.Ping(nonce=i)))
        codes = [m.error.code for m in _drain(s) if hasattr(m, "WhichOneof")
                 and m.WhichOneof("kind") == "error"]
        assert bot_pb2.FLOODING in codes and s.closed and "flooding" in s.close_reason

    asyncio.run(go())


# -- hosted launching ----------------------------------------------------------------------------
def test_process_launcher_passes_the_seat_credential_and_not_the_organizer_secrets(monkeypatch) -> None:
    monkeypatch.setenv("ARENA_ORGANIZER_TOKEN", "organizer-secret")
    code = ("import os; print(os.environ['ARENA_TOKEN'], os.environ['ARENA_REFEREE'], "
            "os.environ['ARENA_SEAT'], os.environ.get('ARENA_ORGANIZER_TOKEN')); raise SystemExit(3)")

    async def go() -> None:
        launcher = ProcessLauncher(RefereeConfig())
        with pytest.raises(BadCommand):
            await launcher.launch(LaunchRequest("m1", 0, "   ", None))
        h = await launcher.launch(LaunchRequest("m1", 1, f'{sys.executable} -c "{code}"', None, {},
                                                "hosted_abc", "127.0.0.1:1"))
        assert not h.launch_error and h.pid
        assert await asyncio.wait_for(h.wait(), 30) == 3
        await h.stop(0)
        # (the sandbox's socket, whatever the request's TCP address: issue 14)
        assert "hosted_abc unix:/run/arena/referee.sock 1 None" in h.log_text()
        assert "[exit code 3]" in h.log_text()
        bad = await launcher.launch(LaunchRequest("m1", 0, "x", "/no/such/dir"))
        assert "does not exist" in bad.launch_error
        await launcher.hosting.close()

    asyncio.run(go())


# -- match lifecycle -----------------------------------------------------------------------------
class _Failed:
    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.launch_error = f"cannot launch seat {seat}"
        self.pid = None
        self.stopped = False

    async def wait(self) -> int:
        return 1

    async def stop(self, grace_s: float) -> None:
        self.stopped = True

    def log_text(self) -> str:
        return self.launch_error


class _Recording:
    """Launches nothing: every seat fails to start (the lifecycle's forfeit rule is under test)."""

    def __init__(self) -> None:
        self.requests: list[LaunchRequest] = []
        self.handles: list[_Failed] = []

    async def launch(self, request: LaunchRequest) -> _Failed:
        if request.command == "bad":
            raise BadCommand("empty")
        self.requests.append(request)
        self.handles.append(_Failed(request.seat))
        return self.handles[-1]


def _lifecycle(store: TokenStore) -> tuple[MatchLifecycle, SessionRouter, _Recording]:
    cfg = RefereeConfig(hosted_connect_s=5)
    router = SessionRouter(cfg, store, {})
    launcher = _Recording()
    return MatchLifecycle(cfg, router, launcher), router, launcher


def test_lifecycle_forfeits_unlaunchable_seats_cleans_up_and_answers_retries(store: TokenStore) -> None:
    spec = MatchSpec("L1", "sealed_bids", 3, [SeatSpec("a", command="a"), SeatSpec("b", command="b")])

    async def go() -> None:
        life, router, launcher = _lifecycle(store)
        life.address = "127.0.0.1:9"
        resp = await life.run_match(spec, 1.0)
        assert [r.credential.startswith("hosted_") for r in launcher.requests] == [True, True]
        assert {r.referee_address for r in launcher.requests} == {"127.0.0.1:9"}
        assert json.loads(
            resp.outcome_json)["reason"] == "forfeit" and "cannot launch seat 0" in resp.outcome_json
        assert all(h.stopped for h in launcher.handles) and router.hosted == {} and life.matches == {}
        assert resp.logs["seat1"] == "cannot launch seat 1" and "forfeits" in resp.logs["referee"]
        assert await life.run_match(spec, 1.0) is resp  # a retried RunMatch gets the same report
        with pytest.raises(Reject) as exc:
            await life.run_match(MatchSpec("L1", "sealed_bids", 4, spec.seats), 1.0)
        assert exc.value.code == grpc.StatusCode.ALREADY_EXISTS
        with pytest.raises(Reject) as exc:
            await life.run_match(MatchSpec("L2", "sealed_bids", 4, [SeatSpec("a", command="bad")] * 2), 1.0)
        assert exc.value.code == grpc.StatusCode.INVALID_ARGUMENT and router.hosted == {}

    asyncio.run(go())


def test_lifecycle_gives_up_on_absent_live_bots_and_releases_the_seats(store: TokenStore) -> None:
    token = store.register("here")

    async def go() -> None:
        life, router, _ = _lifecycle(store)
        s = await router.open(bot_pb2.Hello(token=token, capacity=2))
        spec = MatchSpec("L3", "sealed_bids", 1, [SeatSpec("here"), SeatSpec("absent")])
        with pytest.raises(Reject) as exc:
            await life.run_match(spec, 0.2)
        assert exc.value.code == grpc.StatusCode.UNAVAILABLE and "absent" in exc.value.detail
        assert s.free == 2 and life.matches == {} and life.running == {}

    asyncio.run(go())
