"""DT-7: views, built as a whitelist from scratch for a seat, PUBLIC or ALL.

Face-down tiles show only slot, capacity and opaque handles (DT-7.1); face-down tokens and
starters show only handle and colour, to their owner too (DT-7.2); a seat sees its own pool
(DT-7.3) and hand, and of the other seat only counts and the top action card (DT-7.4).
After the game everything is released (DT-7.9). The README documents every field.
"""
from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any

from referee.engine import ALL, PUBLIC, Viewer

from .data import COLOURS, content
from .geometry import slot_origin
from .rules.setup_phase import dot_square

if TYPE_CHECKING:
    from .model import DTModel


KIND_CODE = {"floor": ".", "gear": "G", "trap": "T"}


@cache
def _slot_static(slot: int, tile: str, orientation: int) -> tuple[Any, ...]:
    """Drawing data of a revealed slot, row-major from its origin: square codes ('.' floor,
    'G' gear, 'T' trap), own-wall bitmasks as hex digits (N=1, E=2, S=4, W=8), portcullis edges."""
    x0, y0 = slot_origin(slot)
    cells = content().geometry[tile][orientation]
    codes, walls, ports = [], [], {}
    for r in range(5):
        for c in range(5):
            cell = cells[(c, r)]
            x, y = x0 + c, y0 + r
            codes.append(KIND_CODE[cell.kind])
            walls.append(f"{cell.walls:x}")
            for d in (1, 2):
                pid = cell.ports[d]
                if pid is not None:
                    ports[pid] = ((x, y), (x + (1 if d == 1 else 0), y + (1 if d == 2 else 0)))
    return "".join(codes), "".join(walls), tuple(sorted(ports.items()))


def _slots(st: DTModel, full: bool) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    rooms = content().rooms
    caps = content().slots
    slots_out, ports_out = [], []
    hidden_by_slot: dict[int, list[Any]] = {}
    for t in st.tokens.values():
        if t.where == "hidden":
            hidden_by_slot.setdefault(t.room, []).append(t)
    for s, slot in enumerate(st.slots):
        x0, y0 = slot_origin(s)
        entry: dict[str, Any] = {"slot": s, "revealed": slot.revealed, "capacity": caps[s].capacity,
                                 "origin": [x0, y0]}
        if slot.revealed or full:
            tile = rooms[slot.tile]
            codes, walls, ports = _slot_static(s, slot.tile, slot.orientation)
            entry.update(tile=tile.id, name=tile.name, pair=tile.pair, colour=tile.colour, arrow=tile.arrow,
                         orientation=slot.orientation, squares=codes, walls=walls)
            if slot.revealed:
                for pid, (a, b) in ports:
                    ports_out.append({"id": pid, "state": st.ports[pid], "slot": s,
                                      "squares": [list(a), list(b)]})
        toks = hidden_by_slot.get(s)
        if toks:
            toks.sort(key=lambda t: t.handle)
            entry["tokens"] = [{"handle": t.handle, "colour": COLOURS[t.colour],
                                **({"token": t.id} if full else {})} for t in toks]
        else:
            entry["tokens"] = []
        slots_out.append(entry)
    ports_out.sort(key=lambda p: p["id"])
    return slots_out, ports_out


def _token(st: DTModel, t: Any) -> dict[str, Any]:
    sq: Any = t.square if t.where == "board" else st.tokens[t.carrier].square
    return {"id": t.id, "kind": t.kind, "colour": COLOURS[t.colour], "character": t.char,
            "state": ("wounded" if t.wounded else "healthy") if t.char else None,
            "square": list(sq), "carried_by": t.carrier, "carrying": t.carrying,
            "blocked": t.blocked, "wounded_this_turn": t.wtt}


def observe(st: DTModel, viewer: Viewer) -> dict[str, Any]:
    full = viewer == ALL or st.phase == "over"   # DT-7.9
    seat = viewer if isinstance(viewer, int) and viewer not in (ALL, PUBLIC) else None
    slots, ports = _slots(st, full)
    view: dict[str, Any] = {
        "seat": seat, "colour": COLOURS[seat] if seat is not None else None,
        "phase": st.phase, "turn": st.turn, "active_seat": st.active, "pending_seats": st.pending(),
        "vp": list(st.vp), "vp_target": st.options["vp_target"], "max_turns": st.options["max_turns"],
        "end_triggered": st.end_triggered,
        "restriction": {"active": st.restricted, "H": st.high},
        "ap": {"card": st.card_ap, "potion": dict(sorted(st.potion_ap.items()))},
        "card_played": st.card_played,
        "slots": slots, "portcullis": ports,
        "tokens": [_token(st, t) for t in sorted(st.tokens.values(), key=lambda t: t.id)
                   if t.where in ("board", "carried")],
        "removed": [{"id": tid, "reason": st.tokens[tid].reason, "by_seat": st.tokens[tid].by}
                    for tid in st.removed],
        "hands": [{"action_count": len(st.action_hand[s]), "action_top": st.action_top[s],
                   "combat_count": len(st.combat_hand[s]), "jump": st.jumps[s]} for s in (0, 1)],
        "pool_count": [sum(1 for t in st.tokens.values() if t.colour == s and t.where == "pool")
                       for s in (0, 1)],
    }
    if st.phase in ("starters", "placement"):
        view["starters_hidden"] = [
            {"handle": f"S-{COLOURS[s]}-D{k + 1}", "colour": COLOURS[s], "square": list(dot_square(s, k)),
             **({"token": tid} if full else {})}
            for s in (0, 1) for k, tid in enumerate(st.starters[s])]
        view["placer"] = st.placer if st.phase == "placement" else None
    if seat is not None:
        view["hand"] = {"action": sorted(st.action_hand[seat]), "combat": sorted(st.combat_hand[seat]),
                        "jump": st.jumps[seat]}
        view["pool"] = sorted(t.id for t in st.tokens.values() if t.colour == seat and t.where == "pool")
    if full:
        view["hands_full"] = [{"action": sorted(st.action_hand[s]), "combat": sorted(st.combat_hand[s]),
                               "jump": st.jumps[s]} for s in (0, 1)]
        view["pools"] = [sorted(t.id for t in st.tokens.values() if t.colour == s and t.where == "pool")
                         for s in (0, 1)]
        view["first_seat"] = st.first_seat
        view["rng"] = st.rng.to_json()
    view["subphase"] = _sub(st, seat, full)
    return view


def _sub(st: DTModel, seat: int | None, full: bool) -> dict[str, Any] | None:
    frame = st.stack.top()
    if frame is None:
        return None
    kind, sub = frame.kind, frame.data
    if kind == "move":
        v = sub["visit"]
        return {"kind": "move", "character": sub["char"], "steps_left": sub["steps"],
                "visit": {"picked": v["pick"], "dropped": v["drop"], "exchanged": v["xchg"]}}
    if kind == "place":
        return {"kind": "place", "slot": sub["slot"], "revealer": sub["revealer"], "placer": sub["placer"],
                "to_place_by_revealer": list(sub["rev"]), "to_place_by_opponent": list(sub["opp"])}
    out = {"kind": "combat", "attacker": sub["attacker"], "target": sub["target"],
           "attackers": list(sub["att"]), "defenders": list(sub["def"]), "attacker_seat": sub["aseat"],
           "base_totals": {"attack": sub["base"][0], "defence": sub["base"][1]},
           "submitted": [c is not None for c in sub["cards"]]}
    if seat is not None:
        out["my_card"] = sub["cards"][seat]
    if full:
        out["cards"] = list(sub["cards"])
    return out
