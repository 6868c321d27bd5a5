"""The one rules style's engine pieces: fields declared once (record.py), Action.wire, Dispatch, the
legal-list cache (docs/rules-style.md)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

import pytest

from referee.engine import Action, ActionSet, DecisionStack, Rng
from referee.engine.actions import OMIT_DEFAULT
from referee.engine.dispatch import Dispatch
from referee.engine.record import TRANSIENT, Record, codec, key
from tests.fixtures.sealed_bids import GAME as SEALED


@dataclass(slots=True)
class Part(Record):
    name: str = ""
    hand: list[str] = field(default_factory=list)
    play: list[dict[str, Any]] = field(default_factory=list)
    by_seat: dict[int, list[int]] = field(default_factory=dict)
    tags: set[str] = field(default_factory=set)
    dims: tuple[int, ...] = ()
    inner: Part | None = None
    memo: int = field(default=0, metadata=TRANSIENT)
    room: str = field(default="R0", metadata=key("at"))


@dataclass(frozen=True)
class Move(Action):
    TYPE: ClassVar[str] = "move"
    to: str
    swords: int = 0
    cards: tuple[str, ...] = ()
    note: str | None = field(default=None, metadata=OMIT_DEFAULT)


@dataclass(frozen=True)
class Pass(Action):
    TYPE: ClassVar[str] = "pass"


def _part() -> Part:
    return Part("a", ["x"], [{"k": [1]}], {1: [2]}, {"b", "a"}, (3, 4), Part("in"), memo=7, room="R9")


def test_a_record_snapshots_under_its_declared_names_and_comes_back_equal_but_for_transients() -> None:
    p = _part()
    data = p.to_json()
    assert data == {"name": "a", "hand": ["x"], "play": [{"k": [1]}], "by_seat": {"1": [2]},
                    "tags": ["a", "b"], "dims": [3, 4], "inner": Part("in").to_json(), "at": "R9"}
    back = Part.from_json(data)
    assert back == Part("a", ["x"], [{"k": [1]}], {1: [2]}, {"a", "b"}, (3, 4), Part("in"), memo=0, room="R9")


def test_a_record_copy_is_deep() -> None:
    p = _part()
    q = p.copy()
    q.hand.append("y")
    q.play[0]["k"].append(2)
    q.by_seat[1].append(3)
    q.tags.add("c")
    assert q.inner is not None and p.inner is not None
    q.inner.hand.append("z")
    assert p == _part() and q != p and p.inner.hand == []


def test_a_decision_stack_field_keeps_its_own_json_and_copies_its_frames() -> None:
    @dataclass
    class Holder(Record):
        stack: DecisionStack = field(default_factory=DecisionStack)

    h = Holder()
    h.stack.push("take", 1, options=[1, 2])
    assert h.to_json() == {"stack": [{"kind": "take", "seat": 1, "data": {"options": [1, 2]}}]}
    c = h.copy()
    top = c.stack.top()
    assert top is not None
    top.data["options"].append(3)
    assert h.to_json()["stack"][0]["data"]["options"] == [1, 2]


def test_unsupported_field_types_fail_when_the_codec_is_built() -> None:
    @dataclass
    class Bad(Record):
        pairs: dict[tuple[int, int], int] = field(default_factory=dict)

    with pytest.raises(TypeError, match="dict keys"):
        codec(Bad)


def test_wire_builds_the_same_dict_as_the_object_and_trusted_parses_it_back() -> None:
    actions = ActionSet([Move, Pass])
    assert Move.wire("R3", 2, ["c"]) == Move("R3", 2, ("c",)).to_json() \
        == {"type": "move", "to": "R3", "swords": 2, "cards": ["c"]}
    assert Move.wire("R3", note="n") == {"type": "move", "to": "R3", "swords": 0, "cards": [], "note": "n"}
    assert Pass.wire() == {"type": "pass"}
    assert actions.trusted(Move.wire("R3", 2, ["c"])) == Move("R3", 2, ("c",))
    assert actions.trusted({"type": "pass"}) == Pass()


def test_dispatch_calls_the_rule_of_the_action_class_and_checks_coverage() -> None:
    actions = ActionSet([Move, Pass])
    rules: Dispatch[list[Any]] = Dispatch(actions)
    seen: list[Any] = []

    @rules.on(Move)
    def move(st: list[Any], seat: int, a: Move) -> None:
        st.append((seat, a))

    with pytest.raises(TypeError, match="pass"):
        rules.check()
    rules.on(Pass)(lambda st, seat, a: st.append("passed"))
    rules.check()
    rules(seen, 1, {"type": "move", "to": "R1", "swords": 0, "cards": []})
    rules(seen, 0, {"type": "pass"})
    assert seen == [(1, Move("R1")), "passed"]
    with pytest.raises(TypeError, match="already has a rule"):
        rules.on(Move)


def test_the_legal_list_is_computed_once_per_position_and_dropped_by_every_apply() -> None:
    st = SEALED.new_state(2, None, 3)
    calls: list[int] = []
    inner = type(st)._legal

    def counting(self: Any, seat: int) -> list[dict[str, Any]]:
        calls.append(seat)
        return inner(self, seat)

    st._legal = counting.__get__(st)  # type: ignore[method-assign]
    first = st.legal_actions(0)
    first.clear()   # the caller's copy: the cache is not touched
    assert st.legal_actions(0) and calls == [0]
    st.apply_trusted(0, st.legal_actions(0)[0])
    st.legal_actions(1)
    st.legal_actions(1)
    assert calls == [0, 1]
    clone = st.clone()
    assert clone._legal_cache is None and clone.legal_actions(1) == st.legal_actions(1)


def test_a_state_subclass_may_not_override_legal_actions() -> None:
    with pytest.raises(TypeError, match="_legal"):
        class Bad(type(SEALED.new_state(2, None, 0))):  # type: ignore[misc]
            def legal_actions(self, seat: int) -> list[dict[str, Any]]:
                return []


def test_clone_and_restore_give_the_same_state_as_the_snapshot_round_trip() -> None:
    st = SEALED.new_state(3, None, 11)
    rng = Rng(2)
    for _ in range(7):
        seat = st.pending()[0]
        legal = st.legal_actions(seat)
        st.apply(seat, legal[rng.below(len(legal))])
    assert st.clone().snapshot() == st.snapshot() == SEALED.restore(st.snapshot()).snapshot()


def test_canonical_json_is_the_standard_librarys_text_exactly() -> None:
    import json
    import random

    from referee.engine.jsonutil import canonical, is_jsonable

    def ref(v: Any) -> str:
        return json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)

    r = random.Random(5)
    cases: list[Any] = [{"b": 1, "a": [1, 2]}, {"x": 1e-5, "y": "1.5 text"}, {1: 2, 3: [4]}, 2**70, -1e-07,
                        {"s": "a\x01\u2028é\n\"\\"}, [None, True, False, -0.0, 1e300, 0.00012],
                        {"k": {"z": []}}]
    cases += [{str(r.random()): [r.randint(-2**63, 2**63 - 1), r.random() * 10 ** r.randint(-9, 20),
                                 chr(r.randint(32, 0xD7FF))] for _ in range(3)} for _ in range(500)]
    for value in cases:
        assert canonical(value) == ref(value)
    assert not is_jsonable(float("nan"))


def test_rules_may_not_read_the_cached_legal_list_while_an_action_is_applied() -> None:
    st = SEALED.new_state(2, None, 4)
    inner = type(st)._apply

    def peeking(self: Any, seat: int, action: dict[str, Any]) -> None:
        inner(self, seat, action)
        self.legal_actions(seat)

    st._apply = peeking.__get__(st)  # type: ignore[method-assign]
    with pytest.raises(RuntimeError, match="remember_legal"):
        st.apply_trusted(0, st.legal_actions(0)[0])
    assert not st._applying
