"""CK-5.5 .. CK-5.10, CK-5.15: playing cards, buying from the row and the reserve, devices,
monsters, the Goblin and potion tokens."""
from __future__ import annotations

from typing import Any

from .base import StateBase

BLUE = frozenset({"item", "gem", "companion"})
PILES = ("hireling", "pathfinder", "codex")


def representatives(cards: list[str], type_of: dict[str, str]) -> list[str]:
    """CK-5.28: one card per type, the lowest id (string order) of that type, sorted by id."""
    best: dict[str, str] = {}
    for c in cards:
        t = type_of[c]
        b = best.get(t)
        if b is None or c < b:
            best[t] = c
    return sorted(best.values())


class CardsMixin(StateBase):
    """Card actions of the main phase."""

    # -- legal lists -------------------------------------------------------------------------------
    def legal_cards(self) -> list[dict[str, Any]]:
        """CK-5.5 .. CK-5.10 in list order.

        play_card, acquire, acquire_reserve, use_device, defeat, goblin."""
        cat = self.cat
        types, type_of = cat.card_types, cat.type_of
        p = self.p[self.active]
        out: list[dict[str, Any]] = [{"type": "play_card", "card": c}
                                     for c in representatives(p.hand, type_of)]
        skill, swords = self.skill, self.swords
        row = self.row
        devices: list[dict[str, Any]] = []
        monsters: list[dict[str, Any]] = []
        for k, cid in enumerate(row):
            if cid is None:
                continue
            ct = types[type_of[cid]]
            if ct.kind == "monster":
                if ct.cost <= swords:
                    monsters.append({"type": "defeat", "slot": k})
            elif ct.cost <= skill:
                if ct.kind == "device":
                    devices.append({"type": "use_device", "slot": k})
                else:
                    out.append({"type": "acquire", "slot": k})
        for pile in PILES:
            if self.reserve[pile] and cat.reserve_piles[pile].cost <= skill:
                out.append({"type": "acquire_reserve", "pile": pile})
        out.extend(devices)
        out.extend(monsters)
        if swords >= cat.constants["goblin_swords"]:
            out.append({"type": "defeat_goblin"})
        return out

    def legal_tokens(self) -> list[dict[str, Any]]:
        """CK-5.15: one ``use_token`` per potion held, by id."""
        # [design] not deduplicated by type: the spec names the token id and lists stay tiny
        kinds = self.cat.secrets
        sto = self.cat.secret_type_of
        return [{"type": "use_token", "token": t} for t in sorted(self.p[self.active].tokens)
                if kinds[sto[t]].kind == "potion"]

    # -- actions -------------------------------------------------------------------------------------
    def do_play_card(self, card: str) -> None:
        """CK-5.5: move the card to the play area and resolve its Play effects left to right."""
        p = self.p[self.active]
        p.hand.remove(card)
        p.play.append(card)
        ct = self.cat.card_types[self.cat.type_of[card]]
        self.log.public("play_card", seat=self.active, card=card, card_type=ct.type)
        self.push_effects(ct.play, card)

    def do_acquire(self, slot: int) -> None:
        """CK-5.6: pay Skill; the card goes on the discard pile; Acquire effects; the slot stays empty."""
        cid = self.row[slot]
        assert cid is not None
        ct = self.cat.card_types[self.cat.type_of[cid]]
        self.skill -= ct.cost
        self.row[slot] = None
        self.p[self.active].discard.append(cid)
        self.log.public("acquire", seat=self.active, slot=slot, card=cid, card_type=ct.type)
        self.push_effects(ct.acquire, cid)

    def do_acquire_reserve(self, pile: str) -> None:
        """CK-5.7: pay Skill; the lowest-id card of the pile goes to the discard pile."""
        ct = self.cat.reserve_piles[pile]
        self.skill -= ct.cost
        cid = self.reserve[pile].pop(0)
        self.p[self.active].discard.append(cid)
        self.log.public("acquire_reserve", seat=self.active, pile=pile, card=cid, card_type=ct.type)

    def do_use_device(self, slot: int) -> None:
        """CK-5.8: pay Skill; the device goes to the dungeon discard; its Use effects resolve now."""
        cid = self.row[slot]
        assert cid is not None
        ct = self.cat.card_types[self.cat.type_of[cid]]
        self.skill -= ct.cost
        self.row[slot] = None
        self.ddiscard.append(cid)
        self.log.public("use_device", seat=self.active, slot=slot, card=cid, card_type=ct.type)
        self.push_effects(ct.use, cid)

    def do_defeat(self, slot: int) -> None:
        """CK-5.9: pay Swords; the reward resolves; the monster goes to the dungeon discard."""
        cid = self.row[slot]
        assert cid is not None
        ct = self.cat.card_types[self.cat.type_of[cid]]
        self.swords -= ct.cost
        self.row[slot] = None
        self.ddiscard.append(cid)
        self.p[self.active].defeated += 1
        self.log.public("defeat", seat=self.active, slot=slot, card=cid, card_type=ct.type)
        self.push_effects(ct.defeat, cid)

    def do_defeat_goblin(self) -> None:
        """CK-5.10: 2 Swords for 1 gold; the Goblin stays in the reserve [seed §4]."""
        ct = self.cat.reserve_piles["goblin"]
        self.swords -= ct.cost
        self.p[self.active].defeated += 1
        self.log.public("defeat_goblin", seat=self.active)
        self.push_effects(ct.defeat, None)

    def do_use_token(self, token: str) -> None:
        """CK-5.15: resolve a held potion, then remove it from the game (public)."""
        self.p[self.active].tokens.remove(token)
        self.tokens_gone.append(token)
        row = self.cat.secrets[self.cat.secret_type_of[token]]
        self.log.public("use_token", seat=self.active, token=token, token_type=row.type)
        self.push_effects(row.effect, None)
