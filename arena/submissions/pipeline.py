"""What happens to a version after its upload: build, smoke test, status, the active-version cap.

Builds run in the developer service's process on a bounded thread pool (``ARENA_DEV_BUILDERS``):
the unpacked packages live on this machine's disk (``$ARENA_HOME/packages``), the build needs the
sandbox of this machine, and a build is one long subprocess, so a Celery task would add a shared
package store and a broker hop for nothing. A version left ``building`` by a devserver that
stopped is marked failed at the next start (its developer submits again).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

from arena.store import models as m
from arena.store.db import Store
from referee.client import RefereeClient
from referee.service.sandbox import Channel

from . import developers as devs
from .build import build, kill_running
from .manifest import ManifestError, load
from .settings import DevSettings
from .smoke import smoke
from .status import StatusError, set_status

log = logging.getLogger(__name__)


class Pipeline:
    """Queue of versions to build and smoke-test; ``referee()`` gives the referee to play on."""

    def __init__(self, store: Store, settings: DevSettings, referee: Callable[[], RefereeClient]) -> None:
        self.store = store
        self.settings = settings
        self.referee = referee
        self.pool = ThreadPoolExecutor(max_workers=settings.builders, thread_name_prefix="build")
        self.channel = Channel()  # (builds use no referee socket; the plan wants a channel)
        self.lock = threading.Lock()

    def recover(self) -> int:
        """Versions a previous devserver left ``building``: failed, with the reason."""
        names = devs.building(self.store)
        for name in names:
            _set(self.store, name, m.B_FAILED, "the developer service stopped during the build; submit again")
        return len(names)

    def enqueue(self, name: str) -> Future[None]:
        return self.pool.submit(self._run, name)

    def _run(self, name: str) -> None:
        try:
            self._build_and_smoke(name)
        except Exception as exc:  # noqa: BLE001 - a platform fault: the version fails, the service goes on
            log.exception("building %s", name)
            _set(self.store, name, m.B_FAILED, f"internal error during the build ({type(exc).__name__})")

    def _build_and_smoke(self, name: str) -> None:
        v = devs.any_version(self.store, name)
        if v is None or v.status != m.B_BUILDING:
            return
        pkg = Path(v.cwd)
        try:
            manifest = load(pkg)
        except ManifestError as exc:
            _set(self.store, name, m.B_FAILED, str(exc), log=f"{exc}\n")
            return
        result = build(pkg, manifest, self.settings.build_s, self.channel)
        if not result.ok:
            reason = _last_line(result.log, "build failed")
            _set(self.store, name, m.B_FAILED, reason, log=result.log)
            return
        devs.append_log(self.store, name, result.log)
        report = smoke(self.referee(), name, v.command, v.cwd, manifest, self.settings.smoke_games)
        full = result.log + report.log
        if not report.ok:
            _set(self.store, name, m.B_FAILED, _last_line(report.log, "smoke test failed"), log=full)
            return
        with self.lock:  # one version at a time crosses the active-version cap
            # the oldest make room first: whoever sees the new version active sees the cap kept
            now = devs.any_version(self.store, name)
            if now is None or now.status != m.B_BUILDING:  # retired by its developer meanwhile
                return
            dev = _developer_id(self.store, name)
            active = devs.active_versions(self.store, dev) if dev is not None else []
            for old in active[: max(0, len(active) + 1 - self.settings.active_versions)]:
                _set(
                    self.store,
                    old,
                    m.B_RETIRED,
                    f"retired: more than {self.settings.active_versions} active "
                    f"versions (the newest stay), {name} replaced it",
                )
            _set(self.store, name, m.B_ACTIVE, None, log=full)

    def close(self) -> None:
        """Stop: queued builds are dropped and running ones killed (their versions stay ``building``
        until the next start marks them failed)."""
        self.pool.shutdown(wait=False, cancel_futures=True)
        kill_running()
        self.channel.close()


def _developer_id(store: Store, name: str) -> int | None:
    from sqlalchemy import select

    with store.read() as s:
        return s.scalar(select(m.Bot.developer_id).where(m.Bot.name == name))


def _last_line(text: str, prefix: str) -> str:
    for line in reversed(text.splitlines()):
        if line.startswith(prefix):
            return line
    return prefix


def _set(store: Store, name: str, status: str, reason: str | None, *, log: str | None = None) -> None:
    try:
        set_status(store, name, status, reason, log=log)
    except StatusError as exc:  # retired by its developer meanwhile: nothing to do
        logging.getLogger(__name__).info("%s", exc)
