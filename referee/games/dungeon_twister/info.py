"""DT-1: static game information and the safety limit derived from DT-8.4."""
from __future__ import annotations

from referee.engine import GameInfo

#: DT-1.3: the largest ``max_turns`` an organizer may set.
MAX_TURNS_LIMIT = 400

#: DT-8.4: a turn is 1 action card + at most 5 card AP + 8 potion AP (two potions) actions,
#: each at most 25 decisions (a move: 1 + 5 steps + 6 visits x 3 free sub-actions + end_move),
#: + end_turn. Setup is 8 starters + 20 placements.
DECISIONS_PER_TURN = 1 + (5 + 8) * 25 + 1
SETUP_DECISIONS = 8 + 20
SAFETY_LIMIT = SETUP_DECISIONS + DECISIONS_PER_TURN * MAX_TURNS_LIMIT

INFO = GameInfo(
    id="dungeon_twister",
    name="Dungeon Twister",
    version="1.0.0",
    min_players=2,
    max_players=2,
    cooperative=False,
    safety_limit=SAFETY_LIMIT,
    hidden_information=True,
    simultaneous=True,
    description="Two-player tactical dungeon race: secret starting teams, face-down rooms and tokens, "
                "rotating rooms, deterministic group combat with secret combat cards.",
)
