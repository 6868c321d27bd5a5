"""The engine's one scenario runner: JSON pointers, start patches, steps, and failures that say where."""
from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from referee.engine import Rng
from referee.engine.scenarios import (
    ScenarioFailure,
    ScriptedRng,
    load,
    resolve,
    run,
    set_pointer,
    start_state,
)
from tests.fixtures.sealed_bids import GAME

HERE = Path(__file__).parent / "scenarios"


def scenario() -> dict[str, Any]:
    return load(HERE / "sealed_bids_round.json")


def test_the_fixture_scenario_passes() -> None:
    end = run(scenario(), GAME)
    assert end.is_over() and end.outcome() is not None


def test_start_is_a_patch_over_a_real_snapshot() -> None:
    st = start_state(scenario(), GAME)
    fresh = GAME.new_state(2, {"rounds": 2}, 0)
    assert st.hands == [[3, 7, 9], [2, 8, 10]] and st.deck == [1, 4, 5, 6]
    assert st.rng.to_json() == fresh.rng.to_json() and st.log.to_json() == fresh.log.to_json()


@pytest.mark.parametrize(("edit", "words"), [
    (lambda s: s["steps"][1]["expect"].update({"/view/0/my_bid": 7}),
     "step 2: /view/0/my_bid is 9, expected 7"),
    (lambda s: s["steps"][1].update({"do": {"type": "bid", "card": 2}}),
     "step 2: {'type': 'bid', 'card': 2} by seat 0"),
    (lambda s: s["steps"][0].update({"legal_has": [{"type": "bid", "card": 8}]}), "no legal action like"),
    (lambda s: s["steps"][0].update({"legal_lacks": [{"card": 9}]}), "must not"),
    (lambda s: s["steps"][0].update({"expect": {"/view/9/hand": []}}), "/view/9/hand: no key '9'"),
    (lambda s: s["steps"][0].update({"expect": {"/state/data/nope": 1}}), "no key 'nope'"),
    (lambda s: s["steps"][0].update({"exepct": {}}), "unknown step key(s) ['exepct']"),
    (lambda s: s["steps"][0].update({"rejects": [{"type": "bid", "card": 9}]}),
     "step 1: seat 0's {'type': 'bid', 'card': 9} was accepted, but must be refused"),
    (lambda s: s["steps"][2].update({"events_only": {"bids_revealed": []}}), "'bids_revealed' events are"),
    (lambda s: s["steps"][2].update({"events_has": [{"type": "bids_revealed", "bids": [8, 9]}]}),
     "no event like"),
])
def test_a_wrong_expectation_fails_and_says_where(edit: Any, words: str) -> None:
    sc = copy.deepcopy(scenario())
    edit(sc)
    with pytest.raises(ScenarioFailure) as err:
        run(sc, GAME)
    assert words in str(err.value) and "SB-1" in str(err.value)


def test_rejects_an_illegal_action_and_changes_nothing() -> None:
    sc = copy.deepcopy(scenario())
    sc["steps"][0]["rejects"] = [{"type": "bid", "card": 2}, {"type": "take", "prize": 3}]
    end = run(sc, GAME)
    assert end.is_over()


def test_scripted_below_then_the_seeded_generator() -> None:
    rng = ScriptedRng(Rng(5), [], [[6, 5], [3, 0]])
    assert [rng.below(6), rng.below(3)] == [5, 0]
    assert rng.below(10) == Rng(5).below(10)  # a scripted result does not advance the generator
    fresh = Rng(5)
    fresh.below(10)
    assert rng.die(6) == fresh.die(6)  # dice not scripted: the generator's
    wrong = ScriptedRng(Rng(5), [], [[6, 1]])
    with pytest.raises(ScenarioFailure, match=r"rules asked below\(4\)"):
        wrong.below(4)
    with pytest.raises(ScenarioFailure, match="out of range"):
        ScriptedRng(Rng(5), [], [[6, 6]]).below(6)


def test_json_pointers() -> None:
    doc: dict[str, Any] = {"a/b": {"~x": [1, {"c": 2}]}}
    assert resolve(doc, "/a~1b/~0x/1/c") == 2
    assert resolve(doc, "") is doc
    set_pointer(doc, "/a~1b/~0x/-", 3)
    set_pointer(doc, "/a~1b/new", True)
    assert doc == {"a/b": {"~x": [1, {"c": 2}, 3], "new": True}}
    for bad in ("/a~1b/~0x/7", "/zz", "/a~1b/~0x/0/deeper"):
        with pytest.raises(KeyError):
            resolve(doc, bad)
    with pytest.raises(ValueError):
        resolve(doc, "no-slash")


def test_scripted_dice_then_a_clear_failure() -> None:
    rng = ScriptedRng(Rng(5), [6, 1])
    assert rng.dice(2) == [6, 1]
    assert rng.below(10) == Rng(5).below(10)  # everything but dice is the seeded generator
    with pytest.raises(ScenarioFailure, match="ran out"):
        rng.die()
    with pytest.raises(ScenarioFailure, match="does not fit"):
        ScriptedRng(Rng(0), [7]).die(6)
