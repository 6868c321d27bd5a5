"""The example outside game (examples/liars_dice), installed as its own package by scripts/test.sh:
it registers through its `arena.games` entry point, passes `arena check-game`, brings its scenarios,
renderer, heuristic bot and golden file, and plays a tournament. Its browser test is in
tests/e2e/test_dashboard_example_game.py."""
from __future__ import annotations

import os
import subprocess
import sys
from importlib.metadata import entry_points
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "liars_dice" / "arena_liars_dice"


@pytest.fixture(scope="module", autouse=True)
def installed() -> None:
    if "liars_dice" not in {ep.name for ep in entry_points(group="arena.games")}:
        pytest.fail("examples/liars_dice is not installed: run scripts/test.sh, or "
                    ".venv/bin/pip install --no-deps --no-build-isolation -e examples/liars_dice")


def arena(*args: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("ARENA_") and k != "PYTHONPATH"}
    return subprocess.run([sys.executable, "-m", "arena.cli.main", *args], capture_output=True, text=True,
                          cwd=cwd, env={**clean, "COLUMNS": "160", **env}, timeout=600)


def test_it_comes_from_its_own_package() -> None:
    from referee.engine import get_game

    game = get_game("liars_dice")
    assert type(game).__module__ == "arena_liars_dice.game"
    assert Path(sys.modules["arena_liars_dice"].__file__ or "").resolve().parent == EXAMPLE


def test_check_game_passes_from_outside_the_repository(tmp_path: Path) -> None:
    out = arena("check-game", "arena_liars_dice", cwd=tmp_path)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-2000:]
    assert "check-game liars_dice: OK" in out.stdout


def test_its_scenarios_pass() -> None:
    from referee.engine import scenarios

    files = sorted((EXAMPLE / "scenarios").glob("*.json"))
    assert files
    for path in files:
        end = scenarios.run(scenarios.load(path))
        assert end.is_over()


def test_what_the_game_declares_is_found_through_it() -> None:
    from bots.builtin import heuristic_available, make_bot
    from dashboard.renderers import renderer_file

    assert heuristic_available("liars_dice")
    assert type(make_bot("heuristic", "liars_dice", 1)).__module__ == "arena_liars_dice.bot"
    assert renderer_file("liars_dice") == EXAMPLE / "renderer.js"
    assert not (ROOT / "dashboard" / "static" / "renderers" / "liars_dice.js").exists()
    assert not (ROOT / "bots" / "heuristic" / "liars_dice.py").exists()
    assert not (ROOT / "tests" / "golden" / "liars_dice.txt").exists()  # its golden file is its own


def test_dashboard_serves_the_declared_renderer() -> None:
    from fastapi.testclient import TestClient

    from dashboard.app import create_app
    from dashboard.source import MemorySource

    client = TestClient(create_app(MemorySource()))
    r = client.get("/renderers/liars_dice.js")
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/javascript")
    assert r.text == (EXAMPLE / "renderer.js").read_text()
    assert client.get("/renderers/clank.js").status_code == 200  # a built-in one, from static/
    for bad in ("/renderers/nope.js", "/renderers/..%2Fapp.js", "/renderers/sealed_bids.js"):
        assert client.get(bad).status_code == 404


def test_a_tournament_with_its_heuristic_bot(tmp_path: Path) -> None:
    env = {"ARENA_HOME": str(tmp_path / "home"), "ARENA_WORKERS": "2"}
    for args in (("bot", "add", "rnd", "--builtin", "random"),
                 ("bot", "add", "liar", "--builtin", "heuristic", "--games", "liars_dice")):
        out = arena(*args, cwd=tmp_path, **env)
        assert out.returncode == 0, out.stderr
    out = arena("tournament", "create", "liars_dice", "--bots", "rnd,liar", "--games", "3", "--executor",
                "inprocess", "--run", cwd=tmp_path, **env)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "6 done, 0 failed" in out.stdout
    out = arena("ladder", "liars_dice", cwd=tmp_path, **env)
    assert out.returncode == 0 and "liar" in out.stdout, out.stdout + out.stderr
    lines = [ln for ln in out.stdout.splitlines() if "liar" in ln or "rnd" in ln]
    assert lines and "liar" in lines[0], out.stdout  # the heuristic bot tops the ladder
