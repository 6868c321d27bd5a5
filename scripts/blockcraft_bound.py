"""An upper bound on the solo World Core rate of any player who cannot see face-down cards, with time.

    .venv/bin/python scripts/blockcraft_bound.py --games 200

``blockcraft_luck.py`` asks whether 2 gold ore and 1 diamond are still in the Deep layer once the stone and
iron are complete, with digging free and instant. This adds the clock: from round R the player digs the
Deep layer blind at D cards a round (every other step of the chain is free: the Surface and Underground are
already open, both Underground stones and its iron are in hand, the stone pickaxe exists, the hand holds
everything, the pearl, sand, fuel and sticks are there). Once 7 stone and 3 iron ore are in (counting the
reserve cards drawn so far), the furnace is built and the iron smelted that same round, the iron pickaxe is
made the next round, from which the Deep digs keep gold and diamond; the round 2 gold ore and a diamond are
in, they are smelted, and the World Core is crafted the round after, which must be round 36 or earlier.
From round 29 the draws come from the reshuffled discard pile, estimated as the destroyed cards shuffled with
46 useless ones (the reserve and the Surface, spent by then); the only estimate in the bound.

A real player also walks, opens the Surface and Underground, farms, meets the hand limit and Night (reach
0), so its rate is below this figure for the same R and D. Prints, for each D, the best fixed R and its rate.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the sibling script's deck reader
from blockcraft_luck import decks  # noqa: E402

from referee.engine.rng import Rng

ROUNDS = 36
#: reserve cards in hand before round 1 (starting hand) and drawn before round 29 (the reserve deck)
HAND, RESERVE = 2, 30


def finish_round(under: list[str], deep: list[str], reserve: list[str], order: list[int], start: int,
                 rate: int, rng: Rng) -> int | None:
    """The round the World Core is crafted (None: never by round 36) for Deep digs in ``order``."""
    have = {"stone": under.count("stone"), "iron_ore": under.count("iron_ore"), "gold_ore": 0, "diamond": 0}
    lost: list[str] = []
    pile: list[str] | None = None
    drawn = min(HAND + start - 1, RESERVE)
    for c in reserve[:drawn]:
        if c in have:
            have[c] += 1
    tier = 2
    pick_round = None
    left = list(order)
    for rnd in range(start, ROUNDS + 1):
        if HAND + rnd - 1 < RESERVE:   # round r draws reserve card r + 1 (the hand holds cards 0 and 1)
            c = reserve[HAND + rnd - 1]
            if c in have:
                have[c] += 1
        else:
            if pile is None:   # the reshuffle: the destroyed cards among the spent ones
                pile = rng.shuffled(lost + ["spent"] * (RESERVE + 16))
            c = pile.pop(0) if pile else ""
            if c in have:
                have[c] += 1
        if pick_round is not None and rnd >= pick_round:
            tier = 3
        for _ in range(rate):
            if tier >= 3 and have["gold_ore"] >= 2 and have["diamond"] >= 1:
                break
            if tier < 3 and have["stone"] >= 7 and have["iron_ore"] >= 3:
                break
            if not left:
                break
            card = deep[left.pop(0)]
            if card in ("gold_ore", "diamond") and tier < 3:
                lost.append(card)
            elif card in have:
                have[card] += 1
        if tier < 3 and pick_round is None and have["stone"] >= 7 and have["iron_ore"] >= 3:
            pick_round = rnd + 1   # furnace and smelt now, ingots and the pickaxe next round
        if tier >= 3 and have["gold_ore"] >= 2 and have["diamond"] >= 1:
            return rnd + 1 if rnd + 1 <= ROUNDS else None   # smelt the gold now, craft next round
    return None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed-base", type=int, default=0)
    ap.add_argument("--orders", type=int, default=50, help="random blind dig orders per seed")
    a = ap.parse_args()
    rates = (2, 3, 4, 16)
    starts = range(2, 33, 2)
    ok = {(d, r): 0 for d in rates for r in starts}
    for seed in range(a.seed_base, a.seed_base + a.games):
        under, deep, reserve = decks(seed)
        rng = Rng(f"bound:{seed}")
        for _ in range(a.orders):
            order = rng.shuffled(list(range(len(deep))))
            for d in rates:
                for r in starts:
                    ok[(d, r)] += finish_round(under, deep, reserve, order, r, d, rng) is not None
    n = a.games * a.orders
    print(f"{a.games} seeds x {a.orders} blind Deep dig orders: World Core by round {ROUNDS},"
          " everything but the Deep digs free")
    for d in rates:
        row = "  ".join(f"R{r}:{100 * ok[(d, r)] / n:4.1f}" for r in starts)
        best = max(starts, key=lambda r: ok[(d, r)])
        print(f"  {d:>2} Deep digs a round: best start round {best}, {100 * ok[(d, best)] / n:.1f} %")
        print(f"     {row}")


if __name__ == "__main__":
    main()
