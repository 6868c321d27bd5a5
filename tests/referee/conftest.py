"""In-process referee fixtures (the referee on a background thread, bots as SDK sessions on threads)."""
from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator

import pytest

from referee.engine import register
from referee.service.config import RefereeConfig
from referee.service.server import RefereeThread
from referee.service.tokens import TokenStore
from tests.fixtures.sealed_bids import GAME as SEALED_BIDS

register(SEALED_BIDS)


@pytest.fixture(autouse=True)
def _sealed_bids() -> None:
    # again before each test: tests/arena's fixture (which tests/ladder shares) unregisters it after
    # every test, and a referee without it fails these tests in a whole-suite run
    register(SEALED_BIDS)


@pytest.fixture()
def referee_thread(tmp_path) -> Iterator[RefereeThread]:
    cfg = RefereeConfig(reconnect_grace_s=0.5, live_wait_s=3.0)
    with RefereeThread(config=cfg, store=TokenStore(f"sqlite:///{tmp_path / 'tokens.db'}")) as ref:
        yield ref


class LiveBot:
    """An SDK session on its own thread and loop (stop() ends it)."""

    def __init__(self, factory, address: str, token: str, **kw) -> None:
        from bots.sdk.client import run_async

        self.loop = asyncio.new_event_loop()
        self.stop_event: asyncio.Event | None = None
        # set by stop(): a stop() that comes before the thread has made its asyncio event is not lost (it
        # was, and the bot then reconnected forever, logging after the whole test session had ended)
        self.stopping = threading.Event()
        self.stats = None
        self.error: BaseException | None = None

        def main() -> None:
            async def go() -> None:
                self.stop_event = asyncio.Event()
                if self.stopping.is_set():
                    self.stop_event.set()
                try:
                    self.stats = await run_async(factory, address, token, stop=self.stop_event, **kw)
                except BaseException as exc:  # noqa: BLE001
                    self.error = exc

            self.loop.run_until_complete(go())

        self.thread = threading.Thread(target=main, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.stopping.set()
        if self.stop_event is not None:
            self.loop.call_soon_threadsafe(self.stop_event.set)
        self.thread.join(10)
        assert not self.thread.is_alive(), "the live bot did not stop within 10 s"
