"""CK-5.24 steps 4-6, CK-5.25, CK-5.26, CK-6.5, CK-6.8, CK-6.13: the dungeon row refill,
dragon attacks, knock-outs and the countdown."""
from __future__ import annotations

from .base import StateBase

_IN = "in_dungeon"


class DragonMixin(StateBase):
    """The dragon, its bag and the countdown track."""

    def reveal_dungeon_card(self) -> str | None:
        """CK-6.13: the top card; an empty deck is rebuilt from the shuffled dungeon discard."""
        if not self.ddeck:
            if not self.ddiscard:
                return None
            self.ddeck, self.ddiscard = self.ddiscard, []
            self.rng.shuffle(self.ddeck)
            self.log.public("dungeon_reshuffle", deck_size=len(self.ddeck))
        return self.ddeck.pop(0)

    def refill_row(self) -> None:
        """CK-5.24 steps 4-6: fill empty slots in order, resolve Arrive in slot order, one attack at most."""
        cat = self.cat
        revealed: list[str] = []
        for slot in range(len(self.row)):
            if self.row[slot] is None:
                cid = self.reveal_dungeon_card()
                if cid is None:
                    continue
                self.row[slot] = cid
                revealed.append(cid)
                self.log.public("refill", slot=slot, card=cid, card_type=cat.type_of[cid])
        for cid in revealed:
            ct = cat.card_types[cat.type_of[cid]]
            if ct.arrive:
                self.log.public("arrive", card=cid, card_type=ct.type)
                self.resolve_now(ct.arrive, cid)
        if any(cat.card_types[cat.type_of[c]].dragon for c in revealed):
            self.dragon_attack(0)

    def danger_in_row(self) -> int:
        """CK-6.20.7: danger cards count at the moment of the attack."""
        cat = self.cat
        return sum(1 for c in self.row if c is not None and cat.card_types[cat.type_of[c]].danger)

    def dragon_attack(self, extra: int) -> None:
        """CK-5.25: bag the clank area, then draw N cubes one at a time, uniformly from the bag."""
        for p in self.p:
            p.bag += p.area
            p.area = 0
        n = self.cat.constants["rage_track"][self.rage] + self.danger_in_row() + extra
        drawn: list[str | int] = []
        knocked: list[int] = []
        for _ in range(n):
            total = self.bag_black + sum(p.bag for p in self.p)
            if total == 0:
                break
            r = self.rng.below(total)
            if r < self.bag_black:
                self.bag_black -= 1
                self.black_aside += 1
                drawn.append("black")
                continue
            r -= self.bag_black
            for seat, p in enumerate(self.p):  # noqa: B007 (the cube's seat, used below)
                if r < p.bag:
                    break
                r -= p.bag
            p.bag -= 1
            drawn.append(seat)
            if p.status == _IN:
                p.damage += 1
                p.damage_taken += 1
                if p.damage >= self.cat.constants["health"]:
                    knocked.append(seat)
                    self.knock_out(seat)
            else:
                p.removed += 1
        self.log.public("dragon_attack", cubes=n, extra=extra, drawn=drawn, knocked_out=knocked)

    def knock_out(self, seat: int) -> None:
        """CK-6.5: out at once; rescued with an artifact outside the Depths; may take the countdown."""
        p = self.p[seat]
        p.status = "knocked_out"
        p.rescued = bool(p.artifacts) and self.cat.rooms[p.room].zone != "depths"
        self.log.public("knocked_out", seat=seat, room=p.room, rescued=p.rescued)
        self.start_countdown(seat)

    def start_countdown(self, seat: int) -> None:
        """CK-6.8: the first player out takes the countdown track, unless a pawn is already on it."""
        if self.cd_owner is None:
            self.cd_owner = seat
            self.cd_space = 1
            self.log.public("countdown", owner=seat, space=1)

    def countdown_step(self) -> None:
        """CK-5.26: the countdown pawn advances; spaces 2-4 attack with extra cubes; space 5 ends it."""
        self.cd_space += 1
        space = self.cd_space
        self.log.public("countdown", owner=self.cd_owner, space=space)
        extras = self.cat.constants["countdown_extra"]
        if space < self.cat.constants["countdown_spaces"]:
            if space - 1 < len(extras) and space >= 2:
                self.dragon_attack(extras[space - 1])
            return
        for seat, p in enumerate(self.p):
            if p.status == _IN:
                self.knock_out(seat)
        self.finish("countdown" if self.cd_owner != "dragon" else "round_limit")
