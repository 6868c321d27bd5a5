"""The Go bot (bots/go): built once per test session with bots/go/build.sh (offline, Debian's packages)."""
from __future__ import annotations

import os
import shutil
import subprocess
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GO_PACKAGES = ("go", "protoc", "protoc-gen-go-grpc")


@cache
def _build() -> tuple[Path | None, str]:
    missing = [tool for tool in GO_PACKAGES if shutil.which(tool) is None]
    if missing:
        return None, f"{', '.join(missing)} not installed (scripts/test.sh installs the Go packages)"
    out = subprocess.run(["bash", str(ROOT / "bots" / "go" / "build.sh")], capture_output=True, text=True,
                         timeout=600)
    if out.returncode != 0:
        # a build failure is a failure, installed tools or not
        pytest.fail(f"bots/go/build.sh failed:\n{out.stdout}\n{out.stderr}", pytrace=False)
    return Path(out.stdout.strip().splitlines()[-1]), ""


def go_bot() -> Path:
    """The built Go bot; skips (fails in CI) when the Go toolchain is missing."""
    binary, why = _build()
    if binary is None:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(f"CI=true but {why}", pytrace=False)
        pytest.skip(f"GO BOT NOT TESTED: {why}")
    return binary
