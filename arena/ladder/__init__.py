"""The continuous ladder (issue 20): active versions keep playing their rating neighbours.

* ``pairing`` — pure: placement matches first, then the least recently played version against
  opponents close in rating, at the seat counts they accept (both seat orders on one deal where the
  fair-deal rules allow).
* ``matchmaker`` — the store side: one long-lived ``continuous`` tournament (a *season*) per game,
  topped up to ``ARENA_LADDER_INFLIGHT`` matches by a tick that is safe to run concurrently.
* ``suspension`` — N consecutive crashed or forfeited ladder matches suspend a version; retiring one.
* ``run`` — the tick loop without beat (``arena ladder run``); ``views`` — what the CLI and the
  dashboard show (ladder status, developers, versions, recent submissions).

The periodic Celery task is ``arena.ladder_tick`` (``arena.celery_app``), every ``ARENA_LADDER_TICK_S``.
"""
from __future__ import annotations

from .matchmaker import FORMAT, close_season, open_season, season, seasons, tick
from .suspension import reinstate, retire

__all__ = ["FORMAT", "close_season", "open_season", "reinstate", "retire", "season", "seasons", "tick"]
