"""Static game information, options with validation, and the ``Game`` contract."""
from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import BadOptions

if TYPE_CHECKING:
    from .actions import ActionSet
    from .dispatch import Dispatch
    from .state import State


@dataclass(frozen=True)
class GameInfo:
    """What a registry, a scheduler and a dashboard need to know without playing.

    ``version`` is bumped whenever behaviour changes: replays of another version are refused.
    ``safety_limit`` bounds the number of decisions of any game (the spec's termination rule
    guarantees it); the runner treats going past it as an engine bug.
    """

    id: str
    name: str
    version: str
    min_players: int
    max_players: int
    cooperative: bool
    safety_limit: int
    hidden_information: bool = True
    simultaneous: bool = False
    description: str = ""
    #: the seat count a tournament plays when none is given (None: two where allowed, else the minimum);
    #: a cooperative game names one where a good team and a bad one differ
    default_seats: int | None = None

    def __post_init__(self) -> None:
        if self.default_seats is not None and not self.min_players <= self.default_seats <= self.max_players:
            raise ValueError(f"{self.id}: default_seats {self.default_seats} is outside "
                             f"{self.min_players}-{self.max_players}")

    def seat_counts(self) -> list[int]:
        return list(range(self.min_players, self.max_players + 1))

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id, "name": self.name, "version": self.version,
            "min_players": self.min_players, "max_players": self.max_players,
            "cooperative": self.cooperative, "safety_limit": self.safety_limit,
            "hidden_information": self.hidden_information, "simultaneous": self.simultaneous,
            "description": self.description, "default_seats": self.default_seats,
        }


@dataclass(frozen=True)
class Option:
    """One game option: name, type, default, and its allowed values.

    An option whose value may take several JSON shapes (null, a list, a number...) gives a
    ``validator`` that returns the value or raises ``BadOptions``, and a ``type_name`` for help.
    """

    name: str
    default: Any
    doc: str = ""
    choices: Sequence[Any] | None = None
    min: float | None = None
    max: float | None = None
    validator: Callable[[Any], Any] | None = None
    type_name: str | None = None

    @property
    def kind(self) -> type:
        return type(self.default)

    def check(self, value: Any) -> Any:
        if self.validator is not None:
            return self.validator(value)
        kind = self.kind
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if kind is bool and not isinstance(value, bool):
            raise BadOptions(f"option {self.name!r} must be true or false, not {value!r}")
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise BadOptions(f"option {self.name!r} must be an integer, not {value!r}")
        if kind not in (bool, int) and not isinstance(value, kind):
            raise BadOptions(f"option {self.name!r} must be a {kind.__name__}, not {value!r}")
        if self.choices is not None and value not in self.choices:
            raise BadOptions(f"option {self.name!r} must be one of {list(self.choices)}, not {value!r}")
        if self.min is not None and value < self.min:
            raise BadOptions(f"option {self.name!r} must be at least {self.min}, not {value!r}")
        if self.max is not None and value > self.max:
            raise BadOptions(f"option {self.name!r} must be at most {self.max}, not {value!r}")
        return value

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "type": self.type_name or self.kind.__name__,
                               "default": self.default,
                               "doc": self.doc}
        if self.choices is not None:
            out["choices"] = list(self.choices)
        if self.min is not None:
            out["min"] = self.min
        if self.max is not None:
            out["max"] = self.max
        return out


@dataclass(frozen=True)
class OptionsSpec:
    """The options of a game; ``validate`` fills defaults and rejects anything else."""

    options: tuple[Option, ...] = field(default_factory=tuple)

    def __init__(self, *options: Option) -> None:
        object.__setattr__(self, "options", tuple(options))

    def defaults(self) -> dict[str, Any]:
        # Deep copies: a list default must not be shared (and mutated) between games.
        return {o.name: copy.deepcopy(o.default) for o in self.options}

    def validate(self, given: Mapping[str, Any] | None) -> dict[str, Any]:
        if given is None:
            given = {}
        if not isinstance(given, Mapping):
            raise BadOptions("options must be a JSON object")
        known = {o.name: o for o in self.options}
        unknown = sorted(set(given) - set(known))
        if unknown:
            raise BadOptions(f"unknown option(s) {unknown}; known: {sorted(known)}")
        out = self.defaults()
        for name, value in given.items():
            out[name] = known[name].check(value)
        return out

    def to_json(self) -> list[dict[str, Any]]:
        return [o.to_json() for o in self.options]


@dataclass(frozen=True)
class Scenario:
    """A cooperative opponent: a named option set the team plays against (rated like a bot)."""

    id: str
    name: str
    options: dict[str, Any]


class Game(ABC):
    """One game: static info, options, action types, and a factory for states."""

    info: GameInfo
    options: OptionsSpec = OptionsSpec()
    actions: ActionSet | None = None
    #: the rules table, action class -> rule (``Dispatch``; docs/rules-style.md); the conformance suite
    #: checks that every action type has a rule
    rules: Dispatch[Any] | None = None
    state_class: type[State]

    def new_state(self, players: int, options: Mapping[str, Any] | None = None, seed: int = 0) -> State:
        """A fresh game for ``players`` seats; bad seat counts or options raise ``BadOptions``."""
        if isinstance(players, bool) or not isinstance(players, int):
            raise BadOptions("players must be an integer")
        if not self.info.min_players <= players <= self.info.max_players:
            raise BadOptions(
                f"{self.info.id} takes {self.info.min_players}-{self.info.max_players} seats, not {players}")
        opts = self.options.validate(options)
        self.check_options(players, opts)
        return self.setup(players, opts, int(seed))

    def check_options(self, players: int, options: dict[str, Any]) -> None:  # noqa: B027 - an optional hook
        """Cross-field checks (e.g. a mode that needs an even seat count); raise ``BadOptions``."""

    @abstractmethod
    def setup(self, players: int, options: dict[str, Any], seed: int) -> State:
        """Build the initial state from validated options (the spec's setup section)."""

    def restore(self, snapshot: dict[str, Any]) -> State:
        """Rebuild a state from ``State.snapshot()`` (checks game id and version first)."""
        from .state import restore_state

        return restore_state(self, snapshot)

    def decision_limit(self, players: int, options: dict[str, Any]) -> int:
        """The most decisions a game with these options can take (default: ``info.safety_limit``).

        Override when options bound the length more tightly (e.g. a round limit)."""
        return self.info.safety_limit

    def variants(self, players: int) -> list[dict[str, Any]]:
        """Option sets the conformance suite must exercise at this seat count (every mode)."""
        return [{}]

    def scenarios(self, players: int) -> list[Scenario]:
        """Cooperative games: the scenarios a team is rated against at this seat count."""
        return [Scenario("default", "Default", {})]

    def validate_content(self) -> None:  # noqa: B027 - an optional hook
        """Load every content file and check it (raise ``ContentError``); called by tests and at start."""

    def action_schema(self) -> dict[str, Any]:
        """JSON Schema of this game's actions, for bots in other languages."""
        if self.actions is None:
            return {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
                    "required": ["type"], "properties": {"type": {"type": "string"}}}
        return self.actions.schema(self.info.id)

    def describe(self) -> dict[str, Any]:
        return {**self.info.to_json(), "options": self.options.to_json()}

    # -- what the platform finds through the game, so an outside game needs no file here ------
    def renderer_file(self) -> Path | None:
        """The dashboard's drawing of this game's views: a JS file that sets ``Arena.renderers.<id>``
        (docs/adding-a-game.md). None: ``dashboard/static/renderers/<id>.js`` if any, else a generic tree."""
        return None

    def heuristic_bot(self) -> str | None:
        """``"module:Class"`` of this game's heuristic bot (a ``bots.sdk.Bot`` taking a seed), which
        ``--bots heuristic`` plays. None: ``bots/heuristic/<id>.py`` if any."""
        return None

    def golden_file(self) -> Path | None:
        """A golden playthrough (``scripts/playthroughs.py`` writes it) the tests compare play with.
        None: ``tests/golden/<id>.txt`` for a game of this repository; no golden test for others."""
        return None
