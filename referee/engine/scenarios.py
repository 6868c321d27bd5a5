"""One scenario format for every game, and its runner.

A scenario is a JSON file (``"format": "arena-scenario/1"``) that starts from a real position and
checks what the rules do from there::

    {"format": "arena-scenario/1", "id": "S-4", "title": "...", "rules": ["XX-5.8"],
     "game": "sealed_bids", "players": 2, "options": {"rounds": 2}, "seed": 0,
     "start": {"/data/hands/0": [1, 5, 9]},          # a patch over the snapshot of new_state(...)
     "dice": [6, 1],                                  # optional: the next Rng.die() results
     "below": [[6, 2]],                               # optional: the next Rng.below(n) results, [n, r]
     "steps": [
       {"expect": {"/pending": [0, 1], "/view/0/hand": [1, 5, 9]},
        "legal_has": [{"type": "bid", "card": 9}], "legal_lacks": [{"type": "bid", "card": 2}]},
       {"do": {"type": "bid", "card": 9}, "seat": 0},
       {"set": {"/data/scores/1": 4}, "legal_only": {"take": [...]}}
     ]}

- ``start`` sets values by JSON pointer (RFC 6901) in ``game.new_state(players, options, seed).snapshot()``
  (``"-"`` appends to a list), then the state is ``game.restore``\\ d from it: the position is whatever a
  snapshot can hold, nothing a test builder makes up, and it goes through the game's own restore.
- ``below``: scripted results of ``Rng.below`` as ``[n, r]`` pairs, in order, for games that draw with it
  (e.g. a face index of a custom die); a call with another bound fails the scenario; once used up,
  ``below`` is the seeded generator again. ``/below_left`` counts the entries not used yet.
- ``dice``: scripted results of ``Rng.die`` (in order; rolling past the end fails the scenario); every
  other draw (shuffles, choices) stays the seeded generator's.
- A step does, in this order: ``set`` (pointer -> value edits of the snapshot, restored again), ``do``
  (a checked ``apply`` by ``seat``, default the first pending seat; ``"repeat": n`` does it n times),
  then its checks: ``expect`` (pointer -> value), ``events_has``, ``events_only``, ``legal_has`` /
  ``legal_lacks`` (action patterns: an action matches when every field of the pattern is equal),
  ``legal_only`` (type -> the exact, ordered list of that type's legal actions), ``rejects`` (actions whose
  ``apply`` by the seat must raise ``IllegalAction`` and leave the state's digest unchanged). Checks name
  ``seat`` the same way.
- Pointers in ``expect`` read one document: ``/pending``, ``/state/...`` (the full snapshot),
  ``/view/<seat>|public|all/...`` (``observe``), ``/events/<seat>|public|all`` (the feed),
  ``/outcome`` (null while the game runs), ``/legal/<seat>``, ``/legal_types/<seat>`` (sorted, unique),
  ``/dice_left`` (scripted dice not rolled yet), ``/below_left``. Only the parts a pointer names are built.
- ``events_has``: event patterns that must each match some event of the PUBLIC feed (``seat`` given:
  that seat's feed); ``events_only``: type -> the exact, ordered list of that type's events in the same feed
  (so "revealed once" can be said).
"""
from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from .errors import IllegalAction
from .game import Game
from .registry import get_game
from .rng import Rng
from .state import State
from .viewer import ALL, PUBLIC, Viewer

FORMAT = "arena-scenario/1"
STEP_KEYS = frozenset({"set", "do", "seat", "repeat", "expect", "events_has", "legal_has", "legal_lacks",
                       "legal_only", "rejects", "events_only", "note"})


class ScenarioFailure(AssertionError):
    """A scenario's expectation did not hold (the message names the scenario, the step and the pointer)."""


class ScriptedRng(Rng):
    """``die`` returns scripted results in order, and so does ``below`` (each entry ``[n, r]`` names the
    bound it must be asked with); everything else, and ``below`` once its script is used up, is the seeded
    generator (a scripted result does not advance it)."""

    __slots__ = ("below_script", "dice_scripted", "script")

    def __init__(self, state: Rng, script: list[int], below_script: list[list[int]] | None = None) -> None:
        super().__init__(0)
        self.state = state.state
        self.script = list(script)
        self.below_script = [list(e) for e in below_script or []]
        self.dice_scripted = bool(script)  # only a scenario that scripts dice fails on an extra roll

    def die(self, sides: int = 6) -> int:
        if not self.script:
            if not self.dice_scripted:
                return super().die(sides)
            raise ScenarioFailure("a die was rolled after the scripted dice ran out")
        face = self.script.pop(0)
        if not 1 <= face <= sides:
            raise ScenarioFailure(f"scripted die {face} does not fit a {sides}-sided die")
        return face

    def below(self, n: int) -> int:
        if not self.below_script:
            return super().below(n)
        bound, result = self.below_script.pop(0)
        if bound != n:
            raise ScenarioFailure(
                f"the next scripted below() is [{bound}, {result}], but the rules asked below({n})")
        if not 0 <= result < n:
            raise ScenarioFailure(f"scripted below({n}) result {result} is out of range")
        return result


# -- JSON pointers (RFC 6901) ---------------------------------------------------------------------
def _tokens(pointer: str) -> list[str]:
    if pointer == "":
        return []
    if not pointer.startswith("/"):
        raise ValueError(f"JSON pointer {pointer!r} must start with '/'")
    return [t.replace("~1", "/").replace("~0", "~") for t in pointer[1:].split("/")]


def _step_into(doc: Any, token: str, pointer: str) -> Any:
    if isinstance(doc, list):
        if not token.isdigit() or int(token) >= len(doc):
            raise KeyError(f"{pointer}: no index {token!r} in a list of {len(doc)}")
        return doc[int(token)]
    if isinstance(doc, Mapping):
        if token not in doc:
            raise KeyError(f"{pointer}: no key {token!r} (keys: {sorted(doc)[:12]})")
        return doc[token]
    raise KeyError(f"{pointer}: {token!r} goes into a {type(doc).__name__}")


def resolve(doc: Any, pointer: str) -> Any:
    """The value at ``pointer`` in ``doc``; ``KeyError`` naming the pointer if there is none."""
    for token in _tokens(pointer):
        doc = _step_into(doc, token, pointer)
    return doc


def set_pointer(doc: Any, pointer: str, value: Any) -> None:
    """Set ``pointer`` in ``doc`` to ``value`` (a new key of an object, or ``-`` = append to a list)."""
    tokens = _tokens(pointer)
    if not tokens:
        raise ValueError("cannot replace the whole document")
    parent = doc
    for token in tokens[:-1]:
        parent = _step_into(parent, token, pointer)
    last = tokens[-1]
    if isinstance(parent, list):
        if last == "-":
            parent.append(value)
        elif last.isdigit() and int(last) < len(parent):
            parent[int(last)] = value
        else:
            raise KeyError(f"{pointer}: no index {last!r} in a list of {len(parent)}")
    elif isinstance(parent, dict):
        parent[last] = value
    else:
        raise KeyError(f"{pointer}: cannot set inside a {type(parent).__name__}")


# -- the document expectations read ---------------------------------------------------------------
def _viewer(token: str, state: State) -> Viewer:
    if token == PUBLIC:
        return PUBLIC
    if token == ALL:
        return ALL
    if token.isdigit() and int(token) < state.players:
        return int(token)
    raise KeyError(f"no viewer {token!r} (a seat number, 'public' or 'all')")


class _Document(Mapping[str, Any]):
    """The state as expectations see it; each part is built when a pointer first names it."""

    def __init__(self, state: State) -> None:
        self.state = state

    def __getitem__(self, key: str) -> Any:
        st = self.state
        if key == "pending":
            return st.pending()
        if key == "state":
            return json.loads(json.dumps(st.snapshot()))
        if key == "outcome":
            out = st.outcome()
            return out.to_json() if out is not None else None
        if key == "dice_left":
            return len(st.rng.script) if isinstance(st.rng, ScriptedRng) else None
        if key == "below_left":
            return len(st.rng.below_script) if isinstance(st.rng, ScriptedRng) else None
        if key in ("view", "events", "legal", "legal_types"):
            return _PerViewer(st, key)
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        return iter(["pending", "state", "outcome", "dice_left", "below_left", "view", "events", "legal",
                     "legal_types"])

    def __len__(self) -> int:
        return 9


class _PerViewer(Mapping[str, Any]):
    def __init__(self, state: State, kind: str) -> None:
        self.state, self.kind = state, kind

    def __getitem__(self, key: str) -> Any:
        viewer = _viewer(key, self.state)
        if self.kind == "view":
            return json.loads(json.dumps(self.state.observe(viewer)))
        if self.kind == "events":
            return self.state.events_for(viewer)
        if not isinstance(viewer, int):
            raise KeyError("legal lists are per seat")
        legal = self.state.legal_actions(viewer)
        return legal if self.kind == "legal" else sorted({a["type"] for a in legal})

    def __iter__(self) -> Iterator[str]:
        return iter([str(s) for s in range(self.state.players)] + [PUBLIC, ALL])

    def __len__(self) -> int:
        return self.state.players + 2


# -- running ---------------------------------------------------------------------------------------
def load(path: str | Path) -> dict[str, Any]:
    """A scenario file, checked for its format tag."""
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"{path}: not an {FORMAT} file")
    return data


def start_state(scenario: Mapping[str, Any], game: Game | None = None) -> State:
    """The scenario's start: its patch over the snapshot of a fresh game, restored; scripted dice."""
    game = game or get_game(scenario["game"])
    base = game.new_state(int(scenario.get("players", game.info.min_players)), scenario.get("options"),
                          int(scenario.get("seed", 0)))
    state = _patched(game, base, scenario.get("start", {}))
    if "dice" in scenario or "below" in scenario:
        state.rng = ScriptedRng(state.rng, [int(d) for d in scenario.get("dice", [])],
                                [[int(n), int(r)] for n, r in scenario.get("below", [])])
    return state


def _patched(game: Game, state: State, patch: Mapping[str, Any]) -> State:
    if not patch:
        return state
    snap = json.loads(json.dumps(state.snapshot()))
    for pointer, value in patch.items():
        set_pointer(snap, pointer, value)
    new = game.restore(snap)
    if isinstance(state.rng, ScriptedRng):  # an edit mid-scenario keeps the remaining script
        new.rng = ScriptedRng(new.rng, state.rng.script, state.rng.below_script)
    return new


def matches(action: Mapping[str, Any], pattern: Mapping[str, Any]) -> bool:
    """An action matches a pattern when every field the pattern names is equal."""
    return all(k in action and action[k] == v for k, v in pattern.items())


def _seat(state: State, step: Mapping[str, Any], where: str) -> int:
    if "seat" in step:
        return int(step["seat"])
    pending = state.pending()
    if not pending:
        raise ScenarioFailure(f"{where}: the game is over, nobody can act")
    return pending[0]


def check(state: State, step: Mapping[str, Any], where: str) -> None:
    """A step's checks: ``expect``, ``events_has``, ``events_only``, ``legal_has``, ``legal_lacks``,
    ``legal_only``, ``rejects``."""
    doc = _Document(state)
    for pointer, want in step.get("expect", {}).items():
        try:
            got = resolve(doc, pointer)
        except KeyError as exc:
            raise ScenarioFailure(f"{where}: {exc.args[0]}") from None
        if got != want:
            raise ScenarioFailure(
                f"{where}: {pointer} is {json.dumps(got)[:300]}, expected {json.dumps(want)[:300]}")
    if step.get("events_has") or step.get("events_only"):
        viewer: Viewer = int(step["seat"]) if "seat" in step else PUBLIC
        events = state.events_for(viewer)
        for pattern in step.get("events_has", []):
            if not any(matches(e, pattern) for e in events):
                raise ScenarioFailure(f"{where}: no event like {pattern} in the {viewer} feed")
        for kind, want in step.get("events_only", {}).items():
            got = [e for e in events if e.get("type") == kind]
            if got != want:
                raise ScenarioFailure(
                    f"{where}: the {viewer} feed's {kind!r} events are {got}, expected {want}")
    if not any(k in step for k in ("legal_has", "legal_lacks", "legal_only", "rejects")):
        return
    seat = _seat(state, step, where)
    legal = state.legal_actions(seat)
    for pattern in step.get("legal_has", []):
        if not any(matches(a, pattern) for a in legal):
            raise ScenarioFailure(f"{where}: seat {seat} has no legal action like {pattern}; legal: {legal}")
    for pattern in step.get("legal_lacks", []):
        bad = [a for a in legal if matches(a, pattern)]
        if bad:
            raise ScenarioFailure(f"{where}: seat {seat} may {bad[0]}, matching {pattern}, but must not")
    for kind, want in step.get("legal_only", {}).items():
        got = [a for a in legal if a.get("type") == kind]
        if got != want:
            raise ScenarioFailure(f"{where}: seat {seat}'s {kind!r} actions are {got}, expected {want}")
    for action in step.get("rejects", []):
        _check_rejects(state, seat, action, where)


def _check_rejects(state: State, seat: int, action: Any, where: str) -> None:
    """``apply`` must refuse the action as illegal and change nothing (not even a cache the digest sees)."""
    before = state.digest()
    try:
        state.apply(seat, action)
    except IllegalAction:
        pass
    else:
        raise ScenarioFailure(f"{where}: seat {seat}'s {action} was accepted, but must be refused")
    if state.digest() != before:
        raise ScenarioFailure(f"{where}: refusing seat {seat}'s {action} changed the state")


def run(scenario: Mapping[str, Any], game: Game | None = None) -> State:
    """Play a scenario; ``ScenarioFailure`` at the first expectation that does not hold; the end state."""
    game = game or get_game(scenario["game"])
    name = scenario.get("id", "scenario")
    state = start_state(scenario, game)
    for i, step in enumerate(scenario.get("steps", [])):
        where = f"{name} step {i + 1}"
        unknown = set(step) - STEP_KEYS
        if unknown:
            raise ScenarioFailure(f"{where}: unknown step key(s) {sorted(unknown)}")
        if "set" in step:
            state = _patched(game, state, step["set"])
        if "do" in step:
            for _ in range(int(step.get("repeat", 1))):
                seat = _seat(state, step, where)
                if seat not in state.pending():
                    raise ScenarioFailure(f"{where}: seat {seat} is not pending ({state.pending()})")
                try:
                    state.apply(seat, step["do"])
                except ScenarioFailure:
                    raise
                except Exception as exc:  # noqa: BLE001 - an illegal action is a failed scenario, said where
                    raise ScenarioFailure(
                        f"{where}: {step['do']} by seat {seat}: {type(exc).__name__}: {exc}") from exc
        check(state, step, where)
    return state
