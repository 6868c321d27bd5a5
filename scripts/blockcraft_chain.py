"""Where solo Blockcraft runs stop on the World Core chain (analysis of a bot, not a bot).

    .venv/bin/python scripts/blockcraft_chain.py --bot planner --games 200
    .venv/bin/python scripts/blockcraft_chain.py --bot first-planner --oracle --games 200

``--bot`` takes a built-in name (``planner`` = ``bots.planner.turnplan:TurnPlanBot``) or ``module:Class``;
``first-planner`` is ``bots.planner.blockcraft:PlannerBot`` and ``rover`` ``bots.planner.rover:RoverBot``.
``--oracle`` gives the first planner the TRUE face-down cards (a cheat, offline only) to measure what the
blind Deep digs cost.

Plays solo `extreme` games in process and reads each finished game's event log (every event,
private ones included: this is an offline analysis of finished games, nothing reaches a bot):
how many games crafted each step of the chain, how stone arrived and left, how games ended.
"""
from __future__ import annotations

import argparse
from collections import Counter
from typing import Any

from arena.botspec import load_bot
from bots.planner.blockcraft import PlannerBot
from bots.sdk import Bot
from referee.engine import State, get_game, run_match

#: the World Core chain in order: crafted (`craft`) or smelted (`smelted`) outputs
CHAIN = ["crafting_table", "wooden_pickaxe", "stone_pickaxe", "furnace", "iron_ingot", "iron_pickaxe",
         "gold_ingot", "glass", "world_core"]
PLANNER = "bots.planner.blockcraft:PlannerBot"


def chain_of(entries: list[Any]) -> tuple[set[str], Counter[str], str]:
    """The chain steps a game's log shows, its stone flow and how it ended."""
    steps: set[str] = set()
    stone: Counter[str] = Counter()
    end = "running"
    for e in entries:
        text = str(e.data)
        if e.kind in ("craft", "smelted"):
            steps.update(s for s in CHAIN if s in text)
        elif e.kind == "drew" and e.data.get("card") == "stone":
            stone["drawn"] += 1
        elif e.kind == "dig" and e.data.get("card") == "stone":
            stone["dug" if e.data.get("ok") else "destroyed"] += 1
        elif e.kind == "discard" and e.data.get("card") == "stone":
            stone["discarded"] += 1
        elif e.kind == "game_over":
            end = str(e.data.get("reason"))
    return steps, stone, end


def _oracle_bot(seed: int, last: list[State]) -> Bot:
    """The planner peeking at the true face-down cards of the running game (``last[0]``)."""
    def peek(x: int, y: int, level: int) -> str | None:
        if not last:
            return None
        stack = last[0].cells[y * last[0].w + x]  # type: ignore[attr-defined]
        return str(stack[level - 1]["c"]) if 0 < level <= len(stack) else None
    return PlannerBot(seed, peek=peek)


def run(bot: str, games: int, seed_base: int, oracle: bool = False) -> dict[str, Counter[str]]:
    game = get_game("blockcraft")
    reached: Counter[str] = Counter()
    stone: Counter[str] = Counter()
    ends: Counter[str] = Counter()
    last: list[State] = []
    name = {"first-planner": PLANNER, "rover": "bots.planner.rover:RoverBot"}.get(bot, bot)
    for seed in range(seed_base, seed_base + games):
        last.clear()
        agent = _oracle_bot(seed * 31, last) if oracle else load_bot(name, "blockcraft", seed * 31)
        run_match(game, [agent], seed=seed, options={"mode": "extreme"},
                  on_ply=lambda st, _n: last.append(st) if not last else None)
        steps, flow, end = chain_of(last[0].log.entries)
        reached.update(steps)
        stone.update(flow)
        ends[end] += 1
    return {"reached": reached, "stone": stone, "ends": ends}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bot", default="heuristic")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--seed-base", type=int, default=0)
    ap.add_argument("--oracle", action="store_true",
                    help="the first planner sees the true face-down cards (cheat)")
    a = ap.parse_args()
    from blockcraft_funnel import check_bot  # a sibling script (run from scripts/, it is on sys.path)
    check_bot(ap, a.bot)
    out = run(a.bot, a.games, a.seed_base, a.oracle)
    who = f"{a.bot} (oracle)" if a.oracle else a.bot
    print(f"{a.games} solo games, bot {who}, seeds {a.seed_base}..{a.seed_base + a.games - 1}")
    for step in CHAIN:
        print(f"  {step:<15} crafted in {out['reached'][step]:>4} games")
    print("  stone:", dict(out["stone"]))
    print("  ends: ", dict(out["ends"]))


if __name__ == "__main__":
    main()
