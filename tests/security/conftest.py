"""Red-team fixtures: a real ``arena referee`` process with small hosted-bot limits, and a helper
that plays one match with the evil bot in seat 0 and an honest built-in bot in seat 1.

The referee runs with ARENA_ORGANIZER_TOKEN and ARENA_HOME in its environment, as an organizer's
would, so the attacks that read it have something to find.
"""
from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import RunningReferee, start_referee

EVIL = Path(__file__).with_name("evil_bot.py")
HONEST = f"{sys.executable} -m bots.serve random"
GAME = "clank"

#: The referee's hosted-bot limits in these tests (the attacks go past them).
LIMIT_FLAGS = ("--hosted-memory-mb", "160", "--hosted-cpu-s", "3", "--hosted-pids", "48")


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


@dataclass
class Played:
    outcome: dict[str, Any]
    replay: dict[str, Any]
    logs: dict[str, str]
    evil_seat: int = 0

    def attacks(self) -> dict[str, str]:
        """``name -> 'succeeded ...' | 'blocked ...'`` from the evil seat's captured output."""
        out = {}
        for line in self.logs.get(f"seat{self.evil_seat}", "").splitlines():
            if line.startswith("ATTACK "):
                name, _, rest = line[7:].partition(": ")
                out[name] = rest
        return out

    def forfeit(self, seat: int) -> str | None:
        return (self.replay.get("forfeits") or {}).get(str(seat)) or (self.replay.get("forfeits")
                                                                      or {}).get(seat)


@pytest.fixture(scope="module")
def referee(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningReferee]:
    home = tmp_path_factory.mktemp("redteam")
    ref = start_referee(home, *LIMIT_FLAGS)
    yield ref
    ref.stop()


@pytest.fixture(params=["script", "zygote"])
def how(request: pytest.FixtureRequest) -> str:
    """How the evil bot is hosted: as a script (a one-shot sandbox, exec'd) or as ``python -m``
    (served by a warm zygote sandbox: a fresh nested sandbox per match)."""
    return str(request.param)


def play(ref: RunningReferee, *attacks: str, match_id: str, env: dict[str, str] | None = None,
         honest: str = HONEST, timeout_s: float = 90, how: str = "script", seed: int = 4242,
         evil_seat: int = 0) -> Played:
    from referee.matchspec import MatchSpec, SeatSpec

    if how == "zygote":
        evil = SeatSpec("evil", f"{sys.executable} -m {EVIL.stem} {' '.join(attacks)}", str(EVIL.parent),
                        dict(env or {}))
    else:
        evil = SeatSpec("evil", f"{sys.executable} {EVIL} {' '.join(attacks)}", None, dict(env or {}))
    seats = [evil, SeatSpec("honest", honest)]
    if evil_seat:
        seats.reverse()
    spec = MatchSpec(f"{match_id}-{how}", GAME, seed, seats)
    report = ref.client.run_match(spec, timeout_s)
    return Played(report.outcome, report.replay, report.logs, evil_seat)
