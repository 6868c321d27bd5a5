"""MM-1: static game information and the decision bound from MM-8.6."""
from __future__ import annotations

from referee.engine import GameInfo

#: MM-8.2 the round limit may be set up to this value (MM-4.1 option ``round_limit``).
MAX_ROUND_LIMIT = 100
#: MM-8.6 decisions per round are bounded (steps from a bounded MP pool, once-per-turn free actions,
#: one reaction per monster attack); 400 per round is a generous bound, plus the setup drafts.
DECISIONS_PER_ROUND = 400

INFO = GameInfo(
    id="mice_and_mystics",
    name="Mice and Mystics",
    version="1.0.0",
    min_players=1,
    max_players=4,
    cooperative=True,
    safety_limit=MAX_ROUND_LIMIT * DECISIONS_PER_ROUND + 16,
    hidden_information=True,  # MM-7.2 deck orders and the set-aside boss cards
    simultaneous=False,       # MM-5.0 exactly one pending seat
    description="Cooperative dungeon crawl: 1-4 seats guide four mouse heroes through a chapter.",
)
