"""GB-3: load and validate every content table (numbers in data, verbs in ``effects.py``).

Rows are read with ``build_rows`` (unknown/missing fields and duplicate ids name file and row),
then every ability, reference and count is checked. ``load_content()`` is cached. The effect keys the rows
name are listed by file and row (``Content.effect_uses``): ``effects.check_content`` checks that each has
its function.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from referee.engine import ContentError, build_rows, check_count, check_refs, load_data

PKG = "referee.games.greyport.content"
WHERE = "greyport/content"
_CALL = re.compile(r"^([a-z_0-9]+)(?:\((.*)\))?$")


@dataclass(frozen=True)
class Ability:
    """One parsed ability: registry key (``timing:code``), arguments, and the text it came from."""

    key: str
    args: tuple[Any, ...]
    text: str


def parse_ability(text: str, default_timing: str, where: str) -> Ability:
    """``"play:shield(1)"`` -> Ability("play:shield", (1,)); codes without a timing get ``default_timing``.

    ``where`` is ``"<file>: row '<id>'"``, named by a ``ContentError`` if the text does not parse.
    """
    timing, colon, rest = text.partition(":")
    if not colon or "(" in timing:
        timing, rest = default_timing, text
    m = _CALL.match(rest)
    if not m:
        raise ContentError(f"{where}: cannot parse ability {text!r}")
    args: list[Any] = []
    if m.group(2):
        for a in m.group(2).split(","):
            a = a.strip()
            args.append(int(a) if a.lstrip("-").isdigit() else a)
    return Ability(f"{timing}:{m.group(1)}", tuple(args), text)


# -- raw rows (exactly the TOML fields) -------------------------------------------------------
@dataclass(frozen=True)
class DieRow:
    id: str
    colour: str
    faces: tuple[int, ...]


@dataclass(frozen=True)
class CharacterRow:
    id: str
    name: str
    role: str
    type: str


@dataclass(frozen=True)
class PlayerHeroRow:
    id: str
    char: str
    level: int
    type: str
    dice: tuple[str, ...]
    fixed: int
    abilities: tuple[str, ...]


@dataclass(frozen=True)
class StartingRow:
    id: str
    char: str
    name: str
    count: int
    kind: str
    type: str
    dice: tuple[str, ...]
    fixed: int
    abilities: tuple[str, ...]


@dataclass(frozen=True)
class AidRow:
    id: str
    name: str
    count: int
    type: str
    cost: str
    dice: tuple[str, ...]
    fixed: int
    abilities: tuple[str, ...]
    cameo: str = ""


@dataclass(frozen=True)
class FactionRow:
    id: str
    name: str
    difficulty: str


@dataclass(frozen=True)
class MonsterRow:
    id: str
    faction: str
    name: str
    count: int
    damage: int
    hp: int
    threat: int
    armour: int
    tags: tuple[str, ...]
    abilities: tuple[str, ...]


@dataclass(frozen=True)
class TokenRow:
    id: str
    name: str
    count: int
    damage: int
    hp: int
    armour: int
    tags: tuple[str, ...]
    abilities: tuple[str, ...]


@dataclass(frozen=True)
class BossRow:
    id: str
    name: str
    damage: int
    hp: tuple[int, ...]
    armour: int
    tags: tuple[str, ...]
    abilities: tuple[str, ...]


@dataclass(frozen=True)
class LocationRow:
    id: str
    name: str
    hp: int
    ability: str
    reward: str


@dataclass(frozen=True)
class CurseRow:
    id: str
    name: str
    count: int
    effect: str


@dataclass(frozen=True)
class ChapterRow:
    id: str
    name: str
    encounters: tuple[str, ...]
    start_faction: str
    later_faction: str
    destroyed_loss: int


@dataclass(frozen=True)
class EncounterRow:
    id: str
    name: str
    location: str
    location_threat: tuple[int, ...]
    player_threat: tuple[int, ...]
    coins: tuple[str, ...]
    add_faction: str
    special: tuple[str, ...]
    penalty: tuple[str, ...]
    penalty_text: str
    objective: str
    boss: str


# -- runtime definitions --------------------------------------------------------------------------
@dataclass(frozen=True)
class CardDef:
    """GB-3.3.1: a hero, item, player hero, starting card or curse design."""

    id: str
    name: str
    kind: str            # player_hero / hero / item / curse
    type: str            # P / M ("" for curses)
    cost: str            # copper / silver / gold / start:<char> / ""
    dice: tuple[str, ...]
    fixed: int
    abilities: tuple[Ability, ...]
    count: int = 1
    char: str = ""
    level: int = 0
    cameo: str = ""
    effect: str = ""     # curses

    def keys(self) -> tuple[str, ...]:
        return tuple(a.key for a in self.abilities)


@dataclass(frozen=True)
class MonsterDef:
    """GB-3.9-3.11: a monster card, token or boss design."""

    id: str
    name: str
    kind: str            # monster / token / boss
    faction: str
    count: int
    damage: int
    hp: tuple[int, ...]  # one value, or 5 values (by player count) for bosses
    threat: int
    armour: int
    tags: frozenset[str]
    abilities: tuple[Ability, ...]

    def hp_for(self, players: int) -> int:
        return self.hp[players - 1] if len(self.hp) > 1 else self.hp[0]


@dataclass(frozen=True)
class Content:
    dice: dict[str, tuple[int, ...]]
    characters: dict[str, CharacterRow]
    cards: dict[str, CardDef]
    starting: dict[str, list[str]]          # char -> design ids in table order
    hero_designs: list[str]
    item_designs: list[str]
    curse_designs: list[str]
    monsters: dict[str, MonsterDef]
    factions: dict[str, list[str]]          # faction -> monster design ids in table order
    token_designs: list[str]
    locations: dict[str, LocationRow]
    location_abilities: dict[str, Ability]
    location_rewards: dict[str, Ability]
    chapters: dict[str, ChapterRow]
    encounters: dict[str, EncounterRow]
    penalties: dict[str, tuple[Ability, ...]]
    specials: dict[str, tuple[Ability, ...]]
    keys_used: frozenset[str] = field(default_factory=frozenset)
    #: file -> row id -> the effect keys the row names (``effects.check_content`` resolves them)
    effect_uses: dict[str, dict[str, list[str]]] = field(default_factory=dict)


def _abilities(uses: dict[str, dict[str, list[str]]], where: str, rid: str, texts: tuple[str, ...],
               timing: str) -> tuple[Ability, ...]:
    """Parse a row's abilities and note the effect keys they name under ``uses[where][rid]``."""
    out = tuple(parse_ability(t, timing, f"{where}: row {rid!r}") for t in texts)
    uses.setdefault(where, {}).setdefault(rid, []).extend(a.key for a in out)
    return out


def _check_enum(where: str, rid: str, name: str, value: str, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise ContentError(f"{where}: row {rid!r}: field {name!r} must be one of {list(allowed)}, not "
                           f"{value!r}")


def build_content(raw: dict[str, dict[str, Any]]) -> Content:
    """Validate raw parsed files (file name -> data) into ``Content``; errors name file and row."""
    w = {name: f"{WHERE}/{name}" for name in raw}
    uses: dict[str, dict[str, list[str]]] = {}
    dice = {k: v.faces for k, v in build_rows(w["dice.toml"], raw["dice.toml"].get("die", []),
                                              DieRow).items()}
    for k, faces in dice.items():
        check_count(f"{w['dice.toml']}: row {k!r}", len(faces), 6, "faces")
    chars = build_rows(w["characters.toml"], raw["characters.toml"].get("character", []), CharacterRow)
    check_count(w["characters.toml"], len(chars), 5, "characters")
    phs = build_rows(w["characters.toml"], raw["characters.toml"].get("player_hero", []), PlayerHeroRow)
    check_count(w["characters.toml"], len(phs), 15, "player hero cards")
    check_refs(w["characters.toml"], phs, "char", chars, "character")
    check_refs(w["characters.toml"], phs, "dice", dice, "die")
    cards: dict[str, CardDef] = {}
    used: set[str] = set()
    for rid, r in phs.items():
        _check_enum(w["characters.toml"], rid, "type", r.type, ("P", "M"))
        ab = _abilities(uses, w["characters.toml"], rid, r.abilities, "card")
        cards[rid] = CardDef(rid, chars[r.char].name, "player_hero", r.type, "", r.dice, r.fixed, ab,
                             char=r.char, level=r.level)
    for c in chars:
        levels = sorted(p.level for p in phs.values() if p.char == c)
        if levels != [1, 2, 3]:
            raise ContentError(f"{w['characters.toml']}: character {c!r} needs player heroes at levels 1, 2, "
                               f"3")

    cw = w["cards.toml"]
    start = build_rows(cw, raw["cards.toml"].get("starting", []), StartingRow)
    check_refs(cw, start, "char", chars, "character")
    check_refs(cw, start, "dice", dice, "die")
    starting: dict[str, list[str]] = {c: [] for c in chars}
    for rid, sr in start.items():
        _check_enum(cw, rid, "kind", sr.kind, ("hero", "item"))
        _check_enum(cw, rid, "type", sr.type, ("P", "M"))
        cards[rid] = CardDef(rid, sr.name, sr.kind, sr.type, f"start:{sr.char}", sr.dice, sr.fixed,
                             _abilities(uses, cw, rid, sr.abilities, "card"), sr.count, char=sr.char)
        starting[sr.char].append(rid)
    check_count(cw, sum(r.count for r in start.values()), 45, "starting cards")
    for c, ids in starting.items():
        check_count(f"{cw}: character {c!r}", sum(start[i].count for i in ids), 9, "starting cards")
    heroes = build_rows(cw, raw["cards.toml"].get("heroes", []), AidRow)
    items = build_rows(cw, raw["cards.toml"].get("items", []), AidRow)
    for table, kind in ((heroes, "hero"), (items, "item")):
        check_refs(cw, table, "dice", dice, "die")
        for rid, ar in table.items():
            _check_enum(cw, rid, "type", ar.type, ("P", "M"))
            _check_enum(cw, rid, "cost", ar.cost, ("copper", "silver", "gold"))
            if ar.cameo and ar.cameo not in chars:
                raise ContentError(f"{cw}: row {rid!r}: field 'cameo' names unknown character {ar.cameo!r}")
            if rid in cards:
                raise ContentError(f"{cw}: row {rid!r}: duplicate id")
            cards[rid] = CardDef(rid, ar.name, kind, ar.type, ar.cost, ar.dice, ar.fixed,
                                 _abilities(uses, cw, rid, ar.abilities, "card"), ar.count, cameo=ar.cameo)
    check_count(cw, sum(r.count for r in heroes.values()), 50, "hero cards")
    check_count(cw, sum(r.count for r in items.values()), 48, "item cards")

    kw = w["curses.toml"]
    curses = build_rows(kw, raw["curses.toml"].get("curses", []), CurseRow)
    for rid, cr in curses.items():
        curse_ab = _abilities(uses, kw, rid, (cr.effect,), "curse")
        cards[rid] = CardDef(rid, cr.name, "curse", "", "", (), 0, curse_ab, cr.count, effect=cr.effect)
    check_count(kw, sum(r.count for r in curses.values()), 20, "curse cards")

    mw = w["monsters.toml"]
    factions = build_rows(mw, raw["monsters.toml"].get("factions", []), FactionRow)
    mons = build_rows(mw, raw["monsters.toml"].get("monsters", []), MonsterRow)
    tokens = build_rows(mw, raw["monsters.toml"].get("tokens", []), TokenRow)
    bosses = build_rows(mw, raw["monsters.toml"].get("bosses", []), BossRow)
    check_refs(mw, mons, "faction", factions, "faction")
    tags_ok = ("tank", "ranged", "ferocious", "immovable")
    monsters: dict[str, MonsterDef] = {}
    by_faction: dict[str, list[str]] = {f: [] for f in factions}
    for rid, m in mons.items():
        monsters[rid] = MonsterDef(rid, m.name, "monster", m.faction, m.count, m.damage, (m.hp,), m.threat,
                                   m.armour, frozenset(m.tags),
                                   _abilities(uses, mw, rid, m.abilities, "monster"))
        by_faction[m.faction].append(rid)
    for rid, t in tokens.items():
        monsters[rid] = MonsterDef(rid, t.name, "token", "", t.count, t.damage, (t.hp,), 0, t.armour,
                                   frozenset(t.tags), _abilities(uses, mw, rid, t.abilities, "monster"))
    for rid, b in bosses.items():
        check_count(f"{mw}: row {rid!r}", len(b.hp), 5, "hp values (one per player count)")
        monsters[rid] = MonsterDef(rid, b.name, "boss", "", 1, b.damage, b.hp, 0, b.armour, frozenset(b.tags),
                                   _abilities(uses, mw, rid, b.abilities, "monster"))
    for rid, md in monsters.items():
        bad = sorted(set(md.tags) - set(tags_ok))
        if bad:
            raise ContentError(f"{mw}: row {rid!r}: unknown tag(s) {bad}")
        if {"tank", "ranged"} <= md.tags:
            raise ContentError(f"{mw}: row {rid!r}: a monster cannot be both tank and ranged (GB-6.1.6)")
        for a in md.abilities:
            for arg in a.args:
                if isinstance(arg, str) and arg not in tokens:
                    raise ContentError(f"{mw}: row {rid!r}: ability {a.text!r} names unknown token {arg!r}")
    for f, ids in by_faction.items():
        check_count(f"{mw}: faction {f!r}", sum(mons[i].count for i in ids), 20, "monster cards")
    check_count(mw, sum(t.count for t in tokens.values()), 21, "token cards")

    lw = w["locations.toml"]
    locs = build_rows(lw, raw["locations.toml"].get("locations", []), LocationRow)
    check_count(lw, len(locs), 8, "locations")
    loc_ab = {rid: _abilities(uses, lw, rid, (r.ability,), "location")[0] for rid, r in locs.items()}
    loc_rw = {rid: _abilities(uses, lw, rid, (r.reward,), "reward")[0] for rid, r in locs.items()}

    hw = w["chapters.toml"]
    chapters = build_rows(hw, raw["chapters.toml"].get("chapters", []), ChapterRow)
    encs = build_rows(hw, raw["chapters.toml"].get("encounters", []), EncounterRow)
    check_refs(hw, chapters, "encounters", encs, "encounter")
    check_refs(hw, chapters, "start_faction", factions, "faction")
    check_refs(hw, chapters, "later_faction", factions, "faction")
    check_refs(hw, encs, "location", locs, "location")
    penalties: dict[str, tuple[Ability, ...]] = {}
    specials: dict[str, tuple[Ability, ...]] = {}
    for rid, e in encs.items():
        for name in ("location_threat", "player_threat"):
            check_count(f"{hw}: row {rid!r}: field {name!r}", len(getattr(e, name)), 5,
                        "values (one per player count)")
        for c in e.coins:
            _check_enum(hw, rid, "coins", c, ("copper", "silver", "gold"))
        if e.add_faction and e.add_faction not in factions:
            raise ContentError(f"{hw}: row {rid!r}: field 'add_faction' names unknown faction "
                               f"{e.add_faction!r}")
        _check_enum(hw, rid, "objective", e.objective, ("clear_all", "defeat_boss"))
        if (e.objective == "defeat_boss") != bool(e.boss) or (e.boss and e.boss not in bosses):
            raise ContentError(f"{hw}: row {rid!r}: field 'boss' must name a boss exactly for defeat_boss")
        penalties[rid] = _abilities(uses, hw, rid, e.penalty, "penalty")
        specials[rid] = _abilities(uses, hw, rid, e.special, "setup")
        for a in penalties[rid] + specials[rid]:
            for arg in a.args:
                if isinstance(arg, str) and arg not in monsters:
                    raise ContentError(f"{hw}: row {rid!r}: {a.text!r} names unknown monster {arg!r}")

    used = {a.key for c in cards.values() for a in c.abilities}
    used |= {a.key for m in monsters.values() for a in m.abilities}
    used |= {a.key for a in loc_ab.values()} | {a.key for a in loc_rw.values()}
    used |= {a.key for p in penalties.values() for a in p} | {a.key for p in specials.values() for a in p}
    return Content(dice, chars, cards, starting, list(heroes), list(items), list(curses), monsters,
                   by_faction,
                   list(tokens), locs, loc_ab, loc_rw, chapters, encs, penalties, specials, frozenset(used),
                   uses)


FILES = ("dice.toml", "characters.toml", "cards.toml", "monsters.toml", "locations.toml", "curses.toml",
         "chapters.toml")


@lru_cache(maxsize=1)
def load_content() -> Content:
    """Load and validate every content file (cached)."""
    return build_content({name: load_data(PKG, name) for name in FILES})
