"""BC-7: views built as a whitelist from scratch (never copy-and-delete).

Public (BC-7.1) for everyone; a seat adds its own hand, chest and dealt character options (BC-7.2);
ALL (post-game, BC-7.6) adds every hidden fact. The format is documented in README.md ("View").
"""
from __future__ import annotations

from typing import Any

from referee.engine import ALL, PUBLIC, Viewer

from .model import BlockcraftModel, Player
from .rules.geometry import attack_range, height


def _map_card(c: dict[str, Any], full: bool) -> str:
    """A map card as a compact string: "?S" (face down, layer; ALL adds ":card"), "placed:dirt",
    "loose:stone", "farmland:dirt"."""
    if c["s"] == "down":
        return f"?{c['l']}:{c['c']}" if full else f"?{c['l']}"
    return f"{c['s']}:{c['c']}"


def _map(st: BlockcraftModel, full: bool) -> dict[str, Any]:
    """The map part of the view, cached per map version (views share it: treat views as read-only)."""
    key = ("full" if full else "public", st.mv)
    cached = st._map_view.get(key[0])
    if cached is not None and cached[0] == key[1]:
        return cached[1]
    dug_by = {}
    for y in range(st.h):
        for x in range(st.w):
            for level, c in enumerate(st.cell(x, y), 1):
                if c["s"] == "loose" and c["by"]:
                    dug_by[f"{x},{y},{level}"] = {"seat": c["by"][0], "tool": c.get("t")}
    out = {"w": st.w, "h": st.h, "size": st.size.id,
           "cells": {f"{x},{y}": [_map_card(c, full) for c in st.cell(x, y)]
                     for y in range(st.h) for x in range(st.w)},
           "dug_by": dug_by}
    st._map_view[key[0]] = (key[1], out)
    return out


def _pending(st: BlockcraftModel, viewer: Viewer) -> list[dict[str, Any]]:
    """BC-5.26 who decides what; the card chosen for place/use and a smelt batch being built are hand
    cards until the action commits (BC-7.3): only their owner (and ALL) sees them."""
    if st.phase == "over":
        return []
    if st.phase == "choose_character":
        return [{"seat": p.seat, "state": "CHOOSE_CHARACTER"} for p in st.p if p.chosen is None]
    if st.phase == "choose_start":
        return [{"seat": st.start_queue[0], "state": "CHOOSE_START"}]
    top = st.stack.top()
    if top is None:
        state = {"action": "ACTION", "discard": "DISCARD", "end": "END_PHASE"}.get(st.step, "ACTION")
        return [{"seat": st.current, "state": state}]
    kind = {"jump": "JUMP_FOLLOWUP", "place_target": "PLACE_TARGET", "use_target": "USE_TARGET",
            "skill_target": "SKILL_TARGET", "smelt": "SMELT_BUILD", "enchant": "ENCHANT_PICK",
            "dodge": "DODGE", "rescue": "RESCUE", "menu": "MENU"}[top.kind]
    out: dict[str, Any] = {"seat": top.seat, "state": kind}
    d = top.data
    if top.kind == "dodge":
        out["attacker"] = d["attacker"]
    elif top.kind == "rescue":
        out["victim"] = d["victim"]
    elif top.kind in ("place_target", "use_target"):
        if viewer in (top.seat, ALL):
            out["card"] = d["card"]
    elif top.kind == "skill_target":
        out["skill"] = d["skill"]
    elif top.kind == "smelt":
        out["furnace_slot"] = d["slot"]
        if viewer in (top.seat, ALL):
            out.update(materials=sorted(d["materials"]), fuels=sorted(d["fuels"]))
    elif top.kind == "enchant":
        out.update(tool_slot=d["slot"], revealed=list(d["revealed"]), picked=list(d["picked"]))
    elif top.kind == "menu":
        out["group"] = d["group"]
    return [out]


def _player(st: BlockcraftModel, p: Player, viewer: Viewer) -> dict[str, Any]:
    revealed = st.phase not in ("choose_character",)
    show_identity = viewer == ALL or st.mode == "team" or (st.mode == "boss" and p.seat == st.boss_seat)
    side = "ffa"
    if st.mode == "boss":
        side = "boss" if p.seat == st.boss_seat else "anti_boss"
    elif st.mode == "team":
        side = p.identity
    out: dict[str, Any] = {
        "seat": p.seat,
        "character": p.character if revealed else None,
        "chosen": p.chosen is not None,
        "pos": list(p.cell) if p.cell else None,
        "height": height(st, p) if p.cell else None,
        "airborne": p.airborne,
        "stamina": p.stamina, "max_stamina": p.max_stamina, "hunger": p.hunger, "max_hunger": p.max_hunger,
        "xp": p.xp, "xp_earned": p.xp_earned,
        "status": "dead" if not p.alive else ("downed" if p.downed else "alive"),
        "identity": p.identity if show_identity else None,
        "side": side,
        "ap": p.ap if (st.phase == "turn" and p.seat == st.current) else None,
        "range": attack_range(st, p) if (p.cell and p.alive and p.character) else None,
        "fatigue": p.fatigue, "touched": p.touched,
        "tools": [{"slot": i, "card": t["card"], "durability": t["dur"], "max": t["max"],
                   "enchantments": list(t["ench"])} for i, t in enumerate(p.tools) if t is not None],
        "armour": ({"card": p.armour["card"], "durability": p.armour["dur"], "max": p.armour["max"]}
                   if p.armour else None),
        "blocks": [{"slot": i, "card": b["card"]} for i, b in enumerate(p.blocks) if b is not None],
        "chest_count": sum(len(b["chest"]) for b in p.blocks if b is not None and "chest" in b),
        "furnace_batches": [{"slot": i, **{k: list(v) for k, v in b["batch"].items()}}
                            for i, b in enumerate(p.blocks) if b is not None and b.get("batch")],
        "hand_count": p.hand_size(), "kills": p.kills,
        "turn": ({"ap_spent": p.ap_spent, "touch_hits": p.touch_hits, "ores_gathered": p.ores_gathered,
                  "moves": p.moves, "places": p.places, "timber_used": p.timber_used,
                  "old_habits_used": p.villager_used, "skill_used": p.skill_used,
                  "efficiency_used": p.digs_free}
                 if st.phase == "turn" and p.seat == st.current else None),
        "detonate_used": p.detonate_used,
    }
    return out


def _private(st: BlockcraftModel, p: Player) -> dict[str, Any]:
    chest: dict[str, int] = {}
    for b in p.blocks:
        if b is not None and "chest" in b:
            for card, _fresh in b["chest"]:
                chest[card] = chest.get(card, 0) + 1
    return {
        "hand": dict(sorted(p.hand.items())),
        "chest": dict(sorted(chest.items())),
        "chests": [{"slot": i, "cards": [{"card": c, "stored_this_turn": f} for c, f in b["chest"]]}
                   for i, b in enumerate(p.blocks) if b is not None and "chest" in b],
        "character_options": sorted(p.options),
        "chosen_character": p.chosen if st.phase == "choose_character" else None,
        "stored_this_turn": dict(sorted(p.stored.items())),
        "retrieved_this_turn": dict(sorted(p.retrieved.items())),
    }


def build_view(st: BlockcraftModel, viewer: Viewer) -> dict[str, Any]:
    full = viewer == ALL
    view: dict[str, Any] = {
        "seat": viewer if isinstance(viewer, int) else None,
        "mode": st.mode, "players_count": st.players, "max_rounds": st.max_rounds, "admin_seat": st.admin,
        "round": st.round, "day": st.day,
        "turn_seat": st.current if st.phase == "turn" else None,
        "phase": st.phase.upper(),
        "pending": _pending(st, viewer),
        "map": _map(st, full),
        "players": [_player(st, p, viewer) for p in st.p],
        "draw_pile": len(st.draw_pile),
        "discard_pile": list(st.discard_pile),
        "supply": dict(sorted(st.supply.items())),
        "enchant_deck": len(st.enchant_deck),
        "enchant_discard": list(st.enchant_discard),
        "enchant_revealed": _revealed(st),
        "boss_seat": st.boss_seat,
        "result": st.result,
    }
    if viewer not in (PUBLIC, ALL):
        assert isinstance(viewer, int)
        view["private"] = _private(st, st.p[viewer])
    if full:
        view["hidden"] = {
            "hands": [dict(sorted(p.hand.items())) for p in st.p],
            "chests": [_private(st, p)["chest"] for p in st.p],
            "character_options": [sorted(p.options) for p in st.p],
            "chosen": [p.chosen for p in st.p],
            "draw_pile": list(st.draw_pile),
            "enchant_deck": list(st.enchant_deck),
            "box_characters": list(st.box_characters),
            "identities": [p.identity for p in st.p],
        }
    return view


def _revealed(st: BlockcraftModel) -> list[str]:
    top = st.stack.top()
    if top is not None and top.kind == "enchant":
        return [e for e in top.data["revealed"] if e not in top.data["picked"]]
    return []
