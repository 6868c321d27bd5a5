"""CK-7: views, built from scratch as a whitelist for a seat, ``PUBLIC`` or ``ALL``.

Every field is documented in the package README ("View format"). Hidden zones appear only as
counts (other hands, every deck, face-down secrets); a seat additionally sees its own hand, its
deck *composition* and the options of its own pending decision. ``ALL`` — and every viewer once the
game is over (CK-7.6) — also gets ``hidden``: hands, deck orders and face-down secrets.
The ``static`` part (map, artifacts, constants) never changes and is shared between views:
treat it as read-only.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from referee.engine import ALL, PUBLIC, Viewer

from .catalog import catalog, room_number
from .model import ClankModel
from .rules.dragon import danger_in_row
from .rules.scoring import final_outcome


@lru_cache(maxsize=1)
def static_view() -> dict[str, Any]:
    """Public, unchanging content a renderer or bot needs: the map (rooms, tunnels), artifacts, constants."""
    cat = catalog()
    # Compact: flags and counts that are false/0 are omitted (documented in the README).
    rooms = []
    for r in sorted(cat.rooms.values(), key=lambda r: room_number(r.id)):
        room: dict[str, Any] = {"id": r.id, "name": r.name, "x": r.x, "y": r.y, "zone": r.zone}
        for key in ("crystal_cave", "market", "heal", "gold", "clank"):
            if getattr(r, key):
                room[key] = getattr(r, key)
        rooms.append(room)
    tunnels = []
    for t in cat.tunnels.values():
        tunnel: dict[str, Any] = {"id": t.id, "a": t.a, "b": t.b, "boots": t.boots}
        for key in ("monsters", "locked", "one_way", "wrap"):
            if getattr(t, key):
                tunnel[key] = getattr(t, key)
        tunnels.append(tunnel)
    c = cat.constants
    return {
        "rooms": rooms, "tunnels": tunnels,
        "artifacts": {a.id: {"name": a.name, "value": a.value, "room": a.room}
                      for a in cat.artifacts.values()},
        "constants": {"hand_size": c["hand_size"], "health": c["health"], "market_price": c["market_price"],
                      "rage_track": list(c["rage_track"]), "countdown_extra": list(c["countdown_extra"]),
                      "countdown_spaces": c["countdown_spaces"], "colours": list(c["colours"]),
                      "mastery_vp": c["mastery_vp"], "idol_vp": c["idol_vp"], "start_room": c["start_room"]},
    }


def _cards(ids: list[str], type_of: dict[str, str]) -> list[dict[str, str]]:
    return [{"id": c, "type": type_of[c]} for c in ids]


def _row_card(slot: int, cid: str, cat: Any) -> dict[str, Any]:
    ct = cat.card_types[cat.type_of[cid]]
    return {"slot": slot, "id": cid, "type": ct.type, "name": ct.name, "kind": ct.kind, "cost": ct.cost,
            "vp": ct.vp, "dragon": ct.dragon, "danger": ct.danger}


def build_view(st: ClankModel, viewer: Viewer) -> dict[str, Any]:
    """CK-7.1 public part, plus CK-7.2 for a seat and CK-7.6 hidden part for ALL / after the game."""
    cat = st.cat
    type_of = cat.type_of
    sto = cat.secret_type_of
    top = st.stack.top()
    n = st.players
    players = []
    for s, p in enumerate(st.p):
        players.append({
            "seat": s, "colour": cat.constants["colours"][s], "status": p.status, "room": p.room,
            "gold": p.gold, "damage": p.damage, "supply": p.supply, "clank_area": p.area, "in_bag": p.bag,
            "removed_cubes": p.removed, "hand_count": len(p.hand), "deck_count": len(p.deck),
            "discard": _cards(p.discard, type_of), "play": _cards(p.play, type_of),
            "artifacts": list(p.artifacts),
            "tokens": [{"id": t, "type": sto[t]} for t in p.tokens],
            "market_items": list(p.items), "idols": list(p.idols), "mastery": p.mastery or None,
            "rescued": p.rescued,
        })
    rooms: dict[str, dict[str, Any]] = {}
    for r, toks in st.minor.items():
        if toks:
            rooms.setdefault(r, {})["minor"] = len(toks)
    for r in st.major:
        rooms.setdefault(r, {})["major"] = 1
    for r, idols in st.idols_at.items():
        if idols:
            rooms.setdefault(r, {})["idols"] = len(idols)
    for r, a in st.artifacts_at.items():
        rooms.setdefault(r, {})["artifact"] = a
    bag: dict[str, int] = {"black": st.bag_black}
    for s, p in enumerate(st.p):
        bag[str(s)] = p.bag
    view: dict[str, Any] = {
        "viewer": viewer, "seat": viewer if isinstance(viewer, int) else None, "players_count": n,
        "round": st.round, "round_limit": st.options["round_limit"], "active_seat": st.active,
        "phase": "over" if st.over else ("pending" if top is not None else "main"),
        "pending": {"seat": top.seat, "kind": top.kind} if top is not None else None,
        "rage": {"index": st.rage, "cubes": cat.constants["rage_track"][st.rage]},
        "countdown": {"owner": st.cd_owner, "space": st.cd_space or None},
        "cubes": {"bag": bag, "black_set_aside": st.black_aside,
                  "clank_area": {str(s): p.area for s, p in enumerate(st.p)},
                  "removed": {str(s): p.removed for s, p in enumerate(st.p)}},
        "row": [_row_card(k, c, cat) if c is not None else None for k, c in enumerate(st.row)],
        "danger_in_row": danger_in_row(st),
        "dungeon_deck_count": len(st.ddeck), "dungeon_discard": _cards(st.ddiscard, type_of),
        "trashed": _cards(st.trashed, type_of),
        "reserve": {pile: len(ids) for pile, ids in st.reserve.items()},
        "market": {"master_key": len(st.market["master_key"]), "backpack": len(st.market["backpack"]),
                   "crowns": [cat.market[c].vp for c in st.market["crown"]]},
        "rooms": rooms, "removed_artifacts": list(st.removed_artifacts),
        "secrets_set_aside": {"minor": len(st.minor_aside), "major": len(st.major_aside)},
        "tokens_used": [{"id": t, "type": sto[t]} for t in st.tokens_gone],
        "players": players,
        "turn": {"seat": st.active, "skill": st.skill, "swords": st.swords, "boots": st.boots,
                 "teleports": st.teleports, "clank_credit": st.credit, "exhausted": st.exhausted,
                 "ignore_caves": st.ignore_caves, "ignore_monsters": st.ignore_monsters,
                 "pending_conditionals": [{"card": c["card"], "cond": c["cond"]} for c in st.conds]},
        "private": None,
        "static": static_view(),
    }
    if isinstance(viewer, int) and viewer != ALL and viewer != PUBLIC:
        p = st.p[viewer]
        comp: dict[str, int] = {}
        for c in p.deck:
            t = type_of[c]
            comp[t] = comp.get(t, 0) + 1
        decision = None
        if top is not None and top.seat == viewer:
            decision = {"kind": top.kind,
                        **{k: v for k, v in top.data.items() if k in ("room", "n", "clank", "card")}}
            if top.kind == "choose":
                decision["options"] = top.data["options"]
        view["private"] = {"hand": _cards(sorted(p.hand), type_of),
                           "deck_composition": dict(sorted(comp.items())), "decision": decision}
    if viewer == ALL or st.over:
        view["hidden"] = {
            "hands": [_cards(sorted(p.hand), type_of) for p in st.p],
            "decks": [_cards(p.deck, type_of) for p in st.p],
            "dungeon_deck": _cards(st.ddeck, type_of),
            "minor_face_down": {r: [{"id": t, "type": sto[t]} for t in toks]
                                for r, toks in sorted(st.minor.items())
                                if toks},
            "major_face_down": {r: {"id": t, "type": sto[t]} for r, t in sorted(st.major.items())},
            "minor_set_aside": [{"id": t, "type": sto[t]} for t in st.minor_aside],
            "major_set_aside": [{"id": t, "type": sto[t]} for t in st.major_aside],
        }
    if st.over:
        view["result"] = final_outcome(st).to_json()
    return view
