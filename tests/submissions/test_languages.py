"""Python, Node.js and Go bots made by `arena new-bot` go through `arena submit` as they are: uploaded
over gRPC, built in the real sandbox, smoke-tested through a real referee, and active; then they
play a match of the store as hosted bots named by their version."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator

import pytest

from arena.submissions.client import DevClient
from tests.e2e.conftest import RunningReferee
from tests.submissions.conftest import DevServer, start_devserver
from tests.submissions.helpers import wait_for

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

TOOLS = {"python": [], "node": ["node", "npm"], "go": ["go", "protoc", "protoc-gen-go-grpc"]}


def _tools(lang: str) -> None:
    missing = [t for t in TOOLS[lang] if shutil.which(t) is None]
    if missing:
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(f"CI=true but {missing} missing: scripts/test.sh must install them", pytrace=False)
        pytest.skip(f"{lang.upper()} SUBMISSION NOT TESTED: {missing} missing")


@pytest.fixture(scope="module")
def dev(tmp_path_factory: pytest.TempPathFactory, referee: RunningReferee) -> Iterator[DevServer]:
    # two smoke games a version (blockcraft and clank: the first in the registry), two builds at once
    server = start_devserver(
        tmp_path_factory.mktemp("devserver"),
        referee,
        ARENA_DEV_REGISTRATION="open",
        ARENA_DEV_SMOKE_GAMES="2",
        ARENA_DEV_BUILDERS="2",
        ARENA_DEV_ACTIVE_VERSIONS="10",
    )
    yield server
    server.stop()


@pytest.fixture(scope="module")
def submitted(dev: DevServer) -> dict[str, subprocess.CompletedProcess[str]]:
    """`arena developer register`, then per language `arena new-bot` and `arena submit`: Go and Node.js
    with --no-wait (their builds run meanwhile), Python as a developer runs it, waiting for the verdict."""
    reg = dev.cli("developer", "register", "lang-dev")
    assert reg.returncode == 0, reg.stderr
    dev.env["npm_config_prefer_offline"] = "true"  # the vendor step's npm ci: from the local cache
    out = {}
    for lang in ("go", "node", "python"):
        if any(shutil.which(t) is None for t in TOOLS[lang]):
            continue
        made = dev.cli("new-bot", "--lang", lang, f"{lang}-bot")
        assert made.returncode == 0, made.stderr
        assert (dev.home / f"{lang}-bot" / "arena-bot.toml").is_file()
        out[lang] = dev.cli("submit", f"{lang}-bot", *(["--no-wait"] if lang != "python" else []))
    return out


@pytest.mark.parametrize("lang", sorted(TOOLS))
def test_a_new_bot_submits_as_it_is_and_becomes_active(
    lang: str, dev: DevServer, submitted: dict[str, subprocess.CompletedProcess[str]]
) -> None:
    _tools(lang)
    sent = submitted[lang]
    assert sent.returncode == 0, sent.stdout + sent.stderr
    name = f"lang-dev/{lang}-bot@1"
    assert f"submitted {name}" in sent.stdout
    if lang == "python":  # waited for: the verdict is in the output
        assert f"{name} is active" in sent.stdout
    token = (dev.config / "arena" / "developer-token").read_text().strip()
    client = DevClient(dev.address, token)
    v = wait_for(client, name)
    assert v.status == "active", v.log
    assert v.runtime == lang and not v.reason
    assert "smoke blockcraft (1 seat): pass" in v.log and "smoke clank (2 seats): pass" in v.log, v.log
    if lang == "go":
        assert "build: done" in v.log and "$ bash build.sh" in v.log
    logs = dev.cli("developer", "logs", f"{lang}-bot@1")
    assert logs.returncode == 0 and "smoke clank (2 seats): pass" in logs.stdout
    assert token not in sent.stdout + sent.stderr + logs.stdout  # printed once, at registration


def test_the_active_versions_play_a_rated_tournament_under_their_version_names(
    dev: DevServer, referee: RunningReferee, submitted: dict[str, subprocess.CompletedProcess[str]]
) -> None:
    """A version is a hosted bot of the store: a tournament on the referee seats it by its version name,
    in the sandbox, and the ladder rates it."""
    token = (dev.config / "arena" / "developer-token").read_text().strip()
    client = DevClient(dev.address, token)
    names = [f"lang-dev/{lang}-bot@1" for lang in sorted(submitted)]
    for name in names:
        assert wait_for(client, name).status == "active", name
    env = dict(dev.env, ARENA_REFEREE=referee.address, ARENA_WORKERS="2")

    def arena(*args: str) -> subprocess.CompletedProcess[str]:
        done = subprocess.run(
            [sys.executable, "-m", "arena.cli.main", *args],
            capture_output=True,
            text=True,
            env=env,
            cwd=dev.home,
            timeout=600,
            check=False,
        )
        assert done.returncode == 0, f"arena {' '.join(args)}:\n{done.stdout}{done.stderr}"
        return done

    assert all(n in arena("bot", "list", "--game", "sealed_bids").stdout for n in names)
    if len(names) < 2:
        pytest.skip("one language only here: no pairing to play")
    bots = ",".join(names)
    arena("tournament", "create", "sealed_bids", "--bots", bots, "--seats", "2", "--games", "1", "--run")
    ladder = arena("ladder", "sealed_bids").stdout
    for name in names:
        assert name in ladder, ladder
    if "python" in submitted:   # its developer reads what it wrote in those matches (the SDK's summary)
        logs = dev.cli("developer", "logs", "python-bot@1", "--matches", "2")
        assert logs.returncode == 0 and logs.stdout.count("── match") == 2, logs.stdout + logs.stderr
        assert "error(s)" in logs.stdout and "sealed_bids, seat" in logs.stdout, logs.stdout
