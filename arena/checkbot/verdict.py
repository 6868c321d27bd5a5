"""What the checked bot did wrong in one match, read from the referee's report (outcome and replay)."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from referee.matchspec import MatchReport


@dataclass
class Verdict:
    """The checked seats' faults and forfeits in one match; ``problems`` empty = a clean match."""

    plies: int = 0
    decisions: int = 0
    faults: Counter[str] = field(default_factory=Counter)  # fault name -> count
    examples: dict[str, str] = field(default_factory=dict)  # fault name -> first message
    forfeits: list[str] = field(default_factory=list)
    other_forfeits: list[str] = field(default_factory=list)  # seats not checked: the check is void
    max_ms: int = 0

    @property
    def problems(self) -> list[str]:
        out = [f"forfeited: {why}" for why in self.forfeits]
        for name, n in self.faults.most_common():
            out.append(f"{n} {name.replace('_', ' ')} fault(s), e.g. {self.examples[name]}")
        return out


def judge(report: MatchReport, seats: set[int]) -> Verdict:
    """Faults and forfeits of ``seats`` (the checked bot's) in ``report``."""
    v = Verdict()
    replay: dict[str, Any] = report.replay
    actions = replay.get("actions", [])
    v.plies = len(actions)
    mine = [a for a in actions if a.get("seat") in seats]
    v.decisions = len(mine)
    v.max_ms = max((int(a.get("ms", 0)) for a in mine), default=0)
    for f in (replay.get("meta") or {}).get("faults", []):
        if f.get("seat") not in seats:
            continue
        name, _, message = str(f.get("fault", "")).partition(": ")
        v.faults[name] += 1
        v.examples.setdefault(name, message[:160])
    for seat, why in (report.outcome.get("forfeits") or {}).items():
        (v.forfeits if int(seat) in seats else v.other_forfeits).append(f"seat {seat}: {why}")
    return v
