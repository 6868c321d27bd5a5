"""`arena check-bot`: the three bundled bots pass every check; each broken bot fails for its reason."""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.conftest import NODE_BOT, ROOT, e2e_env, node_ready
from tests.e2e.gobot import go_bot

pytestmark = pytest.mark.e2e

BROKEN = Path(__file__).with_name("broken_bots.py")


def check_bot(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = e2e_env(tmp_path, COLUMNS="400")
    env.pop("ARENA_REFEREE", None)
    env.pop("ARENA_ORGANIZER_TOKEN", None)
    return subprocess.run([sys.executable, "-m", "arena.cli.main", "check-bot", *args], capture_output=True,
                          text=True, env=env, cwd=ROOT, timeout=900, check=False)


def rows(out: subprocess.CompletedProcess[str]) -> dict[str, tuple[str, str]]:
    """check -> (PASS|FAIL|SKIP, detail) from the printed lines (a pipe gets ``FAIL  deadline: ...``)."""
    table = {}
    for line in out.stdout.splitlines():
        m = re.fullmatch(r"(PASS|FAIL|SKIP)  (.+?): (.*)", line)
        if m:
            table[m[2]] = (m[1], m[3])
    return table


def assert_all_pass(out: subprocess.CompletedProcess[str], games: list[str]) -> None:
    table = rows(out)
    assert out.returncode == 0, out.stdout + out.stderr
    expected = {"connects", *(f"game {g}" for g in games), "simultaneous", "re-ask", "deadline", "concurrent",
                "reconnect", "stays up"}
    assert expected <= table.keys(), table
    assert all(status == "PASS" for status, _ in table.values()), table
    assert "capacity 4" in table["connects"][1]
    assert "reconnected" in table["reconnect"][1]


ALL_GAMES = ["blockcraft", "clank", "dungeon_twister", "greyport", "mice_and_mystics", "sealed_bids"]


def test_python_starter_bot_passes(tmp_path: Path) -> None:
    out = check_bot(tmp_path, "--", sys.executable, str(ROOT / "bots" / "starters" / "python" / "bot.py"))
    assert_all_pass(out, ALL_GAMES)
    assert "1, 2, 3, 4, 5, 6, 7, 8, 9, 10 seats" in rows(out)["game blockcraft"][1]


def test_node_bot_passes(tmp_path: Path) -> None:
    ok, why = node_ready()
    if not ok:
        pytest.skip(f"NODE BOT NOT CHECKED: {why}")
    out = check_bot(tmp_path, "--quick", "--", shutil.which("node") or "node", str(NODE_BOT))
    assert_all_pass(out, ALL_GAMES)


def test_go_bot_passes(tmp_path: Path) -> None:
    out = check_bot(tmp_path, "--quick", "--", str(go_bot()))
    assert_all_pass(out, ALL_GAMES)


@pytest.mark.parametrize("mode, game, check, words", [
    ("illegal", "sealed_bids", "game sealed_bids", "illegal action fault(s)"),
    ("illegal", "sealed_bids", "re-ask", "still wrong when re-asked"),
    ("slow", "sealed_bids", "deadline", "timeout fault(s), e.g. no answer within 500 ms"),
    ("noreconnect", "clank", "reconnect", "did not resume its seat"),
    ("wronggames", "sealed_bids", "connects", "none of the games in Hello (['chess'])"),
])
def test_broken_bot_fails_for_its_reason(tmp_path: Path, mode: str, game: str, check: str,
                                         words: str) -> None:
    out = check_bot(tmp_path, "--quick", "--game", game, "--", sys.executable, str(BROKEN), mode)
    table = rows(out)
    assert out.returncode == 1, out.stdout + out.stderr
    assert table[check][0] == "FAIL" and words in table[check][1], table
    if mode == "slow":  # only the tight deadline trips it
        assert [c for c, (s, _) in table.items() if s == "FAIL"] == ["deadline"], table
    if mode == "noreconnect":
        assert table[f"game {game}"][0] == "PASS", table


def test_a_crashing_bot_fails_for_its_crash_only(tmp_path: Path) -> None:
    """A bot that exits at its first decision: the game and the process fail with its last words; nothing
    passes for want of answers (re-ask), and the next seat count waits for the restarted bot instead of
    failing on "no connected session"."""
    out = check_bot(tmp_path, "--quick", "--game", "sealed_bids", "--", sys.executable, str(BROKEN), "crash")
    table = rows(out)
    assert out.returncode == 1, out.stdout + out.stderr
    status, detail = table["game sealed_bids"]
    assert status == "FAIL", table
    assert "the bot exited with code 1 (last output: crashed on purpose)" in detail, table
    assert "no connected session" not in detail and "4 seats: forfeited" in detail, table
    assert table["stays up"][0] == "FAIL" and "unexpected exit" in table["stays up"][1], table
    assert table["re-ask"] == ("SKIP", "the bot answered no decision"), table


def test_check_bot_usage_errors(tmp_path: Path) -> None:
    out = check_bot(tmp_path)
    assert out.returncode == 2 and "give either a command after -- or --bot NAME" in out.stderr
    out = check_bot(tmp_path, "--", "/nonexistent/bot")
    assert out.returncode == 2 and "cannot run /nonexistent/bot: no such program" in out.stderr, out.stderr
    assert "Traceback" not in out.stderr


def test_live_bot_by_name(tmp_path: Path) -> None:
    """`--bot NAME`: a live bot already connected to a running referee (no cut: reconnect is skipped)."""
    from tests.e2e.conftest import start_referee

    ref = start_referee(tmp_path / "ref")
    bot = None
    try:
        token = ref.client.register_bot("mybot")
        env = {k: v for k, v in ref.env.items() if k != "ARENA_ORGANIZER_TOKEN"}
        bot = subprocess.Popen([sys.executable, str(ROOT / "bots" / "starters" / "python" / "bot.py"),
                                "--address", ref.address, "--capacity", "4"],
                               env={**env, "ARENA_TOKEN": token}, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
        env = e2e_env(tmp_path, COLUMNS="400", ARENA_REFEREE=ref.address,
                      ARENA_ORGANIZER_TOKEN=ref.organizer_token)
        out = subprocess.run([sys.executable, "-m", "arena.cli.main", "check-bot", "--bot", "mybot",
                              "--quick", "--game", "sealed_bids"], capture_output=True, text=True, env=env,
                             cwd=ROOT, timeout=600, check=False)
    finally:
        if bot is not None:
            bot.terminate()
            bot.wait(10)
        ref.stop()
    table = rows(out)
    assert out.returncode == 0, out.stdout + out.stderr
    assert table["game sealed_bids"][0] == "PASS" and table["reconnect"][0] == "SKIP", table
