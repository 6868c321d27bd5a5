"""Hosted launching: the one interface between a match and the processes of its hosted seats.

A match asks ``launch(LaunchRequest)`` for each hosted seat and gets a ``HostedHandle`` back:
something it can wait on (the process exited), stop (Goodbye grace, then kill) and read the
captured log of. How the process is started (limits, sandbox, the channel it reaches the referee
through) is the launcher's business alone (today ``hosted.HostedBot``); a different launcher
only has to implement ``Launcher``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from .config import RefereeConfig
from .hosted import HostedBot


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

    def log_text(self) -> str:
        """Its captured output (bounded), for the match report."""
        ...


class Launcher(Protocol):
    async def launch(self, request: LaunchRequest) -> HostedHandle:
        """Start the seat's bot. Raises ``BadCommand``; a start failure is a handle with ``launch_error``."""
        ...


class _ProcessHandle:
    """``HostedHandle`` over a ``HostedBot``."""

    def __init__(self, bot: HostedBot) -> None:
        self.bot = bot
        self.seat = bot.seat
        self.launch_error = bot.launch_error

    @property
    def pid(self) -> int | None:
        return self.bot.proc.pid if self.bot.proc is not None else None

    async def wait(self) -> int:
        return await self.bot.wait()

    async def stop(self, grace_s: float) -> None:
        await self.bot.stop(grace_s)

    def log_text(self) -> str:
        return self.bot.log_text()


class ProcessLauncher:
    """Hosted bots as local processes with CPU and memory limits (``hosted.HostedBot``)."""

    def __init__(self, config: RefereeConfig) -> None:
        self.config = config

    async def launch(self, request: LaunchRequest) -> HostedHandle:
        cfg = self.config
        try:
            bot = HostedBot.build(request.seat, request.command, request.cwd, request.env, request.referee_address,
                                  request.credential, request.match_id, cfg.hosted_log_bytes, request.tls_ca)
        except ValueError as exc:
            raise BadCommand(str(exc)) from None
        await bot.start(cfg.hosted_cpu_s, cfg.hosted_memory_mb)
        return _ProcessHandle(bot)
