"""How a bot behaved in one match, per seat: answer times, time-outs, wrong answers, strikes, crashes.

Read from what the referee records in a match's replay (every decision's milliseconds, the faults
that cost a strike, the forfeits and their reasons) plus ``replay.meta["health"]``, where the
referee adds what a replay cannot show (answers that were wrong but corrected on a re-ask). The
in-process runner writes the same replay fields, so both ways of playing give the same figures.
"""
from __future__ import annotations

import math
import re
from dataclasses import asdict, dataclass
from typing import Any

# Forfeit reasons that mean the bot's process or connection went away (not strikes, not flooding).
_CRASH = re.compile(
    r"exited|did not connect|disconnected|killed|was stopped|could not start|cannot start|launch")
_WRONG = ("illegal_action", "malformed_answer", "oversized", "stale_decision")


@dataclass(frozen=True)
class SeatHealth:
    decisions: int = 0
    mean_ms: float = 0.0
    p95_ms: int = 0
    max_ms: int = 0
    timeouts: int = 0
    illegal: int = 0  # wrong answers: illegal, malformed or oversized (re-asked ones included)
    strikes: int = 0
    crashes: int = 0
    forfeits: int = 0
    forfeit_reason: str | None = None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def _p95(values: list[int]) -> int:
    if not values:
        return 0
    ordered = sorted(values)
    return ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)]


def seat_health(replay: dict[str, Any], seat: int) -> SeatHealth:
    """``seat``'s health in one match, from the replay's JSON."""
    times = [int(a.get("ms", 0)) for a in replay.get("actions", []) if a.get("seat") == seat]
    meta = replay.get("meta") or {}
    faults = [str(f.get("fault", "")).partition(":")[0] for f in meta.get("faults", [])
              if f.get("seat") == seat]
    extra = (meta.get("health") or {}).get(str(seat), {})
    forfeits = replay.get("forfeits") or (replay.get("outcome") or {}).get("forfeits") or {}
    why = forfeits.get(str(seat), forfeits.get(seat))
    return SeatHealth(
        decisions=len(times), mean_ms=round(sum(times) / len(times), 1) if times else 0.0, p95_ms=_p95(times),
        max_ms=max(times, default=0), timeouts=faults.count("timeout"),
        illegal=sum(faults.count(k) for k in _WRONG) + int(extra.get("reasked", 0)),
        strikes=len(faults), crashes=int(bool(why and _CRASH.search(why))), forfeits=int(why is not None),
        forfeit_reason=why)


def match_health(replay: dict[str, Any]) -> dict[int, SeatHealth]:
    return {int(s["seat"]): seat_health(replay, int(s["seat"])) for s in replay.get("seats", [])}
