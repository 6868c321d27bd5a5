"""MM-3: load and validate every content file (numbers in data; verbs in effects.py).

Every error names the file and the row (``build_rows`` / ``check_refs`` / ``check_count``).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from referee.engine import ContentError, build_rows, check_count, check_refs, load_data

PKG = "referee.games.mice_and_mystics.content"
WHERE = "mice_and_mystics/content"


@dataclass(frozen=True)
class Face:
    """MM-3.1 one face of the action die."""
    id: str
    symbol: str
    number: int
    burst: bool


@dataclass(frozen=True)
class Hero:
    """MM-3.2 a mouse hero."""
    id: str
    name: str
    classes: tuple[str, ...]
    battle: int
    defence: int
    lore: int
    move: int
    life: int
    innate: str
    gear: tuple[str, ...]


@dataclass(frozen=True)
class Ability:
    """MM-3.4 an ability card."""
    id: str
    name: str
    cls: str
    cost: int
    timing: str
    mode: str
    effect: str
    amount: int


@dataclass(frozen=True)
class Card:
    """MM-3.3 / MM-3.5 a starting-gear or search card."""
    id: str
    name: str
    deck: str
    owner: str
    kind: str
    mode: str
    slot: str
    type: str
    dice: int
    defence: int
    paws: int
    req: tuple[str, ...]
    use: str
    effect: str
    amount: int


@dataclass(frozen=True)
class MonsterType:
    """MM-3.6 a monster type."""
    id: str
    name: str
    size: str
    mode: str
    battle: int
    defence: int
    life: int
    supply: int
    effects: tuple[str, ...]
    boss: bool


@dataclass(frozen=True)
class BossCard:
    """MM-3.7 a boss initiative card."""
    id: str
    boss: str
    name: str
    battle: int
    defence: int
    life: int
    effect: str
    amount: int


@dataclass(frozen=True)
class Encounter:
    """MM-3.8 an encounter card."""
    id: str
    colour: str
    p1: tuple[str, ...]
    p4: tuple[str, ...]
    p7: tuple[str, ...]
    surge: tuple[str, ...]
    keyword: str


@dataclass(frozen=True)
class Side:
    """MM-3.10 a tile side."""
    id: str
    tile: str
    name: str
    colour: str
    other: str


@dataclass(frozen=True)
class Area:
    """MM-3.9 an area of a tile side."""
    id: str
    side: str
    ord: int
    water: bool
    current: str
    special: str
    trap_slot: bool


@dataclass(frozen=True)
class Edge:
    """MM-3.9 a connection between two areas."""
    id: str
    a: str
    b: str
    kind: str
    toward: str


@dataclass(frozen=True)
class NoLos:
    """MM-3.9 a pair of areas without line of sight."""
    id: str
    a: str
    b: str


@dataclass(frozen=True)
class Chapter:
    """MM-3.12 a chapter."""
    id: str
    name: str
    sides: tuple[str, ...]
    start_side: str
    start_area: str
    end_page: int
    victory: str
    boss: str


@dataclass(frozen=True)
class Exit:
    """MM-3.12 a usable exit, flip or victory area of a chapter."""
    id: str
    chapter: str
    area: str
    kind: str
    to_side: str
    to_area: str


@dataclass(frozen=True)
class Room:
    """MM-3.12 first-entry rules of a side in a chapter."""
    id: str
    chapter: str
    side: str
    monsters: tuple[tuple[str, ...], ...]
    traps: tuple[str, ...]
    special_surge: tuple[str, ...]
    encounter: str
    first_search_draws: int
    rule: str


@dataclass(frozen=True)
class Content:
    faces: dict[str, Face]
    heroes: dict[str, Hero]
    abilities: dict[str, Ability]
    cards: dict[str, Card]
    monsters: dict[str, MonsterType]
    boss_cards: dict[str, BossCard]
    encounters: dict[str, Encounter]
    sides: dict[str, Side]
    areas: dict[str, Area]
    edges: dict[str, Edge]
    nolos: dict[str, NoLos]
    chapters: dict[str, Chapter]
    exits: dict[str, Exit]
    rooms: dict[str, Room]


def _rows(data: dict[str, Any], key: str, where: str) -> list[Any]:
    rows = data.get(key)
    if not isinstance(rows, list):
        raise ContentError(f"{where}: missing list {key!r}")
    return rows


def build_content(raw: dict[str, dict[str, Any]]) -> Content:
    """Build and validate content from parsed files ``{file name: data}``."""
    def rows(name: str, key: str, cls: type, ) -> dict[str, Any]:
        where = f"{WHERE}/{name}"
        return build_rows(where, _rows(raw[name], key, where), cls)

    faces = rows("die.toml", "face", Face)
    heroes = rows("heroes.toml", "hero", Hero)
    abilities = rows("abilities.toml", "ability", Ability)
    cards = rows("cards.toml", "card", Card)
    monsters = rows("monsters.toml", "monster", MonsterType)
    boss_cards = rows("monsters.toml", "boss_card", BossCard)
    encounters = rows("encounters.toml", "encounter", Encounter)
    sides = rows("tiles.toml", "side", Side)
    areas = rows("tiles.toml", "area", Area)
    edges = rows("tiles.toml", "edge", Edge)
    nolos = rows("tiles.toml", "nolos", NoLos)
    chapters = rows("chapters.toml", "chapter", Chapter)
    exits = rows("chapters.toml", "exit", Exit)
    rooms = rows("chapters.toml", "room", Room)

    w = WHERE
    check_count(f"{w}/die.toml", len(faces), 6, "die faces")
    check_count(f"{w}/heroes.toml", len(heroes), 6, "heroes")
    check_count(f"{w}/abilities.toml", len(abilities), 14, "ability cards")
    check_count(f"{w}/cards.toml", sum(c.deck == "gear" for c in cards.values()), 9, "starting-gear cards")
    check_count(f"{w}/cards.toml", sum(c.deck == "search" for c in cards.values()), 33, "search cards")
    check_count(f"{w}/monsters.toml", len(monsters), 6, "monster types")
    check_count(f"{w}/monsters.toml", len(boss_cards), 4, "boss cards")
    check_count(f"{w}/encounters.toml", sum(e.colour == "blue" for e in encounters.values()), 6,
                "blue encounters")
    check_count(f"{w}/encounters.toml", sum(e.colour == "orange" for e in encounters.values()), 6,
                "orange encounters")
    check_count(f"{w}/monsters.toml", sum(m.supply for m in monsters.values()), 22, "monster figures")
    check_count(f"{w}/tiles.toml", len(sides), 6, "tile sides")
    classes = {c for h in heroes.values() for c in h.classes}
    check_refs(f"{w}/heroes.toml", heroes, "gear", [c for c in cards if cards[c].deck == "gear"], "gear card")
    check_refs(f"{w}/abilities.toml", abilities, "cls", classes | {"any"}, "class")
    check_refs(f"{w}/cards.toml", cards, "req", classes, "class")
    check_refs(f"{w}/cards.toml", {k: v for k, v in cards.items() if v.owner}, "owner", heroes, "hero")
    check_refs(f"{w}/monsters.toml", boss_cards, "boss", [m for m in monsters if monsters[m].boss], "boss")
    for field in ("p1", "p4", "p7", "surge"):
        check_refs(f"{w}/encounters.toml", encounters, field, monsters, "monster type")
    check_refs(f"{w}/tiles.toml", areas, "side", sides, "side")
    for field in ("a", "b"):
        check_refs(f"{w}/tiles.toml", edges, field, areas, "area")
        check_refs(f"{w}/tiles.toml", nolos, field, areas, "area")
    check_refs(f"{w}/tiles.toml", {k: v for k, v in edges.items() if v.toward}, "toward", areas, "area")
    check_refs(f"{w}/tiles.toml", {k: v for k, v in areas.items() if v.current not in ("", "OFF")},
               "current", areas, "area")
    check_refs(f"{w}/chapters.toml", chapters, "sides", sides, "side")
    check_refs(f"{w}/chapters.toml", chapters, "start_area", areas, "area")
    check_refs(f"{w}/chapters.toml", exits, "chapter", chapters, "chapter")
    check_refs(f"{w}/chapters.toml", exits, "area", areas, "area")
    check_refs(f"{w}/chapters.toml", {k: v for k, v in exits.items() if v.to_area}, "to_area", areas, "area")
    check_refs(f"{w}/chapters.toml", rooms, "traps", areas, "area")
    check_refs(f"{w}/chapters.toml", rooms, "special_surge", monsters, "monster type")
    for rid, room in rooms.items():
        for fig in room.monsters:
            if len(fig) != 2 or fig[0] not in monsters or fig[1] not in areas \
                    or areas[fig[1]].side != room.side:
                raise ContentError(f"{w}/chapters.toml: row {rid!r}: bad monster placement {list(fig)!r}")
        for t in room.traps:
            if not areas[t].trap_slot:
                raise ContentError(f"{w}/chapters.toml: row {rid!r}: {t!r} is not a trap slot")
    for eid, e in edges.items():
        if areas[e.a].side != areas[e.b].side:
            raise ContentError(f"{w}/tiles.toml: row {eid!r}: edge joins two sides")
        if (e.kind == "yellow") != bool(e.toward) or (e.toward and e.toward not in (e.a, e.b)):
            raise ContentError(f"{w}/tiles.toml: row {eid!r}: yellow edges (only) need an arrow on one end")
        if e.kind not in ("open", "yellow", "red"):
            raise ContentError(f"{w}/tiles.toml: row {eid!r}: unknown edge kind {e.kind!r}")
    return Content(faces, heroes, abilities, cards, monsters, boss_cards, encounters, sides, areas, edges,
                   nolos, chapters, exits, rooms)


def used_effects(c: Content) -> dict[str, dict[str, list[str]]]:
    """file -> row id -> effect keys it names."""
    return {
        "abilities.toml": {k: [a.effect] for k, a in c.abilities.items()},
        "cards.toml": {k: [x.effect] for k, x in c.cards.items() if x.effect},
        "monsters.toml": {**{k: list(m.effects) for k, m in c.monsters.items()},
                          **{k: [b.effect] for k, b in c.boss_cards.items()}},
        "heroes.toml": {k: [h.innate] for k, h in c.heroes.items()},
        "encounters.toml": {k: [e.keyword] for k, e in c.encounters.items() if e.keyword},
    }


FILES = ("die.toml", "heroes.toml", "abilities.toml", "cards.toml", "monsters.toml", "encounters.toml",
         "tiles.toml", "chapters.toml")


def load_raw() -> dict[str, dict[str, Any]]:
    return {name: load_data(PKG, name) for name in FILES}


@lru_cache(maxsize=1)
def content() -> Content:
    """The validated content (loaded once)."""
    return build_content(load_raw())
