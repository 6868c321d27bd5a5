"""Live viewers for ``arena bench dashboard --live-viewers N``: a real live match and a crowd watching it.

``LiveMatch`` starts a referee (in this process), a live bot that thinks ``think_s`` per decision
(so the match lasts a minute or so) and a ``RunMatch`` of ``game`` under the id the dashboard will
ask for; ``ViewerCrowd`` opens N server-sent-event streams to ``/api/matches/ID/live`` from a
separate process, spread over loopback source addresses (127.0.0.10, .11, ...: ``per_address``
each, within the dashboard's per-client cap), reads them until stopped and reports how many
stayed connected and how many frames arrived.
"""
from __future__ import annotations

import asyncio
import multiprocessing
import secrets
import tempfile
import threading
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bots.sdk.bot import Bot
from referee.engine.agent import DecisionRequest

if TYPE_CHECKING:
    from bots.sdk.client import SessionThread


class ThinkingBot(Bot):
    """Random moves, ``think_s`` seconds each (a match long enough to watch)."""

    think_s = 0.12

    def act(self, request: DecisionRequest) -> int:
        time.sleep(self.think_s)
        return (self.seed + request.decision_id) % len(request.legal)


class LiveMatch:
    """A referee playing one long match of ``game`` between two seats of a live bot."""

    def __init__(self, game: str, match_id: str, seed: int = 1, think_s: float = 0.12) -> None:
        from referee.service.server import RefereeThread
        from referee.service.tokens import TokenStore

        self.game, self.match_id, self.seed = game, match_id, seed
        self.token = secrets.token_urlsafe(16)
        # bot tokens in a throw-away file: the bench leaves nothing behind in ARENA_HOME
        self._tmp = tempfile.TemporaryDirectory(prefix="arena-bench-live-")
        self.ref = RefereeThread(organizer_token=self.token,
                                 store=TokenStore(f"sqlite:///{self._tmp.name}/tokens.db"))
        self.think_s = think_s
        self.error: BaseException | None = None
        self.done = threading.Event()
        # the watched bot's session, ended by stop() (it reconnected for ever once the referee had stopped,
        # logging "connection lost" in whatever process ran the bench, e.g. the rest of a test session)
        self._bot: SessionThread | None = None

    @property
    def address(self) -> str:
        return self.ref.address

    def start(self) -> LiveMatch:
        from bots.sdk.client import SessionThread
        from referee.client import RefereeClient
        from referee.matchspec import MatchSpec, SeatSpec

        self.ref.start()
        bot_token = self.ref.register_bot("watched", [self.game])
        ThinkingBot.think_s = self.think_s
        self._bot = SessionThread(lambda start: ThinkingBot(1), self.address, bot_token, [self.game], 2,
                                  name="live-bot")
        spec = MatchSpec(self.match_id, self.game, self.seed, [SeatSpec("watched"), SeatSpec("watched")])

        def play() -> None:
            try:
                with RefereeClient(self.address, self.token) as c:
                    c.run_match(spec, live_wait_s=30)
            except BaseException as exc:  # noqa: BLE001 - reported by the bench
                self.error = exc
            finally:
                self.done.set()

        threading.Thread(target=play, daemon=True, name="run-match").start()
        deadline = time.monotonic() + 30
        while self.match_id not in self.ref.referee.matches:
            if self.done.is_set() or time.monotonic() > deadline:
                raise RuntimeError(f"the live match did not start: {self.error}")
            time.sleep(0.05)
        return self

    def upstream_watchers(self) -> int:
        """Watch streams the referee serves for this match (the dashboard should hold exactly one)."""
        m = self.ref.referee.matches.get(self.match_id)
        return int(m.feed.watchers) if m is not None else -1

    def stop(self) -> None:
        if self._bot is not None:
            self._bot.stop()
        self.ref.stop()
        self._tmp.cleanup()


@dataclass
class CrowdReport:
    viewers: int
    connected: int  # still streaming when stopped
    refused: int  # answered other than 200 (e.g. 429 past a cap)
    failed: int  # connection errors
    frames: int


async def _viewer(host: str, port: int, path: str, source: str, stop: asyncio.Event,
                  stats: dict[str, int]) -> None:
    try:
        reader, writer = await asyncio.open_connection(host, port, local_addr=(source, 0))
    except OSError:
        stats["failed"] += 1
        return
    try:
        writer.write(
            f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nAccept: text/event-stream\r\n\r\n".encode())
        head = await reader.readuntil(b"\r\n\r\n")
        if head[9:12] != b"200":
            stats["refused"] += 1
            return
        stats["connected"] += 1
        reading = asyncio.ensure_future(stop.wait())
        while not stop.is_set():
            chunk = asyncio.ensure_future(reader.read(65536))
            await asyncio.wait([chunk, reading], return_when=asyncio.FIRST_COMPLETED)
            if not chunk.done():
                chunk.cancel()
                break
            data = chunk.result()
            if not data:
                stats["connected"] -= 1
                stats["ended"] += 1
                return
            stats["frames"] += data.count(b"event: frame")
    except (OSError, asyncio.IncompleteReadError):
        stats["failed"] += 1
    finally:
        writer.close()


def _crowd_process(host: str, port: int, path: str, n: int, per_address: int, conn: Any) -> None:
    stats = {"connected": 0, "refused": 0, "failed": 0, "frames": 0, "ended": 0}

    async def run() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        tasks = []
        for i in range(n):
            source = f"127.0.0.{10 + i // per_address}"
            tasks.append(loop.create_task(_viewer(host, port, path, source, stop, stats)))
            if i % 50 == 49:
                await asyncio.sleep(0.05)  # a crowd arrives over a second or so, not in one SYN burst
        conn.send(("ready", dict(stats)))
        await loop.run_in_executor(None, conn.recv)  # the bench says stop
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)

    asyncio.run(run())
    conn.send(("done", stats))
    conn.close()


class ViewerCrowd:
    """``n`` SSE viewers of ``url`` in their own process (so they don't share the bench's CPU accounting)."""

    def __init__(self, url: str, n: int, per_address: int = 10) -> None:
        from urllib.parse import urlsplit

        u = urlsplit(url)
        ctx = multiprocessing.get_context("spawn")
        self._conn, child = ctx.Pipe()
        self.n = n
        self.proc = ctx.Process(target=_crowd_process,
                                args=(u.hostname, u.port, u.path, n, per_address, child), daemon=True)

    def start(self, settle_s: float = 3.0) -> dict[str, int]:
        self.proc.start()
        if not self._conn.poll(120):
            raise RuntimeError("the viewer crowd did not start")
        self._conn.recv()
        time.sleep(settle_s)  # let every stream get its first frame
        return {}

    def stop(self) -> CrowdReport:
        self._conn.send("stop")
        _, stats = self._conn.recv()
        self.proc.join(30)
        return CrowdReport(self.n, stats["connected"], stats["refused"], stats["failed"], stats["frames"])
