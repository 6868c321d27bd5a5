"""The round each solo Blockcraft game reaches each milestone of the World Core chain (analysis, not a bot).

    .venv/bin/python scripts/blockcraft_funnel.py --bot planner --games 40

Wraps the bot and reads the views it is sent (its own seat's view: hand, equipment, hunger), so it measures
exactly what the bot knew. Prints, per milestone, how many games reached it and the median round, then the
state of the games that stalled (where the chain stopped, hunger, hand, stone and iron in hand or loose).
"""
from __future__ import annotations

import argparse
import statistics
from collections import Counter
from typing import Any

from arena.botspec import load_bot
from bots.builtin import UnknownBot
from bots.sdk import Bot, DecisionRequest
from referee.engine import State, get_game, run_match

#: milestones in chain order, each a test on the view
MILESTONES = ["wooden_pickaxe", "3_stone", "stone_pickaxe", "7_stone", "furnace", "iron_ingot", "3_iron",
              "iron_pickaxe", "gold_ingot", "2_gold", "diamond", "glass", "pearl", "world_core"]
PICK = {"wooden_pickaxe": 1, "stone_pickaxe": 2, "iron_pickaxe": 3, "diamond_pickaxe": 4}


def reached(view: dict[str, Any]) -> set[str]:
    me = view["players"][view["seat"]]
    hand = view["private"]["hand"]
    tier = max([PICK.get(t["card"], 0) for t in me["tools"]] + [0])
    blocks = {b["card"] for b in me["blocks"]}
    loose = Counter(st[-1][6:] for st in view["map"]["cells"].values() if st and st[-1].startswith("loose:"))
    stone = hand.get("stone", 0) + loose["stone"]
    out = set()
    if tier >= 1:
        out.add("wooden_pickaxe")
    if tier >= 2 or stone >= 3:
        out.add("3_stone")
    if tier >= 2:
        out.add("stone_pickaxe")
    if "furnace" in blocks or (tier >= 2 and stone >= 4):
        out.add("7_stone")
    if "furnace" in blocks:
        out.add("furnace")
    if hand.get("iron_ingot", 0) or tier >= 3:
        out.add("iron_ingot")
    if hand.get("iron_ingot", 0) >= 3 or tier >= 3:
        out.add("3_iron")
    if tier >= 3:
        out.add("iron_pickaxe")
    if hand.get("gold_ingot", 0):
        out.add("gold_ingot")
    if hand.get("gold_ingot", 0) >= 2:
        out.add("2_gold")
    if hand.get("diamond", 0):
        out.add("diamond")
    if hand.get("glass", 0):
        out.add("glass")
    if hand.get("ender_pearl", 0):
        out.add("pearl")
    return out


class Watch(Bot):
    """Passes every decision to ``inner`` and notes the first round of each milestone."""

    def __init__(self, inner: Bot) -> None:
        super().__init__(0)
        self.inner = inner
        self.first: dict[str, int] = {}
        self.last: dict[str, Any] = {}
        self.idle = [0, 0, 0]
        #: AP spent over the game, and turns that spent none
        self.ap = [0, 0]

    def act(self, request: DecisionRequest) -> Any:
        view = request.view
        if "map" in view and view["players"][view["seat"]].get("tools") is not None:
            for m in reached(view):
                self.first.setdefault(m, view["round"])
            me = view["players"][view["seat"]]
            deep_left = sum(1 for st in view["map"]["cells"].values() if st and st[0] == "?D")
            under_left = sum(1 for st in view["map"]["cells"].values() for c in st if c == "?U")
            self.last = {"round": view["round"], "hunger": me["hunger"],
                         "hand": dict(view["private"]["hand"]),
                         "chest": dict(view["private"].get("chest", {})),
                         "deep_left": deep_left, "under_left": under_left, "status": me["status"]}
        choice = self.inner.act(request)
        a = request.legal[choice] if isinstance(choice, int) else choice
        if a == {"type": "end_action_phase"} and "map" in view:
            me = view["players"][view["seat"]]
            self.ap[0] += me["turn"]["ap_spent"]
            self.ap[1] += me["turn"]["ap_spent"] == 0
            if me["turn"]["ap_spent"] == 0 and me["hunger"] >= me["max_hunger"] - 1:
                tier = max([PICK.get(t["card"], 0) for t in me["tools"]] + [0])
                self.idle[min(tier, 2)] += 1   # a whole turn idle on a full belly: work out of reach
        return choice


def _oracle_bot(bot: str, seed: int, last: list[State]) -> Bot:
    """``bot`` (a planner class taking ``peek``) seeing the TRUE face-down cards of the running game."""
    def peek(x: int, y: int, level: int) -> str | None:
        if not last:
            return None
        stack = last[0].cells[y * last[0].w + x]  # type: ignore[attr-defined]
        return str(stack[level - 1]["c"]) if 0 < level <= len(stack) else None
    cls = load_bot(bot, "blockcraft", seed).__class__
    return cls(seed, peek=peek)  # type: ignore[call-arg]


def deal_only(character: str) -> None:
    """Patch the deal (this process only): the solo seat is offered ``character`` and nothing else."""
    import referee.games.blockcraft.setup as setup
    dealt = setup.deal_characters

    def deal(st: Any) -> None:
        dealt(st)   # the RNG is used as in a real game, so the map and the draws stay the seed's
        st.p[0].options = [character]

    setup.deal_characters = deal


#: rules an offline run may relax (``--relax``), to measure which constraint binds the chain
RELAX = {
    "torch": "Night never shortens the reach (a torch without its block slot)",
    "wheat": "wheat never counts toward the hand limit",
    "hand": "no hand limit at all",
}


def relax(names: list[str]) -> None:
    """Patch the rules (this process only; a cheat for analysis, never a match) as ``RELAX`` says."""
    import referee.games.blockcraft.rules.flow as flow
    import referee.games.blockcraft.rules.geometry as geometry
    has_block, limit = geometry.has_block, flow.hand_limit
    if "torch" in names:
        geometry.has_block = lambda p, card: card == "torch" or has_block(p, card)
    if "wheat" in names:
        flow.hand_limit = lambda p: limit(p) + p.hand.get("wheat", 0)
    if "hand" in names:
        flow.hand_limit = lambda p: 99


def check_bot(ap: argparse.ArgumentParser, name: str) -> None:
    """One usage line (exit 2) for a bot name ``load_bot`` cannot make, before any game is played."""
    try:
        load_bot(name, "blockcraft", 0)
    except UnknownBot as exc:
        ap.error(str(exc))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bot", default="planner")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--seed-base", type=int, default=0)
    ap.add_argument("--stalls", type=int, default=8, help="stalled games to print")
    ap.add_argument("--oracle", action="store_true",
                    help="the planner sees the true face-down cards (a cheat, offline reference)")
    ap.add_argument("--character", help="deal this character alone (offline: its funnel on every seed)")
    ap.add_argument("--relax", action="append", default=[], choices=sorted(RELAX),
                    help="relax a rule (a cheat, offline; repeatable): "
                         + "; ".join(f"{k}: {v}" for k, v in RELAX.items()))
    a = ap.parse_args()
    check_bot(ap, a.bot)
    relax(a.relax)
    if a.character:
        deal_only(a.character)
    game = get_game("blockcraft")
    firsts: dict[str, list[int]] = {m: [] for m in MILESTONES}
    ends: Counter[str] = Counter()
    stalls = []
    lefts: Counter[str] = Counter()
    last: list[State] = []   # the running game's state (for --oracle)
    for seed in range(a.seed_base, a.seed_base + a.games):
        last.clear()
        inner = _oracle_bot(a.bot, seed * 31, last) if a.oracle else load_bot(a.bot, "blockcraft", seed * 31)
        w = Watch(inner)
        res = run_match(game, [w], seed=seed, options={"mode": "extreme"},
                        on_ply=lambda st, _n: last.append(st) if not last else None)
        end = str(res.outcome.details.get("reason"))   # the engine's reason; outcome.reason says "normal"
        ends[end] += 1
        if end == "target_card":
            w.first["world_core"] = w.last.get("round", 0)
        for m, r in w.first.items():
            if m in firsts:
                firsts[m].append(r)
        stalls.append((seed, dict(sorted(w.first.items(), key=lambda kv: kv[1])), w.last))
        lefts["deep dug"] += 16 - w.last.get("deep_left", 16)
        lefts["under dug"] += 4 - w.last.get("under_left", 4)
        lefts["AP spent"] += w.ap[0]
        lefts["turns without AP"] += w.ap[1]
        for t in range(3):
            lefts[f"idle full turns, pickaxe tier {t}"] += w.idle[t]
    who = f"{a.bot} (oracle)" if a.oracle else a.bot
    who += f" as {a.character}" if a.character else ""
    who += f", relaxed: {', '.join(a.relax)}" if a.relax else ""
    print(f"{a.games} solo games, bot {who}, seeds {a.seed_base}..{a.seed_base + a.games - 1}")
    for m in MILESTONES:
        rs = firsts[m]
        med = statistics.median(rs) if rs else "-"
        print(f"  {m:<15} {len(rs):>4} games, median round {med}")
    print("  ends:", dict(ends))
    print("  mean cards dug per game:", {k: round(v / a.games, 2) for k, v in lefts.items()})
    for seed, firsts_of, end_of in stalls[:a.stalls]:
        print(f"  seed {seed}: {firsts_of}; at the end {end_of}")


if __name__ == "__main__":
    main()
