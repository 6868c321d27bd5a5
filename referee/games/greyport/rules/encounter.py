"""GB-4.2 game setup steps, GB-4.4 encounter setup, GB-5.7 ending an encounter, GB-5.8 state checks,
GB-6.6 saving and destroying locations, GB-8 end of game."""
from __future__ import annotations

from functools import cache
from typing import Any

from .core import C
from .rounds import RoundMixin

FACTION_ORDER = ("GOB", "COR", "DRK")


@cache
def _instances(designs: tuple[str, ...], monsters: bool = False) -> tuple[str, ...]:
    """GB-3.3 instance ids ``<design>#<k>`` of every copy, built once per design list (setup runs per
    game)."""
    table = C.monsters if monsters else C.cards
    return tuple(f"{d}#{k}" for d in designs for k in range(1, table[d].count + 1))


@cache
def _token_ids() -> dict[str, tuple[str, ...]]:
    """GB-4.2.4 the token supply's instance ids per design (built once; each game copies the lists)."""
    return {d: tuple(f"{d}#{k}" for k in range(1, C.monsters[d].count + 1)) for d in C.token_designs}


@cache
def _encounter(chapter: str, index: int) -> Any:
    return C.encounters[C.chapters[chapter].encounters[index]]


class EncounterMixin(RoundMixin):
    def encounter(self) -> Any:
        return _encounter(self.options["chapter"], self.enc_index)

    # -- GB-4.2 game setup ---------------------------------------------------------------------------
    def _t_choose_character(self, t: dict[str, Any]) -> None:
        """GB-4.2.1: seats choose in order among unchosen characters."""
        self.stack.push("choose_character", t["seat"])

    def _t_deal(self, t: dict[str, Any]) -> None:
        """GB-4.2.2: each seat shuffles its 9 starting cards, draws 5, takes its level-1 player hero."""
        for seat, p in enumerate(self.players_):
            cards = list(_instances(tuple(C.starting[p.character])))
            self.rng.shuffle(cards)
            p.deck = cards
            p.hp = p.max_hp = self.options["starting_hp"]
            p.level = 1
            p.hero_zone = "hand"
            self.log.public("character", seat=seat, character=p.character)
            self.draw(seat, 5)

    def _t_rows(self, t: dict[str, Any]) -> None:
        """GB-4.2.3 / GB-4.3: shuffle the hero deck, build its row; then the item deck and row."""
        for row, designs in (("heroes", C.hero_designs), ("items", C.item_designs)):
            deck = list(_instances(tuple(designs)))
            key = "hero" if row == "heroes" else "item"
            if row == "heroes":
                self.hero_deck = deck
            else:
                self.item_deck = deck
            self.shuffle_deck(key)
            aside: list[str] = []
            for i in range(4):
                self.fill_slot(row, i, setup=True, aside=aside)
            # GB-4.3.2 "put back and shuffle": the rest of the deck is still unsettled (in random order as far
            # as anyone can tell), so the set-aside cards simply join it (deviation 8).
            self.shuffle_in(key, aside)

    def _t_curses(self, t: dict[str, Any]) -> None:
        """GB-4.2.4: shuffle the curse deck; fill the token supply."""
        self.curse_deck = list(_instances(tuple(C.curse_designs)))
        self.shuffle_deck("curse")
        self.token_supply = {d: list(ids) for d, ids in _token_ids().items()}

    def _t_first_player(self, t: dict[str, Any]) -> None:
        """GB-4.2.5: option or random; marker ``taunt`` side up."""
        fp = self.options["first_player"]
        self.defender = fp if fp is not None else self.rng.below(self.players)
        self.marker = "taunt"
        self.priority = self.defender
        self.log.public("first_player", seat=self.defender)

    def _t_wounded(self, t: dict[str, Any]) -> None:
        """GB-4.2.6: one seat starts at 3 HP (max HP unchanged)."""
        ww = self.options["wounded_warrior"]
        if ww == "choose":
            self.stack.push("choose_wounded", self.defender)
        elif ww != "off":
            self.wound(int(ww))

    def wound(self, seat: int) -> None:
        self.players_[seat].hp = 3
        self.log.public("wounded", seat=seat)

    # -- GB-4.4 encounter setup ----------------------------------------------------------------------------
    def _t_encounter_setup(self, t: dict[str, Any]) -> None:
        self.phase = "setup"
        enc = self.encounter()
        n = self.players
        # 1. location
        if self.options["random_locations"]:
            free = sorted(loc for loc in C.locations if loc not in self.used_locations)
            lid = self.rng.choice(free)
        else:
            lid = enc.location
        self.used_locations.append(lid)
        hp = C.locations[lid].hp
        self.loc = {"id": lid, "hp": hp, "max_hp": hp, "status": "standing"}
        self.loc_group = []
        self.log.public("encounter", encounter=enc.id, location=lid)
        # 2. monster deck
        self.monster_deck += self.monster_discard
        self.monster_discard = []
        chapter = C.chapters[self.options["chapter"]]
        add = [enc.add_faction] if enc.add_faction else []
        if self.enc_index == 0:
            extra = [chapter.later_faction, *FACTION_ORDER]
            add = [chapter.start_faction]
            for f in extra:
                if len(add) > self.options["extra_factions"]:
                    break
                if f not in add:
                    add.append(f)
        for f in add:
            if f not in self.factions_in:
                self.factions_in.append(f)
                self.monster_deck += _instances(tuple(C.factions[f]), monsters=True)
        self.shuffle_deck("monster")
        # 4. location monsters, 5. player monsters
        self.reveal_to_threat("loc", enc.location_threat[n - 1])
        for s in self.seats_from(self.defender):
            self.reveal_to_threat(s, enc.player_threat[n - 1])
        # 6. special setup
        for a in C.specials[enc.id]:
            self.effect_fn(a.key)(self, *a.args)
        # 7. coins
        for s in range(n):
            for c in enc.coins:
                self.players_[s].coins[c] += 1
        # 8-9. ambush
        pending = [m for m in self.all_monsters()
                   if any(a.key.startswith("ambush:") for a in self.mdef(m).abilities)]
        self.push([{"op": "ambush", "pending": pending}, {"op": "round_start"}])

    def reveal_to_threat(self, key: Any, threat: int) -> None:
        """GB-4.4 steps 4-5: draw until the group's total threat >= the target."""
        group = self.group(key)
        total = sum(self.mdef(m).threat for m in group)
        while total < threat:
            m = self.draw_monster()
            if m is None:
                return
            group.append(m)
            total += self.mdef(m).threat
            self.dmg[m] = 0
            self.log.public("reveal_monster", monster=m, group=key)

    def _t_ambush(self, t: dict[str, Any]) -> None:
        """GB-4.4 step 9: the defending player orders ambushes (a single one resolves automatically)."""
        pending = [m for m in t["pending"] if self.where(m) is not None]
        if pending:
            self.stack.push("ambush", self.defender, pending=pending)

    def resolve_ambush(self, mid: str, rest: list[str]) -> None:
        self.push([{"op": "ambush_effect", "m": mid}, {"op": "ambush", "pending": rest}])

    def _t_ambush_effect(self, t: dict[str, Any]) -> None:
        m = t["m"]
        self.log.public("ambush", monster=m)
        for a in self.mdef(m).abilities:
            if a.key.startswith("ambush:"):
                self.effect_fn(a.key)(self, m, *a.args)

    # -- GB-5.8 state checks
    # ----------------------------------------------------------------------------------
    def checks(self) -> None:
        """GB-5.8.1 loss at 0 HP, GB-5.8.2 location saved, GB-5.8.3 objective."""
        if self.result is not None:
            return
        for p in self.players_:
            if p.hp <= 0:
                self.lose("hp_zero")
                return
        loc = self.loc
        if loc is None:     # no location: neither check below applies (the hot path between encounters)
            return
        if loc["status"] == "standing" and not self.loc_group and loc["hp"] >= 1:
            loc["status"] = "saved"
            saver = self.actor if self.actor is not None else self.defender
            self.team["locations_saved"] += 1
            self.stat(saver, "locations_saved")
            self.log.public("saved", location=loc["id"], seat=saver)
            self.push([{"op": "reward", "seat": saver}])
        if not self.objective_met and self.phase != "setup":
            enc = _encounter(self.options["chapter"], self.enc_index)
            if enc.objective == "clear_all":
                met = not self.loc_group and not any(self.groups)
            else:
                met = self.bosses.get(enc.boss, {}).get("status") == "defeated"
            if met:
                self.objective_met = True
                self.log.public("objective", encounter=enc.id)

    def _t_reward(self, t: dict[str, Any]) -> None:
        """GB-6.6.2: the saving seat resolves the location's reward now."""
        a = C.location_rewards[self.location()["id"]]
        self.effect_fn(a.key)(self, t["seat"], *a.args)

    def _t_retire_curse_ask(self, t: dict[str, Any]) -> None:
        seat = t["seat"]
        p = self.players_[seat]
        curses = [c for c in p.hand + p.discard if self.card_def(c).kind == "curse"]
        if curses or (p.hand and not self.open_hands()):
            self.stack.push("retire_curse", seat)

    # -- GB-6.6.3 destruction
    # -----------------------------------------------------------------------------------
    def _t_destroy(self, t: dict[str, Any]) -> None:
        loc = self.location()
        loc["status"] = "destroyed"
        self.destroyed += 1
        self.team["locations_destroyed"] += 1
        self.log.public("destroyed", location=loc["id"])
        enc = self.encounter()
        tasks: list[dict[str, Any]] = [{"op": "penalty", "i": i} for i in range(len(C.penalties[enc.id]))]
        tasks += [{"op": "chapter_loss"}, {"op": "boss_move"}, {"op": "distribute", "seat": self.defender}]
        self.push(tasks)

    def _t_penalty(self, t: dict[str, Any]) -> None:
        a = C.penalties[self.encounter_id()][t["i"]]
        self.effect_fn(a.key)(self, *a.args)

    def _t_chapter_loss(self, t: dict[str, Any]) -> None:
        """GB-5.8.4: CH2 loses when all three of its locations are destroyed."""
        limit = C.chapters[self.options["chapter"]].destroyed_loss
        if limit and self.destroyed >= limit:
            self.lose("locations_destroyed")

    def _t_boss_move(self, t: dict[str, Any]) -> None:
        for m in list(self.loc_group):
            if self.mdef(m).kind == "boss":
                self.move_monster(m, self.defender)

    def _t_distribute(self, t: dict[str, Any]) -> None:
        if self.loc_group:
            self.stack.push("take_monster", t["seat"])

    # -- GB-5.7 ending the encounter
    # ------------------------------------------------------------------------------
    def _t_encounter_end(self, t: dict[str, Any]) -> None:
        self.objective_met = False
        self.phase = "setup"
        self.team["encounters_cleared"] += 1
        enc = self.encounter()
        self.log.public("encounter_cleared", encounter=enc.id)
        chapter = C.chapters[self.options["chapter"]]
        if self.enc_index + 1 >= len(chapter.encounters):
            self.win()
            return
        for s in range(self.players):
            p = self.players_[s]
            p.level = min(3, p.level + 1)
            self.heal(s, self.options["rest_healing"], None)
        for s in range(self.players):
            p = self.players_[s]
            p.deck = p.hand + p.deck + p.discard
            p.hand, p.discard = [], []
            self.rng.shuffle(p.deck)
            self.log.public("reshuffle", seat=s, deck_size=len(p.deck))
            self.draw(s, 5)
            if self.result is not None:  # GB-5.8.1: a Bad Omen lost the game; nothing further resolves
                return
            p.hero_zone = "hand"
            p.shields = 0
        for m in self.all_monsters():
            self.remove_monster(m, defeated=False)
        self.loc_group = []
        self.groups = [[] for _ in range(self.players)]
        self.defender = (self.defender + 1) % self.players
        self.marker = "taunt"
        self.encounter_round = 1
        self.total_rounds += 1
        self.enc_index += 1
        if self.result is None:
            self.push([{"op": "encounter_setup"}])

    def win(self) -> None:
        """GB-8.1."""
        self.result = "win"
        self.phase = "ended"
        self.tasks = []
        self.stack.frames = []
        self.log.public("game_over", result="win")

