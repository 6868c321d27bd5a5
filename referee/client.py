"""``RefereeClient``: the organizer's blocking client (what tournament workers use).

    client = RefereeClient("127.0.0.1:50051", organizer_token)
    report = client.run_match(spec)            # MatchReport
    token = client.register_bot("mybot", ["clank"])

Errors: ``RefereeUnavailable`` (retryable: the referee, or a live bot the match needs, cannot be
reached now) and ``MatchRejected`` (retrying won't help: bad spec, engine error, bad organizer
token). gRPC status codes are mapped in ``_raise``; docs/protocol.md has the table.
"""
from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import grpc

from referee.matchspec import MatchRejected, MatchReport, MatchSpec, RefereeUnavailable
from referee.protocol import organizer_pb2, organizer_pb2_grpc
from referee.service.convert import frame_to_dict, report_from_proto, spec_to_proto

_RETRYABLE = {grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED,
              grpc.StatusCode.RESOURCE_EXHAUSTED, grpc.StatusCode.CANCELLED, grpc.StatusCode.UNKNOWN,
              grpc.StatusCode.ABORTED}

#: The largest report (replay JSON) the client accepts.
MAX_REPORT_BYTES = 256 << 20


class NotAuthorized(MatchRejected):
    """The organizer token was refused (UNAUTHENTICATED)."""


class BotNotFound(MatchRejected, KeyError):
    """``revoke_bot`` of a name that is not registered."""


def _raise(exc: grpc.RpcError, what: str) -> None:
    code = exc.code() if hasattr(exc, "code") else grpc.StatusCode.UNKNOWN
    detail = exc.details() if hasattr(exc, "details") else str(exc)
    msg = f"{what}: {code.name if code else 'UNKNOWN'}: {detail}"
    if code in _RETRYABLE:
        raise RefereeUnavailable(msg) from None
    if code == grpc.StatusCode.UNAUTHENTICATED:
        raise NotAuthorized(msg) from None
    if code == grpc.StatusCode.NOT_FOUND:
        raise BotNotFound(msg) from None
    raise MatchRejected(msg) from None


class RefereeClient:
    """Blocking organizer client. Thread-safe (one channel; gRPC multiplexes calls)."""

    def __init__(self, address: str, organizer_token: str, *, tls_ca: str | None = None) -> None:
        self.address = address
        self._metadata = (("authorization", f"Bearer {organizer_token}"),)
        options = [("grpc.max_receive_message_length", MAX_REPORT_BYTES),
                   ("grpc.max_send_message_length", 16 << 20),
                   # redial a restarted referee within a second (gRPC's default backoff grows to 120 s)
                   ("grpc.initial_reconnect_backoff_ms", 200), ("grpc.min_reconnect_backoff_ms", 200),
                   ("grpc.max_reconnect_backoff_ms", 1000)]
        if tls_ca:
            with open(tls_ca, "rb") as fh:
                creds = grpc.ssl_channel_credentials(root_certificates=fh.read())
            self._channel = grpc.secure_channel(address, creds, options=options)
        else:
            self._channel = grpc.insecure_channel(address, options=options)
        self._stub = organizer_pb2_grpc.OrganizerServiceStub(self._channel)

    # -- matches -----------------------------------------------------------------------------
    def run_match(self, spec: MatchSpec, timeout_s: float | None = None, *,
                  live_wait_s: float | None = None) -> MatchReport:
        """Play ``spec`` to the end on the referee and return its report (blocks)."""
        req = organizer_pb2.RunMatchRequest(spec=spec_to_proto(spec),
                                            live_wait_ms=int((live_wait_s or 0) * 1000))
        try:
            resp = self._stub.RunMatch(req, timeout=timeout_s, metadata=self._metadata, wait_for_ready=False)
        except grpc.RpcError as exc:
            _raise(exc, f"run_match {spec.match_id}")
        return report_from_proto(resp)

    def list_matches(self) -> list[dict[str, Any]]:
        try:
            resp = self._stub.ListMatches(organizer_pb2.ListMatchesRequest(), timeout=10,
                                          metadata=self._metadata)
        except grpc.RpcError as exc:
            _raise(exc, "list_matches")
        return [{"match_id": m.match_id, "game": m.game, "bots": list(m.bots), "ply": m.ply,
                 "started_unix_ms": m.started_unix_ms, "status": m.status} for m in resp.matches]

    def watch(self, match_id: str, delay_s: float = 0) -> Iterator[dict[str, Any]]:
        """Public frames of a running match until it ends (see ``convert.frame_to_dict``)."""
        req = organizer_pb2.WatchMatchRequest(match_id=match_id, delay_ms=int(delay_s * 1000))
        try:
            for frame in self._stub.WatchMatch(req, metadata=self._metadata):
                yield frame_to_dict(frame)
        except grpc.RpcError as exc:
            _raise(exc, f"watch {match_id}")

    # -- bots --------------------------------------------------------------------------------
    def register_bot(self, name: str, games: list[str] | None = None) -> str:
        """Register ``name`` and return its token (shown once; the referee keeps only a hash)."""
        try:
            request = organizer_pb2.RegisterBotRequest(name=name, games=list(games or []))
            resp = self._stub.RegisterBot(request, timeout=30, metadata=self._metadata)
        except grpc.RpcError as exc:
            _raise(exc, f"register_bot {name}")
        return resp.token

    def revoke_bot(self, name: str) -> int:
        """Revoke ``name``'s token; returns how many connected sessions were closed."""
        try:
            resp = self._stub.RevokeBot(organizer_pb2.RevokeBotRequest(name=name), timeout=30,
                                        metadata=self._metadata)
        except grpc.RpcError as exc:
            _raise(exc, f"revoke_bot {name}")
        return resp.sessions_closed

    def list_bots(self) -> list[dict[str, Any]]:
        try:
            resp = self._stub.ListBots(organizer_pb2.ListBotsRequest(), timeout=10, metadata=self._metadata)
        except grpc.RpcError as exc:
            _raise(exc, "list_bots")
        return [{"name": b.name, "games": list(b.games), "created_unix_ms": b.created_unix_ms,
                 "sessions": b.sessions, "free_capacity": b.free_capacity, "clients": list(b.clients)}
                for b in resp.bots]

    # -- health ------------------------------------------------------------------------------
    def health(self, timeout_s: float = 5.0) -> bool:
        """True when the referee answers the standard health check with SERVING."""
        from grpc_health.v1 import health_pb2, health_pb2_grpc

        try:
            resp = health_pb2_grpc.HealthStub(self._channel).Check(health_pb2.HealthCheckRequest(service=""),
                                                                   timeout=timeout_s)
        except grpc.RpcError:
            return False
        return resp.status == health_pb2.HealthCheckResponse.SERVING

    def status(self, timeout_s: float = 10.0) -> dict[str, Any]:
        """The referee's summary: version, games, running matches, connected sessions, uptime, and how it
        runs hosted bots (``hosted``: sandboxed / UNSANDBOXED / refused, as ``arena referee`` prints it)."""
        try:
            r = self._stub.GetStatus(organizer_pb2.StatusRequest(), timeout=timeout_s,
                                     metadata=self._metadata)
        except grpc.RpcError as exc:
            _raise(exc, "status")
        return {"server_version": r.server_version, "games": list(r.games), "matches": r.matches,
                "sessions": r.sessions, "uptime_s": r.uptime_s, "hosted": r.hosted}

    def close(self) -> None:
        self._channel.close()

    def __enter__(self) -> RefereeClient:  # noqa: PYI034
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def report_to_json(report: MatchReport) -> str:
    return json.dumps({"match_id": report.match_id, "outcome": report.outcome, "replay": report.replay,
                       "logs": report.logs})
