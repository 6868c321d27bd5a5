"""Hosted bots: the referee launches a seat's command per match and kills it at match end.

The process gets ARENA_REFEREE (address to connect to), ARENA_TOKEN (a one-time token valid for
this seat of this match only), ARENA_MATCH_ID and ARENA_SEAT; it runs in its own process group
with CPU-time and memory limits (set by ``rlimit_exec.py`` just before it execs the command:
a Python ``preexec_fn`` is unsafe in a process with busy gRPC threads); its stdout and stderr go to the match log.
The organizer's own secrets (ARENA_ORGANIZER_TOKEN, ARENA_DB_URL) are not passed on.
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import shlex
import signal
import sys
from pathlib import Path

log = logging.getLogger("referee.hosted")

_SCRUB = ("ARENA_ORGANIZER_TOKEN", "ARENA_DB_URL")


_LAUNCHER = str(Path(__file__).with_name("rlimit_exec.py"))


class HostedBot:
    """One launched process and its captured output."""

    def __init__(self, seat: int, argv: list[str], cwd: str | None, env: dict[str, str], log_limit: int) -> None:
        self.seat = seat
        self.argv = argv
        self.cwd = cwd
        self.env = env
        self.log_limit = log_limit
        self.output = bytearray()
        self.truncated = 0
        self.proc: asyncio.subprocess.Process | None = None
        self._pump: asyncio.Task[None] | None = None
        self.launch_error = ""

    @classmethod
    def build(cls, seat: int, command: str, cwd: str | None, extra_env: dict[str, str], referee_address: str,
              token: str, match_id: str, log_limit: int, tls_ca: str | None = None) -> HostedBot:
        argv = shlex.split(command)
        if not argv:
            raise ValueError(f"seat {seat}: empty command")
        env = {k: v for k, v in os.environ.items() if k not in _SCRUB}
        env.update(extra_env)
        env.update({"ARENA_REFEREE": referee_address, "ARENA_TOKEN": token, "ARENA_MATCH_ID": match_id,
                    "ARENA_SEAT": str(seat), "PYTHONUNBUFFERED": "1"})
        if tls_ca:
            env["ARENA_TLS_CA"] = tls_ca
        return cls(seat, argv, cwd, env, log_limit)

    async def start(self, cpu_s: int, memory_mb: int) -> bool:
        try:
            if self.cwd is not None and not os.path.isdir(self.cwd):
                raise OSError(f"working directory {self.cwd} does not exist")
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable, "-S", _LAUNCHER, str(cpu_s), str(memory_mb), *self.argv, cwd=self.cwd,
                env=self.env, stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.STDOUT, start_new_session=True)
        except (OSError, ValueError) as exc:
            self.launch_error = f"cannot launch {self.argv[0]!r}: {exc}"
            self.output += self.launch_error.encode()
            return False
        self._pump = asyncio.create_task(self._read())
        return True

    async def _read(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        while True:
            chunk = await self.proc.stdout.read(65536)
            if not chunk:
                return
            room = self.log_limit - len(self.output)
            if room > 0:
                self.output += chunk[:room]
            self.truncated += max(0, len(chunk) - max(room, 0))

    @property
    def returncode(self) -> int | None:
        return None if self.proc is None else self.proc.returncode

    async def wait(self) -> int:
        assert self.proc is not None
        return await self.proc.wait()

    async def stop(self, grace_s: float = 2.0) -> None:
        """Let it exit on its own for ``grace_s`` (it got Goodbye), then kill its process group."""
        if self.proc is None:
            return
        if self.proc.returncode is None and grace_s > 0:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self.proc.wait(), grace_s)
        if self.proc.returncode is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            await self.proc.wait()
        else:
            # the leader exited; children it left behind in its group die too
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.proc.pid, signal.SIGKILL)
        if self._pump is not None:
            with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(self._pump, 1.0)

    def log_text(self) -> str:
        text = self.output.decode("utf-8", "replace")
        if self.truncated:
            text += f"\n[... {self.truncated} more bytes not kept]"
        if self.proc is not None and self.proc.returncode is not None:
            text += f"\n[exit code {self.proc.returncode}]"
        return text
