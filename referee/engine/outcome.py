"""Match outcomes: per-seat rank and score; team result for cooperative games."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

Reason = Literal["normal", "safety_limit", "forfeit", "aborted"]


@dataclass
class Outcome:
    """How a match ended.

    ``ranks[s]`` is 1 for the best seat; equal ranks are ties. Cooperative games set
    ``team_result`` ("win"/"loss") and ``team_score``; every seat then shares rank 1 on a
    win and rank 2 on a loss, so a generic reader still sees who did well.
    """

    ranks: list[int]
    scores: list[float]
    reason: Reason = "normal"
    team_result: Literal["win", "loss"] | None = None
    team_score: float | None = None
    details: dict[str, Any] = field(default_factory=dict)
    forfeits: dict[int, str] = field(default_factory=dict)

    @classmethod
    def from_scores(
        cls, scores: Sequence[float], *, reason: Reason = "normal", details: dict[str, Any] | None = None,
        tiebreak: Sequence[float] | None = None,
    ) -> Outcome:
        """Rank seats by score (higher is better), then by ``tiebreak``; equal keys share a rank."""
        keys = [(scores[i], tiebreak[i] if tiebreak else 0) for i in range(len(scores))]
        ranks = [1 + sum(1 for k in keys if k > keys[i]) for i in range(len(keys))]
        return cls(ranks, [float(s) for s in scores], reason, details=details or {})

    @classmethod
    def team(
        cls, players: int, win: bool, team_score: float, *, per_seat: Sequence[float] | None = None,
        reason: Reason = "normal", details: dict[str, Any] | None = None,
    ) -> Outcome:
        """A cooperative result: everyone wins or loses together."""
        scores = [float(x) for x in per_seat] if per_seat is not None else [float(team_score)] * players
        return cls([1] * players, scores, reason, "win" if win else "loss", float(team_score),
                   details=details or {})

    @property
    def cooperative(self) -> bool:
        return self.team_result is not None

    def winners(self) -> list[int]:
        return [s for s, r in enumerate(self.ranks) if r == 1]

    def with_forfeit(self, seat: int, why: str) -> Outcome:
        """The outcome after ``seat`` forfeits: it ranks last alone; the others keep their order."""
        forfeits = {**self.forfeits, seat: why}
        if self.cooperative:
            return Outcome([1] * len(self.ranks), self.scores, "forfeit", "loss", self.team_score,
                           self.details, forfeits)
        others = sorted({r for s, r in enumerate(self.ranks) if s not in forfeits})
        remap = {r: i + 1 for i, r in enumerate(others)}
        worst = len(others) + 1
        ranks = [worst if s in forfeits else remap[r] for s, r in enumerate(self.ranks)]
        return Outcome(ranks, self.scores, "forfeit", None, None, self.details, forfeits)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"ranks": self.ranks, "scores": self.scores, "reason": self.reason}
        if self.team_result is not None:
            out["team_result"] = self.team_result
            out["team_score"] = self.team_score
        if self.details:
            out["details"] = self.details
        if self.forfeits:
            out["forfeits"] = {str(k): v for k, v in sorted(self.forfeits.items())}
        return out

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Outcome:
        return cls(
            ranks=[int(r) for r in d["ranks"]],
            scores=[float(s) for s in d["scores"]],
            reason=d.get("reason", "normal"),
            team_result=d.get("team_result"),
            team_score=d.get("team_score"),
            details=d.get("details", {}),
            forfeits={int(k): v for k, v in d.get("forfeits", {}).items()},
        )


def undecided(players: int, *, cooperative: bool = False) -> Outcome:
    """The outcome when a match is stopped with no engine result (everyone tied or the team lost)."""
    if cooperative:
        return Outcome.team(players, False, 0.0, reason="aborted")
    return Outcome([1] * players, [0.0] * players, "aborted")
