"""``arena check-game`` as an author runs it, from outside this repository: a sound game passes, a
game that leaks a hidden card fails with the check that caught it, a bad name is one clear line."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ARENA = [sys.executable, "-m", "arena.cli.main"]

LEAKY = '''
from typing import Any
from tests.fixtures.sealed_bids import SealedBids, SealedBidsState


class LeakyState(SealedBidsState):
    def observe(self, viewer: Any) -> dict[str, Any]:
        view = super().observe(viewer)
        view["deck_top"] = self.deck[-1] if self.deck else None   # the next card: hidden from everyone
        return view


class Leaky(SealedBids):
    state_class = LeakyState

    def setup(self, players: int, options: dict[str, Any], seed: int) -> LeakyState:
        st = LeakyState.from_snapshot(self, players, options, *_parts(super().setup(players, options, seed)))
        return st


def _parts(st: SealedBidsState) -> tuple[Any, ...]:
    return st.rng, st.log, st.snapshot_data()


GAME = Leaky()
'''


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([*ARENA, *args], capture_output=True, text=True, cwd=cwd, env=env, timeout=600)


def test_a_sound_game_passes(tmp_path: Path) -> None:
    out = run("check-game", "tests.fixtures.sealed_bids:GAME", "--examples", "1", cwd=tmp_path)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-2000:]
    assert "check-game sealed_bids: OK" in out.stdout
    assert "passed" in out.stdout


def test_a_leaking_game_fails_with_the_check_that_caught_it(tmp_path: Path) -> None:
    (tmp_path / "leaky_game.py").write_text(LEAKY)
    out = run("check-game", "leaky_game", "--examples", "1", "-k", "hidden", cwd=tmp_path)
    assert out.returncode == 1, out.stdout[-3000:] + out.stderr[-2000:]
    assert "check-game sealed_bids: FAILED" in out.stdout
    assert "test_redeterminize_keeps_each_view" in out.stdout


def test_a_bad_name_is_one_clear_line(tmp_path: Path) -> None:
    for spec, words in [("no_such_module:GAME", "cannot import 'no_such_module'"),
                        ("os:path", "not a referee.engine.Game"), ("two words", "neither a registered game")]:
        out = run("check-game", spec, cwd=tmp_path)
        assert out.returncode == 2, out.stderr
        assert words in out.stderr and "Traceback" not in out.stderr
        assert len(out.stderr.strip().splitlines()) == 1
