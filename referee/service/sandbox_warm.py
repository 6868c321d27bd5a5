"""Warm sandboxes: one zygote sandbox serves a bot's matches one after another.

[design] A Python bot started as ``python -m module`` costs ~0.15 s of CPU to start (interpreter
and imports), as much as its whole match. A warm sandbox is built once (``bwrap``, binds,
control groups, limits) and runs ``rlimit_exec.py zygote``, which imports the bot's module once
and then, for each seat it is given, forks a match process that enters new user, mount, pid, IPC
and UTS namespaces, gets a fresh ``/tmp``, drops every capability and runs the bot as the child
of a minimal init: when the bot ends, everything it started ends with it. So each match starts
from the same pre-loaded state and nothing a bot writes (files, processes, memory) survives into
another match; the zygote itself is not dumpable, so no match can read or patch it.

One match at a time per sandbox: its control-group counters (OOM kills, refused forks, CPU) are
compared before and after each match to name a violation, and a sandbox whose match broke a
limit is thrown away, never reused.
"""
from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import sys
import time
from collections.abc import Callable

from . import sandbox_cgroup
from .capped import CappedOutput
from .sandbox import LAUNCHER, Channel, Limits, Support, exit_reason, plan, violation_reason

WATCH_EVERY_S = 0.2


class WarmSandbox:
    """A zygote sandbox (see module doc); ``WarmSeat`` is one match's view of it."""

    def __init__(self, argv: list[str], cwd: str | None, env: dict[str, str], log_limit: int, limits: Limits,
                 support: Support, channel: Channel, group: str) -> None:
        self.argv, self.cwd, self.env = argv, cwd, env
        self.log_limit, self.limits, self.support, self.channel = log_limit, limits, support, channel
        self.group = group
        self.proc: asyncio.subprocess.Process | None = None
        self.launch_error = ""
        self.seat: WarmSeat | None = None
        self.spoiled = False  # a match broke a limit (or the zygote failed): never reuse
        self.early = bytearray()  # output before any seat (the zygote's own start-up errors)
        self._status_r = -1
        self._tasks: list[asyncio.Task[None]] = []

    async def start(self) -> None:
        r, w = os.pipe()
        the_plan = plan(self.argv, self.cwd, self.env, self.channel, self.limits, self.group, self.support,
                        warm=True, status_fd=w)
        try:
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable, "-S", LAUNCHER, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.STDOUT, start_new_session=True, env={"PATH": "/usr/bin:/bin"},
                pass_fds=(w,))
        except OSError as exc:
            os.close(r)
            self.launch_error = f"cannot launch {self.argv[0]!r}: {exc}"
            self.spoiled = True
            return
        finally:
            os.close(w)
        assert self.proc is not None and self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(the_plan).encode() + b"\n")
        self._status_r = r
        self._tasks = [asyncio.create_task(self._pump()), asyncio.create_task(self._status())]

    async def _pump(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        while True:
            chunk = await self.proc.stdout.read(65536)
            if not chunk:
                break
            seat = self.seat
            if seat is not None:
                seat.add_output(chunk)
            elif len(self.early) < self.log_limit:
                self.early += chunk[: self.log_limit - len(self.early)]
        await self.proc.wait()
        self.spoiled = True
        if self.seat is not None:
            self.seat.ended(self.proc.returncode if self.proc.returncode is not None else 1, zygote_died=True)

    async def _status(self) -> None:
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader()
        transport, _ = await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader),
                                                    os.fdopen(self._status_r, "rb", 0))
        try:
            while True:
                line = await reader.readline()
                if not line:
                    return
                with contextlib.suppress(ValueError):
                    msg = json.loads(line)
                    if "exit" in msg and self.seat is not None:
                        self.seat.ended(int(msg["exit"]))
        finally:
            transport.close()

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.returncode is None and not self.spoiled

    def send(self, msg: dict[str, object]) -> None:
        assert self.proc is not None and self.proc.stdin is not None
        with contextlib.suppress(OSError, RuntimeError):
            self.proc.stdin.write(json.dumps(msg).encode() + b"\n")

    async def close(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            await self.proc.wait()
        for t in self._tasks:
            t.cancel()
        if self.support.cgroups:
            await asyncio.to_thread(sandbox_cgroup.destroy, self.group)


class WarmSeat:
    """One match's seat played by a warm sandbox; the same surface as ``HostedBot``."""

    def __init__(self, box: WarmSandbox, release: Callable[[WarmSandbox], None]) -> None:
        self.box = box
        self._release = release
        self.seat = -1
        self.launch_error = box.launch_error
        self.output = CappedOutput(box.log_limit)
        self.violation = ""
        self.cpu_used_s = 0.0
        self.code: int | None = None
        self._done = asyncio.Event()
        self._before = (0, 0, 0.0)
        self._given_at = 0.0
        self._watch: asyncio.Task[None] | None = None
        self._released = False

    @property
    def pid(self) -> int:
        return self.box.proc.pid if self.box.proc is not None else 0

    @property
    def returncode(self) -> int | None:
        return self.code

    def give_seat(self, seat: int, token: str, match_id: str) -> None:
        self.seat = seat
        box = self.box
        box.seat = self
        if box.support.cgroups:
            self._before = sandbox_cgroup.counters(box.group)
        self._given_at = time.monotonic()
        box.send({"token": token, "match_id": match_id, "seat": seat})
        self._watch = asyncio.get_running_loop().create_task(self._watch_limits())

    def add_output(self, chunk: bytes) -> None:
        self.output.add(chunk)

    def ended(self, code: int, zygote_died: bool = False) -> None:
        if self.code is None:
            self.code = code
            if zygote_died and not self.violation:
                self.violation = self._limit_broken() or f"sandbox ended (exit code {code})"
            self._done.set()

    def _limit_broken(self) -> str:
        box = self.box
        if not box.support.cgroups:
            return ""
        return sandbox_cgroup.violation_since(box.group, self._before, box.limits.cpu_s)

    async def _watch_limits(self) -> None:
        lim = self.box.limits
        while not self._done.is_set():
            why = self._limit_broken()
            if not why and lim.wall_s and time.monotonic() - self._given_at > lim.wall_s:
                why = f"wall time exhausted (limit {lim.wall_s:g}s)"
            if why:
                self.violation = why
                self.box.spoiled = True
                self.box.send({"kill": True})
                return
            await asyncio.sleep(WATCH_EVERY_S)

    async def wait(self) -> int:
        await self._done.wait()
        return self.code or 0

    def end_reason(self) -> str:
        if not self.violation:
            self.violation = self._limit_broken()
        if self.violation:
            self.box.spoiled = True
            return violation_reason(self.violation)
        return exit_reason(self.code or 0, True, self.box.limits.cpu_s)

    async def stop(self, grace_s: float = 2.0) -> None:
        """Let the match's bot exit for ``grace_s``, else kill it; then hand the sandbox back."""
        box = self.box
        if self.seat >= 0 and not self._done.is_set():
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._done.wait(), grace_s)
            if not self._done.is_set():
                box.send({"kill": True})
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(self._done.wait(), 2.0)
            if not self._done.is_set():
                box.spoiled = True
        if self._watch is not None:
            self._watch.cancel()
        if box.support.cgroups and self.seat >= 0:
            now = sandbox_cgroup.counters(box.group)
            self.cpu_used_s = now[2] - self._before[2]
            if not self.violation:
                self.violation = self._limit_broken()
            if self.violation:
                box.spoiled = True
        box.seat = None
        if not self._released:
            self._released = True
            self._release(box)

    def log_text(self) -> str:
        # the sandbox's own start-up output (e.g. why the zygote could not load) goes to its first seat
        early, self.box.early = self.box.early, bytearray()
        text = early.decode("utf-8", "replace") + self.output.text()
        if self.code is not None:
            text += f"\n[exit code {self.code}]"
        return text
