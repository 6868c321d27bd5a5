"""GB-5.9 sub-decisions: for each frame kind, its legal list (``_legal_<kind>``) and its resolution
(``_do_<kind>``). Setup choices (GB-4.2.1, GB-4.2.6) and the end-of-round decisions live here too."""
from __future__ import annotations

from itertools import combinations
from typing import Any

from referee.engine import Frame

from .core import C
from .encounter import EncounterMixin

#: frame kind -> method names (built once per kind: a hot path)
_LEGAL: dict[str, str] = {}
_DO: dict[str, str] = {}


class FramesMixin(EncounterMixin):
    def frame_legal(self, f: Frame) -> list[dict[str, Any]]:
        name = _LEGAL.get(f.kind)
        if name is None:
            name = _LEGAL[f.kind] = f"_legal_{f.kind}"
        return getattr(self, name)(f)

    def frame_do(self, f: Frame, a: dict[str, Any]) -> None:
        name = _DO.get(f.kind)
        if name is None:
            name = _DO[f.kind] = f"_do_{f.kind}"
        getattr(self, name)(f, a)

    # -- setup ----------------------------------------------------------------------------------------
    def _legal_choose_character(self, f: Frame) -> list[dict[str, Any]]:
        taken = {p.character for p in self.players_}
        return [{"type": "choose_character", "character": c} for c in C.characters if c not in taken]

    def _do_choose_character(self, f: Frame, a: dict[str, Any]) -> None:
        self.stack.pop()
        self.players_[f.seat].character = a["character"]

    def _legal_choose_wounded(self, f: Frame) -> list[dict[str, Any]]:
        return [{"type": "choose_wounded", "seat": s} for s in range(self.players)]

    def _do_choose_wounded(self, f: Frame, a: dict[str, Any]) -> None:
        self.stack.pop()
        self.wound(a["seat"])

    def _legal_ambush(self, f: Frame) -> list[dict[str, Any]]:
        return [{"type": "ambush_next", "monster": m} for m in f.data["pending"]]

    def _do_ambush(self, f: Frame, a: dict[str, Any]) -> None:
        self.stack.pop()
        self.resolve_ambush(a["monster"], [m for m in f.data["pending"] if m != a["monster"]])

    # -- taunts ---------------------------------------------------------------------------------------
    def _legal_forced_taunt(self, f: Frame) -> list[dict[str, Any]]:
        return [{"type": "marker_taunt", "monster": m} for m in self.marker_targets()]

    def _do_forced_taunt(self, f: Frame, a: dict[str, Any]) -> None:
        self.stack.pop()
        self.marker_taunt(a["monster"])

    def _legal_taunt(self, f: Frame) -> list[dict[str, Any]]:
        return [{"type": "taunt",
                 "monster": m} for m in self.taunt_targets(f.seat)] + [{"type": "taunt_skip"}]

    def _do_taunt(self, f: Frame, a: dict[str, Any]) -> None:
        """GB-6.2.1: into the taunting seat's own group; GB-6.2.4 may save the location."""
        self.stack.pop()
        if a["type"] == "taunt":
            self.move_monster(a["monster"], f.seat)
            self.stat(f.seat, "taunts")
            self.actor = f.seat

    # -- card play sub-decisions ------------------------------------------------------------------------
    def _legal_choose_player(self, f: Frame) -> list[dict[str, Any]]:
        seats: range | list[int] = range(self.players)
        if f.data["effect"] == "rally":
            seats = [s for s in seats if s != f.seat]
        return [{"type": "choose_player", "seat": s} for s in seats]

    def _do_choose_player(self, f: Frame, a: dict[str, Any]) -> None:
        self.stack.pop()
        target, n, eff = a["seat"], f.data["n"], f.data["effect"]
        self.log.public("choose_player", seat=f.seat, target=target, effect=eff)
        if eff == "draw":
            self.draw(target, n, by=f.seat)
        elif eff == "heal":
            self.heal(target, n, f.seat)
        else:
            self.players_[target].hero_limit += n

    def _legal_retire(self, f: Frame) -> list[dict[str, Any]]:
        out = [{"type": "retire", "card": c} for c in sorted(self.players_[f.seat].hand)]
        return out + ([{"type": "retire_skip"}] if f.data["optional"] else [])

    def _do_retire(self, f: Frame, a: dict[str, Any]) -> None:
        self.stack.pop()
        if a["type"] == "retire":
            self.retire_card(f.seat, a["card"])

    def _legal_retire_curse(self, f: Frame) -> list[dict[str, Any]]:
        p = self.players_[f.seat]
        hand = sorted(c for c in p.hand if self.card_def(c).kind == "curse")
        disc = [c for c in p.discard if self.card_def(c).kind == "curse"]
        return [{"type": "retire", "card": c} for c in hand + disc] + [{"type": "retire_skip"}]

    def _do_retire_curse(self, f: Frame, a: dict[str, Any]) -> None:
        self._do_retire(f, a)

    def _legal_ready(self, f: Frame) -> list[dict[str, Any]]:
        return [{"type": "ready", "hero": h} for h in self.exhausted_heroes(exclude=f.data["card"])]

    def _do_ready(self, f: Frame, a: dict[str, Any]) -> None:
        self.stack.pop()
        for p in self.players_:
            for e in p.play:
                if e["card"] == a["hero"]:
                    e["exhausted"] = False
        self.log.public("ready", seat=f.seat, hero=a["hero"], by=f.data["card"])

    # -- fights -----------------------------------------------------------------------------------------
    def _legal_fight_targets(self, f: Frame) -> list[dict[str, Any]]:
        e = self.entry_of(f.seat, f.data["hero"])
        return [{"type": "fight", "hero": e["card"], "targets": t} for t in self.target_sets(e)]

    def _do_fight_targets(self, f: Frame, a: dict[str, Any]) -> None:
        self.stack.pop()
        self.start_fight(f.seat, a["hero"], list(a["targets"]))

    def _legal_reroll(self, f: Frame) -> list[dict[str, Any]]:
        idx = range(len(self.fighting()["pool"]))
        out = []
        for k in range(0, min(f.data["n"], len(idx)) + 1):
            out += [{"type": "reroll", "dice": list(c)} for c in combinations(idx, k)]
        return out

    def _do_reroll(self, f: Frame, a: dict[str, Any]) -> None:
        self.stack.pop()
        self.reroll_dice(list(a["dice"]))

    def _legal_splash(self, f: Frame) -> list[dict[str, Any]]:
        return [{"type": "splash", "monster": m} for m in self.splash_targets()] + [{"type": "splash_skip"}]

    def _do_splash(self, f: Frame, a: dict[str, Any]) -> None:
        self.stack.pop()
        if a["type"] == "splash":
            self.splash(a["monster"], f.data["n"])

    # -- damage -------------------------------------------------------------------------------------------
    def _legal_shield(self, f: Frame) -> list[dict[str, Any]]:
        top = min(self.players_[f.seat].shields, f.data["remaining"])
        return [{"type": "spend_shields", "count": k} for k in range(top + 1)]

    def _do_shield(self, f: Frame, a: dict[str, Any]) -> None:
        self.spend_shields(f, a["count"])

    def _legal_discard_choice(self, f: Frame) -> list[dict[str, Any]]:
        return [{"type": "discard_choice", "card": c} for c in sorted(self.players_[f.seat].hand)]

    def _do_discard_choice(self, f: Frame, a: dict[str, Any]) -> None:
        self.stack.pop()
        self.discard_from_hand(f.seat, a["card"], f.data["why"])

    def _legal_take_monster(self, f: Frame) -> list[dict[str, Any]]:
        return [{"type": "take_monster", "monster": m} for m in self.loc_group]

    def _do_take_monster(self, f: Frame, a: dict[str, Any]) -> None:
        """GB-6.6.3 step 4: one location monster to the end of the seat's group; next seat clockwise."""
        self.stack.pop()
        self.move_monster(a["monster"], f.seat)
        self.push([{"op": "distribute", "seat": (f.seat + 1) % self.players}])

    # -- rewards ------------------------------------------------------------------------------------------
    def _legal_reward_take(self, f: Frame) -> list[dict[str, Any]]:
        return [{"type": "reward_take", "card": c} for c in f.data["cards"]] + [{"type": "reward_skip"}]

    def _do_reward_take(self, f: Frame, a: dict[str, Any]) -> None:
        self.stack.pop()
        seat = f.seat
        card = a.get("card")
        if f.data["mode"] == "reveal5":
            rest = [c for c in f.data["cards"] if c != card]
            self.settle("item", len(self.item_deck))   # the rest go under a deck of known order
            self.item_deck.extend(rest)
        elif card is not None:
            self.take_from_row(card)
        if card is not None:
            self.players_[seat].hand.append(card)
            self.log.public("reward_take", seat=seat, card=card)

    def _legal_reward_strike(self, f: Frame) -> list[dict[str, Any]]:
        return [{"type": "reward_strike", "monster": m} for m in self.all_monsters()]

    def _do_reward_strike(self, f: Frame, a: dict[str, Any]) -> None:
        self.stack.pop()
        m = a["monster"]
        self.hit(m, max(0, f.data["n"] - self.armour(m, False)), f.seat)
        self.defeat_check(m, f.seat)

    # -- end of round ----------------------------------------------------------------------------------------
    def _legal_recruit(self, f: Frame) -> list[dict[str, Any]]:
        return self.recruit_pairs(f.seat)

    def _do_recruit(self, f: Frame, a: dict[str, Any]) -> None:
        self.stack.pop()
        self.recruit(f.seat, a["coin"], a["card"])

    def _legal_discard(self, f: Frame) -> list[dict[str, Any]]:
        hand = self.players_[f.seat].hand
        out = [{"type": "discard", "card": c} for c in sorted(hand)]
        if len(hand) <= self.hand_limit(f.seat):
            out.append({"type": "discard_done"})
        return out

    def _do_discard(self, f: Frame, a: dict[str, Any]) -> None:
        if a["type"] == "discard_done":
            self.stack.pop()
            return
        self.discard_from_hand(f.seat, a["card"], "discard_step")
