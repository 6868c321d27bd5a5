"""`arena new-bot --lang L DIR` writes a project that builds and plays a match through a real referee."""
from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from arena.starters import languages, starter
from referee.engine import Replay, TimeControl, register, verify
from referee.matchspec import MatchSpec, SeatSpec
from tests.e2e.conftest import PY_BOT, ROOT, RunningReferee, start_referee
from tests.fixtures.sealed_bids import GAME as SEALED_BIDS

pytestmark = pytest.mark.e2e



@pytest.fixture(autouse=True)
def _sealed_bids() -> None:
    """This process re-simulates the fixture game's replays (another test may have unregistered it)."""
    register(SEALED_BIDS)

TOOLS = {"python": [], "node": ["node", "npm"], "go": ["go", "protoc", "protoc-gen-go-grpc"]}


@pytest.fixture(scope="module")
def referee(tmp_path_factory: pytest.TempPathFactory) -> RunningReferee:
    ref = start_referee(tmp_path_factory.mktemp("referee"))
    yield ref
    ref.stop()


def test_every_language_has_a_kit() -> None:
    assert languages() == sorted(TOOLS)


@pytest.mark.parametrize("lang", sorted(TOOLS))
def test_new_bot_project_plays_a_match(lang: str, tmp_path: Path, referee: RunningReferee) -> None:
    missing = [t for t in TOOLS[lang] if shutil.which(t) is None]
    if missing:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(f"CI=true but {missing} missing: scripts/test.sh must install them", pytrace=False)
        pytest.skip(f"{lang.upper()} STARTER NOT TESTED: {missing} missing")
    project = tmp_path / f"my-{lang}-bot"
    env = {**referee.env}
    env.pop("ARENA_ORGANIZER_TOKEN")
    out = subprocess.run([sys.executable, "-m", "arena.cli.main", "new-bot", "--lang", lang, str(project)],
                         capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60, check=False)
    assert out.returncode == 0, out.stderr
    assert (project / "README.md").read_text().startswith(f"# my-{lang}-bot")
    kit = starter(lang)
    for step in kit.setup:
        # npm ci against the kit's copied lock file (the npm cache from bots/node makes it quick)
        argv = shlex.split(step) + (["--prefer-offline"] if step.startswith("npm ") else [])
        done = subprocess.run(argv, cwd=project, capture_output=True, text=True, env=env, timeout=600,
                              check=False)
        assert done.returncode == 0, f"{step}:\n{done.stdout}\n{done.stderr}"
    # the kit's command, as a hosted seat of a real match, run from the project directory
    spec = MatchSpec(f"starter-{lang}", "sealed_bids", 21,
                     [SeatSpec(f"my-{lang}", command=kit.run_command(), cwd=str(project)),
                      SeatSpec("random", command=f"{PY_BOT} random")],
                     time_control=TimeControl(per_decision_ms=10_000))
    report = referee.client.run_match(spec, timeout_s=120)
    assert report.outcome["reason"] == "normal" and "forfeits" not in report.outcome, report.logs
    replay = Replay.from_json(report.replay)
    assert "faults" not in replay.meta and replay.actions
    verify(replay)
    assert "1 match(es)" in report.logs["seat0"], report.logs["seat0"]
    assert str(ROOT) not in (project / "README.md").read_text()
