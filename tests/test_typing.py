"""mypy over the engine core, strict (pyproject.toml; STYLE: type hints throughout, mypy in CI)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_engine_core_type_checks() -> None:
    out = subprocess.run([sys.executable, "-m", "mypy", "--no-incremental", "referee/engine"], cwd=ROOT,
                         capture_output=True, text=True, timeout=300, check=False)
    assert out.returncode == 0, out.stdout + out.stderr
