"""DT-7 / engine contract: ``redeterminize(seat, rng)`` re-draws everything ``seat`` cannot see.

Unknown to everyone: the tiles and orientations of face-down slots (DT-7.1), and before
DT-4.7 the first player. Unknown to ``seat``: the opponent's face-down tokens (DT-7.2; the
seat remembers its own placements, so they stay), the opponent's starters and pool during
setup (DT-7.3, DT-7.6), and the opponent's submitted combat card (DT-7.6). Everything is
re-drawn consistently: same handles, colours, slots and counts; starters are characters.
Every unknown pool is gathered in sorted order before it is drawn from, so the copy depends only
on what ``seat`` saw (the engine reseeds the copy's RNG and keeps only ``seat``'s events).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from referee.engine import Rng

if TYPE_CHECKING:
    from ..model import DTModel


def redraw_hidden(copy: DTModel, seat: int, rng: Rng) -> None:
    """Re-draw, in ``copy`` (a clone of the true state), what ``seat`` cannot see."""
    if copy.phase == "over":        # DT-7.9: nothing is hidden any more (and nothing random is left)
        return
    # DT-7.1: face-down tiles are a uniform draw of the unrevealed tiles and orientations.
    down = [s for s, slot in enumerate(copy.slots) if not slot.revealed]
    tiles = rng.shuffled(sorted(copy.slots[s].tile for s in down))
    for s, tile in zip(down, tiles, strict=True):
        copy.slots[s].tile = tile
        copy.slots[s].orientation = rng.below(4)
    if copy.phase in ("starters", "placement"):
        copy.first_seat = rng.below(2)
    other = 1 - seat
    toks = copy.tokens
    # The opponent's unknown tokens: face-down in rooms, starters (setup), pool (setup).
    starters = list(copy.starters[other]) if copy.phase in ("starters", "placement") else []
    hidden = sorted((t for t in toks.values() if t.colour == other and t.where == "hidden"),
                    key=lambda t: t.handle or "")
    pool = sorted(t.id for t in toks.values() if t.colour == other and t.where == "pool")
    unknown = sorted(starters + [t.id for t in hidden] + pool)
    chars = [tid for tid in unknown if toks[tid].char]
    new_starters = rng.sample(chars, len(starters))
    rest = rng.shuffled([tid for tid in unknown if tid not in new_starters])
    # Re-assign positions: starters keep their dots, hidden handles keep slot/handle, pool stays pool.
    slots_handles = [(t.slot, t.handle) for t in hidden]
    for tid in unknown:
        t = toks[tid]
        t.where, t.slot, t.handle = "pool", None, None
    for k, tid in enumerate(new_starters):
        t = toks[tid]
        t.where, t.handle = "starter", f"S-{('blue', 'red')[other]}-D{k + 1}"
    if starters:
        copy.starters[other] = new_starters
    for (slot, handle), tid in zip(slots_handles, rest, strict=False):  # the rest of `rest` stays in the pool
        t = toks[tid]
        t.where, t.slot, t.handle = "hidden", slot, handle
    # DT-7.6: the opponent's secret combat card, if already submitted.
    frame = copy.stack.top()
    if frame is not None and frame.kind == "combat" and frame.data["cards"][other] is not None:
        frame.data["cards"][other] = rng.choice(sorted(set(copy.combat_hand[other])))
    # The board geometry does not change: face-down squares are all alike (DT-7.1).
