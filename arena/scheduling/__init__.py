"""Scheduling: planning a tournament's matches (``formats``, pure code) and driving them to the end
(``driver``: sends one task per match and sweeps up lost ones)."""
from __future__ import annotations

from .formats import (
                      FORMATS,
                      PlannedMatch,
                      ScheduleError,
                      cooperative,
                      default_format,
                      default_seats,
                      derive_seed,
                      gauntlet,
                      rotation,
                      round_robin,
                      schedule,
)

__all__ = ["FORMATS", "PlannedMatch", "ScheduleError", "cooperative", "default_format", "default_seats",
           "derive_seed", "gauntlet", "rotation", "round_robin", "schedule"]
