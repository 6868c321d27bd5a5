"""The solo planner's endgame alone: its World Core rate from an ideal round-R position (analysis, a cheat).

    .venv/bin/python scripts/blockcraft_ideal.py --round 24 --games 60

Each seed's real decks, but the first R - 1 rounds played perfectly: the Surface and Underground are gone,
their stone, iron ore, coal, sand and a pearl are in hand (the stone in the chest, up to 4), and so are the
reserve's cards drawn by round R (the rest of them spent: discarded); the player has a stone pickaxe and a
wooden hoe, a crafting table and a chest, 2 sticks, full hunger, and stands on a farm at the Deep floor's
level, made in the hole of one Deep card (``--farm-on-top``: on top of it, one level higher). From there
the bot (``--bot``, default the planner) plays the game out. What it reaches says how much of the chain's
failure is the endgame's: with everything before round R free, does the rest work?
"""
from __future__ import annotations

import argparse
from collections import Counter
from typing import Any

from arena.botspec import load_bot
from bots.sdk import Bot
from referee.engine import get_game
from referee.engine.agent import DecisionRequest

GAME = get_game("blockcraft")
#: what a perfect player keeps of the Surface, Underground and reserve cards it has seen
KEEP = ("stone", "iron_ore", "coal_ore", "ender_pearl", "sand")
#: a blind dig with the stone pickaxe keeps these (BC-5.12.4); it destroys the rest
KEPT_BY_STONE_PICKAXE = ("stone", "coal_ore", "iron_ore", "ender_pearl")


def ideal(seed: int, rnd: int, character: str, hole: bool = True, farm: tuple[int, int] = (0, 0),
          logs: int = 0) -> Any:
    """The seed's state, rewritten to the ideal position at the start of round ``rnd`` (module docstring)."""
    st: Any = GAME.new_state(1, {"mode": "extreme"}, seed)
    p = st.p[0]
    under = [c["c"] for s in st.cells for c in s if c["l"] == "U"]
    seen = [c for c, n in sorted(p.hand.items()) for _ in range(n)] + list(reversed(st.draw_pile))[:rnd]
    st.draw_pile = st.draw_pile[:len(st.draw_pile) - rnd]
    st.phase, st.step, st.stack.frames = "turn", "action", []
    st.round, st.day, st.current = rnd, (rnd - 1) % 5 in (0, 1, 2), 0
    got = Counter(c for c in under + seen if c in KEEP)
    # the logs a perfect player kept (``--logs``): the reserve's drawn ones first, then the Surface's
    surface_logs = sum(1 for stack in st.cells if stack[-1]["c"] == "log")
    seen_logs = sum(1 for c in seen if c == "log")
    got["log"] = min(logs, seen_logs + surface_logs)
    st.discard_pile = [c for c in under + seen if c not in KEEP + ("log",)]
    st.discard_pile += ["log"] * max(0, seen_logs - got["log"])
    farmland = {"c": "dirt", "s": "farmland", "l": None, "by": None}
    cells = []
    for i, stack in enumerate(st.cells):
        deep = dict(stack[0])
        if (i % st.w, i // st.w) != farm:
            cells.append([deep])
        elif not hole:
            cells.append([deep, dict(farmland)])
        else:   # the hole was dug blind with the stone pickaxe
            if deep["c"] in KEPT_BY_STONE_PICKAXE:
                got[deep["c"]] += 1
            else:
                st.discard_pile.append(deep["c"])
            cells.append([dict(farmland)])
    st.cells = cells
    c = st.cat.characters[character]
    p.character, p.chosen, p.options = c.id, c.id, []
    p.max_stamina = p.stamina = c.sta
    p.max_hunger = p.hunger = c.hun
    p.cell = list(farm)
    chest = ["stone"] * min(4, got["stone"])
    got["stone"] -= len(chest)
    if got["ender_pearl"] > 1:
        st.discard_pile += ["ender_pearl"] * (got["ender_pearl"] - 1)
        got["ender_pearl"] = 1
    p.hand = {k: v for k, v in got.items() if v > 0}
    p.hand["stick"] = 2
    p.reset_turn()
    p.ap = 4
    p.tools = [None, None]
    for i, tool in enumerate(("stone_pickaxe", "wooden_hoe")):
        card = st.cat.cards[tool]
        dur = card.durability
        p.tools[i] = {"card": tool, "dur": dur, "max": dur, "ench": [], "uid": st.uid()}
    p.blocks = [{"card": "crafting_table"}, {"card": "chest", "chest": sorted([s, False] for s in chest)}]
    st.mv += 1
    st.forget_legal()
    return st


def play(st: Any, bot: Bot) -> tuple[str, set[str]]:
    """Play on to the end; the outcome's reason and the milestones reached."""
    reached: set[str] = set()
    n = 0
    while st.outcome() is None:
        seat = st.pending()[0]
        legal = st.legal_actions(seat)
        view = st.observe(seat)
        me = view["players"][seat]
        reached |= {t["card"] for t in me["tools"] if t["card"] == "iron_pickaxe"}
        reached |= {b["card"] for b in me["blocks"] if b["card"] == "furnace"}
        reached |= {c for c in ("gold_ingot", "diamond") if view["private"]["hand"].get(c)}
        choice = bot.act(DecisionRequest("ideal", n, "blockcraft", seat, view, legal, []))
        st.apply(seat, legal[choice] if isinstance(choice, int) else choice)
        n += 1
    # the engine's own end reason ("target_card", "round_limit", ...) is in the details; the outcome's
    # ``reason`` says only how the match ended ("normal", a forfeit, ...)
    return str(st.outcome().details.get("reason")), reached


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bot", default="planner")
    ap.add_argument("--round", type=int, default=24, dest="rnd")
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--seed-base", type=int, default=0)
    ap.add_argument("--character", default="h_woodcutter", help="(no skill of it matters to the planner)")
    ap.add_argument("--farm-on-top", action="store_true", help="the farm one level above the Deep floor")
    ap.add_argument("--logs", type=int, default=0, help="logs kept (of the Surface's and the draws')")
    # a sibling script (run from scripts/, it is on sys.path)
    from blockcraft_funnel import RELAX, check_bot, relax
    ap.add_argument("--relax", action="append", default=[], choices=sorted(RELAX),
                    help="relax a rule (a cheat; repeatable), as scripts/blockcraft_funnel.py --help says")
    a = ap.parse_args()
    check_bot(ap, a.bot)
    relax(a.relax)
    counts: Counter[str] = Counter()
    deep_left = 0
    for seed in range(a.seed_base, a.seed_base + a.games):
        st = ideal(seed, a.rnd, a.character, hole=not a.farm_on_top, logs=a.logs)
        reason, reached = play(st, load_bot(a.bot, "blockcraft", seed * 31))
        counts.update(reached)
        counts["world_core"] += reason == "target_card"
        deep_left += sum(1 for s in st.cells if s and s[0]["s"] == "down")
    where = "one level above the Deep floor" if a.farm_on_top else "in a hole at the Deep floor"
    relaxed = f", relaxed: {', '.join(a.relax)}" if a.relax else ""
    print(f"{a.bot} from an ideal round {a.rnd} (farm {where}, {a.logs} logs{relaxed}), {a.games} seeds from "
          f"{a.seed_base}:")
    print("  " + ", ".join(f"{k} {counts[k]}" for k in ("furnace", "iron_pickaxe", "gold_ingot", "diamond",
                                                         "world_core")))
    print(f"  Deep cards still face down at the end: {deep_left / a.games:.1f} of 16")


if __name__ == "__main__":
    main()
