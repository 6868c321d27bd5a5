"""CK-6.1 .. CK-6.4, CK-6.9, CK-6.12: clank, healing, drawing, effect resolution and conditionals."""
from __future__ import annotations

from typing import Any, cast

from ..effects import EFFECTS
from .base import StateBase

_IN = "in_dungeon"


class ResourcesMixin(StateBase):
    """Cubes, cards drawn and the work stack of effect lists."""

    def make_clank(self, seat: int, n: int) -> None:
        """CK-6.1: out players make none; the active player's credit cancels first; no supply, no clank."""
        p = self.p[seat]
        if n <= 0 or p.status != _IN:
            return
        if seat == self.active and self.credit:
            c = min(self.credit, n)
            self.credit -= c
            n -= c
        k = min(n, p.supply)
        if k:
            p.supply -= k
            p.area += k
            p.clank_made += k
            self.log.public("clank", seat=seat, cubes=k)

    def remove_clank(self, seat: int, n: int) -> None:
        """CK-6.2: take own cubes back from the clank area; the excess becomes clank credit."""
        p = self.p[seat]
        if n <= 0 or p.status != _IN:
            return
        r = min(n, p.area)
        p.area -= r
        p.supply += r
        if seat == self.active:
            self.credit += n - r
        self.log.public("clank_removed", seat=seat, cubes=r, credit=self.credit)

    def heal(self, seat: int, n: int) -> None:
        """CK-6.4: move min(N, damage) cubes from the health meter back to the supply."""
        p = self.p[seat]
        if p.status != _IN:
            return
        h = min(n, p.damage)
        if h:
            p.damage -= h
            p.supply += h
            self.log.public("healed", seat=seat, amount=h)

    def draw(self, seat: int, n: int) -> None:
        """CK-6.12: draw one at a time; an empty deck reshuffles the discard pile (never the play area)."""
        p = self.p[seat]
        got: list[str] = []
        for _ in range(n):
            if not p.deck:
                if not p.discard:
                    break
                p.deck, p.discard = p.discard, []
                self.rng.shuffle(p.deck)
                self.log.public("reshuffle", seat=seat, deck_size=len(p.deck))
            got.append(p.deck.pop(0))
        if got:
            p.hand.extend(got)
            self.log.public("draw", seat=seat, count=len(got))
            self.log.private(seat, "drew", seat=seat, cards=sorted(got))

    def draw_to_hand_size(self, seat: int) -> None:
        """CK-5.2 / CK-5.24 step 3: draw until holding 5."""
        need = self.cat.constants["hand_size"] - len(self.p[seat].hand)
        if need > 0:
            self.draw(seat, need)

    def advance_rage(self, n: int) -> None:
        """CK-3.14 / CK-6.17: the rage marker moves up, stopping on its last space."""
        last = len(self.cat.constants["rage_track"]) - 1
        new = min(last, self.rage + n)
        self.log.public("rage", index=new, moved=new - self.rage)
        self.rage = new

    # -- effect lists (CK-3.3, CK-5.17) ----------------------------------------------------------
    def push_effects(self, atoms: list[dict[str, Any]], card: str | None) -> None:
        """Queue an effect list to resolve (left to right) before whatever is already queued."""
        if atoms:
            self.work.append({"fx": list(atoms), "card": card})

    def run_work(self) -> None:
        """Resolve queued atoms until the queue is empty or a decision is pending (depth-first)."""
        work = self.work
        while work and not self.stack:
            item = work[-1]
            fx = item["fx"]
            if not fx:
                work.pop()
                continue
            atom = fx.pop(0)
            EFFECTS.effects[atom["op"]](cast(Any, self), atom, item)

    def resolve_now(self, atoms: list[dict[str, Any]], card: str | None) -> None:
        """Queue and run an effect list (used where no decision can arise or the caller re-runs)."""
        self.push_effects(atoms, card)
        self.run_work()

    # -- conditionals (CK-6.9) ---------------------------------------------------------------------
    def condition_holds(self, cond: str, card: str | None) -> bool:
        """``artifact``: the player holds one; ``companion``: another companion is in the play area."""
        p = self.p[self.active]
        if cond == "artifact":
            return bool(p.artifacts)
        types = self.cat.card_types
        type_of = self.cat.type_of
        return any(c != card and types[type_of[c]].kind == "companion" for c in p.play)

    def check_conditionals(self) -> None:
        """CK-6.9: after each completed action, re-test pending conditionals in play-area order."""
        if not self.conds:
            return
        order = {c: i for i, c in enumerate(self.p[self.active].play)}
        for cond in sorted(self.conds, key=lambda c: order.get(c["card"], -1)):
            if cond in self.conds and self.condition_holds(cond["cond"], cond["card"]):
                self.conds.remove(cond)
                self.resolve_now(cond["then"], cond["card"])
