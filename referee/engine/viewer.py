"""Who is looking: a seat number, PUBLIC (spectators while the game runs) or ALL (post-game)."""
from __future__ import annotations

from typing import Final, Literal

PUBLIC: Final = "public"
ALL: Final = "all"

Seat = int
Viewer = int | Literal["public", "all"]


def parse_viewer(text: str | int) -> Viewer:
    """'public', 'all' or a seat number, as typed on a command line or in a URL."""
    if isinstance(text, int):
        return text
    t = text.strip().lower()
    if t == PUBLIC:
        return PUBLIC
    if t == ALL:
        return ALL
    if t.isdigit():
        return int(t)
    raise ValueError(f"viewer must be a seat number, 'public' or 'all', not {text!r}")
