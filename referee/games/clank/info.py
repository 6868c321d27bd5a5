"""Static game information (CK-1) and the safety limit derived from CK-5.27 / CK-8.6."""
from __future__ import annotations

from referee.engine import GameInfo

from .options import MAX_ROUND_LIMIT

VERSION = "1.0.0"

#: CK-8.6: a game lasts at most ``round_limit + 4`` rounds of at most 4 turn slots.
MAX_TURNS = (MAX_ROUND_LIMIT + 4) * 4
#: [design] decisions in one turn: every action spends a hand card, a pool point, gold, a token or
#: capacity; with this content a turn takes far fewer than 120 decisions (random play: max ~45 seen).
MAX_DECISIONS_PER_TURN = 120

INFO = GameInfo(
    id="clank", name="Clank!", version=VERSION, min_players=2, max_players=4, cooperative=False,
    safety_limit=MAX_TURNS * MAX_DECISIONS_PER_TURN, hidden_information=True, simultaneous=False,
    description="Competitive deck-building dungeon race: sneak in, steal an artifact, get out before the "
                "dragon gets you.",
)
