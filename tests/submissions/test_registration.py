"""Registration by approval, the organizer's commands, and the hourly submission limit, through the
CLI a developer and an organizer run (real processes, one devserver)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.submissions.client import DevClient, DevServiceError
from arena.submissions.pack import pack
from tests.e2e.conftest import RunningReferee
from tests.submissions.conftest import DevServer, start_devserver
from tests.submissions.helpers import python_package, wait_for

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def dev(tmp_path_factory: pytest.TempPathFactory, referee: RunningReferee) -> Iterator[DevServer]:
    server = start_devserver(
        tmp_path_factory.mktemp("devserver"),
        referee,
        ARENA_DEV_REGISTRATION="approval",
        ARENA_DEV_SUBMISSIONS_PER_HOUR="2",
        ARENA_DEV_BUILD_S="4",
    )
    yield server
    server.stop()


def test_a_developer_waits_for_approval_then_submits_within_the_hourly_limit(
    dev: DevServer, tmp_path: Path
) -> None:
    reg = dev.cli("developer", "register", "dora")
    assert reg.returncode == 0, reg.stderr
    assert "registered (pending)" in reg.stdout and "arena developer approve dora" in reg.stdout
    token = reg.stdout.splitlines()[1].strip()
    saved = dev.config / "arena" / "developer-token"
    assert saved.read_text().strip() == token and oct(saved.stat().st_mode & 0o777) == "0o600"

    status = dev.cli("developer", "status")  # the saved token
    assert status.returncode == 2 and "awaits an organizer's approval" in status.stderr
    assert token not in status.stdout + status.stderr
    listed = dev.cli("developer", "list")
    assert listed.returncode == 0 and "dora" in listed.stdout and "pending" in listed.stdout

    approved = dev.cli("developer", "approve", "dora")
    assert approved.returncode == 0 and "approved" in approved.stdout
    status = dev.cli("developer", "status")
    assert status.returncode == 0 and "developer dora (approved), 0 version(s)" in status.stdout

    # a failing build is quick, and still a submission: two an hour, the third is refused
    pkg = python_package(tmp_path / "pkg", "limited", build="{python} -c 'raise SystemExit(3)'")
    client = DevClient(dev.address, token)
    for n in (1, 2):
        sent = dev.cli("submit", str(pkg))
        assert sent.returncode == 1, sent.stdout + sent.stderr
        assert f"dora/limited@{n} failed: build failed: exit status 3" in sent.stderr
        assert wait_for(client, f"dora/limited@{n}").status == "failed"
    third = dev.cli("submit", str(pkg))
    assert third.returncode == 2
    assert "2 submissions in the last hour (limit 2); try again later [RESOURCE_EXHAUSTED]" in third.stderr
    versions = dev.cli("developer", "versions", "limited")
    assert versions.returncode == 0 and "dora/limited@2" in versions.stdout and "@3" not in versions.stdout

    disabled = dev.cli("developer", "disable", "dora")
    assert disabled.returncode == 0
    with pytest.raises(DevServiceError, match="developer dora is disabled"):
        client.versions()


def test_registration_refuses_bad_and_taken_names(dev: DevServer) -> None:
    with pytest.raises(DevServiceError, match="ALREADY_EXISTS"):
        DevClient(dev.address).register("dora")
        DevClient(dev.address).register("dora")
    with pytest.raises(DevServiceError, match="bad developer name"):
        DevClient(dev.address).register("Not Valid")
    organizer = dev.cli("developer", "approve", "nobody")
    assert organizer.returncode == 2 and "no developer named 'nobody'" in organizer.stderr


def test_a_build_past_its_time_limit_is_stopped(dev: DevServer, tmp_path: Path) -> None:
    token = DevClient(dev.address).register("slow-dev").token
    assert dev.cli("developer", "approve", "slow-dev").returncode == 0
    client = DevClient(dev.address, token)
    step = "import time, pathlib\npathlib.Path('started').write_text('x')\ntime.sleep(120)\n"
    pkg = python_package(tmp_path / "slow", "slow", build="{python} step.py", files={"step.py": step})
    t0 = time.monotonic()
    v = wait_for(client, client.submit(pack(pkg)).name, 120)
    assert v.status == "failed" and v.reason == "build failed: time limit of 4s exhausted", v.log
    assert time.monotonic() - t0 < 60
    assert (dev.home / "packages" / "slow-dev" / "slow" / "1" / "started").exists()  # it did run


def test_a_build_cut_short_by_a_stop_fails_at_the_next_start(tmp_path: Path, referee: RunningReferee) -> None:
    home = tmp_path / "home"
    first = start_devserver(home, referee, ARENA_DEV_REGISTRATION="open")
    try:
        client = DevClient(first.address, DevClient(first.address).register("ivy").token)
        step = "import time, pathlib\npathlib.Path('started').write_text('x')\ntime.sleep(300)\n"
        pkg = python_package(tmp_path / "p", "stopped", build="{python} step.py", files={"step.py": step})
        name = client.submit(pack(pkg)).name
        started = home / "packages" / "ivy" / "stopped" / "1" / "started"
        deadline = time.monotonic() + 60
        while not started.exists() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert started.exists()
        t0 = time.monotonic()
        first.proc.terminate()
        first.proc.wait(30)  # the running build is killed, not waited for
        assert time.monotonic() - t0 < 30
    finally:
        first.stop()
    (home / "devserver.json").unlink()
    second = start_devserver(home, referee, ARENA_DEV_REGISTRATION="open")
    try:
        v = DevClient(second.address, client.token).version(name)
        assert (v.status, v.reason) == (
            "failed",
            "the developer service stopped during the build; submit again",
        )
    finally:
        second.stop()
