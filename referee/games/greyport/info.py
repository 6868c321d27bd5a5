"""Static information about the game (GB-1, GB-8.3)."""
from __future__ import annotations

from referee.engine import GameInfo

from .options import ROUND_LIMIT_MAX

# GB-8.3 termination: at most 3 encounters x round_limit rounds (+1 setup round each). Per round
# (GB-5.3.6) every main action consumes something bounded: per seat <= 4 hero plays (1 + two rallies +
# solo bonus), <= 4 items, <= 4 x 4 fights (each hero readied at most by rewind + 2 echoes), <= 3 round
# abilities, 1 marker taunt, shake-offs within the hero plays -> <= 32 main actions, each with <= 6
# sub-decisions and <= N passes before the next; plus end-of-round decisions (shield windows <= N per
# damage instance, <= 60 instances; <= 20 discards; distribution <= 45). With N = 5:
# 5 x 32 x (1 + 6 + 5) + 5 + 60 x 5 + 20 + 45 + 1 = 2291 per round.
ROUNDS = 3 * (ROUND_LIMIT_MAX + 1)
SAFETY_LIMIT = ROUNDS * 2300 + 50

INFO = GameInfo(
    id="greyport", name="The Battle for Greyport", version="1.1.0", min_players=1, max_players=5,
    cooperative=True, safety_limit=SAFETY_LIMIT, hidden_information=True, simultaneous=False,
    description="Cooperative deck-building: defend Greyport's locations through a chapter of encounters.",
    # a tournament's team is three: chapter 1 is won by the heuristic team in 79.5 % of deals at 3 seats but
    # 50.5 % at 2 (README), so 2 deals a pairing at 2 seats left it level with random in 4 demos of 30
    default_seats=3,
)
