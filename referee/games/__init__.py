"""The five built-in games. One line per game: id -> "module:attribute" of its ``Game``."""
from __future__ import annotations

BUILTIN: dict[str, str] = {
    "blockcraft": "referee.games.blockcraft:GAME",
    "clank": "referee.games.clank:GAME",
    "dungeon_twister": "referee.games.dungeon_twister:GAME",
    "greyport": "referee.games.greyport:GAME",
    "mice_and_mystics": "referee.games.mice_and_mystics:GAME",
}
