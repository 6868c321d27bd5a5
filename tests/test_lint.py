"""ruff (E, F, W, I, B, UP) over the engine core and the game author's kit, in CI.

The engine's match loop (runner.py, and the driver that replaces it) is linted where it is owned;
the rest of the repository is not yet clean and is listed in the game kit's report (issue 18).
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
KIT = ["examples", "arena/cli/check_game_cmd.py", "dashboard/renderers.py", "bots/builtin.py",
       "tests/fixtures", "tests/conformance", "tests/examples", "tests/engine/test_scenarios.py",
       "tests/engine/test_redeterminize.py", "tests/engine/test_golden.py", "tests/games/test_scenarios.py",
       "tests/e2e/test_dashboard_example_game.py"]


def test_engine_and_game_kit_are_ruff_clean() -> None:
    engine = [str(p.relative_to(ROOT)) for p in sorted((ROOT / "referee" / "engine").rglob("*.py"))
              if p.name != "runner.py" and not p.name.startswith("driver")]
    out = subprocess.run([sys.executable, "-m", "ruff", "check", "--select", "E,F,W,I,B,UP", "--line-length",
                          "110", "--output-format", "concise", *engine, *KIT], cwd=ROOT, capture_output=True,
                         text=True, timeout=300, check=False)
    assert out.returncode == 0, out.stdout + out.stderr
