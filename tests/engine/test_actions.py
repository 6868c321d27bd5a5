"""Typed actions: parsing gives typed errors; the schema accepts exactly well-formed actions."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

import jsonschema
import pytest

from referee.engine import Action, ActionSet, MalformedAction, canonical


@dataclass(frozen=True)
class Move(Action):
    """Move to a room, spending swords."""

    TYPE: ClassVar[str] = "move"
    to: str
    swords: int = 0


@dataclass(frozen=True)
class Pick(Action):
    TYPE: ClassVar[str] = "pick"
    cards: list[str]
    mode: Literal["keep", "trash"] = "keep"
    note: str | None = None


ACTIONS = ActionSet([Move, Pick])


def test_parse_and_to_json_round_trip() -> None:
    a = ACTIONS.parse({"type": "move", "to": "r3", "swords": 1})
    assert a == Move("r3", 1)
    assert a.to_json() == {"type": "move", "to": "r3", "swords": 1}
    p = ACTIONS.parse({"type": "pick", "cards": ["c1", "c2"]})
    assert p.to_json() == {"type": "pick", "cards": ["c1", "c2"], "mode": "keep", "note": None}


@pytest.mark.parametrize("bad, words", [
    (None, "JSON object"), ([], "JSON object"), ({"to": "r1"}, "unknown action type"),
    ({"type": "fly"}, "unknown action type"), ({"type": "move"}, "missing field 'to'"),
    ({"type": "move", "to": 3}, "move.to must be a string"),
    ({"type": "move", "to": "r", "swords": True}, "must be an integer"),
    ({"type": "move", "to": "r", "extra": 1}, "unknown fields"),
    ({"type": "pick", "cards": "c1"}, "must be an array"),
    ({"type": "pick", "cards": [], "mode": "burn"}, "must be one of"),
])
def test_malformed_actions_name_the_problem(bad: object, words: str) -> None:
    with pytest.raises(MalformedAction, match=words):
        ACTIONS.parse(bad)


def test_schema_accepts_exactly_the_wellformed() -> None:
    schema = ACTIONS.schema("demo")
    jsonschema.Draft202012Validator.check_schema(schema)
    v = jsonschema.Draft202012Validator(schema)
    assert v.is_valid({"type": "move", "to": "r1"})
    assert v.is_valid({"type": "pick", "cards": ["a"], "mode": "trash", "note": None})
    assert not v.is_valid({"type": "move"})
    assert not v.is_valid({"type": "move", "to": "r1", "x": 1})
    assert not v.is_valid({"type": "pick", "cards": ["a"], "mode": "burn"})
    assert schema["oneOf"][0]["description"] == "Move to a room, spending swords."


def test_duplicate_types_are_refused() -> None:
    with pytest.raises(TypeError):
        ActionSet([Move, Move])


def test_canonical_is_order_independent() -> None:
    assert canonical({"b": 1, "a": {"y": 2, "x": 1}}) == canonical({"a": {"x": 1, "y": 2}, "b": 1})
