"""A stack of sub-decisions for multi-step moves (TAG's ``IExtendedSequence``, as data).

A card that says "discard two, then trash one" pushes frames; while a frame is on top,
``legal_actions`` answers that frame's small question instead of the main phase's. Frames
are JSON so they snapshot with the state.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .record import deep_json


@dataclass
class Frame:
    """One pending sub-decision: what kind, who decides, and its working data."""

    kind: str
    seat: int
    data: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat, "data": deep_json(self.data)}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Frame:
        return cls(d["kind"], int(d["seat"]), deep_json(d.get("data", {})))


@dataclass
class DecisionStack:
    """LIFO of frames; the top frame is the decision being asked now."""

    frames: list[Frame] = field(default_factory=list)

    def push(self, kind: str, seat: int, **data: Any) -> Frame:
        frame = Frame(kind, seat, data)
        self.frames.append(frame)
        return frame

    def pop(self) -> Frame:
        return self.frames.pop()

    def top(self) -> Frame | None:
        return self.frames[-1] if self.frames else None

    def __bool__(self) -> bool:
        return bool(self.frames)

    def __len__(self) -> int:
        return len(self.frames)

    def to_json(self) -> list[dict[str, Any]]:
        return [f.to_json() for f in self.frames]

    @classmethod
    def from_json(cls, data: list[dict[str, Any]]) -> DecisionStack:
        return cls([Frame.from_json(d) for d in data])

    def copy(self) -> DecisionStack:
        """A deep copy (frames' data included)."""
        return DecisionStack([Frame(f.kind, f.seat, deep_json(f.data)) for f in self.frames])
