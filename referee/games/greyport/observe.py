"""GB-7 views (built as a whitelist from scratch) and GB-8.4-8.6 the outcome."""
from __future__ import annotations

from typing import Any

from referee.engine import ALL, Outcome, Viewer

from .catalog import load_content
from .model import STAT_NAMES, GreyportModel
from .rules.core import encounter_id, group_of

C = load_content()
LOG_TAIL = 40


def _monsters(st: GreyportModel, group: list[str]) -> list[dict[str, Any]]:
    return [{"id": m, "damage": st.dmg.get(m, 0)} for m in group]


def build_view(st: GreyportModel, viewer: Viewer) -> dict[str, Any]:
    """GB-7.7: the observation of ``viewer`` (a seat, PUBLIC or ALL)."""
    show_all = viewer == ALL
    open_hands = st.open_hands()
    players = []
    for s, p in enumerate(st.players_):
        pv: dict[str, Any] = {
            "seat": s, "character": p.character, "hp": p.hp, "max_hp": p.max_hp, "hero_level": p.level,
            "hero_card": f"P-{p.character}-{p.level}" if p.character else None,
            "hero_zone": p.hero_zone, "hand_size": len(p.hand), "deck_size": len(p.deck),
            "discard": list(p.discard), "coins": dict(p.coins), "shields": p.shields,
            "heroes_played": p.heroes_played, "hero_limit": p.hero_limit,
            "play": [{"card": e["card"], "exhausted": e["exhausted"], "fought": e["fought"],
                      "item": e["item"],
                      "round_used": [dict(u) for u in e["round_used"]]} for e in p.play],
            "loose_items": list(p.loose),
            "group": _monsters(st, st.groups[s]),
        }
        if show_all or open_hands or viewer == s:
            pv["hand"] = sorted(p.hand)
        if show_all:
            pv["deck"] = list(p.deck)
        players.append(pv)
    loc = None
    if st.loc is not None:
        enc = C.encounters[encounter_id(st)]
        lrow = C.locations[st.loc["id"]]
        loc = {"id": st.loc["id"], "name": lrow.name, "hp": st.loc["hp"], "max_hp": st.loc["max_hp"],
               "status": st.loc["status"], "ability": lrow.ability, "reward": lrow.reward,
               "group": _monsters(st, st.loc_group), "penalty": enc.penalty_text}
    bosses = []
    for b, info in st.bosses.items():
        where = group_of(st, b)
        bosses.append({"id": b, "hp": info["hp"], "damage": st.dmg.get(b, info["damage"]),
                       "where": ("location" if where == "loc"
                                 else where if where is not None else info["status"])})
    view: dict[str, Any] = {
        "seat": viewer if isinstance(viewer, int) else None,
        "chapter": st.options["chapter"],
        "encounter": encounter_id(st),
        "encounter_index": st.enc_index,
        "objective": C.encounters[encounter_id(st)].objective,
        "encounter_round": st.encounter_round, "total_rounds": st.total_rounds,
        "round_limit": st.options["round_limit"],
        "phase": st.phase, "defending_seat": st.defender, "marker": st.marker,
        "priority_seat": st.priority if st.phase == "action" else None, "passes": st.passes,
        "open_hands": open_hands,
        "players": players, "location": loc,
        "rows": {"heroes": list(st.hero_row), "items": list(st.item_row)},
        "deck_sizes": {"hero": len(st.hero_deck), "item": len(st.item_deck), "monster": len(st.monster_deck),
                       "curse": len(st.curse_deck)},
        "monster_discard": list(st.monster_discard),
        "token_supply": {t: len(v) for t, v in st.token_supply.items()},
        "removed": list(st.removed), "bosses": bosses,
        "locations_destroyed": st.destroyed,
        "fight": _fight_view(st),
        "result": st.result, "loss_reason": st.loss_reason,
    }
    pending = st.pending()
    if pending:
        frame = st.stack.top()
        pv_: dict[str, Any] = {"seat": pending[0], "kind": frame.kind if frame is not None else "main_action"}
        if frame is not None:
            pv_.update(_frame_public(st, frame))
        view["pending"] = pv_
        if viewer == pending[0]:
            view["legal_actions"] = st.legal_actions(pending[0])
    else:
        view["pending"] = None
    if show_all:
        view["decks"] = {"hero": list(st.hero_deck), "item": list(st.item_deck),
                         "monster": list(st.monster_deck), "curse": list(st.curse_deck)}
    events = st.log.entries
    tail = []
    for e in reversed(events):
        if e.visible_to(viewer):
            tail.append(e.as_dict())
            if len(tail) >= LOG_TAIL:
                break
    view["log"] = tail[::-1]
    return view


def _fight_view(st: GreyportModel) -> dict[str, Any] | None:
    f = st.fight
    if f is None:
        return None
    return {"seat": f["seat"], "hero": f["hero"], "targets": list(f["targets"]),
            "group": "location" if f["group"] == "loc" else f["group"], "dice": list(f["pool"]),
            "faces": list(f["faces"]), "base": f.get("base")}


def _frame_public(st: GreyportModel, frame: Any) -> dict[str, Any]:
    """Public facts about a pending sub-decision (never hand contents)."""
    d = frame.data
    out: dict[str, Any] = {}
    for key in ("n", "effect", "card", "victim", "remaining", "src", "why", "mode", "hero", "pending"):
        if key in d:
            out[key] = d[key] if not isinstance(d[key], list) else list(d[key])
    if "cards" in d:
        out["cards"] = list(d["cards"])
    return out


def build_outcome(st: GreyportModel) -> Outcome:
    """GB-8.4-8.6: team result, team score, per-seat figures."""
    win = st.result == "win"
    t = st.team
    boss_progress = 0
    for b, info in st.bosses.items():
        if info["status"] == "defeated":
            boss_progress += info["hp"]
        elif info["status"] == "play":
            boss_progress += min(st.dmg.get(b, 0), info["hp"])
        else:
            boss_progress += min(info["damage"], info["hp"])
    n = st.players
    max_hp = max(p.max_hp for p in st.players_) or 1
    hp_part = (30 * sum(max(0, p.hp) for p in st.players_)) // (n * max_hp)
    score = (250 * win + 100 * t["encounters_cleared"] + 30 * t["locations_saved"]
             - 20 * t["locations_destroyed"] + 2 * t["monsters_defeated"] + t["tokens_defeated"]
             + boss_progress + hp_part)
    score = max(0, score)
    seats = []

    for s, p in enumerate(st.players_):
        row: dict[str, Any] = {k: p.stats.get(k, 0) for k in STAT_NAMES}
        row["hp_end"] = p.hp
        row["seat"] = s
        row["character"] = p.character
        seats.append(row)
    details = {"result": st.result, "loss_reason": st.loss_reason, "score": score,
               "chapter": st.options["chapter"], "encounter": encounter_id(st),
               "team": {**t, "boss_progress": boss_progress, "rounds": st.total_rounds}, "seats": seats}
    return Outcome.team(n, win, score, details=details)
