"""MM-7: views, built field by field (a whitelist). Every seat and PUBLIC see the same open state;
deck orders and the set-aside boss cards are hidden (sizes/counts only) until ALL (MM-7.2, MM-7.6)."""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from referee.engine import ALL, Viewer

from .catalog import content
from .model import MMModel

C = content()


@lru_cache(maxsize=4)
def board_of(chapter: str) -> dict[str, Any]:
    """Static drawing data of the chapter's tile sides (areas, flags, edges, LOS gaps, exits)."""
    ch = C.chapters[chapter]
    sides = {}
    for s in ch.sides:
        side = C.sides[s]
        areas = [{"id": a.id, "ord": a.ord, "water": a.water, "current": a.current or None,
                  "special": a.special or None, "trap_slot": a.trap_slot}
                 for a in sorted((a for a in C.areas.values() if a.side == s), key=lambda a: a.ord)]
        edges = [{"a": e.a, "b": e.b, "kind": e.kind, "toward": e.toward or None}
                 for e in C.edges.values() if C.areas[e.a].side == s]
        nolos = [[p.a, p.b] for p in C.nolos.values() if C.areas[p.a].side == s]
        sides[s] = {"name": side.name, "tile": side.tile, "colour": side.colour, "areas": areas,
                    "edges": edges, "no_los": nolos}
    exits = [{"area": e.area, "kind": e.kind, "to_side": e.to_side or None, "to_area": e.to_area or None}
             for e in C.exits.values() if e.chapter == chapter]
    return {"chapter_name": ch.name, "start_side": ch.start_side, "sides": sides, "exits": exits,
            "victory": ch.victory}


def _mouse(st: MMModel, mid: str) -> dict[str, Any]:
    m = st.mice[mid]
    hero = C.heroes[mid]
    return {"seat": m.seat, "name": hero.name, "area": m.area, "captured": m.captured, "wounds": m.wounds,
            "poison": m.poison, "life": hero.life, "statuses": list(m.statuses), "cheese": m.cheese,
            "equipped": list(m.equipped), "pack": list(m.pack), "tricks": list(m.tricks),
            "abilities": list(m.abilities), "searched_sides": list(m.searched_sides), "taunt": m.taunt,
            "ward": m.ward}


def _turn(st: MMModel) -> dict[str, Any] | None:
    t = st.turn
    if t is None:
        return None
    if t["kind"] != "mouse":
        return {"kind": "monster", "card": t["card"], "surprise": t["surprise"]}
    if t.get("rescue"):
        return {"kind": "mouse", "card": t["card"], "mouse": t["mouse"], "surprise": t["surprise"],
                "rescue": True}
    mp = t["scurry_mp"] if t["scurry"] == "active" else t["normal_mp"] if t["normal"] in ("active",
                                                                                          "unused") else 0
    state = "scurry_active" if t["scurry"] == "active" else t["normal"]
    return {"kind": "mouse", "card": t["card"], "mouse": t["mouse"], "surprise": t["surprise"],
            "move_roll": t.get("move_roll"), "movement_state": state, "normal": t.get("normal"),
            "scurry": t.get("scurry"), "mp_left": mp, "steps_in_movement": t.get("steps", 0),
            "action_taken": t.get("action", False), "free_used": list(t.get("free", [])),
            "hook_used": t.get("hook", False), "slip": t.get("slip", False),
            "ability_used_by": list(st.ability_used)}


def build_view(st: MMModel, viewer: Viewer, log_tail: int = 12) -> dict[str, Any]:
    top = st.stack.top()
    pend = st.pending()
    enc = st.encounter
    boss = None
    if st.boss is not None:
        boss = {st.boss["monster"]: {"cards": {c: st.boss["cards"][c] for c in st.boss["order"]},
                                     "set_aside_count": len(st.boss["aside"])}}
    view: dict[str, Any] = {
        "chapter": int(st.chapter), "round": st.round, "phase": st.phase(),
        "pending_seat": pend[0] if pend else None,
        "decision": dict(top.data) if top is not None else None,
        "active_card": st.turn["card"] if st.turn else None,
        "hourglass": st.hourglass, "end_page": st.end_page, "wheel": st.wheel,
        "current_side": st.side, "sides_entered": list(st.sides_entered), "traps": list(st.traps),
        "encounter": {"current": enc["current"], "surge": list(enc["surge"]), "surge_used": enc["surge_used"],
                      "keyword": enc["keyword"] if enc["keyword_side"] == st.side else None},
        "track": list(st.track), "surprise_row": list(st.surprise), "acted_this_round": list(st.acted),
        "mice": {mid: _mouse(st, mid) for mid in st.mouse_order},
        "monsters": {k: {"type": m.type, "area": m.area, "wounds": m.wounds, "pinned": m.pinned,
                         "life": C.monsters[m.type].life} for k, m in st.monsters.items()},
        "boss": boss,
        "party_stash": list(st.party_stash), "ability_pool": list(st.ability_pool),
        "search_deck_size": len(st.search_deck), "search_discard": list(st.search_discard),
        "encounter_deck_sizes": {c: len(d) for c, d in st.enc_decks.items()},
        "encounter_discards": {c: list(d) for c, d in st.enc_discards.items()},
        "known_bottom": dict(st.known_bottom),
        "turn": _turn(st),
        "result": dict(st.result) if st.result else None,
        "board": board_of(st.chapter),
        "log": st.log.since(viewer, max(0, len(st.log) - log_tail)),
    }
    if viewer == ALL:
        view["hidden"] = {"search_deck": list(st.search_deck),
                          "encounter_decks": {c: list(d) for c, d in st.enc_decks.items()},
                          "boss_set_aside": list(st.boss["aside"]) if st.boss else [],
                          "rng": st.rng.to_json()}
    return view
