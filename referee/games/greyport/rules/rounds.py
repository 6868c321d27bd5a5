"""GB-5.2 round start and GB-5.6 end of round: Monster Damage, Cleanup, Recruit, Discard, Refill,
Pass marker, round limit; GB-6.3.2 shield windows."""
from __future__ import annotations

from typing import Any

from ..actions import Recruit
from .core import TIERS, C
from .main import MainMixin


class RoundMixin(MainMixin):
    # -- GB-5.2 ------------------------------------------------------------------------------------
    def _t_round_start(self, t: dict[str, Any]) -> None:
        """GB-5.2.1 reset per-round state; GB-5.2.2 forced taunt; GB-5.3.1 priority to the defender."""
        if self.objective_met:
            self.push([{"op": "encounter_end", "mid_action": False}])
            return
        self.phase = "round_start"
        for p in self.players_:
            p.heroes_played = 0
            p.hero_limit = 2 if self.players == 1 else 1
        self.actor = self.defender
        self.log.public("round", encounter=self.encounter_id(), round=self.encounter_round,
                        defending_seat=self.defender)
        if not self.groups[self.defender] and not self.loc_group and self.marker == "taunt" \
                and self.marker_targets():
            self.stack.push("forced_taunt", self.defender)
        self.push([{"op": "action_phase"}])

    def _t_action_phase(self, t: dict[str, Any]) -> None:
        self.phase = "action"
        self.priority = self.defender
        self.passes = 0

    # -- GB-5.6.1 Monster Damage ------------------------------------------------------------------------
    def _t_monster_damage(self, t: dict[str, Any]) -> None:
        self.phase = "monster_damage"
        tasks: list[dict[str, Any]] = [{"op": "attack", "m": m} for m in self.groups[self.defender]]
        tasks += [{"op": "festering"}, {"op": "aura"}, {"op": "location_damage"}]
        self.push(tasks)

    def _t_attack(self, t: dict[str, Any]) -> None:
        """GB-5.6.1 a: one active monster attacks the defending player."""
        m = t["m"]
        if m not in self.groups[self.defender]:
            return
        d = self.attack_value(m, self.defender)
        scorch = self.has_key(self.mdef(m).abilities, "monster:scorch")
        self.push([{"op": "damage", "seat": self.defender, "n": d, "src": m, "scorch": scorch}])

    def _t_festering(self, t: dict[str, Any]) -> None:
        """GB-5.6.1 b / GB-3.13 K4: each Festering Wound in the defender's hand deals 1 damage."""
        wounds = sorted(c for c in self.players_[self.defender].hand
                        if self.card_def(c).effect == "wound_at_monster_damage")
        if wounds:
            self.log.public("reveal", seat=self.defender, cards=wounds, why="festering_wound")
            self.push([{"op": "damage", "seat": self.defender, "n": 1, "src": None, "scorch": False}
                       for _ in wounds])

    def _t_aura(self, t: dict[str, Any]) -> None:
        """GB-5.6.1 c: searing aura of monsters in a standing location's group."""
        if not self.loc_stands():
            return
        for m in list(self.loc_group):
            for a in self.mdef(m).abilities:
                fn = self.effect_fn(a.key)
                if fn.when == "aura":
                    fn(self, m, *a.args)

    def _t_location_damage(self, t: dict[str, Any]) -> None:
        """GB-5.6.1 d-e: the location loses the sum of its monsters' damage; at 0 it is destroyed."""
        if not self.loc or self.loc["status"] != "standing" or not self.loc_group:
            return
        total = sum(0 if any(self.effect_fn(a.key).when == "aura" for a in self.mdef(m).abilities)
                    else self.attack_value(m, "loc") for m in self.loc_group)
        self.loc["hp"] -= total
        self.log.public("location_damage", location=self.loc["id"], amount=total, hp=self.loc["hp"])
        if self.loc["hp"] <= 0:
            self.push([{"op": "destroy"}])

    # -- GB-6.3.2 damage with a shield window ---------------------------------------------------------------
    def _t_damage(self, t: dict[str, Any]) -> None:
        victim, n = t["seat"], t["n"]
        if n <= 0:
            return
        if not t["scorch"]:
            order = [s for s in self.seats_from(victim) if self.players_[s].shields > 0]
            if order:
                self.stack.push("shield", order[0], victim=victim, remaining=n, order=order[1:], src=t["src"])
                return
        self.take_damage(victim, n, t["src"])

    def spend_shields(self, frame: Any, k: int) -> None:
        data = frame.data
        seat = frame.seat
        self.stack.pop()
        if k:
            self.players_[seat].shields -= k
            data["remaining"] -= k
            self.stat(seat, "shields_spent", k)
            if seat != data["victim"]:
                self.stat(seat, "damage_prevented_for_others", k)
            self.log.public("spend_shields", seat=seat, count=k, victim=data["victim"])
        order = [s for s in data["order"] if self.players_[s].shields > 0]
        if data["remaining"] > 0 and order:
            self.stack.push("shield", order[0], victim=data["victim"], remaining=data["remaining"],
                            order=order[1:], src=data["src"])
            return
        self.take_damage(data["victim"], data["remaining"], data["src"])

    # -- GB-5.6.2 Cleanup ----------------------------------------------------------------------------------
    def _t_cleanup(self, t: dict[str, Any]) -> None:
        self.phase = "cleanup"
        for seat, card in list(self.played):
            if card.startswith("PH") and self.players_[seat].hero_zone != "play":
                continue
            for a in self.card_def(card).abilities:
                if a.key.startswith("cleanup:"):
                    self.effect_fn(a.key)(self, seat, card, *a.args)
        if self.loc_stands():
            fn = self.effect_fn(C.location_abilities[self.location()["id"]].key)
            if fn.when == "location_cleanup":
                fn(self)
        for key in ["loc", *self.seats_from(self.defender)]:
            for m in list(self.group(key)):
                for a in self.mdef(m).abilities:
                    fn = self.effect_fn(a.key)
                    if fn.when == "monster_cleanup" and self.where(m) is not None:
                        fn(self, m, *a.args)
        for seat, card in self.played:
            p = self.players_[seat]
            if card.startswith("PH"):
                if p.hero_zone == "play":
                    p.hero_zone = "return_zone"
            else:
                p.discard.append(card)
        for p in self.players_:
            p.play = []
            p.loose = []
            p.shields = 0
        self.played = []
        self.log.public("cleanup")

    # -- GB-5.6.3 Recruit ----------------------------------------------------------------------------------
    def recruit_pairs(self, seat: int) -> list[dict[str, Any]]:
        """GB-6.9: (coin, row card) pairs; fallback copper-as-silver, then everything-as-gold."""
        coins = [t for t in TIERS if self.players_[seat].coins[t]]
        cards = [c for c in self.hero_row + self.item_row if c]
        if not coins or not cards:
            return []
        base = {"copper": 1 if self.loc_has("copper_as_silver") else 0, "silver": 1, "gold": 2}
        cost = {c: TIERS.index(self.card_def(c).cost) for c in cards}
        for tiers in (base, {**base, "copper": max(base["copper"], 1)},
                      {"copper": 2, "silver": 2, "gold": 2}):
            out = [Recruit.wire(t, c) for t in coins for c in cards if cost[c] <= tiers[t]]
            if out:
                return out
        return []

    def _t_recruit(self, t: dict[str, Any]) -> None:
        self.phase = "recruit"
        if self.recruit_pairs(self.defender):
            self.stack.push("recruit", self.defender)

    def recruit(self, seat: int, coin: str, card: str) -> None:
        p = self.players_[seat]
        p.coins[coin] -= 1
        self.take_from_row(card)
        p.hand.append(card)
        self.stat(seat, "cards_recruited")
        self.log.public("recruit", seat=seat, coin=coin, card=card)

    def take_from_row(self, card: str) -> None:
        """GB-6.10: a card leaves a row; its slot refills at once."""
        for row, cells in (("heroes", self.hero_row), ("items", self.item_row)):
            if card in cells:
                i = cells.index(card)
                cells[i] = None
                self.fill_slot(row, i, setup=False)
                return

    # -- GB-5.6.4 Discard / GB-5.6.5 Refill
    # -------------------------------------------------------------------
    def is_dread(self, card: str) -> bool:
        return self.card_def(card).effect == "hand_limit_minus1"

    def reveal_dread(self, seat: int, cards: list[str]) -> None:
        """GB-7.4: a Gnawing Dread is revealed when it lowers a hand limit being applied (each copy always
        does: the limit is at least 5 before the Dreads and never below 3)."""
        dread = sorted(c for c in cards if self.is_dread(c))
        if dread:
            self.log.public("reveal", seat=seat, cards=dread, why="gnawing_dread")

    def _t_discard_step(self, t: dict[str, Any]) -> None:
        """GB-5.6.4: the limit applies from here on; the Dreads in hand now are revealed once."""
        self.phase = "discard"
        p = self.players_[self.defender]
        if p.hero_zone == "hand":
            p.hero_zone = "return_zone"
        self.reveal_dread(self.defender, p.hand)
        self.stack.push("discard", self.defender)

    def _t_refill(self, t: dict[str, Any]) -> None:
        """GB-5.6.5: draw one at a time up to the limit, recomputed after every draw; a Dread drawn here
        lowers the limit being applied and is revealed as it is drawn (GB-7.4). A loss during the draws
        (Bad Omen) ends everything at once (GB-5.8.1): the player hero stays in the return zone."""
        self.phase = "refill"
        seat = self.defender
        p = self.players_[seat]
        while self.result is None and len(p.hand) < self.hand_limit(seat) and (p.deck or p.discard):
            self.reveal_dread(seat, self.draw(seat, 1))
        if self.result is not None:
            return
        if p.hero_zone == "return_zone":
            p.hero_zone = "hand"

    # -- GB-5.6.6 Pass marker, GB-5.6.7 round limit
    # ---------------------------------------------------------------
    def _t_pass_marker(self, t: dict[str, Any]) -> None:
        self.phase = "pass_marker"
        old = self.defender
        new = (old + 1) % self.players
        self.defender = new
        self.marker = "taunt"
        if new != old:
            for m in list(self.groups[old]):
                if "ferocious" in self.mdef(m).tags:
                    self.move_monster(m, new)
        self.log.public("marker", seat=new)
        self.encounter_round += 1
        self.total_rounds += 1
        if self.encounter_round > self.options["round_limit"]:
            self.lose("round_limit")
            return
        self.push([{"op": "round_start"}])
