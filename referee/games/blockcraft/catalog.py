"""BC-3: the content catalogue, loaded from ``content/*.toml`` and validated at load time.

Numbers live in the data files; this module turns rows into frozen dataclasses and checks every
count and reference of the spec's tables (errors name the file and the row); the effect keys are checked
against the registries by ``effects.check_effect_keys`` (``Blockcraft.validate_content``).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from referee.engine import ContentError, build_rows, check_count, check_refs, load_data

PACKAGE = "referee.games.blockcraft.content"
WHERE = "referee/games/blockcraft/content"
FILES = ("raw_cards.toml", "processed.toml", "enchantments.toml", "characters.toml", "identities.toml",
         "maps.toml")
TOOL_TYPES = ("pickaxe", "sword", "axe", "shovel", "hoe")
KINDS = ("block", "ore", "food", "item", "material", "tool", "armour", "block_equipment", "target")
FACTIONS = ("human", "monster", "undead")
LAYERS = ("S", "U", "D")
_DIG_REQ = re.compile(r"^(hand|shovel|pickaxe>=[1-4])$")


@dataclass(frozen=True)
class Card:
    """BC-3.2: one card type (raw or processed); every field of BC-3.3 and BC-3.6-BC-3.10."""

    id: str
    name: str
    zh: str
    kind: str
    placeable: bool = False
    dig_req: str | None = None
    pref_tool: str | None = None
    ore: bool = False
    food: int = 0
    heal: int = 0
    fuel: int = 0
    sh: int = 0
    smelt_to: str | None = None
    use_effect: str | None = None
    special: str = ""
    box: int = 0
    supply: int = 0
    made_by: str | None = None
    grid: str | None = None
    ingredients: dict[str, int] | None = None
    out_qty: int = 0
    tool_type: str | None = None
    tier: int = 0
    durability: int = 0
    range: int = 0
    dmg: int = 0
    reduction: int = 0
    enables: str | None = None
    extreme_only: bool = False
    tnt_proof: bool = False
    raw: bool = False

    @property
    def req_tier(self) -> int:
        """The pickaxe tier of a ``pickaxe>=t`` requirement (0 otherwise)."""
        return int(self.dig_req[-1]) if self.dig_req and self.dig_req.startswith("pickaxe") else 0


@dataclass(frozen=True)
class Enchantment:
    """BC-3.13: an enchantment type and the deck card ids that carry it."""

    id: str
    name: str
    zh: str
    cost: int
    applies_to: tuple[str, ...]
    cards: tuple[str, ...]
    effect: str
    exclusive_with: tuple[str, ...] = ()


@dataclass(frozen=True)
class Character:
    """BC-3.14: a character card; ``skill`` is an effect key (BC-6.6)."""

    id: str
    name: str
    zh: str
    faction: str
    strength: int
    sta: int
    hun: int
    skill: str
    skill_name: str
    skill_kind: str
    tags: tuple[str, ...] = ()
    start_xp: int = 0


@dataclass(frozen=True)
class Identity:
    """BC-3.15: an identity card face and its copies."""

    id: str
    face: str
    zh: str
    copies: int


@dataclass(frozen=True)
class MapSize:
    """BC-3.16: one map size (heights row by row, y = 0 first)."""

    id: str
    min_players: int
    max_players: int
    width: int
    height: int
    border_cells: int
    cards: int
    heights: tuple[str, ...]

    def height_at(self, x: int, y: int) -> int:
        return int(self.heights[y][x])


@dataclass(frozen=True)
class LayerDeck:
    """BC-3.4: one card type's counts per layer, per size A/B/C/D."""

    card: str
    S: tuple[int, ...] = (0, 0, 0, 0)
    U: tuple[int, ...] = (0, 0, 0, 0)
    D: tuple[int, ...] = (0, 0, 0, 0)


@dataclass(frozen=True)
class ReserveRow:
    """BC-3.5: reserve deck row."""

    card: str
    count: int


@dataclass(frozen=True)
class Catalog:
    """Everything from the content files, indexed."""

    cards: dict[str, Card]
    enchantments: dict[str, Enchantment]
    enchant_cards: dict[str, str]
    characters: dict[str, Character]
    identities: dict[str, Identity]
    sizes: dict[str, MapSize]
    layer_decks: dict[str, LayerDeck]
    reserve: dict[str, ReserveRow]
    recipes: dict[str, Card] = field(default_factory=dict)
    smeltable: tuple[str, ...] = ()
    fuels: tuple[str, ...] = ()

    def size_for(self, players: int) -> MapSize:
        for s in self.sizes.values():
            if s.min_players <= players <= s.max_players:
                return s
        raise ContentError(f"{WHERE}/maps.toml: no map size for {players} players")

    def layer_deck(self, size: MapSize, layer: str) -> list[str]:
        """BC-3.4: the unshuffled layer deck of one size (types in file order)."""
        idx = list(self.sizes).index(size.id)
        out: list[str] = []
        for row in self.layer_decks.values():
            out += [row.card] * getattr(row, layer)[idx]
        return out

    def reserve_deck(self) -> list[str]:
        return [r.card for r in self.reserve.values() for _ in range(r.count)]


def _rows(data: dict[str, Any], name: str, key: str) -> list[Any]:
    rows = data.get(key)
    if not isinstance(rows, list):
        raise ContentError(f"{WHERE}/{name}: missing the [[{key}]] table")
    return rows


def build_catalog(raw: dict[str, dict[str, Any]]) -> Catalog:
    """Build and validate the catalogue from parsed files (``{file name: parsed data}``)."""
    w_raw, w_proc = f"{WHERE}/raw_cards.toml", f"{WHERE}/processed.toml"
    raw_cards = build_rows(w_raw, _rows(raw["raw_cards.toml"], "raw_cards.toml", "card"), Card)
    raw_cards = {k: Card(**{**c.__dict__, "raw": True}) for k, c in raw_cards.items()}
    proc = build_rows(w_proc, _rows(raw["processed.toml"], "processed.toml", "card"), Card)
    dup = sorted(set(raw_cards) & set(proc))
    if dup:
        raise ContentError(f"{w_proc}: row {dup[0]!r}: id already used in raw_cards.toml")
    cards = {**raw_cards, **proc}
    for where, rows in ((w_raw, raw_cards), (w_proc, proc)):
        for rid, c in rows.items():
            label = f"{where}: row {rid!r}"
            if c.kind not in KINDS:
                raise ContentError(f"{label}: unknown kind {c.kind!r}")
            if c.dig_req is not None and not _DIG_REQ.match(c.dig_req):
                raise ContentError(f"{label}: bad dig_req {c.dig_req!r}")
            if c.raw and c.dig_req is None:
                raise ContentError(f"{label}: a raw card needs a dig_req")
            if c.pref_tool is not None and c.pref_tool not in TOOL_TYPES:
                raise ContentError(f"{label}: unknown pref_tool {c.pref_tool!r}")
            if c.kind == "tool" and (c.tool_type not in TOOL_TYPES or c.tier < 1 or c.durability < 1):
                raise ContentError(f"{label}: a tool needs tool_type, tier and durability")
            if c.kind == "armour" and (c.durability < 1 or c.reduction < 1):
                raise ContentError(f"{label}: armour needs durability and reduction")
            if c.made_by == "craft" and (not c.ingredients or c.grid not in ("2x2", "3x3") or c.out_qty < 1):
                raise ContentError(f"{label}: a crafted card needs grid, ingredients and out_qty")
            if c.kind == "food" and (c.food < 1 or c.use_effect is None):
                raise ContentError(f"{label}: food needs a food value and a use effect")
            if (c.sh > 0) != (c.smelt_to is not None):
                raise ContentError(f"{label}: sh and smelt_to go together")
            if c.raw and c.supply:
                raise ContentError(f"{label}: raw cards are counted by 'box', not 'supply'")
            if not c.raw and (c.box or c.supply < 1):
                raise ContentError(f"{label}: processed cards need a supply count and no box count")
            for ing, n in (c.ingredients or {}).items():
                if ing not in cards:
                    raise ContentError(f"{label}: field 'ingredients' names unknown card {ing!r}")
                if n < 1:
                    raise ContentError(f"{label}: ingredient {ing!r} needs a positive count")
        check_refs(where, rows, "smelt_to", cards, "card")
    check_count(w_raw, sum(c.box for c in raw_cards.values()), 162, "raw cards in the box (BC-3.1)")
    check_count(w_raw, len(raw_cards), 14, "raw card types (BC-3.3)")
    check_count(w_proc, sum(c.supply for c in proc.values()), 238, "processed cards in the supply (BC-3.1)")
    for rid, c in proc.items():
        if c.made_by == "smelt" and not any(r.smelt_to == rid for r in cards.values()):
            raise ContentError(f"{w_proc}: row {rid!r}: smelting result is not produced by any "
                               "smeltable card")

    w_ench = f"{WHERE}/enchantments.toml"
    ench = build_rows(w_ench, _rows(raw["enchantments.toml"], "enchantments.toml", "enchantment"),
                      Enchantment)
    check_refs(w_ench, ench, "applies_to", TOOL_TYPES, "tool type")
    check_refs(w_ench, ench, "exclusive_with", ench, "enchantment")
    enchant_cards: dict[str, str] = {}
    for rid, e in ench.items():
        for cid in e.cards:
            if cid in enchant_cards:
                raise ContentError(f"{w_ench}: row {rid!r}: deck card {cid!r} used twice")
            enchant_cards[cid] = rid
        for other in e.exclusive_with:
            if rid not in ench[other].exclusive_with:
                raise ContentError(f"{w_ench}: row {rid!r}: exclusivity with {other!r} is not mutual")
    check_count(w_ench, len(enchant_cards), 16, "enchantment cards (BC-3.13)")
    if sorted(enchant_cards) != [f"e{i:02d}" for i in range(1, 17)]:
        raise ContentError(f"{w_ench}: deck card ids must be e01..e16")

    w_char = f"{WHERE}/characters.toml"
    chars = build_rows(w_char, _rows(raw["characters.toml"], "characters.toml", "character"), Character)
    check_refs(w_char, chars, "faction", (*FACTIONS, "boss"), "faction")
    check_count(w_char, len(chars), 28, "character cards (BC-3.14)")
    for fac, n in (("human", 8), ("monster", 8), ("undead", 8), ("boss", 4)):
        check_count(w_char, sum(1 for c in chars.values() if c.faction == fac), n, f"{fac} characters")

    w_id = f"{WHERE}/identities.toml"
    ids = build_rows(w_id, _rows(raw["identities.toml"], "identities.toml", "identity"), Identity)
    check_count(w_id, sum(i.copies for i in ids.values()), 10, "identity cards (BC-3.15)")
    check_refs(w_id, ids, "face", (*FACTIONS, "boss"), "face")

    w_map = f"{WHERE}/maps.toml"
    data = raw["maps.toml"]
    sizes = build_rows(w_map, _rows(data, "maps.toml", "size"), MapSize)
    decks = build_rows(w_map, _rows(data, "maps.toml", "layer_deck"), LayerDeck, id_field="card")
    reserve = build_rows(w_map, _rows(data, "maps.toml", "reserve"), ReserveRow, id_field="card")
    check_refs(w_map, decks, "card", raw_cards, "raw card")
    check_refs(w_map, reserve, "card", raw_cards, "raw card")
    check_count(w_map, len(sizes), 4, "map sizes (BC-3.16)")
    check_count(w_map, sum(r.count for r in reserve.values()), 30, "reserve deck cards (BC-3.5)")
    for i, (sid, s) in enumerate(sizes.items()):
        label = f"{w_map}: row {sid!r}"
        if len(s.heights) != s.height or any(len(r) != s.width or not r.isdigit() for r in s.heights):
            raise ContentError(f"{label}: heights must be {s.height} rows of {s.width} digits")
        cells = s.width * s.height
        total = sum(int(ch) for r in s.heights for ch in r)
        if total != s.cards or min(int(ch) for r in s.heights for ch in r) < 2:
            raise ContentError(f"{label}: heights sum to {total}, expected {s.cards} (each stack >= 2)")
        border = 2 * s.width + 2 * s.height - 4
        if border != s.border_cells or border < s.max_players:
            raise ContentError(f"{label}: border cell count {border} != {s.border_cells} "
                               "or below max players")
        for layer, expected in (("S", cells), ("U", s.cards - 2 * cells), ("D", cells)):
            for rid, row in decks.items():
                if len(getattr(row, layer)) != 4:
                    raise ContentError(f"{w_map}: row {rid!r}: layer {layer} needs 4 counts (A/B/C/D)")
            got = sum(getattr(row, layer)[i] for row in decks.values())
            check_count(f"{label} layer {layer}", got, expected, "cards (BC-3.4)")
    last = len(sizes) - 1
    for rid, c in raw_cards.items():
        in_d = sum(getattr(decks[rid], layer)[last] for layer in LAYERS) if rid in decks else 0
        want = in_d + (reserve[rid].count if rid in reserve else 0)
        if want != c.box:
            raise ContentError(f"{w_raw}: row {rid!r}: box count {c.box} != largest map {in_d} + reserve "
                               f"(BC-3.3)")

    recipes = {k: c for k, c in cards.items() if c.made_by == "craft"}
    smeltable = tuple(k for k, c in cards.items() if c.smelt_to)
    fuels = tuple(k for k, c in cards.items() if c.fuel > 0)
    return Catalog(cards, ench, enchant_cards, chars, ids, sizes, decks, reserve, recipes, smeltable, fuels)


def read_files() -> dict[str, dict[str, Any]]:
    return {name: load_data(PACKAGE, name) for name in FILES}


@lru_cache(maxsize=1)
def catalog() -> Catalog:
    """The validated catalogue (loaded once)."""
    return build_catalog(read_files())
