"""How often can a player who cannot see face-down cards keep the gold and diamond the World Core needs?

    .venv/bin/python scripts/blockcraft_luck.py --games 200

Solo `extreme` (map A): the chain needs 7 stone (stone pickaxe 3, furnace 4) and 3 iron ore before the iron
pickaxe, and gold ore and diamond need that iron pickaxe: dug with a weaker one they are destroyed. Stone
comes only from the Underground (2), the reserve deck (2, one draw a round) and the Deep layer (4 of 16),
so the missing stone (and iron) must be dug blind out of the Deep layer, where 6 of the 16 cards are gold
and diamond. For each seed's real decks this counts, over random blind dig orders (a player without
information digs in an order unrelated to the cards), how often at least 2 gold ore and 1 diamond are left
undug once the stone and iron are complete, if the blind Deep digging starts after round R. Everything else
is assumed free (every Underground card dug with the right tier in time, no hunger or hand limit, no time
cost after R), and a destroyed card never comes back, so the figure bounds honest play from above except
for the late reshuffle of the discard pile (rounds 29-36 draw from it).
"""
from __future__ import annotations

import argparse
from typing import Any

from referee.engine import get_game
from referee.engine.rng import Rng


def decks(seed: int) -> tuple[list[str], list[str], list[str]]:
    """The Underground cards, the Deep cards and the reserve cards in draw order (the hand's 2 first)."""
    st: Any = get_game("blockcraft").new_state(1, {"mode": "extreme"}, seed=seed)
    under = [c["c"] for s in st.cells for c in s if c["l"] == "U"]
    deep = [c["c"] for s in st.cells for c in s if c["l"] == "D"]
    hand = [c for c, n in sorted(st.p[0].hand.items()) for _ in range(n)]
    return under, deep, hand + list(reversed(st.draw_pile))


def kept(under: list[str], deep: list[str], reserve: list[str], start: int, order: list[int]) -> bool:
    """Blind Deep digs in ``order`` after round ``start``: are 2 gold and 1 diamond still in the ground?"""
    drawn = reserve[:2 + start]
    stone = under.count("stone") + drawn.count("stone")
    iron = under.count("iron_ore") + drawn.count("iron_ore")
    dug: set[int] = set()
    for i in order:
        if stone >= 7 and iron >= 3:
            break
        dug.add(i)
        stone += deep[i] == "stone"
        iron += deep[i] == "iron_ore"
    if stone < 7 or iron < 3:
        return False
    left = [deep[i] for i in range(len(deep)) if i not in dug]
    return left.count("gold_ore") >= 2 and left.count("diamond") >= 1


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed-base", type=int, default=0)
    ap.add_argument("--orders", type=int, default=100, help="random blind dig orders per seed")
    a = ap.parse_args()
    starts = (4, 8, 12, 16, 20, 24, 28)
    ok = dict.fromkeys(starts, 0)
    for seed in range(a.seed_base, a.seed_base + a.games):
        under, deep, reserve = decks(seed)
        rng = Rng(f"luck:{seed}")
        for _ in range(a.orders):
            order = rng.shuffled(list(range(len(deep))))
            for r in starts:
                ok[r] += kept(under, deep, reserve, r, order)
    n = a.games * a.orders
    print(f"{a.games} seeds x {a.orders} blind dig orders: 2 gold + 1 diamond still undug once stone and iron"
          " are complete")
    for r in starts:
        print(f"  Deep digging from round {r:>2}: {100 * ok[r] / n:5.1f} %")


if __name__ == "__main__":
    main()
