"""Sandboxes started before they are needed: a match takes a ready one instead of waiting.

[design] Hosted-bot start-up (a sandbox, an interpreter, the bot's imports) used to be most of a
short match. The pool keeps, per launch key (command, directory, environment, limits), up to
``spares`` sandboxes that are started, pre-loaded (see ``rlimit_exec.inside``) and blocked on
reading their seat credential. A match takes one and the pool starts its replacement at once, so
the next match of that bot finds one ready. Each sandbox still serves exactly one seat of one
match: no process ever sees two deals (twins of a paired deal included) and nothing a bot writes
outlives its sandbox. A spare that nobody took within ``idle_s`` is killed; so is every spare
when the referee stops. Keys are made only by matches the organizer asked for, and at most
``max_keys`` keys are kept (the least recently used one is dropped).
"""
from __future__ import annotations

import asyncio
import contextlib
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .hosted import HostedBot


class SandboxPool:
    def __init__(self, spares: int = 2, idle_s: float = 60.0, max_keys: int = 8) -> None:
        self.spares = spares
        self.idle_s = idle_s
        self.max_keys = max_keys
        self._ready: OrderedDict[str, list[tuple[float, HostedBot]]] = OrderedDict()
        self._starting: dict[str, int] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self.taken = 0
        self.cold = 0

    async def take(self, key: str, make: Callable[[], Awaitable[HostedBot]]) -> HostedBot:
        """A ready sandbox for ``key`` if one is waiting (alive), else a fresh one; refills the pool."""
        bot = None
        ready = self._ready.get(key, [])
        while ready and bot is None:
            _, cand = ready.pop(0)
            if cand.returncode is None and not cand.launch_error:
                bot = cand
            else:
                self._discard(cand)
        if bot is None:
            self.cold += 1
            bot = await make()
        else:
            self.taken += 1
        if self.spares > 0:
            self._ready.setdefault(key, [])
            self._ready.move_to_end(key)
            self._refill(key, make)
            while len(self._ready) > self.max_keys:
                _, old = self._ready.popitem(last=False)
                for _, b in old:
                    self._discard(b)
        return bot

    def _refill(self, key: str, make: Callable[[], Awaitable[HostedBot]]) -> None:
        need = self.spares - len(self._ready.get(key, [])) - self._starting.get(key, 0)
        for _ in range(max(0, need)):
            self._starting[key] = self._starting.get(key, 0) + 1
            task = asyncio.get_running_loop().create_task(self._start_spare(key, make))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _start_spare(self, key: str, make: Callable[[], Awaitable[HostedBot]]) -> None:
        try:
            bot = await make()
        finally:
            self._starting[key] -= 1
        if key in self._ready and not bot.launch_error:
            self._ready[key].append((time.monotonic(), bot))
            task = asyncio.get_running_loop().create_task(self._expire(key, bot))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        else:
            self._discard(bot)

    async def _expire(self, key: str, bot: HostedBot) -> None:
        await asyncio.sleep(self.idle_s)
        spares = self._ready.get(key, [])
        for i, (_, b) in enumerate(spares):
            if b is bot:
                del spares[i]
                await bot.stop(0)
                return

    def _discard(self, bot: HostedBot) -> None:
        task = asyncio.get_running_loop().create_task(bot.stop(0))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def close(self) -> None:
        """Kill every spare (the referee is stopping)."""
        spares = [b for lst in self._ready.values() for _, b in lst]
        self._ready.clear()
        for t in list(self._tasks):
            t.cancel()
        with contextlib.suppress(Exception):
            await asyncio.gather(*(b.stop(0) for b in spares), return_exceptions=True)
