"""Deliberately broken live bots for `arena check-bot` tests: ``python broken_bots.py MODE``.

crash        exits with status 1 at its first decision
illegal      always answers an index outside the legal list
slow         under a tight deadline (< 2 s) takes 1.5 times the deadline to answer
noreconnect  plays well but exits when its connection drops, instead of reconnecting
wronggames   asks for a game the referee does not have
"""
from __future__ import annotations

import os
import sys
import time

from bots.random_bot import RandomBot
from bots.sdk import BotRefused, DecisionRequest, run


class Crash(RandomBot):
    def act(self, request: DecisionRequest) -> int:
        print("crashed on purpose", file=sys.stderr, flush=True)
        os._exit(1)


class Illegal(RandomBot):
    def act(self, request: DecisionRequest) -> int:
        return len(request.legal) + 5


class Slow(RandomBot):
    def act(self, request: DecisionRequest) -> int:
        limit = request.deadline_ms or 0
        if 0 < limit < 2000:
            time.sleep(1.5 * limit / 1000)
        return super().act(request)


def main(mode: str) -> int:
    bots = {"crash": Crash, "illegal": Illegal, "slow": Slow, "noreconnect": RandomBot,
            "wronggames": RandomBot}
    games = ["chess"] if mode == "wronggames" else []
    capacity = int(os.environ.get("ARENA_CAPACITY", "1"))
    try:
        run(bots[mode], games=games, capacity=capacity, reconnect=mode != "noreconnect",
            client=f"broken {mode}")
    except BotRefused as exc:
        print(f"refused by the referee: {exc}", file=sys.stderr)
        return 3
    except Exception as exc:  # noqa: BLE001 - the connection dropped: this bot just stops
        print(f"connection lost ({type(exc).__name__}); exiting", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
