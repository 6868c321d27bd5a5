"""The developer service's client (what ``arena submit`` and ``arena developer`` call).

The token comes from ``--token``, else ``ARENA_DEV_TOKEN``, else the file ``arena developer
register`` wrote (``$XDG_CONFIG_HOME/arena/developer-token``, mode 0600); it is never printed
except once, at registration.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

import grpc

from referee.engine.errors import ArenaError
from referee.matchspec import RefereeUnavailable
from referee.protocol import developer_pb2 as pb
from referee.protocol import developer_pb2_grpc as pb_grpc

from .pack import sha256

T = TypeVar("T")

DEFAULT_SERVER = "127.0.0.1:50061"
CHUNK = 256 << 10


class DevServiceError(ArenaError):
    """The developer service refused a call (one line, the service's own words; CLI exit status 2)."""

    code = "developer_service"


class DevServiceUnavailable(RefereeUnavailable):
    """The developer service cannot be reached now (CLI exit status 1)."""


def token_file() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "arena" / "developer-token"


def save_token(token: str) -> Path:
    path = token_file()
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        f.write(token + "\n")
    return path


def find_token(given: str | None) -> str:
    if given:
        return given
    env = os.environ.get("ARENA_DEV_TOKEN", "")
    if env:
        return env
    try:
        return token_file().read_text().strip()
    except OSError:
        raise DevServiceError(
            f"no developer token: pass --token, set ARENA_DEV_TOKEN, or run "
            f"`arena developer register NAME` (it saves one in {token_file()})"
        ) from None


class DevClient:
    def __init__(self, address: str, token: str = "") -> None:
        self.address = address
        self.token = token
        self.channel = grpc.insecure_channel(address)
        self.stub = pb_grpc.DeveloperServiceStub(self.channel)

    def _md(self) -> list[tuple[str, str]]:
        return [("authorization", f"Bearer {self.token}")]

    def _call(self, fn: Callable[..., T], request: object, timeout: float = 60) -> T:
        try:
            return fn(request, metadata=self._md(), timeout=timeout)
        except grpc.RpcError as exc:
            raise self._error(exc) from None

    def _error(self, exc: grpc.RpcError) -> Exception:
        code = exc.code() if hasattr(exc, "code") else None
        if code in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.DEADLINE_EXCEEDED):
            return DevServiceUnavailable(
                f"cannot reach the developer service at {self.address} "
                f"({code.name.lower() if code else 'error'})"
            )
        detail = exc.details() if hasattr(exc, "details") else str(exc)
        return DevServiceError(f"{detail} [{code.name if code else 'error'}]")

    def register(self, name: str) -> pb.RegisterDeveloperResponse:
        return self._call(self.stub.RegisterDeveloper, pb.RegisterDeveloperRequest(name=name))

    def submit(self, data: bytes, progress: Callable[[int], None] = lambda _n: None) -> pb.VersionInfo:
        def chunks() -> Iterator[pb.SubmitChunk]:
            yield pb.SubmitChunk(header=pb.SubmitHeader(size=len(data), sha256=sha256(data)))
            for i in range(0, len(data), CHUNK):
                part = data[i : i + CHUNK]
                yield pb.SubmitChunk(data=part)
                progress(len(part))

        try:
            return self.stub.Submit(chunks(), metadata=self._md(), timeout=600)
        except grpc.RpcError as exc:
            raise self._error(exc) from None

    def versions(self, bot: str = "") -> pb.ListVersionsResponse:
        return self._call(self.stub.ListVersions, pb.ListVersionsRequest(bot=bot))

    def version(self, name: str) -> pb.VersionInfo:
        return self._call(self.stub.GetVersion, pb.GetVersionRequest(name=name))

    def outputs(self, name: str, limit: int) -> pb.MatchOutputsResponse:
        return self._call(self.stub.MatchOutputs, pb.MatchOutputsRequest(name=name, limit=limit))

    def retire(self, name: str) -> pb.VersionInfo:
        return self._call(self.stub.RetireVersion, pb.GetVersionRequest(name=name))

    def close(self) -> None:
        self.channel.close()
