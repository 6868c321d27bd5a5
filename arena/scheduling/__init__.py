"""Scheduling: planning a tournament's matches (``formats``, pure code), their secret deals
(``deals``) and driving them to the end (``driver``: sends one task per match and sweeps up lost ones)."""
from __future__ import annotations

from .deals import BadKey, Dealer, deal_seed, new_key, verify
from .formats import (
                      DEAL_MODES,
                      FORMATS,
                      Pairing,
                      PlannedMatch,
                      ScheduleError,
                      cooperative,
                      default_format,
                      default_seats,
                      gauntlet,
                      rotation,
                      round_robin,
                      schedule,
                      seat_design,
                      seatings,
)

__all__ = ["DEAL_MODES", "FORMATS", "BadKey", "Dealer", "Pairing", "PlannedMatch", "ScheduleError",
           "cooperative",
           "deal_seed", "default_format", "default_seats", "gauntlet", "new_key", "rotation", "round_robin",
           "schedule", "seat_design", "seatings", "verify"]
