"""Liar's Dice for Arena (an outside game package; see README.md)."""
from __future__ import annotations

from .game import GAME, LiarsDice

__all__ = ["GAME", "LiarsDice"]
