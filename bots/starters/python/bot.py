"""__BOT_NAME__: an Arena bot (made by `arena new-bot --lang python`).

Edit ``act``: it gets what the referee sends this seat (``request.view``, ``request.legal``,
``request.events``) and returns an index into ``request.legal`` (or one of its actions).

    arena play clank --bots bot.py:MyBot,random            # in-process, no referee
    arena check-bot -- python bot.py                       # every game, faults, reconnects
    ARENA_TOKEN=... python bot.py --address HOST:PORT      # a live bot on a referee
"""
from __future__ import annotations

import argparse
import os
import random
import sys

from bots.sdk import Bot, DecisionRequest, MatchStart


class MyBot(Bot):
    """Plays a uniformly random legal action: replace with something clever."""

    def start(self, info: MatchStart) -> None:
        super().start(info)
        # The referee's per-seat seed: the same match replays the same choices.
        self.rng = random.Random(self.seed)
        self.events_seen = 0

    def act(self, request: DecisionRequest) -> int:
        self.events_seen += len(request.events)
        return self.rng.randrange(len(request.legal))


def main() -> int:
    ap = argparse.ArgumentParser(description="__BOT_NAME__, an Arena bot")
    ap.add_argument("--address", default=os.environ.get("ARENA_REFEREE", "127.0.0.1:50051"))
    ap.add_argument("--games", default="", help="comma-separated game ids (default: every game)")
    ap.add_argument("--capacity", type=int, default=int(os.environ.get("ARENA_CAPACITY", "1")),
                    help="seats at once [env ARENA_CAPACITY]")
    args = ap.parse_args()
    token = os.environ.get("ARENA_TOKEN", "")
    if not token:
        ap.error("set ARENA_TOKEN to the bot's token")

    from bots.sdk import BotRefused, run

    hosted = "ARENA_MATCH_ID" in os.environ  # launched by the referee for one match
    try:
        stats = run(MyBot, args.address, token, [g for g in args.games.split(",") if g], args.capacity,
                    client="__BOT_NAME__ (python)", give_up_s=10.0 if hosted else None)
    except BotRefused as exc:
        print(f"refused by the referee: {exc}", file=sys.stderr)
        return 3
    except KeyboardInterrupt:
        return 130
    print(f"__BOT_NAME__: {stats.matches} match(es), {stats.decisions} decisions, {len(stats.errors)} "
          "error(s)",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
