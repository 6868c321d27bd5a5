"""Builds run wherever the packages live, not only under /tmp (a devserver's ARENA_HOME is usually not)."""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.submissions.build import build
from arena.submissions.manifest import load
from referee.service import sandbox
from referee.service.sandbox import Channel
from tests.submissions.helpers import python_package


@pytest.fixture()
def outside_tmp() -> Iterator[Path]:
    # /tmp is a fresh tmpfs inside the sandbox, where any mount point can be made; /var/tmp is not
    base = Path("/var/tmp") / f"arena-build-test-{uuid.uuid4().hex[:8]}"
    yield base
    shutil.rmtree(base, ignore_errors=True)


def test_a_package_outside_tmp_builds(outside_tmp: Path) -> None:
    if sandbox.support(allow_unsandboxed=False).mode != "sandbox":
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail("CI=true but no sandbox (bwrap): scripts/test.sh must install it", pytrace=False)
        pytest.skip("NO SANDBOX HERE: builds are refused")
    pkg = python_package(outside_tmp / "home" / "packages" / "pkg", "outside", games=("clank",),
                         build="{python} -c \"open('built.txt', 'w').write('ok')\"")
    result = build(pkg, load(pkg), 60, Channel())
    assert result.ok, result.log
    assert (pkg / "built.txt").read_text() == "ok"
