"""The reshuffle route to the World Core: the discard pile of a solo game at round 29 (analysis, not a bot).

    .venv/bin/python scripts/blockcraft_pile.py --games 60

Gold ore and diamond destroyed by blind Deep digs go to the discard pile (BC-5.12.4), which becomes the draw
pile when the 30 reserve cards run out: the draw of round 29 (2 in the starting hand, one a round). From
the reshuffled pile the World Core needs only a furnace (2 gold ore smelted by round 35, a diamond drawn
by round 36): no stone or iron pickaxe. So a player who digs the whole Deep layer blind by round 28 and
keeps the pile small has a second route. This prints

1. the chance of that route for a pile of N cards holding every gold ore and diamond of map A (3 and 3),
   exactly (the draw order is a uniform permutation): 2 gold among the first 7 draws, a diamond among 8;
2. the pile the bot (``--bot``, default the planner) really leaves at the reshuffle: its size, the gold
   and diamond in it, and the Deep cards opened by then.

The smallest pile any player can leave is about 25: the reserve holds 20 cards that cannot be placed on the
map (apples, raw meat, coal, iron ore, pearls, TNT) and a hand of 5 plus a chest of 4 keeps at most 9 of them;
the Surface's 3 food cards are eaten on the way to the Deep cards under them; 3 logs become planks for the
first tools; and the 6 gold and diamond the route needs are in the pile too, with the iron and obsidian a
wooden pickaxe destroys.
"""
from __future__ import annotations

import argparse
import statistics
from collections import Counter
from math import comb
from typing import Any

from arena.botspec import load_bot
from referee.engine import get_game, run_match

#: draws from the reshuffled pile in time: gold by round 35 (smelted for round 36), a diamond by round 36
GOLD_DRAWS, DIAMOND_DRAWS = 7, 8


def route_chance(pile: int, gold: int = 3, diamond: int = 3) -> float:
    """P(at least 2 gold among the first 7 cards and a diamond among the first 8) of a shuffled pile."""
    other = pile - gold - diamond
    total = 0.0
    for g in range(2, min(gold, GOLD_DRAWS) + 1):
        for d in range(0, min(diamond, GOLD_DRAWS - g) + 1):
            o = GOLD_DRAWS - g - d
            if o > other:
                continue
            first7 = comb(gold, g) * comb(diamond, d) * comb(other, o) / comb(pile, GOLD_DRAWS)
            if d >= 1:
                total += first7
            elif pile > GOLD_DRAWS:   # the 8th card is one of the diamonds still in the pile
                total += first7 * diamond / (pile - GOLD_DRAWS)
    return total


def at_reshuffle(bot: str, seed: int) -> dict[str, Any] | None:
    """The discard pile when the draw pile first runs dry (round 20 or later), and the Deep cards opened."""
    snap: dict[str, Any] = {}

    def on_ply(st: Any, _n: int) -> None:
        if "pile" not in snap and not st.draw_pile and st.round >= 20:
            snap["pile"] = Counter(st.discard_pile)
            snap["round"] = st.round
            snap["deep_open"] = sum(1 for s in st.cells if not s or s[0]["l"] != "D" or s[0]["s"] != "down")

    run_match(get_game("blockcraft"), [load_bot(bot, "blockcraft", seed * 31)], seed=seed,
              options={"mode": "extreme"}, on_ply=on_ply)
    return snap or None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bot", default="planner")
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--seed-base", type=int, default=0)
    a = ap.parse_args()
    print("chance of the route for a pile of N cards holding 3 gold ore and 3 diamonds:")
    sizes_shown = (12, 15, 20, 25, 30, 35, 40, 45)
    print("  " + "  ".join(f"N={n}: {100 * route_chance(n):4.1f} %" for n in sizes_shown))
    sizes, opened, held = [], [], Counter[tuple[int, int]]()
    for seed in range(a.seed_base, a.seed_base + a.games):
        snap = at_reshuffle(a.bot, seed)
        if snap is None:
            continue   # dead before the reshuffle
        sizes.append(sum(snap["pile"].values()))
        opened.append(snap["deep_open"])
        held[(snap["pile"]["gold_ore"], snap["pile"]["diamond"])] += 1
    if not sizes:
        print(f"{a.bot}: no game reached the reshuffle")
        return
    print(f"{a.bot}, {len(sizes)} of {a.games} games reached the reshuffle: pile {min(sizes)}-{max(sizes)}"
          f" cards (median {statistics.median(sizes)}), Deep cells opened by then"
          f" {statistics.mean(opened):.1f} of 16")
    print("  (gold ore, diamonds) in the pile: games  "
          + "  ".join(f"{k}: {v}" for k, v in sorted(held.items())))


if __name__ == "__main__":
    main()
