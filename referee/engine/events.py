"""The event log: every entry carries its visibility; readers get it filtered.

An event is public (``to is None``) or private to a tuple of seats. A game that must tell
everyone "seat 1 drew a card" and tell seat 1 which card emits two events: a public one
and a private one. Filtering is a whitelist by construction: nobody sees an entry that
does not name them, and delivered events carry no global index (a gap would betray that
someone else was told something).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .jsonutil import canonical
from .viewer import ALL, Viewer


@dataclass(frozen=True, slots=True)
class Event:
    """One log entry: a type tag, JSON-able data, and who may see it."""

    kind: str
    data: dict[str, Any]
    to: tuple[int, ...] | None = None

    def visible_to(self, viewer: Viewer) -> bool:
        if self.to is None or viewer == ALL:
            return True
        return isinstance(viewer, int) and viewer in self.to

    def as_dict(self) -> dict[str, Any]:
        return {"type": self.kind, **self.data}

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "data": self.data}
        if self.to is not None:
            out["to"] = list(self.to)
        return out

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Event:
        to = d.get("to")
        return cls(d["kind"], d["data"], tuple(to) if to is not None else None)


def _check_fields(data: dict[str, Any]) -> None:
    # "type" is the event's own tag on the wire; a data field of that name would overwrite it.
    if "type" in data:
        raise ValueError("an event's data may not have a field named 'type'")


@dataclass
class EventLog:
    """Append-only list of events; part of the state's snapshot."""

    entries: list[Event] = field(default_factory=list)
    #: canonical JSON of entries[:len(_texts)], each encoded once (digests; see ``canonical_text``)
    _texts: list[str] = field(default_factory=list, init=False, repr=False, compare=False)
    _last: Event | None = field(default=None, init=False, repr=False, compare=False)

    def public(self, kind: str, /, **data: Any) -> None:
        """Record an event everyone may see."""
        _check_fields(data)
        self.entries.append(Event(kind, data))

    def private(self, seats: int | tuple[int, ...] | list[int], kind: str, /, **data: Any) -> None:
        """Record an event only ``seats`` may see (and ALL, after the game)."""
        _check_fields(data)
        to = (seats,) if isinstance(seats, int) else tuple(seats)
        self.entries.append(Event(kind, data, to))

    def __len__(self) -> int:
        return len(self.entries)

    def since(self, viewer: Viewer, cursor: int = 0) -> list[dict[str, Any]]:
        """The events ``viewer`` may see among entries[cursor:], as plain dicts."""
        return [e.as_dict() for e in self.entries[cursor:] if e.visible_to(viewer)]

    def seen_by(self, seat: int) -> EventLog:
        """The sub-log ``seat`` was shown: public entries and its own private ones, nothing else.

        ``redeterminize`` gives its copy this log: other seats' private entries hold the true
        hidden values (a drawn card, a secret bid), so a copy that kept them would not be a
        re-draw at all, and one that merely re-drew its state would contradict its own log.
        """
        return EventLog([e for e in self.entries if e.visible_to(seat)])

    def to_json(self) -> list[dict[str, Any]]:
        return [e.to_json() for e in self.entries]

    def canonical_text(self) -> str:
        """``canonical(self.to_json())``, the same text, but each entry is encoded only once: the log is
        append-only and most of a long game's snapshot, so a digest every few plies re-encoding it all
        cost O(plies^2) (Clank: ~2 ms for the last digest of a match instead of ~0.1)."""
        texts, entries = self._texts, self.entries
        n = len(texts)
        if n > len(entries) or (n and entries[n - 1] is not self._last):  # not just appended to: start over
            texts.clear()
            n = 0
        texts.extend(canonical(e.to_json()) for e in entries[n:])
        self._last = entries[-1] if entries else None
        return "[" + ",".join(texts) + "]"

    @classmethod
    def from_json(cls, data: list[dict[str, Any]]) -> EventLog:
        return cls([Event.from_json(d) for d in data])

    def copy(self) -> EventLog:
        """A copy to append to independently (events themselves are never edited)."""
        return EventLog(list(self.entries))
