"""GB-5.9 sub-decisions: for each frame kind, its legal list (``LEGAL``); the rules for the actions
that answer them (registered on ``RULES`` by action class; a rule pops its frame). Setup choices (GB-4.2.1,
GB-4.2.6) and the end-of-round decisions live here too."""
from __future__ import annotations

from collections.abc import Callable
from itertools import combinations
from typing import Any

from referee.engine import Frame

from ..actions import (
    AmbushNext,
    ChooseCharacter,
    ChoosePlayer,
    ChooseWounded,
    Discard,
    DiscardChoice,
    DiscardDone,
    Fight,
    MarkerTaunt,
    Ready,
    Reroll,
    Retire,
    RetireSkip,
    RewardSkip,
    RewardStrike,
    RewardTake,
    SpendShields,
    Splash,
    SplashSkip,
    TakeMonster,
    Taunt,
    TauntSkip,
)
from ..model import GreyportModel
from .core import (
    C,
    all_monsters,
    armour,
    card_def,
    discard_from_hand,
    draw,
    exhausted_heroes,
    fighting,
    hand_limit,
    heal,
    move_monster,
    push,
    retire_card,
    stat,
    taunt_targets,
)
from .damage import defeat_check, hit
from .decks import settle
from .dispatch import RULES
from .encounter import resolve_ambush, wound
from .fight import entry_of, splash_targets, target_sets
from .main import marker_targets
from .rounds import recruit_pairs, take_from_row


# -- setup ----------------------------------------------------------------------------------------
def legal_choose_character(st: GreyportModel, f: Frame) -> list[dict[str, Any]]:
    taken = {p.character for p in st.players_}
    return [ChooseCharacter.wire(c) for c in C.characters if c not in taken]


def legal_choose_wounded(st: GreyportModel, f: Frame) -> list[dict[str, Any]]:
    return [ChooseWounded.wire(s) for s in range(st.players)]


def legal_ambush(st: GreyportModel, f: Frame) -> list[dict[str, Any]]:
    return [AmbushNext.wire(m) for m in f.data["pending"]]


# -- taunts ---------------------------------------------------------------------------------------
def legal_forced_taunt(st: GreyportModel, f: Frame) -> list[dict[str, Any]]:
    return [MarkerTaunt.wire(m) for m in marker_targets(st)]


def legal_taunt(st: GreyportModel, f: Frame) -> list[dict[str, Any]]:
    return [Taunt.wire(m) for m in taunt_targets(st, f.seat)] + [TauntSkip.wire()]


# -- card play sub-decisions ------------------------------------------------------------------------
def legal_choose_player(st: GreyportModel, f: Frame) -> list[dict[str, Any]]:
    seats: range | list[int] = range(st.players)
    if f.data["effect"] == "rally":
        seats = [s for s in seats if s != f.seat]
    return [ChoosePlayer.wire(s) for s in seats]


def legal_retire(st: GreyportModel, f: Frame) -> list[dict[str, Any]]:
    out = [Retire.wire(c) for c in sorted(st.players_[f.seat].hand)]
    return out + ([RetireSkip.wire()] if f.data["optional"] else [])


def legal_retire_curse(st: GreyportModel, f: Frame) -> list[dict[str, Any]]:
    p = st.players_[f.seat]
    hand = sorted(c for c in p.hand if card_def(st, c).kind == "curse")
    disc = [c for c in p.discard if card_def(st, c).kind == "curse"]
    return [Retire.wire(c) for c in hand + disc] + [RetireSkip.wire()]


def legal_ready(st: GreyportModel, f: Frame) -> list[dict[str, Any]]:
    return [Ready.wire(h) for h in exhausted_heroes(st, exclude=f.data["card"])]


# -- fights -----------------------------------------------------------------------------------------
def legal_fight_targets(st: GreyportModel, f: Frame) -> list[dict[str, Any]]:
    e = entry_of(st, f.seat, f.data["hero"])
    return [Fight.wire(e["card"], t) for t in target_sets(st, e)]


def legal_reroll(st: GreyportModel, f: Frame) -> list[dict[str, Any]]:
    idx = range(len(fighting(st)["pool"]))
    out = []
    for k in range(0, min(f.data["n"], len(idx)) + 1):
        out += [Reroll.wire(list(c)) for c in combinations(idx, k)]
    return out


def legal_splash(st: GreyportModel, f: Frame) -> list[dict[str, Any]]:
    return [Splash.wire(m) for m in splash_targets(st)] + [SplashSkip.wire()]


# -- damage -------------------------------------------------------------------------------------------
def legal_shield(st: GreyportModel, f: Frame) -> list[dict[str, Any]]:
    top = min(st.players_[f.seat].shields, f.data["remaining"])
    return [SpendShields.wire(k) for k in range(top + 1)]


def legal_discard_choice(st: GreyportModel, f: Frame) -> list[dict[str, Any]]:
    return [DiscardChoice.wire(c) for c in sorted(st.players_[f.seat].hand)]


def legal_take_monster(st: GreyportModel, f: Frame) -> list[dict[str, Any]]:
    return [TakeMonster.wire(m) for m in st.loc_group]


# -- rewards ------------------------------------------------------------------------------------------
def legal_reward_take(st: GreyportModel, f: Frame) -> list[dict[str, Any]]:
    return [RewardTake.wire(c) for c in f.data["cards"]] + [RewardSkip.wire()]


def legal_reward_strike(st: GreyportModel, f: Frame) -> list[dict[str, Any]]:
    return [RewardStrike.wire(m) for m in all_monsters(st)]


# -- end of round ----------------------------------------------------------------------------------------
def legal_recruit(st: GreyportModel, f: Frame) -> list[dict[str, Any]]:
    return recruit_pairs(st, f.seat)


def legal_discard(st: GreyportModel, f: Frame) -> list[dict[str, Any]]:
    hand = st.players_[f.seat].hand
    out = [Discard.wire(c) for c in sorted(hand)]
    if len(hand) <= hand_limit(st, f.seat):
        out.append(DiscardDone.wire())
    return out


#: frame kind -> its legal list (GB-5.9)
LEGAL: dict[str, Callable[[GreyportModel, Frame], list[dict[str, Any]]]] = {
    "choose_character": legal_choose_character,
    "choose_wounded": legal_choose_wounded,
    "ambush": legal_ambush,
    "forced_taunt": legal_forced_taunt,
    "taunt": legal_taunt,
    "choose_player": legal_choose_player,
    "retire": legal_retire,
    "retire_curse": legal_retire_curse,
    "ready": legal_ready,
    "fight_targets": legal_fight_targets,
    "reroll": legal_reroll,
    "splash": legal_splash,
    "shield": legal_shield,
    "discard_choice": legal_discard_choice,
    "take_monster": legal_take_monster,
    "reward_take": legal_reward_take,
    "reward_strike": legal_reward_strike,
    "recruit": legal_recruit,
    "discard": legal_discard,
}


def frame_legal(st: GreyportModel, f: Frame) -> list[dict[str, Any]]:
    """The legal list of the sub-decision ``f`` (the top frame)."""
    return LEGAL[f.kind](st, f)


# -- the answers (the frame on top of the stack is the one the seat was asked) ----------------------------
@RULES.on(ChooseCharacter)
def choose_character(st: GreyportModel, seat: int, a: ChooseCharacter) -> None:
    """GB-4.2.1: seats choose in order among unchosen characters."""
    st.stack.pop()
    st.players_[seat].character = a.character


@RULES.on(ChooseWounded)
def choose_wounded(st: GreyportModel, seat: int, a: ChooseWounded) -> None:
    """GB-4.2.6: the first player chooses the wounded seat."""
    st.stack.pop()
    wound(st, a.seat)


@RULES.on(AmbushNext)
def ambush_next(st: GreyportModel, seat: int, a: AmbushNext) -> None:
    """GB-4.4 step 9: this ambush now, then the rest."""
    f = st.stack.pop()
    resolve_ambush(st, a.monster, [m for m in f.data["pending"] if m != a.monster])


@RULES.on(Taunt)
def taunt(st: GreyportModel, seat: int, a: Taunt) -> None:
    """GB-6.2.1: into the taunting seat's own group; GB-6.2.4 may save the location."""
    st.stack.pop()
    move_monster(st, a.monster, seat)
    stat(st, seat, "taunts")
    st.actor = seat


@RULES.on(TauntSkip, RetireSkip, SplashSkip)
def skip(st: GreyportModel, seat: int, a: TauntSkip | RetireSkip | SplashSkip) -> None:
    """An optional taunt, retire or splash declined."""
    st.stack.pop()


@RULES.on(ChoosePlayer)
def choose_player(st: GreyportModel, seat: int, a: ChoosePlayer) -> None:
    """GB-3.4 draw_any / heal_any / rally: the chosen seat gets the effect."""
    f = st.stack.pop()
    target, n, eff = a.seat, f.data["n"], f.data["effect"]
    st.log.public("choose_player", seat=seat, target=target, effect=eff)
    if eff == "draw":
        draw(st, target, n, by=seat)
    elif eff == "heal":
        heal(st, target, n, seat)
    else:
        st.players_[target].hero_limit += n


@RULES.on(Retire)
def retire(st: GreyportModel, seat: int, a: Retire) -> None:
    """GB-6.7.1 (frames ``retire`` and ``retire_curse``)."""
    st.stack.pop()
    retire_card(st, seat, a.card)


@RULES.on(Ready)
def ready(st: GreyportModel, seat: int, a: Ready) -> None:
    """GB-6.5.3 rewind: ready an exhausted hero."""
    f = st.stack.pop()
    for p in st.players_:
        for e in p.play:
            if e["card"] == a.hero:
                e["exhausted"] = False
    st.log.public("ready", seat=seat, hero=a.hero, by=f.data["card"])


@RULES.on(DiscardChoice)
def discard_choice(st: GreyportModel, seat: int, a: DiscardChoice) -> None:
    f = st.stack.pop()
    discard_from_hand(st, seat, a.card, f.data["why"])


@RULES.on(TakeMonster)
def take_monster(st: GreyportModel, seat: int, a: TakeMonster) -> None:
    """GB-6.6.3 step 4: one location monster to the end of the seat's group; next seat clockwise."""
    st.stack.pop()
    move_monster(st, a.monster, seat)
    push(st, [{"op": "distribute", "seat": (seat + 1) % st.players}])


@RULES.on(RewardTake, RewardSkip)
def reward_take(st: GreyportModel, seat: int, a: RewardTake | RewardSkip) -> None:
    """GB-6.6.2: a revealed card (L2: the rest go under the item deck) or a row card into hand."""
    f = st.stack.pop()
    card = a.card if isinstance(a, RewardTake) else None
    if f.data["mode"] == "reveal5":
        rest = [c for c in f.data["cards"] if c != card]
        settle(st, "item", len(st.item_deck))   # the rest go under a deck of known order
        st.item_deck.extend(rest)
    elif card is not None:
        take_from_row(st, card)
    if card is not None:
        st.players_[seat].hand.append(card)
        st.log.public("reward_take", seat=seat, card=card)


@RULES.on(RewardStrike)
def reward_strike(st: GreyportModel, seat: int, a: RewardStrike) -> None:
    """L7 reward: strike a monster."""
    f = st.stack.pop()
    m = a.monster
    hit(st, m, max(0, f.data["n"] - armour(st, m, False)), seat)
    defeat_check(st, m, seat)


@RULES.on(Discard)
def discard(st: GreyportModel, seat: int, a: Discard) -> None:
    """GB-5.6.4: one card; the frame stays until ``discard_done``."""
    discard_from_hand(st, seat, a.card, "discard_step")


@RULES.on(DiscardDone)
def discard_done(st: GreyportModel, seat: int, a: DiscardDone) -> None:
    st.stack.pop()
