"""Rules dispatched by action class: one table per game from action type to the rule that applies it.

    RULES = Dispatch[ClankState](ACTIONS)

    @RULES.on(Move)
    def move(st: ClankState, seat: int, a: Move) -> None: ...

    # in the State:  def _apply(self, seat, action): RULES(self, seat, action)

``Dispatch`` turns the applied wire dict into its action object once (``ActionSet.trusted``: it came
from the legal list) and calls the rule registered for its class, so no rule compares type strings.
``check()`` (run by the conformance suite) fails if an action type has no rule.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Generic, TypeVar

from .actions import Action, ActionSet

S = TypeVar("S")
A = TypeVar("A", bound=Action)
Rule = Callable[[S, int, Any], None]


class Dispatch(Generic[S]):
    """Action class -> rule ``(state, seat, action) -> None``."""

    def __init__(self, actions: ActionSet) -> None:
        self.actions = actions
        self.rules: dict[str, Callable[[S, int, Any], None]] = {}

    def on(self, *kinds: type[Action]) -> Callable[[Callable[[S, int, A], None]],
                                                   Callable[[S, int, A], None]]:
        """Register the decorated function as the rule for these action classes."""
        for k in kinds:
            if self.actions.kinds.get(k.TYPE) is not k:
                raise TypeError(f"{k.__name__} is not an action of this game")
            if k.TYPE in self.rules:
                raise TypeError(f"{k.__name__} already has a rule")

        def register(fn: Callable[[S, int, A], None]) -> Callable[[S, int, A], None]:
            for k in kinds:
                self.rules[k.TYPE] = fn
            return fn
        return register

    def __call__(self, state: S, seat: int, action: Mapping[str, Any]) -> None:
        kind = action["type"]
        self.rules[kind](state, seat, self.actions._trusted[kind](action))

    def check(self) -> None:
        """Every action type has a rule (``TypeError`` names the missing ones)."""
        missing = sorted(set(self.actions.kinds) - set(self.rules))
        if missing:
            raise TypeError(f"action types without a rule: {missing}")
