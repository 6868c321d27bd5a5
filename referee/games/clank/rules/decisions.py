"""CK-5.17 .. CK-5.22, CK-6.18: pending decisions (pickup, choose, discard, trash, secret_from)
and revealing secrets."""
from __future__ import annotations

from typing import Any

from referee.engine import Frame

from .base import StateBase
from .cards import representatives

DECLINE = {"type": "decline"}


class DecisionsMixin(StateBase):
    """The sub-decision stack: one small choice at a time, answered depth-first."""

    def legal_decision(self, frame: Frame) -> list[dict[str, Any]]:
        """The actions of the top decision, in CK-5.18 .. CK-5.22 order."""
        kind = frame.kind
        p = self.p[frame.seat]
        if kind == "pickup":
            room = frame.data["room"]
            out: list[dict[str, Any]] = []
            if self.minor.get(room):
                out.append({"type": "take_token", "kind": "minor"})
            if room in self.major:
                out.append({"type": "take_token", "kind": "major"})
            if self.idols_at.get(room):
                out.append({"type": "take_token", "kind": "idol"})
            out.append({"type": "skip_token"})
            return out
        if kind == "choose":
            return [{"type": "choose", "option": 0}, {"type": "choose", "option": 1}]
        type_of = self.cat.type_of
        if kind == "discard":
            return [{"type": "discard", "card": c} for c in representatives(p.hand, type_of)] + [DECLINE]
        if kind == "trash":
            return ([{"type": "trash", "zone": "play", "card": c} for c in representatives(p.play, type_of)]
                    + [{"type": "trash", "zone": "discard", "card": c}
                       for c in representatives(p.discard, type_of)]
                    + [DECLINE])
        if kind == "secret_from":
            return [{"type": "secret_from", "room": r}
                    for r in self.secret_rooms_adjacent(frame.seat)] + [DECLINE]
        raise AssertionError(f"unknown decision {kind!r}")

    def apply_decision(self, kind: str, action: dict[str, Any]) -> None:
        """Answer the top decision; its consequences run before the interrupted effect list continues."""
        frame = self.stack.pop()
        seat = frame.seat
        p = self.p[seat]
        self.log.public("decision", seat=seat, decision=frame.kind, answer=self.public_answer(action))
        if kind == "take_token":
            room = frame.data["room"]
            if action["kind"] == "idol":
                idol = self.idols_at[room].pop(0)
                p.idols.append(idol)
                self.log.public("take_idol", seat=seat, room=room, idol=idol)
            else:
                self.take_secret(seat, room, action["kind"])
        elif kind == "choose":
            self.push_effects(frame.data["options"][action["option"]], frame.data.get("card"))
        elif kind == "discard":
            card = action["card"]
            p.hand.remove(card)
            p.discard.append(card)
            self.log.public("discard", seat=seat, card=card, card_type=self.cat.type_of[card])
            self.draw(seat, frame.data["n"])
        elif kind == "trash":
            card = action["card"]
            zone = p.play if action["zone"] == "play" else p.discard
            zone.remove(card)
            self.trashed.append(card)
            if action["zone"] == "play":
                # CK-6.9: a pending conditional whose card left the play area lapses
                self.conds = [c for c in self.conds if c["card"] != card]
            self.log.public("trash", seat=seat, zone=action["zone"], card=card,
                            card_type=self.cat.type_of[card])
        elif kind == "secret_from":
            self.make_clank(seat, frame.data["clank"])
            room = action["room"]
            self.take_secret(seat, room, "minor" if self.minor.get(room) else "major")
        # skip_token and decline: nothing happens

    @staticmethod
    def public_answer(action: dict[str, Any]) -> dict[str, Any]:
        """Decision answers are public (a discarded or trashed card becomes public as it moves)."""
        return dict(action)

    def secret_rooms_adjacent(self, seat: int) -> list[str]:
        """CK-5.22 / CK-6.15: adjacent rooms (any tunnel) holding at least one face-down secret."""
        return [r for r in self.cat.adjacent[self.p[seat].room] if self.minor.get(r) or r in self.major]

    def take_secret(self, seat: int, room: str, kind: str) -> None:
        """CK-5.18: minor = the RNG picks one face-down token of the room; major = the room's token."""
        if kind == "minor":
            tokens = self.minor[room]
            token = tokens.pop(self.rng.below(len(tokens)))
        else:
            token = self.major.pop(room)
        self.reveal_token(seat, room, kind, token)

    def reveal_token(self, seat: int, room: str, kind: str, token: str) -> None:
        """CK-6.18: immediate tokens resolve and leave; potions and trophies are kept face up."""
        row = self.cat.secrets[self.cat.secret_type_of[token]]
        self.log.public("secret_revealed", seat=seat, room=room, size=kind, token=token, token_type=row.type,
                        name=row.name)
        if row.kind == "immediate":
            self.tokens_gone.append(token)
        else:
            self.p[seat].tokens.append(token)
        if row.kind != "potion":
            self.push_effects(row.effect, None)
