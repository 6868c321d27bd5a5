"""The decision asked now: the top sub-decision's question, else the main phase (MM-5.47); and what runs by
itself after every applied decision. Importing this module registers every rule on ``RULES`` and every
effect on ``hooks.EFFECTS``."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import effects  # noqa: F401  (registers the effect verbs the content names)
from ..model import MMModel
from . import battle, care, draft, explore, flow, gear, mainphase, monsters, movement, search

Legal = Callable[[MMModel, dict[str, Any]], list[dict[str, Any]]]
#: frame kind -> the legal list of that sub-decision (its rules are registered by action class)
FRAMES: dict[str, Legal] = {
    "draft_hero": draft.hero_legal,
    "choose_ability": draft.ability_legal,
    "battle_declare": battle.declare_options,
    "second_shot": battle.second_shot_options,
    "search_result": search.result_legal,
    "pack_overflow": search.overflow_legal,
    "trap_stat": movement.trap_legal,
    "equip": gear.equip_legal,
    "share": gear.share_legal,
    "rescue": care.rescue_legal,
    "reaction": monsters.reaction_legal,
    "map_scrap": explore.map_scrap_legal,
    "choose_encounter": explore.choose_encounter_legal,
}


def legal(st: MMModel) -> list[dict[str, Any]]:
    top = st.stack.top()
    if top is not None:
        return FRAMES[top.kind](st, top.data)
    return mainphase.main_legal(st)


def settle(st: MMModel) -> None:
    """After a decision: the searcher's other finds, then everything automatic until the next one."""
    if not st.stack and st.turn is not None and st.turn["kind"] == "mouse" and st.search_queue:
        search.continue_search(st, st.turn["mouse"])
    flow.advance(st)
