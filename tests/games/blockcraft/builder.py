"""A test-state builder for Blockcraft scenarios (BC-10): a small state from a plain dict.

``build(spec)`` starts from a real game (setup through character choice and start cells), then
overwrites what the test names: map stacks, characters, positions, hands, equipment, counters. Rule
tests use it; the BC-10 worked scenarios are ``arena-scenario/1`` files (``scenarios/*.json``, converted from
this builder's states) run by ``tests/games/test_scenarios.py``.
"""
from __future__ import annotations

from typing import Any

from referee.games.blockcraft import GAME
from referee.games.blockcraft.state import BlockcraftState, Player

DEFAULT_CHAR = "h_woodcutter"


def _layer(level: int, height: int) -> str:
    """BC-4.3: level 1 from the Deep deck, levels 2..H-1 Underground, the top (H >= 2) from the Surface."""
    if level == 0:
        return "D"
    return "S" if level == height - 1 else "U"


def _card(text: str, layer: str) -> dict[str, Any]:
    """'down:iron_ore' | 'placed:dirt' | 'loose:coal_ore' | 'farmland' | 'iron_ore' (= face down); a face-down
    card takes the layer of its level unless named ('down:stone@U')."""
    state, _, card = text.partition(":")
    if not card:
        state, card = ("farmland", "dirt") if text == "farmland" else ("down", text)
    card, _, named = card.partition("@")
    return {"c": card, "s": state, "l": (named or layer) if state == "down" else None, "by": None}


def _stack(spec: Any) -> list[dict[str, Any]]:
    """A stack bottom -> top: an integer H (H face-down stones, 0 = bare ground) or a list of cards."""
    cards = ["stone"] * spec if isinstance(spec, int) else list(spec)
    return [_card(c, _layer(i, len(cards))) for i, c in enumerate(cards)]


def build(spec: dict[str, Any]) -> BlockcraftState:
    players = spec.get("players", 2)
    options = {"mode": spec.get("mode", "overlord"), **spec.get("options", {})}
    st: BlockcraftState = GAME.new_state(players, options, spec.get("seed", 1))
    st.phase, st.step, st.stack.frames = "turn", "action", []
    st.round = spec.get("round", 1)
    st.day = spec.get("day", True)
    st.current = spec.get("current", 0)
    height = spec.get("height", 2)
    st.cells = [_stack(height) for _ in range(st.w * st.h)]
    for key, stack in spec.get("cells", {}).items():
        x, y = (int(v) for v in key.split(","))
        st.cells[y * st.w + x] = _stack(stack)
    st.draw_pile = list(spec.get("draw_pile", ["dirt"] * 20))
    st.discard_pile = list(spec.get("discard_pile", []))
    if "enchant_deck" in spec:
        rest = [e for e in sorted(st.cat.enchant_cards) if e not in spec["enchant_deck"]]
        st.enchant_deck = list(spec["enchant_deck"]) + rest
    if "boss_seat" in spec:
        st.boss_seat = spec["boss_seat"]
    for s in range(players):
        _player(st, st.p[s], spec.get("p", {}).get(str(s), {}), s)
    st.mv += 1
    st.forget_legal()
    return st


def _player(st: BlockcraftState, p: Player, d: dict[str, Any], seat: int) -> None:
    c = st.cat.characters[d.get("character", DEFAULT_CHAR)]
    p.character, p.chosen, p.options = c.id, c.id, []
    p.identity = d.get("identity", p.identity)
    p.max_stamina = d.get("max_stamina", c.sta + (4 * (st.players - 2) if seat == st.boss_seat else 0))
    p.max_hunger = d.get("max_hunger", c.hun)
    p.stamina = d.get("stamina", p.max_stamina)
    p.hunger = d.get("hunger", p.max_hunger)
    p.xp = d.get("xp", 0)
    p.xp_earned = d.get("xp_earned", 0)
    p.cell = list(d.get("cell", [seat % st.w, st.h - 1]))
    p.alive = d.get("alive", True)
    if not p.alive:
        p.cell = None
        st.death_order.append(seat)
    p.hand = dict(d.get("hand", {}))
    p.reset_turn()
    p.ap = d.get("ap", 4 if seat == st.current else 0)
    p.ap_spent = d.get("ap_spent", 0)
    for k in ("ores_gathered", "touch_hits", "kill_xp", "kills", "fatigue", "decisions"):
        if k in d:
            setattr(p, k, d[k])
    p.tools = [None, None]
    for i, t in enumerate(d.get("tools", [])):
        if t:
            card = st.cat.cards[t["card"]]
            p.tools[i] = {"card": t["card"], "dur": t.get("dur", card.durability),
                          "max": t.get("max", card.durability), "ench": list(t.get("ench", [])),
                          "uid": st.uid()}
    if "armour" in d:
        a = st.cat.cards[d["armour"]]
        p.armour = {"card": a.id, "dur": a.durability, "max": a.durability}
    for i, b in enumerate(d.get("blocks", [])):
        item: dict[str, Any] = {"card": b["card"]}
        if b["card"] == "chest":
            item["chest"] = sorted([c, False] for c in b.get("chest", []))
        if b["card"] == "furnace":
            item["batch"] = None
        p.blocks[i] = item
