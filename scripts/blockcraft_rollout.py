"""Does search find the World Core? The planner improved by one-step rollouts (analysis, offline, slow).

    .venv/bin/python scripts/blockcraft_rollout.py --games 4                 # a cheat: the true state
    .venv/bin/python scripts/blockcraft_rollout.py --games 4 --samples 4     # fair: what the seat knows
    .venv/bin/python scripts/blockcraft_rollout.py --games 10 --round 24     # from an ideal position

At every decision with a choice, the planner's own choice and up to ``--cap`` other legal actions are each
played out to the end of the game by the planner (a rollout), and the action whose rollouts end with the
most of the World Core's chain wins (``worth``: the World Core, else the chain's cards held at the end).
Rollout improvement over a base policy (Bertsekas): on the true state it is never worse than the planner
(the planner's action is always a candidate and ties keep it); on samples it may be, since each decision
trusts a few imagined futures. It shows which of the planner's choices cost it the World Core.

``--samples 0`` (the default) plays the rollouts on the engine's TRUE state: the face-down cards and the
draw order are known, so it is a cheat, an upper bound on what this kind of search can reach. ``--samples
M`` plays each candidate on M states redeterminized from the seat's information set
(``State.redeterminize``, the forward model's samples), as a bot could. A real game costs about 400 s a
seed at ``--cap 6`` (one core), so it measures few seeds: read its figures as a direction, not a rate.
``--round R`` starts from ``blockcraft_ideal.py``'s ideal round-R position instead (0.1 s a rollout).
"""
from __future__ import annotations

import argparse
import copy
import random
import time
from collections import Counter
from typing import Any

from arena.botspec import load_bot
from bots.sdk import Bot
from referee.engine import State, get_game
from referee.engine.agent import DecisionRequest
from referee.engine.rng import Rng

GAME = get_game("blockcraft")
#: what a card held at the end is worth, up to the count the World Core's chain needs
HELD = {"gold_ingot": (2, 37), "gold_ore": (2, 12), "diamond": (1, 25), "glass": (1, 15), "sand": (1, 5),
        "ender_pearl": (1, 15), "iron_ingot": (3, 6), "iron_ore": (3, 3), "coal_ore": (2, 2)}
#: equipment that the chain needs
EQUIPPED = {"iron_pickaxe": 30, "furnace": 10, "crafting_table": 20}
WORLD_CORE = 1000.0


def holds(st: State) -> Counter[str]:
    """The seat's cards in hand and in its chests."""
    p = st.p[0]   # type: ignore[attr-defined]
    cards = Counter(p.hand)
    for b in p.blocks:
        for card, _stored in (b or {}).get("chest", []):
            cards[card] += 1
    return cards


def worth(st: State) -> float:
    """How far the game got toward the World Core (the rollouts' score)."""
    out = st.outcome()
    if out is not None and out.details.get("reason") == "target_card":
        return WORLD_CORE
    p = st.p[0]   # type: ignore[attr-defined]
    cards = holds(st)
    equipped = {t["card"] for t in p.tools if t} | {b["card"] for b in p.blocks if b}
    score = sum(w for card, w in EQUIPPED.items() if card in equipped)
    score += sum(min(cap, cards[card]) * w for card, (cap, w) in HELD.items())
    return score - 200.0 * (p.stamina <= 0)


def finish(st: State, bot: Bot, n: int = 0) -> State:
    """Play the bot on to the end of the game (the state is changed in place)."""
    while st.outcome() is None:
        seat = st.pending()[0]
        legal = st.legal_actions(seat)
        choice = bot.act(DecisionRequest("rollout", n, "blockcraft", seat, st.observe(seat), legal, []))
        st.apply_trusted(seat, legal[choice] if isinstance(choice, int) else choice)
        n += 1
    return st


def play(st: State, bot: Bot, rng: random.Random, cap: int, samples: int,
         changed: Counter[tuple[str, str]] | None = None, margin: float = 0.0) -> int:
    """Play one game with rollouts; the number of rollouts. Another action overrules the planner's when its
    mean worth is more than ``margin`` higher; ``changed`` counts those (planner's, chosen) action types."""
    n = rollouts = 0
    while st.outcome() is None:
        seat = st.pending()[0]
        legal = st.legal_actions(seat)
        choice = bot.act(DecisionRequest("rollout", n, "blockcraft", seat, st.observe(seat), legal, []))
        mine = legal[choice] if isinstance(choice, int) else choice
        best = mine
        if len(legal) > 1:
            others = [a for a in legal if a != mine]
            candidates = [mine] + (rng.sample(others, cap) if len(others) > cap else others)
            worlds = [st] if not samples else [st.redeterminize(seat, Rng(rng.randrange(2 ** 62)))
                                               for _ in range(samples)]
            best_worth, mine_worth = -1e9, 0.0
            for a in candidates:
                total = 0.0
                for world in worlds:
                    sim = world.clone()
                    sim.apply_trusted(seat, a)
                    total += worth(finish(sim, copy.deepcopy(bot), n + 1))
                    rollouts += 1
                total /= len(worlds)
                if a is mine:
                    mine_worth = best_worth = total
                elif total > max(best_worth, mine_worth + margin) + 1e-9:   # ties keep the planner's
                    best, best_worth = a, total
            if changed is not None and best != mine:
                changed[(mine["type"], best["type"])] += 1
        st.apply_trusted(seat, best)
        n += 1
    return rollouts


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bot", default="planner", help="the base policy (default: the built-in planner)")
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--seed-base", type=int, default=0)
    ap.add_argument("--cap", type=int, default=6, help="other legal actions tried at each decision")
    ap.add_argument("--samples", type=int, default=0,
                    help="redeterminized states per candidate (0: the true state, a cheat)")
    ap.add_argument("--margin", type=float, default=0.0,
                    help="mean worth by which another action must beat the planner's to overrule it")
    ap.add_argument("--round", type=int, default=0, dest="rnd",
                    help="start from blockcraft_ideal.py's ideal position at this round (0: a real game)")
    a = ap.parse_args()
    if a.games < 1 or a.cap < 0 or a.samples < 0 or not 0 <= a.rnd <= 36:
        ap.error("--games must be at least 1, --cap and --samples at least 0, --round 0-36")
    from blockcraft_funnel import check_bot  # sibling scripts (run from scripts/, they are on sys.path)
    from blockcraft_ideal import ideal
    check_bot(ap, a.bot)
    how = f"{a.samples} redeterminized state(s) a candidate" if a.samples else "the true state (a cheat)"
    start = f"an ideal round-{a.rnd} position" if a.rnd else "a real game"
    print(f"{a.bot} with rollouts on {how}, cap {a.cap}, margin {a.margin:g}, from {start}:")
    cores, reached = 0, Counter[str]()
    changed: Counter[tuple[str, str]] = Counter()
    for seed in range(a.seed_base, a.seed_base + a.games):
        t0 = time.time()
        st: Any = (ideal(seed, a.rnd, "h_woodcutter") if a.rnd
                   else GAME.new_state(1, {"mode": "extreme"}, seed))
        bot = load_bot(a.bot, "blockcraft", seed * 31)
        n = play(st, bot, random.Random(seed), a.cap, a.samples, changed, a.margin)
        won = worth(st) == WORLD_CORE
        cores += won
        p = st.p[0]
        equipped = [t["card"] for t in p.tools if t] + [b["card"] for b in p.blocks if b]
        reached.update(c for c in ("furnace", "iron_pickaxe") if c in equipped)
        held = holds(st)
        print(f"  seed {seed}: {'WORLD CORE' if won else f'worth {worth(st):.0f}'}; {', '.join(equipped)}; "
              f"holds {', '.join(f'{c} {k}' for c, k in sorted(held.items()))}; {n} rollouts, "
              f"{time.time() - t0:.0f} s", flush=True)
    print(f"World Core {cores} / {a.games}; furnace {reached['furnace']}, iron pickaxe "
          f"{reached['iron_pickaxe']} (held at the end)")
    print("the planner overruled (its action -> the rollouts'): "
          + (", ".join(f"{x} -> {y} {k}" for (x, y), k in changed.most_common(12)) or "never"))


if __name__ == "__main__":
    main()
