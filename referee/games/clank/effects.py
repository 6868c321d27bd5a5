"""CK-3.3: effect atoms named in content data, resolved by the functions registered here.

An atom is a JSON object ``{"op": KEY, ...}``; ``EFFECTS`` maps each op to a function
``fn(state, atom, work_item)`` run for the active player ("you"). ``ENDGAME`` holds the
end-game VP atoms (CK-8.3), evaluated only at scoring as ``fn(player, atom) -> points``.
Atoms that need a choice push a decision frame (CK-5.17); the rest of the effect list waits
on the work stack below it, so resolution stays strictly left to right.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from referee.engine import ContentError, EffectRegistry

if TYPE_CHECKING:
    from .model import PlayerData
    from .state import ClankState

Effect = Callable[["ClankState", dict[str, Any], dict[str, Any]], None]
EndGame = Callable[["PlayerData", dict[str, Any], Any], int]

EFFECTS: EffectRegistry[Effect] = EffectRegistry("clank effects")
ENDGAME: EffectRegistry[EndGame] = EffectRegistry("clank end-game VP")

#: op -> {field: type} for validation at load time; nested effect lists are checked recursively.
SCHEMA: dict[str, dict[str, Any]] = {
    "skill": {"n": int}, "swords": {"n": int}, "boots": {"n": int}, "gold": {"n": int}, "clank": {"n": int},
    "draw": {"n": int}, "heal": {"n": int}, "teleport": {"n": int}, "others_clank": {"n": int},
    "all_clank": {"n": int}, "return_black": {"n": int}, "rage": {"n": int},
    "flag": {"flag": ("ignore_caves", "ignore_monsters")}, "choose": {"options": "effects2"},
    "discard_draw": {"n": int}, "trash_opt": {}, "adj_secret": {"clank": int},
    "if": {"cond": ("artifact", "companion"), "then": "effects"},
    "vp_per_gem": {"n": int}, "vp_per_codex": {"n": int}, "vp_if_mastery": {"n": int},
}
#: atoms that open a decision; forbidden inside a conditional's E (CK-6.9)
DECISION_OPS = frozenset({"choose", "discard_draw", "trash_opt", "adj_secret"})


def check_atoms(where: str, atoms: Any, registry: EffectRegistry[Any], *, in_if: bool = False) -> None:
    """Validate an effect list: known ops, exactly the documented fields, nested lists too."""
    if not isinstance(atoms, list):
        raise ContentError(f"{where}: effects must be a list of atoms")
    for i, atom in enumerate(atoms):
        label = f"{where}[{i}]"
        if not isinstance(atom, dict) or not isinstance(atom.get("op"), str):
            raise ContentError(f"{label}: an atom is an object with a string 'op'")
        op = atom["op"]
        registry.resolve(op, label)
        spec = SCHEMA[op]
        extra = sorted(set(atom) - set(spec) - {"op"})
        if extra:
            raise ContentError(f"{label}: op {op!r} has unknown field(s) {extra}")
        if in_if and op in DECISION_OPS:
            raise ContentError(f"{label}: a conditional's effect may not contain a decision ({op!r})")
        for name, kind in spec.items():
            if name not in atom:
                raise ContentError(f"{label}: op {op!r} is missing field {name!r}")
            value = atom[name]
            if kind is int:
                if isinstance(value, bool) or not isinstance(value, int):
                    raise ContentError(f"{label}: field {name!r} must be an integer")
            elif isinstance(kind, tuple):
                if value not in kind:
                    raise ContentError(f"{label}: field {name!r} must be one of {list(kind)}")
            elif kind == "effects":
                check_atoms(f"{label}.{name}", value, registry, in_if=True)
            elif kind == "effects2":
                if not isinstance(value, list) or len(value) != 2:
                    raise ContentError(f"{label}: 'options' must list exactly two effect lists")
                for j, sub in enumerate(value):
                    check_atoms(f"{label}.options[{j}]", sub, registry, in_if=in_if)


# -- resources (CK-3.3) -----------------------------------------------------------------------
@EFFECTS.register("skill")
def _skill(st: ClankState, atom: dict[str, Any], item: dict[str, Any]) -> None:
    """skill+N [seed §2]."""
    st.skill += atom["n"]


@EFFECTS.register("swords")
def _swords(st: ClankState, atom: dict[str, Any], item: dict[str, Any]) -> None:
    """swords+N [seed §2]."""
    st.swords += atom["n"]


@EFFECTS.register("boots")
def _boots(st: ClankState, atom: dict[str, Any], item: dict[str, Any]) -> None:
    """boots+N [seed §2]."""
    st.boots += atom["n"]


@EFFECTS.register("teleport")
def _teleport(st: ClankState, atom: dict[str, Any], item: dict[str, Any]) -> None:
    """teleport+N: add to the Teleport pool (CK-6.14)."""
    st.teleports += atom["n"]


@EFFECTS.register("gold")
def _gold(st: ClankState, atom: dict[str, Any], item: dict[str, Any]) -> None:
    """gold+N from the unlimited bank (CK-3.1)."""
    st.p[st.active].gold += atom["n"]


@EFFECTS.register("clank")
def _clank(st: ClankState, atom: dict[str, Any], item: dict[str, Any]) -> None:
    """clank+N makes clank (CK-6.1); clank-N removes it (CK-6.2)."""
    n = atom["n"]
    if n > 0:
        st.make_clank(st.active, n)
    elif n < 0:
        st.remove_clank(st.active, -n)


@EFFECTS.register("others_clank")
def _others_clank(st: ClankState, atom: dict[str, Any], item: dict[str, Any]) -> None:
    """Each other player in the dungeon makes N clank."""
    for seat in range(st.players):
        if seat != st.active:
            st.make_clank(seat, atom["n"])


@EFFECTS.register("all_clank")
def _all_clank(st: ClankState, atom: dict[str, Any], item: dict[str, Any]) -> None:
    """Each player in the dungeon makes N clank (Arrive text)."""
    for seat in range(st.players):
        st.make_clank(seat, atom["n"])


@EFFECTS.register("draw")
def _draw(st: ClankState, atom: dict[str, Any], item: dict[str, Any]) -> None:
    """draw+N (CK-6.12)."""
    st.draw(st.active, atom["n"])


@EFFECTS.register("heal")
def _heal(st: ClankState, atom: dict[str, Any], item: dict[str, Any]) -> None:
    """heal+N (CK-6.4)."""
    st.heal(st.active, atom["n"])


@EFFECTS.register("return_black")
def _return_black(st: ClankState, atom: dict[str, Any], item: dict[str, Any]) -> None:
    """Move min(N, set aside) black cubes back into the dragon bag."""
    k = min(atom["n"], st.black_aside)
    st.black_aside -= k
    st.bag_black += k
    st.log.public("black_returned", cubes=k)


@EFFECTS.register("rage")
def _rage(st: ClankState, atom: dict[str, Any], item: dict[str, Any]) -> None:
    """rage+N, capped at the last space (CK-3.14)."""
    st.advance_rage(atom["n"])


@EFFECTS.register("flag")
def _flag(st: ClankState, atom: dict[str, Any], item: dict[str, Any]) -> None:
    """ignore_caves (CK-6.16) / ignore_monsters (CK-5.11) for the rest of the turn."""
    setattr(st, atom["flag"], True)


# -- decisions (CK-5.17 .. CK-5.22) ------------------------------------------------------------
@EFFECTS.register("choose")
def _choose(st: ClankState, atom: dict[str, Any], item: dict[str, Any]) -> None:
    """choose(A OR B): decision ``choose`` (CK-5.19); both options are always listed."""
    st.stack.push("choose", st.active, options=atom["options"], card=item.get("card"))


@EFFECTS.register("discard_draw")
def _discard_draw(st: ClankState, atom: dict[str, Any], item: dict[str, Any]) -> None:
    """CK-5.20: optional discard then draw N; skipped when the hand is empty."""
    if st.p[st.active].hand:
        st.stack.push("discard", st.active, n=atom["n"], card=item.get("card"))


@EFFECTS.register("trash_opt")
def _trash_opt(st: ClankState, atom: dict[str, Any], item: dict[str, Any]) -> None:
    """CK-5.21: optional trash from the play area or discard pile; skipped when both are empty."""
    p = st.p[st.active]
    if p.play or p.discard:
        st.stack.push("trash", st.active, card=item.get("card"))


@EFFECTS.register("adj_secret")
def _adj_secret(st: ClankState, atom: dict[str, Any], item: dict[str, Any]) -> None:
    """CK-5.22: optionally (pay N clank and) take a secret from an adjacent room."""
    if st.secret_rooms_adjacent(st.active):
        st.stack.push("secret_from", st.active, clank=atom["clank"], card=item.get("card"))


@EFFECTS.register("if")
def _if(st: ClankState, atom: dict[str, Any], item: dict[str, Any]) -> None:
    """CK-6.9: resolve E now if the condition holds, else keep it pending for the turn."""
    card = item.get("card")
    if st.condition_holds(atom["cond"], card):
        st.push_effects(atom["then"], card)
    else:
        st.conds.append({"card": card, "cond": atom["cond"], "then": atom["then"]})


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
