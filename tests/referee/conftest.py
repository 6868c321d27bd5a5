"""In-process referee fixtures (the referee on a background thread, bots as SDK sessions on threads)."""
from __future__ import annotations

from collections.abc import Iterator

import pytest

from bots.sdk.client import SessionThread
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


class LiveBot(SessionThread):
    """An SDK session on its own thread and loop; ``stop()`` fails the test if it does not end."""

    def stop(self, timeout_s: float = 10.0) -> bool:
        stopped = super().stop(timeout_s)
        assert stopped, "the live bot did not stop within 10 s"
        return stopped
