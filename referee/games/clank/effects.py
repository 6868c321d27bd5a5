"""CK-3.3: effect atoms named in content data, resolved by the functions registered here.

An atom is a JSON object ``{"op": KEY, ...}`` (its fields are checked at load time against
``catalog.SCHEMA``); ``EFFECTS`` maps each op to a function
``fn(state, atom, work_item)`` run for the active player ("you"). ``ENDGAME`` holds the
end-game VP atoms (CK-8.3), evaluated only at scoring as ``fn(player, atom) -> points``.
Atoms that need a choice push a decision frame (CK-5.17); the rest of the effect list waits
on the work stack below it, so resolution stays strictly left to right.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from referee.engine import EffectRegistry

from .model import ClankModel, PlayerData
from .rules.decisions import secret_rooms_adjacent
from .rules.resources import (
    advance_rage,
    condition_holds,
    draw,
    heal,
    make_clank,
    push_effects,
    remove_clank,
)

Effect = Callable[[ClankModel, dict[str, Any], dict[str, Any]], None]
EndGame = Callable[[PlayerData, dict[str, Any], Any], int]

EFFECTS: EffectRegistry[Effect] = EffectRegistry("clank effects")
ENDGAME: EffectRegistry[EndGame] = EffectRegistry("clank end-game VP")


# -- resources (CK-3.3) -----------------------------------------------------------------------
@EFFECTS.register("skill")
def _skill(st: ClankModel, atom: dict[str, Any], item: dict[str, Any]) -> None:
    """skill+N [seed §2]."""
    st.skill += atom["n"]


@EFFECTS.register("swords")
def _swords(st: ClankModel, atom: dict[str, Any], item: dict[str, Any]) -> None:
    """swords+N [seed §2]."""
    st.swords += atom["n"]


@EFFECTS.register("boots")
def _boots(st: ClankModel, atom: dict[str, Any], item: dict[str, Any]) -> None:
    """boots+N [seed §2]."""
    st.boots += atom["n"]


@EFFECTS.register("teleport")
def _teleport(st: ClankModel, atom: dict[str, Any], item: dict[str, Any]) -> None:
    """teleport+N: add to the Teleport pool (CK-6.14)."""
    st.teleports += atom["n"]


@EFFECTS.register("gold")
def _gold(st: ClankModel, atom: dict[str, Any], item: dict[str, Any]) -> None:
    """gold+N from the unlimited bank (CK-3.1)."""
    st.p[st.active].gold += atom["n"]


@EFFECTS.register("clank")
def _clank(st: ClankModel, atom: dict[str, Any], item: dict[str, Any]) -> None:
    """clank+N makes clank (CK-6.1); clank-N removes it (CK-6.2)."""
    n = atom["n"]
    if n > 0:
        make_clank(st, st.active, n)
    elif n < 0:
        remove_clank(st, st.active, -n)


@EFFECTS.register("others_clank")
def _others_clank(st: ClankModel, atom: dict[str, Any], item: dict[str, Any]) -> None:
    """Each other player in the dungeon makes N clank."""
    for seat in range(st.players):
        if seat != st.active:
            make_clank(st, seat, atom["n"])


@EFFECTS.register("all_clank")
def _all_clank(st: ClankModel, atom: dict[str, Any], item: dict[str, Any]) -> None:
    """Each player in the dungeon makes N clank (Arrive text)."""
    for seat in range(st.players):
        make_clank(st, seat, atom["n"])


@EFFECTS.register("draw")
def _draw(st: ClankModel, atom: dict[str, Any], item: dict[str, Any]) -> None:
    """draw+N (CK-6.12)."""
    draw(st, st.active, atom["n"])


@EFFECTS.register("heal")
def _heal(st: ClankModel, atom: dict[str, Any], item: dict[str, Any]) -> None:
    """heal+N (CK-6.4)."""
    heal(st, st.active, atom["n"])


@EFFECTS.register("return_black")
def _return_black(st: ClankModel, atom: dict[str, Any], item: dict[str, Any]) -> None:
    """Move min(N, set aside) black cubes back into the dragon bag."""
    k = min(atom["n"], st.black_aside)
    st.black_aside -= k
    st.bag_black += k
    st.log.public("black_returned", cubes=k)


@EFFECTS.register("rage")
def _rage(st: ClankModel, atom: dict[str, Any], item: dict[str, Any]) -> None:
    """rage+N, capped at the last space (CK-3.14)."""
    advance_rage(st, atom["n"])


@EFFECTS.register("flag")
def _flag(st: ClankModel, atom: dict[str, Any], item: dict[str, Any]) -> None:
    """ignore_caves (CK-6.16) / ignore_monsters (CK-5.11) for the rest of the turn."""
    setattr(st, atom["flag"], True)


# -- decisions (CK-5.17 .. CK-5.22) ------------------------------------------------------------
@EFFECTS.register("choose")
def _choose(st: ClankModel, atom: dict[str, Any], item: dict[str, Any]) -> None:
    """choose(A OR B): decision ``choose`` (CK-5.19); both options are always listed."""
    st.stack.push("choose", st.active, options=atom["options"], card=item.get("card"))


@EFFECTS.register("discard_draw")
def _discard_draw(st: ClankModel, atom: dict[str, Any], item: dict[str, Any]) -> None:
    """CK-5.20: optional discard then draw N; skipped when the hand is empty."""
    if st.p[st.active].hand:
        st.stack.push("discard", st.active, n=atom["n"], card=item.get("card"))


@EFFECTS.register("trash_opt")
def _trash_opt(st: ClankModel, atom: dict[str, Any], item: dict[str, Any]) -> None:
    """CK-5.21: optional trash from the play area or discard pile; skipped when both are empty."""
    p = st.p[st.active]
    if p.play or p.discard:
        st.stack.push("trash", st.active, card=item.get("card"))


@EFFECTS.register("adj_secret")
def _adj_secret(st: ClankModel, atom: dict[str, Any], item: dict[str, Any]) -> None:
    """CK-5.22: optionally (pay N clank and) take a secret from an adjacent room."""
    if secret_rooms_adjacent(st, st.active):
        st.stack.push("secret_from", st.active, clank=atom["clank"], card=item.get("card"))


@EFFECTS.register("if")
def _if(st: ClankModel, atom: dict[str, Any], item: dict[str, Any]) -> None:
    """CK-6.9: resolve E now if the condition holds, else keep it pending for the turn."""
    card = item.get("card")
    if condition_holds(st, atom["cond"], card):
        push_effects(st, atom["then"], card)
    else:
        st.conds.append({"card": card, "cond": atom["cond"], "then": atom["then"]})


# -- resolution (CK-5.17, CK-6.9) ----------------------------------------------------------------
def run_work(st: ClankModel) -> None:
    """Resolve queued atoms until the queue is empty or a decision is pending (depth-first)."""
    work = st.work
    effects = EFFECTS.effects
    while work and not st.stack:
        item = work[-1]
        fx = item["fx"]
        if not fx:
            work.pop()
            continue
        atom = fx.pop(0)
        effects[atom["op"]](st, atom, item)


def resolve_now(st: ClankModel, atoms: list[dict[str, Any]], card: str | None) -> None:
    """Queue and run an effect list (used where no decision can arise or the caller re-runs)."""
    push_effects(st, atoms, card)
    run_work(st)


def check_conditionals(st: ClankModel) -> None:
    """CK-6.9: after each completed action, re-test pending conditionals in play-area order."""
    if not st.conds:
        return
    order = {c: i for i, c in enumerate(st.p[st.active].play)}
    for cond in sorted(st.conds, key=lambda c: order.get(c["card"], -1)):
        if cond in st.conds and condition_holds(st, cond["cond"], cond["card"]):
            st.conds.remove(cond)
            resolve_now(st, cond["then"], cond["card"])


# -- end-game VP (CK-8.3) ------------------------------------------------------------------------
@ENDGAME.register("vp_per_gem")
def _vp_per_gem(player: PlayerData, atom: dict[str, Any], cat: Any) -> int:
    """N per gem card owned."""
    return atom["n"] * sum(1 for c in player.owned() if cat.card_types[cat.type_of[c]].kind == "gem")


@ENDGAME.register("vp_per_codex")
def _vp_per_codex(player: PlayerData, atom: dict[str, Any], cat: Any) -> int:
    """N per Forbidden Codex owned."""
    return atom["n"] * sum(1 for c in player.owned() if cat.card_types[cat.type_of[c]].pile == "codex")


@ENDGAME.register("vp_if_mastery")
def _vp_if_mastery(player: PlayerData, atom: dict[str, Any], cat: Any) -> int:
    """N if the player holds a mastery token."""
    return atom["n"] if player.mastery else 0
