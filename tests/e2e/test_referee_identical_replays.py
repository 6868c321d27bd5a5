"""One match driver: the same bots, seed and faults give the same replay in-process and through a referee.

Every registered game (the sealed_bids fixture included) is played three times with scripted bots
(``scripted_bot.py``) that misbehave at fixed decisions: illegal indices, actions not in the legal
list, malformed JSON, time-outs, and a bot that exits mid-match. Each match is played by
``run_match`` in this process and by a real referee process with the same bots as hosted
processes; the replays must be byte for byte the same, except the two wall-clock fields: the
``created`` timestamp and each action's measured ``ms``.
"""
from __future__ import annotations

import json
import sys
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from referee.engine import Replay, TimeControl, all_games, get_game, register, run_match, verify
from referee.matchspec import MatchSpec, SeatSpec
from tests.fixtures.sealed_bids import GAME as SEALED_BIDS

from .scripted_bot import ScriptedBot, parse_script

pytestmark = pytest.mark.e2e

register(SEALED_BIDS)

TC = TimeControl(per_decision_ms=3000)  # generous: only the scripted time-outs may happen
#: name -> a script per seat (seats past the list play clean)
SCRIPTS = {
    # four strikes: the fourth forfeits the seat
    "strikes": ["2:illegal,3:malformed,5:timeout,6:unlisted"],
    # a fault that is re-asked and then replaced by a random move, then a crash
    "crash": ["", "1:unlisted,3:exit"],
    # one fault each, then the game plays to its end on the fault RNG's move
    "faults": ["2:malformed", "3:illegal"],
}


def _seats(game_id: str) -> int:
    info = get_game(game_id).info
    return max(info.min_players, min(2, info.max_players))


def _cases() -> list[tuple[str, str]]:
    return [(g.info.id, name) for g in all_games() for name in SCRIPTS]


def _stable(replay: dict[str, Any]) -> bytes:
    """The replay's bytes without its wall-clock fields."""
    d = json.loads(json.dumps(replay))
    d.pop("created", None)
    for a in d["actions"]:
        a["ms"] = 0
    return json.dumps(d, separators=(",", ":"), sort_keys=True).encode()


def _scripts(name: str, players: int) -> list[str]:
    s = SCRIPTS[name]
    return [s[i] if i < len(s) else "" for i in range(players)]


@pytest.fixture(scope="module")
def referee_reports(referee_process) -> dict[tuple[str, str], Any]:
    """Every case played through the referee at once (hosted scripted bots, one process per seat)."""
    def play(case: tuple[str, str]) -> Any:
        game_id, name = case
        n = _seats(game_id)
        seats = [SeatSpec(f"scripted{s}", command=f"{sys.executable} -m tests.e2e.scripted_bot '{script}'")
                 for s, script in enumerate(_scripts(name, n))]
        spec = MatchSpec(f"same-{game_id}-{name}", game_id, 20 + len(name), seats, time_control=TC)
        return referee_process.client.run_match(spec, timeout_s=300)

    cases = _cases()
    with ThreadPoolExecutor(4) as pool:
        return dict(zip(cases, pool.map(play, cases), strict=True))


@pytest.mark.parametrize(("game_id", "name"), _cases())
def test_in_process_and_referee_replays_are_identical(referee_reports, game_id: str, name: str) -> None:
    report = referee_reports[(game_id, name)]
    n = _seats(game_id)
    scripts = _scripts(name, n)
    agents = [ScriptedBot(parse_script(s)) for s in scripts]
    result = run_match(get_game(game_id), agents, seed=20 + len(name), time_control=TC,
                       match_id=f"same-{game_id}-{name}", bot_names=[f"scripted{s}" for s in range(n)])
    ours = result.replay.to_json()
    assert _stable(report.replay) == _stable(ours), report.logs.get("referee", "")
    # the scripts did what they say: the faults are in the replay
    faults = ours["meta"].get("faults", [])
    if name == "strikes":
        assert [f["fault"].split(":")[0] for f in faults][:3] == ["illegal_action", "malformed_answer",
                                                                  "timeout"]
        if result.outcome.forfeits:
            assert "4 strikes, last: illegal_action" in result.outcome.forfeits[0]
    elif name == "crash":
        assert faults and faults[0]["seat"] == 1
        assert ours["forfeits"] == {"1": "the bot exited with code 3 during the match"}, ours["forfeits"]
    else:
        assert faults and not ours["forfeits"]
    verify(Replay.from_json(report.replay))
