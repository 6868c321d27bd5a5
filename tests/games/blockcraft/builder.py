"""A test-state builder for Blockcraft scenarios (BC-10): a small state from a plain dict.

``build(spec)`` starts from a real game (setup through character choice and start cells), then
overwrites what the scenario names: map stacks, characters, positions, hands, equipment, counters.
``check(state, expect)`` compares named quantities; ``run_scenario`` plays steps and checks.
"""
from __future__ import annotations

from typing import Any

from referee.engine import IllegalAction
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
    st: BlockcraftState = GAME.new_state(players, options, spec.get("seed", 1))  # type: ignore[assignment]
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
    st._legal = None
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
                          "max": t.get("max", card.durability), "ench": list(t.get("ench", [])), "uid": st.uid()}
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


def value(st: BlockcraftState, key: str) -> Any:
    """Named quantities: 'p0.ap', 'p1.hand', 'p0.tools.0.dur', 'H.1,0', 'top.1,0', 'supply.iron_ingot', ..."""
    head, _, rest = key.partition(".")
    if head == "H":
        x, y = (int(v) for v in rest.split(","))
        return st.H(x, y)
    if head == "top":
        x, y = (int(v) for v in rest.split(","))
        stack = st.cell(x, y)
        return f"{stack[-1]['s']}:{stack[-1]['c']}" if stack else None
    if head == "supply":
        return st.supply.get(rest, 0)
    if head in ("discard_pile", "enchant_discard", "phase", "step", "round", "day", "current", "death_order"):
        return getattr(st, head)
    if head == "pending":
        return st.pending()
    if head == "pending_state":
        return st.observe(0)["pending"][0]["state"] if st.pending() else None
    if head == "outcome":
        out = st.outcome()
        assert out is not None, "game is not over"
        return {"ranks": out.ranks, **out.details}[rest] if rest != "team_result" else out.team_result
    if head.startswith("p") and head[1:].isdigit():
        obj: Any = st.p[int(head[1:])]
        for part in rest.split("."):
            if part == "hand_size":
                obj = obj.hand_size()
            elif isinstance(obj, Player):
                obj = getattr(obj, part)
            elif isinstance(obj, list):
                obj = obj[int(part)]
            elif isinstance(obj, dict):
                obj = obj.get(part, 0) if part not in ("card", "dur", "max", "ench", "batch", "chest") else obj[part]
        return obj
    raise KeyError(key)


def check(st: BlockcraftState, expect: dict[str, Any], where: str) -> None:
    for key, want in expect.items():
        got = value(st, key)
        assert got == want, f"{where}: {key} = {got!r}, expected {want!r}"


def run_steps(st: BlockcraftState, steps: list[dict[str, Any]], name: str) -> None:
    for i, step in enumerate(steps):
        where = f"{name} step {i}"
        seat = step.get("seat", st.current)
        if "legal" in step:
            assert step["legal"] in st.legal_actions(seat), f"{where}: {step['legal']} should be legal"
        if "illegal" in step:
            assert step["illegal"] not in st.legal_actions(seat), f"{where}: {step['illegal']} should be illegal"
            before = st.digest()
            try:
                st.apply(seat, step["illegal"])
            except IllegalAction:
                pass
            else:
                raise AssertionError(f"{where}: {step['illegal']} was accepted")
            assert st.digest() == before
        if "do" in step:
            st.apply(seat, step["do"])
        check(st, step.get("expect", {}), where)
