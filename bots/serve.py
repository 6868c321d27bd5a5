"""The standard hosted command for built-in bots: ``python -m bots.serve random|heuristic``.

Reads ARENA_REFEREE and ARENA_TOKEN (set by the referee for hosted seats), plays whatever match
it is given with ``bots.builtin.make_bot(name, game, seed)`` and exits when the referee says
goodbye. With ``--live`` it stays connected and plays matches until interrupted (a live bot)::

    ARENA_TOKEN=... python -m bots.serve random --live --capacity 4 --address 127.0.0.1:50051
"""
from __future__ import annotations

import argparse
import contextlib
import logging
import os
import sys

# imported at the top on purpose: a sandboxed hosted bot's launcher pre-loads this module while it
# waits for its seat, so the match does not wait for these imports (referee/service/sandbox.py)
from bots.builtin import heuristic_available, make_bot
from bots.sdk.bot import Bot
from bots.sdk.client import BotRefused, run, start_seed
from referee.engine import game_ids, get_game
from referee.engine.agent import MatchStart


def preload() -> None:
    """Load every registered game (rules, content) and its heuristic bot's module now, at import: a
    sandboxed hosted bot's zygote imports this module once, so each match's process starts with them
    loaded instead of spending ~0.1 s of CPU on Clank's alone."""
    for game_id in game_ids():
        with contextlib.suppress(Exception):  # a game that cannot load fails in its own match, as before
            get_game(game_id)
            heuristic_available(game_id)


preload()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bots.serve", description=__doc__.splitlines()[0])
    ap.add_argument("name", help="built-in bot: random or heuristic")
    ap.add_argument("--address", default=os.environ.get("ARENA_REFEREE", "127.0.0.1:50051"))
    ap.add_argument("--token", default=os.environ.get("ARENA_TOKEN", ""))
    ap.add_argument("--games", default="", help="comma-separated game ids (default: all)")
    ap.add_argument("--capacity", type=int, default=int(os.environ.get("ARENA_CAPACITY", "1")),
                    help="seats at once [env ARENA_CAPACITY]")
    ap.add_argument("--live", action="store_true",
                    help="stay connected and reconnect (default when not hosted)")
    ap.add_argument("-v", "--verbose", action="store_true")
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    if not args.token:
        ap.error("no token: set ARENA_TOKEN or pass --token")

    hosted = "ARENA_MATCH_ID" in os.environ and not args.live

    def factory(start: MatchStart) -> Bot:
        return make_bot(args.name, start.game, start_seed(start))

    games = [g for g in args.games.split(",") if g]
    try:
        # A hosted bot reconnects after a dropped connection (its one-time token stays valid while its
        # seat waits) but gives up soon, so it never outlives a referee that went away.
        stats = run(factory, args.address, args.token, games, args.capacity,
                    give_up_s=10.0 if hosted else None,
                    client=f"bots.serve {args.name}", view_delta=True)
    except BotRefused as exc:
        print(f"refused by the referee: {exc}", file=sys.stderr)
        return 3
    except KeyboardInterrupt:
        return 130
    print(f"{args.name}: {stats.matches} match(es), {stats.decisions} decisions, "
          f"{len(stats.errors)} error(s)",
          file=sys.stderr)
    if hosted:
        # a hosted bot's sandbox is thrown away: skip the interpreter's and gRPC's slow tear-down,
        # the referee answers its organizer only once its bots are gone
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
