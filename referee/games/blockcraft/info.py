"""Static game information (BC-1.1) and the safety limit derived from BC-8.8."""
from __future__ import annotations

from referee.engine import GameInfo

from .options import MAX_ROUNDS_CAP

# BC-8.8 / BC-6.12: a turn is at most 200 decisions of the current player, plus its settlement discards
# (every card of the game, 400), its end phase (2), one dodge (Touch once per turn), and rescue
# decisions: every damage-dealing decision (<= 200) can down each of 10 characters, whose window asks
# 9 rescuers at most 8 times each (7 feeds fill any hunger, then pass). Plus setup: 2 decisions a seat.
PER_TURN = 200 + 400 + 2 + 1 + 200 * 10 * 9 * 8
SAFETY_LIMIT = 10 * 2 + (MAX_ROUNDS_CAP + 1) * 10 * PER_TURN

INFO = GameInfo(
    id="blockcraft", name="Blockcraft", version="1.1.0", min_players=1, max_players=10, cooperative=False,
    safety_limit=SAFETY_LIMIT, hidden_information=True, simultaneous=True,
    description="Minecraft-style card game on a grid of face-down stacks: boss, team, overlord and extreme "
                "modes",
)
