"""Dashboard test fixtures: an in-memory source with real replays, a store-backed app, a live
server in a thread, and Debian's Chromium driven by Playwright."""
from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from dashboard.app import create_app
from dashboard.live import ReplayFeed
from tests.dashboard.fixtures import build_source

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "screenshots"
CHROMIUM = os.environ.get("ARENA_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
TOKEN = "organizer-secret"


@pytest.fixture(scope="session")
def source():
    return build_source()


@pytest.fixture(scope="session")
def app(source):
    return create_app(source, live=ReplayFeed(source.live_replays, interval_s=0.05), organizer_token=TOKEN)


@pytest.fixture(scope="session")
def client(app):
    from fastapi.testclient import TestClient

    return TestClient(app)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LiveServer:
    def __init__(self, app) -> None:
        import uvicorn

        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=self.port,
                                                    log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("dashboard did not start")
            time.sleep(0.05)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


@pytest.fixture(scope="session")
def server(app) -> Iterator[LiveServer]:
    with LiveServer(app) as srv:
        yield srv


@pytest.fixture(scope="module")
def browser():
    """Chromium through Playwright. Skips loudly when Chromium is missing, except in CI where it fails.

    Module scope, not session: Playwright's sync API keeps an event loop running in the main thread
    while it is open, which would break every later test that calls ``asyncio.run``."""
    if not (os.path.exists(CHROMIUM) or shutil.which(CHROMIUM)):
        msg = (f"Chromium not found at {CHROMIUM}: browser tests need Debian's chromium "
               f"(apt-get install -y chromium)")
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(msg)
        pytest.skip("!!! SKIPPED BROWSER TESTS: " + msg)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    ctx = browser.new_context(viewport={"width": 1440, "height": 1000})
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda exc: errors.append(str(exc)))
    pg.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    pg.errors = errors
    yield pg
    ctx.close()


def shot(page, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path
