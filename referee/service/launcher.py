"""Hosted launching: the one interface between a match and the processes of its hosted seats.

A match asks ``launch(LaunchRequest)`` for each hosted seat and gets a ``HostedHandle`` back:
something it can wait on (the process exited), stop (Goodbye grace, then kill) and read the
captured log of. How the process is started (limits, sandbox, the channel it reaches the referee
through) is the launcher's business alone (``ProcessLauncher`` over ``hosted.Hosting``); a
different launcher only has to implement ``Launcher``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

import grpc

from .config import RefereeConfig
from .hosted import HostedSeatsRefused, Hosting
from .reject import Reject


class BadCommand(ValueError):
    """The seat's command cannot be run at all (empty, unbalanced quotes): the spec is invalid."""


@dataclass(frozen=True)
class LaunchRequest:
    """Everything a launcher needs to start one hosted seat."""

    match_id: str
    seat: int
    command: str
    cwd: str | None
    env: dict[str, str] = field(default_factory=dict)
    #: the one-time seat credential (the bot sends it as its Hello token)
    credential: str = ""
    #: where the bot connects (ARENA_REFEREE)
    referee_address: str = ""
    tls_ca: str | None = None


class HostedHandle(Protocol):
    """A launched (or failed) hosted bot."""

    seat: int
    #: why it could not start ("" when it started)
    launch_error: str

    @property
    def pid(self) -> int | None: ...

    async def wait(self) -> int:
        """Its exit code, once it exited."""
        ...

    async def stop(self, grace_s: float) -> None:
        """Let it exit on its own for ``grace_s``, then kill it and everything it started."""
        ...

    def end_reason(self) -> str:
        """Why it ended before its match did (a broken limit, a signal, an exit code)."""
        ...

    def log_text(self) -> str:
        """Its captured output (bounded), for the match report."""
        ...


class Launcher(Protocol):
    async def launch(self, request: LaunchRequest) -> HostedHandle:
        """Start the seat's bot. Raises ``BadCommand``; a start failure is a handle with ``launch_error``."""
        ...


class ProcessLauncher:
    """Hosted bots as processes in sandboxes (``hosted.Hosting``: bwrap, limits, the Unix socket)."""

    def __init__(self, config: RefereeConfig, hosting: Hosting | None = None) -> None:
        self.hosting = hosting or Hosting.from_config(config)

    async def launch(self, request: LaunchRequest) -> HostedHandle:
        try:
            handle = await self.hosting.launch(request.command, request.cwd, request.env)
        except HostedSeatsRefused as exc:
            raise Reject(grpc.StatusCode.FAILED_PRECONDITION, str(exc)) from None
        except ValueError as exc:
            raise BadCommand(str(exc)) from None
        handle.seat = request.seat
        if not handle.launch_error:
            handle.give_seat(request.seat, request.credential, request.match_id)
        return handle
