#!/usr/bin/env python3
"""Regenerate the golden playthroughs in tests/golden/ (OpenSpiel-style).

Each file shows, for a fixed seed and random play, every decision with each seat's view and the
public view side by side for the first plies, so a reader sees at a glance what each seat may know.
A behaviour change shows up as a diff here (and must come with a game version bump).

    python scripts/playthroughs.py                   # every registered game with a golden file
    python scripts/playthroughs.py clank             # one game
    python scripts/playthroughs.py mypkg.mygame:GAME # an outside game (writes its Game.golden_file())
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from referee.engine import PUBLIC, Game, Rng, all_games  # noqa: E402
from referee.engine.registry import load_game  # noqa: E402
from referee.games import BUILTIN  # noqa: E402

PLIES = 12
GOLDEN = ROOT / "tests" / "golden"


def playthrough(game: Game, seed: int = 1) -> str:
    players = game.info.min_players if game.info.min_players > 1 else min(2, game.info.max_players)
    state = game.new_state(players, None, seed)
    rng = Rng(f"golden:{seed}")
    out = [f"game: {game.info.id} v{game.info.version}", f"players: {players}", f"seed: {seed}", ""]

    def dump(tag: str, value: object) -> None:
        out.append(f"  {tag}: {json.dumps(value, sort_keys=True, separators=(',', ':'))}")

    for ply in range(PLIES + 1):
        pending = state.pending()
        out.append(f"ply {ply}  pending {pending}")
        for seat in range(players):
            dump(f"view[{seat}]", state.observe(seat))
        dump("view[public]", state.observe(PUBLIC))
        if not pending or ply == PLIES:
            break
        for seat in pending:
            legal = state.legal_actions(seat)
            dump(f"legal[{seat}]", legal)
        picks = [(s, rng.choice(state.legal_actions(s))) for s in pending]
        for seat, action in picks:
            dump(f"apply[{seat}]", action)
            state.apply(seat, action)
        out.append("")
    out.append(f"digest: {state.digest()}")
    return "\n".join(out) + "\n"


def golden_path(game: Game) -> Path | None:
    """Where ``game``'s golden playthrough lives: its own declaration (``Game.golden_file``), else
    tests/golden/<id>.txt for a game of this repository (or one that has a file there); else none."""
    declared = game.golden_file()
    if declared is not None:
        return declared
    here = GOLDEN / f"{game.info.id}.txt"
    return here if game.info.id in BUILTIN or here.exists() else None


def main(argv: list[str]) -> None:
    games = [load_game(g) for g in argv] if argv else all_games()
    for game in games:
        path = golden_path(game)
        if path is None:
            print(f"skipped {game.info.id}: it declares no golden file (Game.golden_file)")
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(playthrough(game))
        print(f"wrote {path}")


if __name__ == "__main__":
    main(sys.argv[1:])
