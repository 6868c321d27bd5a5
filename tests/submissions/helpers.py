"""Waiting on versions, and packages written for the tests (beside the ones `arena new-bot` makes)."""

from __future__ import annotations

import json
import time
from pathlib import Path

from arena.submissions.client import DevClient
from referee.protocol import developer_pb2 as pb


def wait_for(client: DevClient, name: str, timeout_s: float = 600) -> pb.VersionInfo:
    """The version once it is no longer building."""
    deadline = time.monotonic() + timeout_s
    v = client.version(name)
    while v.status == "building" and time.monotonic() < deadline:
        time.sleep(0.5)
        v = client.version(name)
    return v


def python_package(
    root: Path,
    name: str,
    *,
    bot: str | None = None,
    build: str = "",
    games: tuple[str, ...] = ("sealed_bids",),
    files: dict[str, str] | None = None,
    runtime: str = "python",
) -> Path:
    """A Python package playing the fixture game (quick smoke tests): the starter's bot by default."""
    from arena.starters import create

    create("python", root, name)
    # (a JSON string or list is a TOML one too)
    lines = [f"name = {json.dumps(name)}", f"runtime = {json.dumps(runtime)}", 'command = "{python} bot.py"',
             f"games = {json.dumps(list(games))}"]
    if build:
        lines.append(f"build = {json.dumps(build)}")
    (root / "arena-bot.toml").write_text("\n".join(lines) + "\n")
    if bot is not None:
        (root / "bot.py").write_text(bot)
    for rel, text in (files or {}).items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return root
