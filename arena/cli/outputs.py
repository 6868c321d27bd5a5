"""A hosted bot's own output in its latest matches (``arena bot output``, ``arena developer logs``)."""
from __future__ import annotations

import re
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from rich.markup import escape

from .common import console

if TYPE_CHECKING:   # the store (SQLAlchemy) loads only where the rows come from it
    from ..store.health import SeatOutput

#: C0 and C1 control characters but the newline and the tab: a bot's text must not drive the terminal of
#: whoever reads it (an escape sequence can retitle it, clear it, or write to its clipboard)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def printable(text: str) -> str:
    """``text`` with every control character but the newline and the tab shown as ``\\xNN``."""
    return _CONTROL.sub(lambda c: f"\\x{ord(c.group()):02x}", text)


def print_outputs(rows: Sequence[SeatOutput], sealed: int) -> None:
    """A heading per match (game, seat, rank, forfeit, when), then the bot's text as it wrote it."""
    if not rows:
        later = f" ({sealed} more once their deal groups are over)" if sealed else ""
        console.print(f"no match output recorded{later}: the bot wrote nothing in its finished matches, or "
                      "played none yet", highlight=False)
        return
    for row in rows:
        parts = [row.game, f"seat {row.seat}"]
        if row.rank:
            parts.append(f"rank {row.rank}")
        if row.forfeit:
            parts.append(f"forfeited: {row.forfeit}")
        if row.finished_at is not None:
            parts.append(row.finished_at.strftime("%Y-%m-%d %H:%M:%S UTC"))
        console.print(f"[bold]── match {row.match_id}[/bold] ({escape(', '.join(parts))})", highlight=False)
        text = printable(row.text)
        sys.stdout.write(text if text.endswith("\n") or not text else text + "\n")
        sys.stdout.flush()
    if sealed:
        console.print(f"{sealed} more match(es) with output wait for their deal group: shown once every "
                      "match dealt like them is played", highlight=False)
