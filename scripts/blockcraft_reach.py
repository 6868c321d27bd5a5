"""Is the World Core reachable in solo Blockcraft `extreme`? A search over the TRUE state (a cheat, offline).

    .venv/bin/python scripts/blockcraft_reach.py --games 40 --beam 4
    .venv/bin/python scripts/blockcraft_reach.py --seed 7 --line      # print the line found for one seed

Turn by turn beam search on the engine's own state (face-down cards and draw order known, since the state
holds them): from every kept position, all sequences of the turn's costed actions (move, climb, dig, till)
are tried, free actions (craft, eat, gather, equip, smelt) being filled in by the planner's policy
(bots/planner/blockcraft.py) after each; the positions after the settlement are scored by chain progress
and food, and the best ``--beam`` distinct ones go on. A found line proves reachability for that seed; a
miss proves nothing (the search is incomplete), so the figure is a lower bound.
"""
from __future__ import annotations

import argparse
import time
from collections.abc import Iterator
from typing import Any

from bots.planner.blockcraft import PICK_TIER, PlannerBot
from referee.engine import State, get_game
from referee.engine.agent import DecisionRequest

GAME = get_game("blockcraft")
#: positions expanded per kept position and turn (the search's cap)
NODE_CAP = 3000
VERBOSE = False
DEPTH_W = 2.5
FARM_W = 2.0


def _request(st: State, seat: int) -> DecisionRequest:
    return DecisionRequest("reach", 0, "blockcraft", seat, st.observe(seat), st.legal_actions(seat), [])


def _state_name(st: State) -> str:
    view_pending = st.observe(0)["pending"]
    return str(view_pending[0]["state"]) if view_pending else ""


def settle(st: Any, bot: PlannerBot) -> None:
    """Free actions by the planner's policy, and every decision that is not a costed action-phase choice
    (discards, smelt batches, end phase, the next turn's start), until a costed choice or the end."""
    while st.pending():
        name = _state_name(st)
        legal = st.legal_actions(0)
        if name == "ACTION":
            a = bot.free_action(st.observe(0), legal)
            if a is None:
                return
            st.apply_trusted(0, a)
            continue
        if len(legal) == 1:
            st.apply_trusted(0, legal[0])
            continue
        choice = bot.act(_request(st, 0))
        st.apply_trusted(0, legal[choice] if isinstance(choice, int) else choice)


def costed(st: Any) -> list[list[dict[str, Any]]]:
    """The turn's costed choices as action sequences (a jump with each follow-up move or dig)."""
    out: list[list[dict[str, Any]]] = []
    for a in st.legal_actions(0):
        t = a["type"]
        if t in ("move", "dig", "till"):
            out.append([a])
        elif t == "jump":
            probe = st.clone()
            probe.apply_trusted(0, a)
            out += [[a, f] for f in probe.legal_actions(0) if f["type"] in ("move", "dig")]
    return out


def key(st: Any) -> tuple[Any, ...]:
    p = st.p[0]
    tops = tuple((len(s), s[-1]["s"] if s else "") for s in st.cells)
    return (st.round, tuple(p.cell or ()), p.hunger, p.ap, p.stamina, tuple(sorted(p.hand.items())), tops,
            tuple(t["card"] if t else "" for t in p.tools), tuple(b["card"] if b else "" for b in p.blocks),
            str([b.get("batch") for b in p.blocks if b]))


def score(st: Any) -> float:
    """Chain progress, food and the needed cards still in the game (perfect information)."""
    out = st.outcome()
    if out is not None:
        won = out.to_json().get("team_result") == "win" if hasattr(out, "to_json") else False
        return 1e6 - 1000 * st.round if won else -1e6
    p = st.p[0]
    if not p.alive:
        return -1e6
    hand = p.hand
    tools = [t["card"] for t in p.tools if t]
    blocks = [b["card"] for b in p.blocks if b]
    batch: dict[str, int] = {}
    for b in p.blocks:
        if b and b.get("batch"):
            for m in b["batch"].get("materials", []):
                batch[m] = batch.get(m, 0) + 1
    tier = max([PICK_TIER.get(t, 0) for t in tools] + [0])
    v = 0.0
    v += 15 * ("crafting_table" in blocks) + 35 * ("furnace" in blocks)
    v += {0: 0, 1: 15, 2: 45, 3: 110, 4: 110}[tier]
    v += 4 * any(t.endswith("_hoe") for t in tools)
    stack = st.cells[p.cell[1] * st.w + p.cell[0]] if p.cell else []
    v += FARM_W * bool(stack and stack[-1]["s"] == "farmland")
    stone_need = (3 if tier < 2 else 0) + (0 if "furnace" in blocks else 4)
    v += 10 * min(hand.get("stone", 0), stone_need)
    if tier < 3:
        ingots = hand.get("iron_ingot", 0) + batch.get("iron_ore", 0)
        v += 12 * min(ingots, 3) + 7 * min(hand.get("iron_ore", 0), max(0, 3 - ingots))
    gold = hand.get("gold_ingot", 0) + batch.get("gold_ore", 0)
    v += 22 * min(gold, 2) + 16 * min(hand.get("gold_ore", 0), max(0, 2 - gold))
    v += 30 * min(hand.get("diamond", 0), 1) + 14 * min(hand.get("ender_pearl", 0), 1)
    glass = hand.get("glass", 0) + batch.get("sand", 0)
    v += 12 * min(glass, 1) + 6 * min(hand.get("sand", 0), 1 - min(glass, 1))
    v += 3 * min(hand.get("coal_ore", 0) + hand.get("charcoal", 0), 2) + 2.5 * min(hand.get("log", 0), 3)
    v += 0.5 * min(hand.get("stick", 0), 4) + 0.3 * min(hand.get("planks", 0), 4)
    food = sum(n * st.cat.cards[c].food for c, n in hand.items() if st.cat.cards[c].food)
    # hunger: worth most while low (the farm refills 2 a turn, and a full stomach wastes that)
    v += 2 * min(p.hunger, 6) + 0.3 * max(0, p.hunger - 6) + 1.2 * food + p.stamina
    v += 0.8 * min(hand.get("wheat", 0), 3)
    # gold and diamond destroyed (discard pile) can only come back by a late reshuffle
    alive: dict[str, int] = {}
    for s in st.cells:
        for c in s:
            alive[c["c"]] = alive.get(c["c"], 0) + 1
    for c in st.draw_pile:
        alive[c] = alive.get(c, 0) + 1
    for c in ("gold_ore", "diamond"):
        alive[c] = alive.get(c, 0) + hand.get(c, 0)
    v -= 40 * max(0, 2 - gold - alive.get("gold_ore", 0)) + 60 * max(0, 1 - alive.get("diamond", 0))
    # what is still to dig: the cards the chain needs, by how many cards lie on top of them, and how many
    # stacks can be worked from where the character can walk (a pit is a dead end)
    need = {"gold_ore": max(0, 2 - gold - hand.get("gold_ore", 0)),
            "diamond": 1 - min(hand.get("diamond", 0), 1),
            "stone": max(0, stone_need - hand.get("stone", 0))}
    if tier < 3:
        have = hand.get("iron_ingot", 0) + batch.get("iron_ore", 0) + hand.get("iron_ore", 0)
        need["iron_ore"] = max(0, 3 - have)
    depths: dict[str, list[int]] = {}
    for stk in st.cells:
        for level, c in enumerate(stk):
            if c["c"] in need and c["s"] in ("down", "loose", "placed"):
                depths.setdefault(c["c"], []).append(len(stk) - 1 - level)
    for c, n in need.items():
        if n:
            v -= DEPTH_W * sum(sorted(depths.get(c, []))[:n])
    v += 1.5 * workable(st, p)
    return v


def workable(st: Any, p: Any) -> int:
    """Stacks whose top can be dug or gathered from a cell the character can walk or climb to."""
    if not p.cell:
        return 0
    w = st.w
    H = [len(s) for s in st.cells]
    start = p.cell[1] * w + p.cell[0]
    seen = {start}
    todo = [start]
    while todo:
        i = todo.pop()
        x, y = i % w, i // w
        for nx, ny in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if 0 <= nx < w and 0 <= ny < st.h:
                j = ny * w + nx
                if j not in seen and H[j] - H[i] <= 1 and H[i] - H[j] < 3:
                    seen.add(j)
                    todo.append(j)
    ok = set()
    for i in seen:
        x, y = i % w, i // w
        for j in (i, i + 1 if x + 1 < w else -1, i - 1 if x > 0 else -1, i + w, i - w):
            if 0 <= j < len(H) and H[j] and abs(H[j] - H[i]) <= 1 and st.cells[j][-1]["s"] != "farmland":
                ok.add(j)
    return len(ok)


def expand(root: Any, bot: PlannerBot) -> Iterator[Any]:
    """Every end-of-turn position reachable from ``root`` (the start of an action phase)."""
    seen: set[tuple[Any, ...]] = set()
    stack = [root]
    turn = root.round
    nodes = 0
    while stack and nodes < NODE_CAP:
        st = stack.pop()
        k = key(st)
        if k in seen:
            continue
        seen.add(k)
        nodes += 1
        if st.phase == "over" or st.round != turn:
            yield st
            continue
        end = st.clone()
        end.apply_trusted(0, {"type": "end_action_phase"})
        settle(end, bot)
        yield end
        for seq in costed(st):
            child = st.clone()
            for a in seq:
                child.apply_trusted(0, a)
            settle(child, bot)
            stack.append(child)


def search(seed: int, beam: int) -> tuple[bool, Any]:
    st: Any = GAME.new_state(1, {"mode": "extreme"}, seed=seed)
    bot = PlannerBot(seed)
    while st.phase in ("choose_character", "choose_start"):
        choice = bot.act(_request(st, 0))
        st.apply_trusted(0, st.legal_actions(0)[choice] if isinstance(choice, int) else choice)
    settle(st, bot)
    frontier = [st]
    while frontier:
        kids: dict[tuple[Any, ...], Any] = {}
        for f in frontier:
            for child in expand(f, bot):
                kids.setdefault(key(child), child)
        ranked = sorted(kids.values(), key=score, reverse=True)
        for r in ranked:
            if r.phase == "over":
                out = r.outcome().to_json()
                if out.get("team_result") == "win":
                    return True, r
        alive = [r for r in ranked if r.phase != "over"]
        if VERBOSE and alive:
            b = alive[0]
            print(f"  r{b.round} n={len(kids)} score {score(b):.0f} at {b.p[0].cell} h{b.p[0].hunger} "
                  f"{[t['card'] for t in b.p[0].tools if t]} {dict(b.p[0].hand)}")
        if not alive:
            return False, ranked[0] if ranked else st
        frontier = alive[:beam]
    return False, st


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed-base", type=int, default=0)
    ap.add_argument("--seed", type=int, default=None, help="one seed only")
    ap.add_argument("--beam", type=int, default=3)
    ap.add_argument("--line", action="store_true", help="print the line found (its public and private log)")
    ap.add_argument("-v", "--verbose", action="store_true", help="the best kept position after every turn")
    a = ap.parse_args()
    global VERBOSE
    VERBOSE = a.verbose
    seeds = [a.seed] if a.seed is not None else list(range(a.seed_base, a.seed_base + a.games))
    wins = 0
    for seed in seeds:
        t0 = time.time()
        won, st = search(seed, a.beam)
        wins += won
        p = st.p[0]
        print(f"seed {seed}: {'WIN' if won else 'no'} round {st.round} hunger {p.hunger} "
              f"tools {[t['card'] for t in p.tools if t]} blocks {[b['card'] for b in p.blocks if b]} "
              f"hand {dict(p.hand)} ({time.time() - t0:.0f} s)", flush=True)
        if a.line:
            for e in st.log.entries:
                if e.kind in ("dig", "craft", "smelted", "equip", "till", "move", "use", "farmland", "drew"):
                    print("   ", e.kind, e.data)
    print(f"World Core found in {wins}/{len(seeds)} seeds (beam {a.beam}, node cap {NODE_CAP})")


if __name__ == "__main__":
    main()
