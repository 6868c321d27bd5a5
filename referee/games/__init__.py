"""The five built-in games. One line per game: id -> "module:attribute" of its ``Game``."""
from __future__ import annotations

BUILTIN: dict[str, str] = {
    "clank": "referee.games.clank:GAME",
    "greyport": "referee.games.greyport:GAME",
    "mice_and_mystics": "referee.games.mice_and_mystics:GAME",
}
