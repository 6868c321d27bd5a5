"""GB-6.3 damage and defeat: a player losing HP to a monster (its on-damage abilities), a monster taking
damage and leaving play when defeated (its on-defeat abilities): the rule helpers that call the content's
effects back."""
from __future__ import annotations

from ..effects import effect_fn
from ..model import GreyportModel
from .core import group_of, lose, mdef, monster_hp, remove_monster, stat


def take_damage(st: GreyportModel, seat: int, n: int, src: str | None) -> None:
    """GB-6.3.4 damage after shields; GB-6.3.5 on-damage abilities only if >= 1 HP was lost."""
    if n <= 0:
        return
    p = st.players_[seat]
    p.hp -= n
    stat(st, seat, "damage_taken", n)
    st.log.public("damage", seat=seat, amount=n, source=src)
    if p.hp <= 0:
        lose(st, "hp_zero")
        return
    if src is not None:
        for a in mdef(src).abilities:
            fn = effect_fn(a.key)
            if fn.when == "on_damage":
                fn(st, seat, src)


def hit(st: GreyportModel, mid: str, amount: int, seat: int | None) -> None:
    """Add damage to a monster; credit the seat with the damage up to the HP the target had left."""
    if amount <= 0:
        return
    before = st.dmg.get(mid, 0)
    st.dmg[mid] = before + amount
    stat(st, seat, "damage_dealt", min(amount, max(0, monster_hp(st, mid) - before)))
    st.log.public("hit", monster=mid, amount=amount, damage=st.dmg[mid], seat=seat)


def defeat_check(st: GreyportModel, mid: str, seat: int | None) -> bool:
    """GB-6.3.3: damage >= hp -> defeated, leaves play at once; on-defeat abilities resolve."""
    if group_of(st, mid) is None or st.dmg.get(mid, 0) < monster_hp(st, mid):
        return False
    d = mdef(mid)
    remove_monster(st, mid, defeated=True)
    st.log.public("defeated", monster=mid, seat=seat)
    if d.kind == "boss":
        stat(st, seat, "bosses_defeated")
        st.team["monsters_defeated"] += 1
    elif d.kind == "token":
        st.team["tokens_defeated"] += 1
    else:
        st.team["monsters_defeated"] += 1
    stat(st, seat, "monsters_defeated")
    if seat is not None:
        for a in d.abilities:
            fn = effect_fn(a.key)
            if fn.when == "on_defeat":
                fn(st, mid, seat, *a.args)
    return True
