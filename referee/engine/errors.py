"""The engine's error hierarchy: one small tree, every error a ValueError.

Messages name the decision and the action, never a hidden fact: "card c17 is not in
your hand" would confirm a guess, so illegal actions are reported only as "not legal now".
"""
from __future__ import annotations


class ArenaError(ValueError):
    """Base of every error the engine raises on bad input."""

    code: str = "error"


class MalformedAction(ArenaError):
    """The action is not a JSON object of a known type with well-typed fields."""

    code = "malformed_action"


class IllegalAction(ArenaError):
    """The action is well formed but not in the seat's legal list right now."""

    code = "illegal_action"


class NotYourDecision(ArenaError):
    """The seat is not pending, or the game is over."""

    code = "not_your_decision"


class BadOptions(ArenaError):
    """Unknown option, wrong type, out of range, or an impossible seat count."""

    code = "bad_options"


class ContentError(ArenaError):
    """A content data file is invalid; the message names the file and the row."""

    code = "content_error"


class ReplayError(ArenaError):
    """A replay file is corrupt, truncated, of another version, or does not re-simulate."""

    code = "replay_error"


class UnknownGame(ArenaError):
    """No registered game has that id."""

    code = "unknown_game"


class SnapshotError(ArenaError):
    """A snapshot cannot be restored (wrong game, version or shape)."""

    code = "snapshot_error"
