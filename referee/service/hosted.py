"""Hosted bots: the referee launches a seat's command per match in a sandbox and kills it at match end.

The process is started through ``rlimit_exec.py`` with a plan from ``sandbox.plan`` (what it
sees, its limits, its allow-listed environment: ARENA_REFEREE is the sandbox's Unix socket);
when its match starts it gets its seat credential on standard input (ARENA_TOKEN, ARENA_MATCH_ID
and ARENA_SEAT inside its own environment, nowhere else). A watcher polls the sandbox's control
groups while it runs: out of memory, too many processes, CPU or wall time exhausted kill it at
once and name the violation. Its stdout and stderr go to the match log, capped.
"""
from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
import shlex
import signal
import sys
import time
from typing import Any

from . import sandbox_cgroup
from .capped import CappedOutput
from .config import RefereeConfig
from .sandbox import LAUNCHER, Channel, Limits, Support, exit_reason, plan, violation_reason, zygote_module
from .sandbox_pool import SandboxPool
from .sandbox_warm import WarmSandbox, WarmSeat

#: How often a running sandbox's counters are read (seconds).
WATCH_EVERY_S = 0.2


class HostedBot:
    """One launched sandbox and its captured output."""

    def __init__(self, argv: list[str], cwd: str | None, env: dict[str, str], log_limit: int,
                 limits: Limits, support: Support, channel: Channel) -> None:
        self.seat = -1
        self.argv = argv
        self.cwd = cwd
        self.env = env
        self.log_limit = log_limit
        self.limits = limits
        self.support = support
        self.channel = channel
        self.group = f"h{os.getpid()}-{secrets.token_hex(6)}"
        self.output = CappedOutput(log_limit)
        self.proc: asyncio.subprocess.Process | None = None
        self._pump: asyncio.Task[None] | None = None
        self._watch: asyncio.Task[None] | None = None
        self.launch_error = ""
        #: the limit it broke, when the referee killed it for that
        self.violation = ""
        self.started_at = 0.0
        self.cpu_used_s = 0.0  # CPU of the whole sandbox, read when it is torn down (cgroups only)

    @classmethod
    def build(cls, command: str, cwd: str | None, seat_env: dict[str, str], log_limit: int, limits: Limits,
              support: Support, channel: Channel) -> HostedBot:
        # {python}: the referee's own interpreter (`arena bot add --command "{python} bot.py"`)
        argv = [sys.executable if a == "{python}" else a for a in shlex.split(command)]
        if not argv:
            raise ValueError("empty command")
        return cls(argv, cwd, dict(seat_env), log_limit, limits, support, channel)

    @property
    def key(self) -> str:
        """Sandboxes built from the same key are interchangeable (``sandbox_pool``)."""
        return json.dumps([self.argv, self.cwd, sorted(self.env.items()), self.limits.__dict__], default=str)

    @property
    def sandboxed(self) -> bool:
        return self.support.mode == "sandbox"

    async def start(self) -> bool:
        """Launch the sandbox up to the point where it waits for its seat credential."""
        try:
            if self.cwd is not None and not os.path.isdir(self.cwd):
                raise OSError(f"working directory {self.cwd} does not exist")
            the_plan = plan(self.argv, self.cwd, self.env, self.channel, self.limits, self.group,
                            self.support)
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable, "-S", LAUNCHER, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.STDOUT, start_new_session=True, env={"PATH": "/usr/bin:/bin"})
            assert self.proc.stdin is not None
            self.proc.stdin.write(json.dumps(the_plan).encode() + b"\n")
        except (OSError, ValueError) as exc:
            self.launch_error = f"cannot launch {self.argv[0]!r}: {exc}"
            self.output.add(self.launch_error.encode())
            return False
        self.started_at = time.monotonic()
        self._pump = asyncio.create_task(self._read())
        self._watch = asyncio.create_task(self._watch_limits())
        return True

    def give_seat(self, seat: int, token: str, match_id: str) -> None:
        """Hand the seat credential to the waiting sandbox (its one and only)."""
        self.seat = seat
        assert self.proc is not None and self.proc.stdin is not None
        with contextlib.suppress(OSError, RuntimeError):
            self.proc.stdin.write(json.dumps({"token": token, "match_id": match_id, "seat": seat}).encode()
                                  + b"\n")
            self.proc.stdin.close()

    async def _read(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        while True:
            chunk = await self.proc.stdout.read(65536)
            if not chunk:
                return
            self.output.add(chunk)

    async def _watch_limits(self) -> None:
        """Kill the sandbox as soon as it breaks a limit (the counters say which)."""
        lim = self.limits
        cgroups = self.sandboxed and self.support.cgroups
        while self.proc is not None and self.proc.returncode is None:
            why = sandbox_cgroup.violation(self.group, lim.cpu_s) if cgroups else ""
            if not why and lim.wall_s and time.monotonic() - self.started_at > lim.wall_s:
                why = f"wall time exhausted (limit {lim.wall_s:g}s)"
            if why:
                self.violation = why
                self.kill()
                return
            await asyncio.sleep(WATCH_EVERY_S)

    def kill(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.proc.pid, signal.SIGKILL)

    @property
    def returncode(self) -> int | None:
        return None if self.proc is None else self.proc.returncode

    @property
    def pid(self) -> int:
        return self.proc.pid if self.proc is not None else 0

    async def wait(self) -> int:
        assert self.proc is not None
        return await self.proc.wait()

    def end_reason(self) -> str:
        """Why it ended before its match did: a broken limit, a signal or an exit code."""
        if not self.violation and self.support.cgroups and self.sandboxed:
            self.violation = sandbox_cgroup.violation(self.group, self.limits.cpu_s)
        if self.violation:
            return violation_reason(self.violation)
        rc = self.returncode
        return exit_reason(rc if rc is not None else 0, self.sandboxed, self.limits.cpu_s)

    async def stop(self, grace_s: float = 2.0) -> None:
        """Let it exit on its own for ``grace_s`` (it got Goodbye), then kill everything it started."""
        if self.proc is None:
            return
        if self.proc.returncode is None and grace_s > 0:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self.proc.wait(), grace_s)
        # the process group (unsandboxed mode); in a sandbox, bwrap's death ends the pid namespace
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        await self.proc.wait()
        if self._watch is not None:
            self._watch.cancel()
        if self.support.cgroups and self.sandboxed:
            if not self.violation:
                self.violation = sandbox_cgroup.violation(self.group, self.limits.cpu_s)
            self.cpu_used_s = sandbox_cgroup.cpu_seconds(self.group)
            await asyncio.to_thread(sandbox_cgroup.destroy, self.group)
        if self._pump is not None:
            with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(self._pump, 1.0)

    def log_text(self) -> str:
        text = self.output.text()
        if self.proc is not None and self.proc.returncode is not None:
            text += f"\n[exit code {self.proc.returncode}]"
        return text


class HostedSeatsRefused(RuntimeError):
    """This referee has no sandbox and was not told to run hosted bots without one."""


class Hosting:
    """How this referee runs hosted bots: the sandbox support, the socket channel, the limits.

    A ``python -m module`` bot is served by warm zygote sandboxes (``sandbox_warm``: one match at a
    time, each in fresh nested namespaces); any other command by pre-started one-shot sandboxes
    (``sandbox_pool``). Both keep ``spares`` ready per command.
    """

    def __init__(self, support: Support, limits: Limits, log_limit: int, spares: int = 0, warm: bool = True,
                 idle_s: float = 60.0) -> None:
        self.support = support
        self.limits = limits
        self.log_limit = log_limit
        self.channel = Channel()
        self.spares = spares if support.mode == "sandbox" else 0
        # pre-started sandboxes only where each is a sandbox (one seat, one match, then gone)
        self.pool = SandboxPool(self.spares, idle_s)
        self.warm = warm and support.mode == "sandbox"
        self.idle_s = idle_s
        self._idle: dict[str, list[tuple[float, WarmSandbox]]] = {}
        self._starting: dict[str, int] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._closing = False
        if support.cgroups:
            sandbox_cgroup.sweep_stale()

    @classmethod
    def probe(cls, allow_unsandboxed: bool, limits: Limits, log_limit: int, spares: int = 0,
              warm: bool = True) -> Hosting:
        from .sandbox import support

        return cls(support(allow_unsandboxed), limits, log_limit, spares, warm)

    @classmethod
    def from_config(cls, config: RefereeConfig) -> Hosting:
        limits = Limits(config.hosted_cpu_s, config.hosted_memory_mb, config.hosted_pids,
                        config.hosted_wall_s)
        return cls.probe(config.allow_unsandboxed_hosted, limits, config.hosted_log_bytes,
                         config.hosted_spares, config.hosted_warm)

    def describe(self) -> str:
        return self.support.describe()

    @staticmethod
    def over_channel(peer: str) -> bool:
        """A hosted seat credential counts only when it arrives over the hosted bots' Unix socket."""
        return peer.startswith("unix:")

    async def launch(self, command: str, cwd: str | None, seat_env: dict[str, str]) -> HostedBot | WarmSeat:
        """A started sandbox waiting for its seat (raises HostedSeatsRefused, ValueError)."""
        if self.support.mode == "refused":
            raise HostedSeatsRefused(self.support.describe())
        proto = HostedBot.build(command, cwd, seat_env, self.log_limit, self.limits, self.support,
                                self.channel)
        if self.warm and zygote_module(proto.argv):
            return await self._warm_seat(proto)

        async def make() -> HostedBot:
            bot = HostedBot(proto.argv, proto.cwd, proto.env, self.log_limit, self.limits, self.support,
                            self.channel)
            await bot.start()
            return bot

        return await self.pool.take(proto.key, make)

    # -- warm sandboxes ---------------------------------------------------------------------
    def _new_box(self, proto: HostedBot) -> WarmSandbox:
        return WarmSandbox(proto.argv, proto.cwd, proto.env, self.log_limit, self.limits, self.support,
                           self.channel, f"w{os.getpid()}-{secrets.token_hex(6)}")

    async def _warm_seat(self, proto: HostedBot) -> WarmSeat:
        key = proto.key
        idle = self._idle.setdefault(key, [])
        now = time.monotonic()
        for t, b in list(idle):
            if not b.alive or now - t > self.idle_s:
                idle.remove((t, b))
                self._spawn(b.close())
        box = idle.pop()[1] if idle else None
        if box is None:
            box = self._new_box(proto)
            await box.start()
        for _ in range(self.spares - len(idle) - self._starting.get(key, 0)):
            self._starting[key] = self._starting.get(key, 0) + 1
            self._spawn(self._spare(key, proto))
        return WarmSeat(box, lambda b: self._release(key, b))

    async def _spare(self, key: str, proto: HostedBot) -> None:
        box = self._new_box(proto)
        try:
            await box.start()
        finally:
            self._starting[key] -= 1
        self._release(key, box)

    def _release(self, key: str, box: WarmSandbox) -> None:
        """A warm sandbox whose match is over: ready for another, unless spoiled or surplus."""
        idle = self._idle.setdefault(key, [])
        if box.alive and not self._closing and len(idle) < self.spares + 2:
            idle.append((time.monotonic(), box))
        else:
            self._spawn(box.close())

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def close(self) -> None:
        self._closing = True
        boxes = [b for lst in self._idle.values() for _, b in lst]
        self._idle.clear()
        await asyncio.gather(*(b.close() for b in boxes), return_exceptions=True)
        await self.pool.close()
        self.channel.close()
