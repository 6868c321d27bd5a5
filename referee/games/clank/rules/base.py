"""Typed declarations shared by the rule mixins (so each mixin type-checks on its own).

``ClankState`` inherits every method from the mixins; the stubs here only tell the type checker what
exists. In the MRO they come after every mixin, so they never run.
"""
from __future__ import annotations

from typing import Any

from referee.engine import Frame, Outcome

from ..model import ClankModel, PlayerData


class StateBase(ClankModel):
    """The data of ``ClankState`` (``model.py``) and the mixins' methods."""

    def make_clank(self, seat: int, n: int) -> None:
        raise NotImplementedError

    def remove_clank(self, seat: int, n: int) -> None:
        raise NotImplementedError

    def heal(self, seat: int, n: int) -> None:
        raise NotImplementedError

    def draw(self, seat: int, n: int) -> None:
        raise NotImplementedError

    def draw_to_hand_size(self, seat: int) -> None:
        raise NotImplementedError

    def advance_rage(self, n: int) -> None:
        raise NotImplementedError

    def push_effects(self, atoms: list[dict[str, Any]], card: str | None) -> None:
        raise NotImplementedError

    def run_work(self) -> None:
        raise NotImplementedError

    def resolve_now(self, atoms: list[dict[str, Any]], card: str | None) -> None:
        raise NotImplementedError

    def condition_holds(self, cond: str, card: str | None) -> bool:
        raise NotImplementedError

    def check_conditionals(self) -> None:
        raise NotImplementedError

    def legal_cards(self) -> list[dict[str, Any]]:
        raise NotImplementedError

    def legal_tokens(self) -> list[dict[str, Any]]:
        raise NotImplementedError








    def legal_movement(self) -> list[dict[str, Any]]:
        raise NotImplementedError



    def enter_room(self, to: str) -> None:
        raise NotImplementedError

    def escape(self, seat: int) -> None:
        raise NotImplementedError



    def legal_decision(self, frame: Frame) -> list[dict[str, Any]]:
        raise NotImplementedError



    def secret_rooms_adjacent(self, seat: int) -> list[str]:
        raise NotImplementedError

    def take_secret(self, seat: int, room: str, kind: str) -> None:
        raise NotImplementedError

    def reveal_token(self, seat: int, room: str, kind: str, token: str) -> None:
        raise NotImplementedError

    def reveal_dungeon_card(self) -> str | None:
        raise NotImplementedError

    def refill_row(self) -> None:
        raise NotImplementedError

    def danger_in_row(self) -> int:
        raise NotImplementedError

    def dragon_attack(self, extra: int) -> None:
        raise NotImplementedError

    def knock_out(self, seat: int) -> None:
        raise NotImplementedError

    def start_countdown(self, seat: int) -> None:
        raise NotImplementedError

    def countdown_step(self) -> None:
        raise NotImplementedError

    def legal_main(self) -> list[dict[str, Any]]:
        raise NotImplementedError


    def reset_turn(self) -> None:
        raise NotImplementedError


    def start_turn(self, seat: int) -> None:
        raise NotImplementedError

    def all_out(self) -> bool:
        raise NotImplementedError

    def finish(self, reason: str) -> None:
        raise NotImplementedError

    def next_slot(self) -> None:
        raise NotImplementedError

    def end_of_round(self) -> None:
        raise NotImplementedError

    def eligible(self, seat: int) -> bool:
        raise NotImplementedError

    def breakdown(self, p: PlayerData) -> dict[str, int]:
        raise NotImplementedError

    def final_outcome(self) -> Outcome:
        raise NotImplementedError
