"""CK-1 / CK-5.27: the only option, ``round_limit`` (one mode, ``standard``)."""
from __future__ import annotations

from referee.engine import Option, OptionsSpec

#: [design] the spec allows any integer >= 1; we cap it so the static safety limit (info.py) holds.
MAX_ROUND_LIMIT = 100

OPTIONS = OptionsSpec(
    Option("round_limit", 40, "rounds before the neutral dragon pawn starts the countdown (CK-5.27)",
           min=1, max=MAX_ROUND_LIMIT),
)
