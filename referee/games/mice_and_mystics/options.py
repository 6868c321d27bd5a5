"""MM-4.1: options and their cross-field checks."""
from __future__ import annotations

from typing import Any

from referee.engine import BadOptions, Option, OptionsSpec

from .catalog import content
from .info import MAX_ROUND_LIMIT

OPTIONS = OptionsSpec(
    Option("chapter", 1, "MM-1.2 chapter: 1 = The Larder Run, 2 = Gristle's Den", choices=(1, 2)),
    Option("heroes", [], "MM-4.3 four distinct hero ids (the mouse order); empty = hero draft"),
    Option("assignment", [], "MM-4.3 seat of each listed hero (only with heroes); empty = i mod seats"),
    Option("round_limit", 100, "MM-8.2 the mice lose when this round would be exceeded",
           min=1, max=MAX_ROUND_LIMIT),
)


def check_options(players: int, options: dict[str, Any]) -> None:
    """MM-4.1 invalid combinations are rejected with one clear message."""
    heroes = options["heroes"]
    assignment = options["assignment"]
    if heroes:
        known = content().heroes
        if len(heroes) != 4 or len(set(heroes)) != 4 or not all(isinstance(h, str) and h in known
                                                                for h in heroes):
            raise BadOptions(f"option 'heroes' must list 4 distinct hero ids from {sorted(known)}")
    if assignment:
        if not heroes:
            raise BadOptions("option 'assignment' needs option 'heroes'")
        if len(assignment) != 4 or not all(isinstance(s, int) and not isinstance(s, bool) and 0 <= s < players
                                            for s in assignment):
            raise BadOptions(f"option 'assignment' must list 4 seat numbers in 0..{players - 1}")
        if set(assignment) != set(range(players)):
            raise BadOptions("option 'assignment' must give every seat at least one mouse")
