"""One entry point for legal lists and trusted apply: the top sub-decision, else the main phase."""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from . import battle, care, explore, flow, gear, mainphase, monsters, movement, search

if TYPE_CHECKING:
    from ..model import MMModel


def _trap_legal(st: MMModel, data: dict[str, Any]) -> list[dict[str, Any]]:
    return [{"type": "trap_stat", "stat": "move"}, {"type": "trap_stat", "stat": "lore"}]


def _trap_apply(st: MMModel, action: dict[str, Any]) -> None:
    frame = st.stack.pop()
    movement.trap_roll(st, frame.data["mouse"], action["stat"])


def _draft_legal(st: MMModel, data: dict[str, Any]) -> list[dict[str, Any]]:
    from ..setup import draft_legal
    return draft_legal(st, data)


def _draft_apply(st: MMModel, action: dict[str, Any]) -> None:
    from ..setup import draft_apply
    draft_apply(st, action)


Legal = Callable[["MMModel", dict[str, Any]], list[dict[str, Any]]]
Apply = Callable[["MMModel", dict[str, Any]], None]
FRAMES: dict[str, tuple[Legal, Apply]] = {
    "draft_hero": (_draft_legal, _draft_apply),
    "choose_ability": (_draft_legal, _draft_apply),
    "battle_declare": (lambda st, d: battle.declare_options(st, d), battle.declare_apply),
    "second_shot": (battle.second_shot_options, battle.second_shot_apply),
    "search_result": (search.result_legal, search.result_apply),
    "pack_overflow": (search.overflow_legal, search.overflow_apply),
    "trap_stat": (_trap_legal, _trap_apply),
    "equip": (gear.equip_legal, gear.equip_apply),
    "share": (gear.share_legal, gear.share_apply),
    "rescue": (care.rescue_legal, care.rescue_apply),
    "reaction": (monsters.reaction_legal, monsters.reaction_apply),
    "map_scrap": (explore.map_scrap_legal, explore.map_scrap_apply),
    "choose_encounter": (explore.choose_encounter_legal, explore.choose_encounter_apply),
}


def legal(st: MMModel) -> list[dict[str, Any]]:
    top = st.stack.top()
    if top is not None:
        return FRAMES[top.kind][0](st, top.data)
    return mainphase.main_legal(st)


def apply(st: MMModel, action: dict[str, Any]) -> None:
    top = st.stack.top()
    if top is not None:
        FRAMES[top.kind][1](st, action)
    else:
        mainphase.main_apply(st, action)
    if not st.stack and st.turn is not None and st.turn["kind"] == "mouse" and st.search_queue:
        search.continue_search(st, st.turn["mouse"])
    flow.advance(st)
