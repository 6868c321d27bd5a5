"""Over real gRPC, against one devserver: hostile packages are refused or contained, broken ones fail
with a clear log, tokens reach only their own developer's versions, and the active-version cap holds."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest

from arena.submissions.build import cache_root
from arena.submissions.client import DevClient, DevServiceError, DevServiceUnavailable
from arena.submissions.pack import pack, sha256
from referee.protocol import developer_pb2 as pb
from referee.protocol import developer_pb2_grpc as pb_grpc
from tests.e2e.conftest import ROOT, RunningReferee
from tests.submissions import archives
from tests.submissions.conftest import DevServer, start_devserver
from tests.submissions.helpers import python_package, wait_for

pytestmark = pytest.mark.e2e


@pytest.fixture(scope="module")
def dev(tmp_path_factory: pytest.TempPathFactory, referee: RunningReferee) -> Iterator[DevServer]:
    server = start_devserver(
        tmp_path_factory.mktemp("devserver"),
        referee,
        ARENA_DEV_REGISTRATION="open",
        ARENA_DEV_PACKAGE_MB="1",
        ARENA_DEV_UNPACKED_MB="8",
        ARENA_DEV_FILES="200",
        ARENA_DEV_ACTIVE_VERSIONS="2",
        ARENA_DEV_BUILDERS="2",
        ARENA_DEV_BUILD_S="60",
    )
    yield server
    server.stop()


@pytest.fixture(scope="module")
def alice(dev: DevServer) -> DevClient:
    token = DevClient(dev.address).register("alice").token
    return DevClient(dev.address, token)


@pytest.fixture(scope="module")
def bob(dev: DevServer) -> DevClient:
    token = DevClient(dev.address).register("bob").token
    return DevClient(dev.address, token)


def _code(exc: pytest.ExceptionInfo[DevServiceError]) -> str:
    return str(exc.value).rpartition("[")[2].rstrip("]")


def _no_trace_of_refusals(dev: DevServer) -> None:
    """A refused upload leaves no version, no package and nothing in the staging area."""
    packages = dev.home / "packages"
    assert list((packages / ".staging").iterdir()) == []
    assert not (packages / "alice" / "evil").exists()


# -- hostile packages ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "kind", ["dotdot", "absolute", "symlink-absolute", "symlink-via-link", "hardlink", "char-device", "fifo"]
)
def test_a_hostile_archive_is_refused_with_one_line(kind: str, dev: DevServer, alice: DevClient) -> None:
    make, words = archives.HOSTILE[kind]
    with pytest.raises(DevServiceError) as err:
        alice.submit(make())
    assert (
        _code(err) == "INVALID_ARGUMENT" and "package refused" in str(err.value) and words in str(err.value)
    )
    assert "\n" not in str(err.value) and str(dev.home) not in str(err.value)
    _no_trace_of_refusals(dev)
    assert not Path("/tmp/arena-escape.txt").exists() and not (dev.home / "escape.txt").exists()


def test_a_zip_bomb_stops_at_the_unpacked_cap(dev: DevServer, alice: DevClient) -> None:
    bomb = archives.gzip_bomb(256)
    assert len(bomb) < 1 << 20  # under the upload limit: only the unpacked cap can stop it
    with pytest.raises(DevServiceError, match="unpacks to more than 8 MiB"):
        alice.submit(bomb)
    with pytest.raises(DevServiceError, match="more than 200 entries"):
        alice.submit(archives.many_files(300))
    _no_trace_of_refusals(dev)


def test_an_oversized_upload_is_refused_early(dev: DevServer, alice: DevClient) -> None:
    big = os.urandom(3 << 20)  # incompressible: 3 MiB against a 1 MiB limit
    with pytest.raises(DevServiceError) as err:
        alice.submit(big)
    assert _code(err) == "RESOURCE_EXHAUSTED" and "the limit is 1 MiB" in str(err.value)
    # a client that announces a small upload and keeps sending is cut off once past its announcement
    stub = pb_grpc.DeveloperServiceStub(dev.channel())
    sent = []

    def lying() -> Iterator[pb.SubmitChunk]:
        yield pb.SubmitChunk(header=pb.SubmitHeader(size=1000, sha256=sha256(b"x" * 1000)))
        for _ in range(512):  # 32 MiB: far more than gRPC's windows let through before the refusal
            sent.append(1)
            yield pb.SubmitChunk(data=os.urandom(64 << 10))

    with pytest.raises(grpc.RpcError) as rpc:
        stub.Submit(lying(), metadata=[("authorization", f"Bearer {alice.token}")], timeout=60)
    assert rpc.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert len(sent) < 512  # refused before the client finished sending
    _no_trace_of_refusals(dev)


def test_the_upload_must_match_its_checksum(alice: DevClient, tmp_path: Path) -> None:
    data = pack(python_package(tmp_path / "pkg", "sums"))
    stub = pb_grpc.DeveloperServiceStub(grpc.insecure_channel(alice.address))
    chunks = [
        pb.SubmitChunk(header=pb.SubmitHeader(size=len(data), sha256="0" * 64)),
        pb.SubmitChunk(data=data),
    ]
    with pytest.raises(grpc.RpcError) as rpc:
        stub.Submit(iter(chunks), metadata=[("authorization", f"Bearer {alice.token}")], timeout=60)
    assert rpc.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "SHA-256" in (rpc.value.details() or "")


def test_a_build_that_reaches_for_the_network_fails_with_a_clear_line(
    dev: DevServer, alice: DevClient, tmp_path: Path
) -> None:
    port = int(dev.address.rpartition(":")[2])
    fetch = (f"import socket\nsocket.create_connection(('127.0.0.1', {port}), timeout=5).close()\n"
             "print('fetched')\n")
    pkg = python_package(tmp_path / "net", "net", build="{python} fetch.py", files={"fetch.py": fetch})
    # outside the sandbox the same step reaches the service: only the sandbox stops it
    assert (
        subprocess.run(
            [sys.executable, "fetch.py"], cwd=pkg, capture_output=True, text=True, timeout=30
        ).stdout
        == "fetched\n"
    )
    v = wait_for(alice, alice.submit(pack(pkg)).name, 300)
    assert v.status == "failed", v.log
    # the sandbox has no route out and a loopback of its own: the service it knows is not there
    assert "fetched" not in v.log, v.log
    assert "Network is unreachable" in v.log or "Connection refused" in v.log, v.log
    assert v.reason.startswith("build failed: exit status 1 (the build runs without network"), v.reason
    assert "smoke" not in v.log  # never played


def test_a_build_can_write_only_its_package_and_tmp(dev: DevServer, alice: DevClient, tmp_path: Path) -> None:
    # the platform's code (bound read-only), the system, and a host directory (not in the sandbox at all)
    targets = [ROOT / "bots" / "escape.txt", Path("/usr/escape.txt"), tmp_path / "escaped.txt"]
    step = "open('built.txt', 'w').write('ok')\nopen('/tmp/scratch', 'w').write('ok')\n"
    for target in targets:
        step += (f"try:\n    open({str(target)!r}, 'w').write('out')\n    print('WROTE', {str(target)!r})\n"
                 "except OSError as exc:\n    print('blocked:', exc.strerror)\n")
    pkg = python_package(tmp_path / "w", "writer", build="{python} step.py", files={"step.py": step})
    v = wait_for(alice, alice.submit(pack(pkg)).name, 300)
    assert v.status == "active", v.log
    assert "WROTE" not in v.log and v.log.count("blocked: Read-only file system") == 2, v.log
    assert "blocked: No such file or directory" in v.log, v.log
    assert not any(t.exists() for t in targets)
    built = dev.home / "packages" / "alice" / "writer" / str(v.version) / "built.txt"
    assert built.read_text() == "ok"
    # sealed after the build: the platform's, read-only for the bots that run from it
    assert oct(built.stat().st_mode & 0o777) == "0o644" and built.stat().st_uid == os.geteuid()


def test_a_go_build_starts_from_a_private_copy_of_the_warm_cache(alice: DevClient, tmp_path: Path) -> None:
    """The platform's warm Go build cache (its own starter kit, built once) is copied into each build's
    /tmp: the build finds it filled and may write its copy, never the shared one the next build uses."""
    if shutil.which("go") is None or shutil.which("protoc") is None:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail("CI=true but Go is missing: scripts/test.sh must install it", pytrace=False)
        pytest.skip("GO RUNTIME NOT TESTED: go or protoc missing")
    shared = cache_root() / "go"
    step = (
        "import os\n"
        "cache = os.environ['GOCACHE']\n"
        "print('cache', cache, 'filled', len(os.listdir(cache)) > 10)\n"
        "open(os.path.join(cache, 'mine'), 'w').write('ok')\n"
        f"for target in ({str(shared / 'poison')!r}, {str(shared.parent / 'go.ready')!r}):\n"
        "    try:\n"
        "        open(target, 'a').write('x')\n"
        "        print('WROTE', target)\n"
        "    except OSError as exc:\n"
        "        print('blocked:', exc.strerror)\n"
    )
    pkg = python_package(tmp_path / "g", "gocache", runtime="go", build="{python} step.py",
                         files={"step.py": step})
    v = wait_for(alice, alice.submit(pack(pkg)).name, 600)
    assert v.status == "active", v.log
    assert "starting from the platform's warm go build cache" in v.log, v.log
    assert "cache /tmp/arena-build-cache filled True" in v.log, v.log
    assert "WROTE" not in v.log and v.log.count("blocked: Read-only file system") == 2, v.log
    assert not (shared / "poison").exists() and not (shared / "mine").exists()


def test_a_broken_bot_fails_its_smoke_test_with_its_error_in_the_log(
    alice: DevClient, tmp_path: Path
) -> None:
    pkg = python_package(tmp_path / "broken", "broken", bot="def act(:\n    pass\n")
    v = wait_for(alice, alice.submit(pack(pkg)).name, 300)
    assert v.status == "failed"
    assert v.reason == "smoke test failed in sealed_bids", v.reason
    assert "SyntaxError" in v.log and "forfeited" in v.log, v.log


def test_a_failing_build_step_fails_with_its_output(alice: DevClient, tmp_path: Path) -> None:
    pkg = python_package(tmp_path / "dep", "dep", build="{python} -c 'import not_bundled_dependency'")
    v = wait_for(alice, alice.submit(pack(pkg)).name, 300)
    assert v.status == "failed"
    assert "ModuleNotFoundError: No module named 'not_bundled_dependency'" in v.log, v.log
    assert v.reason.startswith("build failed: exit status 1"), v.reason


def test_a_bad_manifest_is_refused_at_upload(dev: DevServer, alice: DevClient, tmp_path: Path) -> None:
    pkg = python_package(tmp_path / "m", "m")
    (pkg / "arena-bot.toml").write_text('name = "m"\nruntime = "cobol"\ncommand = "run"\n')
    with pytest.raises(DevServiceError, match="runtime 'cobol' is not one of go, node, python"):
        alice.submit(pack(pkg))
    (pkg / "arena-bot.toml").unlink()
    with pytest.raises(DevServiceError, match="the package has no arena-bot.toml at its top") as err:
        alice.submit(pack(pkg))
    assert str(dev.home) not in str(err.value)
    _no_trace_of_refusals(dev)


# -- tokens -------------------------------------------------------------------------------------
def test_a_token_reaches_only_its_own_versions(
    dev: DevServer, referee: RunningReferee, alice: DevClient, bob: DevClient, tmp_path: Path
) -> None:
    mine = wait_for(alice, alice.submit(pack(python_package(tmp_path / "a", "secret-bot"))).name, 300)
    assert mine.status == "active", mine.log
    with pytest.raises(DevServiceError) as theirs:
        bob.version(mine.name)
    with pytest.raises(DevServiceError) as nothing:
        bob.version("alice/no-such-bot@9")
    assert _code(theirs) == _code(nothing) == "NOT_FOUND"
    assert str(theirs.value).replace(mine.name, "X") == str(nothing.value).replace("alice/no-such-bot@9", "X")
    for call in (bob.retire, bob.version, lambda name: bob.outputs(name, 3)):
        with pytest.raises(DevServiceError, match="NOT_FOUND"):
            call(mine.name)
    assert (list(alice.outputs(mine.name, 3).outputs), alice.outputs(mine.name, 3).sealed) == ([], 0)
    assert [v.name for v in bob.versions("alice/secret-bot").versions] == []
    assert [v.name for v in bob.versions().versions] == []
    assert mine.name in [v.name for v in alice.versions().versions]
    cli = dev.cli("developer", "logs", mine.name, token=bob.token)
    assert cli.returncode == 2 and "no version" in cli.stderr and "Traceback" not in cli.stderr
    # no token, a made-up one, the organizer's: UNAUTHENTICATED, and nothing else said
    for token in ("", "arenadev_made-up", referee.organizer_token):
        with pytest.raises(DevServiceError) as err:
            DevClient(dev.address, token).versions()
        assert _code(err) == "UNAUTHENTICATED" and "alice" not in str(err.value)
    assert alice.version(mine.name).status == "active"


def test_the_active_version_cap_retires_the_oldest(dev: DevServer, tmp_path: Path) -> None:
    carol = DevClient(dev.address, DevClient(dev.address).register("carol").token)
    names = []
    for i in range(3):
        v = wait_for(carol, carol.submit(pack(python_package(tmp_path / str(i), "capped"))).name, 300)
        assert v.status == "active", v.log
        names.append(v.name)
    first = carol.version(names[0])
    assert first.status == "retired"
    assert first.reason.startswith("retired: more than 2 active versions"), first.reason
    assert [carol.version(n).status for n in names[1:]] == ["active", "active"]
    assert carol.retire(names[1]).status == "retired"
    with pytest.raises(DevServiceError, match="FAILED_PRECONDITION"):
        carol.retire(names[1])


def test_an_unreachable_service_is_one_line() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(DevServiceUnavailable, match="cannot reach the developer service"):
        DevClient(f"127.0.0.1:{port}", "arenadev_x").versions()
