"""Health per bot: recorded per match from what the referee reports, shown by `arena bot show`,
the API and the bot's page."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bots.random_bot import RandomBot
from referee.engine import get_game, register, run_match
from referee.health import _p95, seat_health
from tests.cli.broken_bots import Illegal
from tests.e2e.conftest import ROOT, e2e_env
from tests.fixtures.sealed_bids import GAME as SEALED_BIDS


def test_p95() -> None:
    assert _p95([]) == 0 and _p95([7]) == 7
    assert _p95(list(range(1, 101))) == 95 and _p95(list(range(1, 21))) == 19


def test_seat_health_from_a_replay() -> None:
    result = run_match(get_game("clank"), [RandomBot(1), Illegal(2)], seed=3, match_id="h")
    replay = result.replay.to_json()
    good, bad = seat_health(replay, 0), seat_health(replay, 1)
    # every decision: a wrong answer, re-asked, wrong again (a strike): 4 decisions, 8 wrong answers
    assert (bad.illegal, bad.strikes, bad.forfeits, bad.crashes, bad.timeouts) == (8, 4, 1, 0, 0)
    assert bad.forfeit_reason and bad.forfeit_reason.startswith("4 strikes")
    assert (good.illegal, good.strikes, good.forfeits) == (0, 0, 0) and good.decisions > 0
    replay["forfeits"] = {"0": "hosted bot exited with code 1 during the match"}
    assert seat_health(replay, 0).crashes == 1


def arena(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "arena.cli.main", *args], capture_output=True, text=True,
                          env=e2e_env(home, COLUMNS="250"), cwd=ROOT, timeout=600, check=False)


@pytest.mark.e2e
def test_health_through_a_referee_tournament(tmp_path: Path) -> None:
    """A hosted bot that answers illegally, played by a real referee: its health shows the faults
    everywhere."""
    broken = Path(__file__).with_name("broken_bots.py")
    for args in (["bot", "add", "rnd", "--builtin", "random"],
                 ["bot", "add", "bad", "--command", f"{{python}} {broken} illegal"]):
        out = arena(tmp_path, *args)
        assert out.returncode == 0, out.stderr
    out = arena(tmp_path, "tournament", "create", "sealed_bids", "--bots", "rnd,bad", "--games", "1", "--run")
    assert out.returncode == 0, out.stdout + out.stderr
    out = arena(tmp_path, "bot", "show", "bad")
    assert out.returncode == 0, out.stderr
    row = next(line for line in out.stdout.splitlines() if line.startswith("│ sealed_bids"))
    cells = [c.strip() for c in row.strip("│ ").split("│")]
    # game, matches, decisions, mean, p95, max, time-outs, illegal, strikes, crashes, forfeits
    assert cells[1] == "2" and cells[6] == "0" and int(
        cells[7]) >= 8 and cells[8] == "8" and cells[10] == "2", row
    assert "4 strikes, last: illegal_action" in out.stdout
    out = arena(tmp_path, "bot", "show", "rnd")
    row = next(line for line in out.stdout.splitlines() if line.startswith("│ sealed_bids"))
    cells = [c.strip() for c in row.strip("│ ").split("│")]
    assert cells[1] == "2" and cells[7:] == ["0", "0", "0", "0"], row
    assert arena(tmp_path, "bot", "show", "nobody").returncode == 2

    from fastapi.testclient import TestClient

    from dashboard.app import create_app

    with TestClient(create_app(db_url=f"sqlite:///{tmp_path / 'arena.db'}")) as client:
        health = client.get("/api/bots/bad").json()["health"]
        assert health[0]["game"] == "sealed_bids" and health[0]["forfeits"] == 2 and health[0]["strikes"] == 8
        page = client.get("/bots/bad").text
        assert 'id="health"' in page and "<td>sealed_bids</td><td>2</td>" in page


@pytest.mark.e2e
def test_a_crashing_hosted_bots_own_output_reaches_its_owner(tmp_path: Path) -> None:
    """Played by a real referee in the sandbox: what the bot wrote before it crashed is kept with its seat
    and printed by `arena bot output`; each bot's own lines only."""
    broken = Path(__file__).with_name("broken_bots.py")
    for args in (["bot", "add", "rnd", "--builtin", "random"],
                 ["bot", "add", "boom", "--command", f"{{python}} {broken} crash"]):
        out = arena(tmp_path, *args)
        assert out.returncode == 0, out.stderr
    out = arena(tmp_path, "tournament", "create", "sealed_bids", "--bots", "rnd,boom", "--games", "1",
                "--run")
    assert out.returncode == 0, out.stdout + out.stderr
    out = arena(tmp_path, "bot", "output", "boom", "--matches", "5")
    assert out.returncode == 0, out.stderr
    # both matches of the pairing (the deal played from each seat), newest first, each with its text
    assert out.stdout.count("── match") == 2 and out.stdout.count("crashed on purpose") == 2, out.stdout
    assert "forfeited: the bot exited with code 1 during the match" in out.stdout
    assert "[exit code 1]" in out.stdout
    assert "what it wrote in its latest matches: arena bot output boom" in arena(tmp_path, "bot", "show",
                                                                                  "boom").stdout
    out = arena(tmp_path, "bot", "output", "rnd")   # its own lines only (the SDK's summary at exit)
    assert out.returncode == 0 and "0 error(s)" in out.stdout and "crashed" not in out.stdout, out.stdout
    assert arena(tmp_path, "bot", "add", "idle", "--builtin", "random").returncode == 0
    out = arena(tmp_path, "bot", "output", "idle")
    assert out.returncode == 0 and "no match output recorded" in out.stdout, out.stdout
    out = arena(tmp_path, "bot", "output", "nobody")
    assert out.returncode == 2 and "no bot named 'nobody'" in out.stderr and "Traceback" not in out.stderr


class CorrectsItself(RandomBot):
    """Answers every decision wrongly first, then right when re-asked."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.asked: set[int] = set()

    def act(self, request):
        if request.decision_id not in self.asked:
            self.asked.add(request.decision_id)
            return len(request.legal) + 1
        return super().act(request)


def test_wrong_answers_corrected_on_a_re_ask_count_without_strikes() -> None:
    register(SEALED_BIDS)
    result = run_match(get_game("sealed_bids"), [CorrectsItself(1), RandomBot(2)], seed=3, match_id="r")
    replay = result.replay.to_json()
    h = seat_health(replay, 0)
    assert replay["meta"]["health"]["0"]["reasked"] == h.decisions > 0
    assert (h.illegal, h.strikes, h.forfeits) == (h.decisions, 0, 0)
    assert "1" not in replay["meta"]["health"] and seat_health(replay, 1).illegal == 0
