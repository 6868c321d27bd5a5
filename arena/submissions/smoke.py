"""The smoke test of a built version: real matches through a referee, the version as a hosted seat.

The referee launches the version in the hosted bots' sandbox, as it will in every rated match;
the other seats are the random bot. One match per game the version plays (at its smallest
accepted seat count), judged by ``arena check-bot``'s own verdict (``arena.checkbot.verdict``): a
forfeit or a fault of the version's seat fails it, with the reason and its seat's output.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from arena.checkbot.verdict import judge
from referee.client import RefereeClient
from referee.engine import TimeControl, game_ids
from referee.matchspec import MatchRejected, MatchSpec, RefereeUnavailable, SeatSpec

from .manifest import Manifest

FILLER = SeatSpec("smoke-random", command="{python} -m bots.serve random")
PER_DECISION_MS = 5_000
MATCH_TIMEOUT_S = 300.0
#: Bytes of the version's own output quoted in the log of a failed match.
OUTPUT_TAIL = 2_000


@dataclass(frozen=True)
class SmokeResult:
    ok: bool
    log: str


def smoke_games(manifest: Manifest, most: int) -> list[str]:
    games = list(manifest.games) or game_ids()
    return games[:most] if most else games


def smoke(
    client: RefereeClient, version: str, command: str, cwd: str, manifest: Manifest, most_games: int = 0
) -> SmokeResult:
    """Play the smoke matches of ``version`` (its command run from ``cwd``); stop at the first failure."""
    lines: list[str] = []
    tag = re.sub(r"[^A-Za-z0-9_.-]", "-", version)
    for i, game in enumerate(smoke_games(manifest, most_games)):
        players = manifest.seat_counts(game)[0]
        where = f"smoke {game} ({players} seat{'s' if players != 1 else ''})"
        seats = [SeatSpec(version, command=command, cwd=cwd)] + [FILLER] * (players - 1)
        spec = MatchSpec(
            f"smoke-{tag}-{game}",
            game,
            1 + i,
            seats,
            time_control=TimeControl(per_decision_ms=PER_DECISION_MS),
        )
        try:
            report = client.run_match(spec, timeout_s=MATCH_TIMEOUT_S)
        except (RefereeUnavailable, MatchRejected) as exc:
            lines.append(f"{where}: could not be played: {exc}\n")
            return SmokeResult(False, "".join(lines) + "smoke test failed: the referee could not play it\n")
        verdict = judge(report, {0})
        if verdict.problems:
            output = report.logs.get("seat0", "")[-OUTPUT_TAIL:]
            lines.append(f"{where}: FAIL: {'; '.join(verdict.problems)}\n")
            if output.strip():
                lines.append(
                    f"--- the version's output (last {OUTPUT_TAIL} bytes) ---\n{output.rstrip()}\n---\n"
                )
            return SmokeResult(False, "".join(lines) + f"smoke test failed in {game}\n")
        lines.append(
            f"{where}: pass, {verdict.decisions} decisions, "
            f"slowest answer {verdict.max_ms} ms\n"
        )
    return SmokeResult(True, "".join(lines))
