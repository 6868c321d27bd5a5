"""CK-3: the game's content, loaded from ``content/*.toml`` and validated at load time.

Numbers live in data, verbs in code: every card, token, room, tunnel, artifact and market item
is a row with a stable id and named fields. Loading checks field types, effect atoms (against
``SCHEMA``; ``effects.py`` registers one function per op), references between files and every count
the spec states; each error names the file and the row.
"""
from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from referee.engine import ContentError, build_rows, check_count, check_refs, load_data

PACKAGE = "referee.games.clank.content"
WHERE = "referee/games/clank/content"
MAX_SEATS = 4


# -- effect atoms (CK-3.3): their fields, checked at load time (the functions: effects.py) ---------
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
#: the end-game VP ops (CK-8.3, ``effects.ENDGAME``); every other op is an effect (``effects.EFFECTS``)
ENDGAME_OPS = frozenset({"vp_per_gem", "vp_per_codex", "vp_if_mastery"})
EFFECT_OPS = frozenset(SCHEMA) - ENDGAME_OPS
#: atoms that open a decision; forbidden inside a conditional's E (CK-6.9)
DECISION_OPS = frozenset({"choose", "discard_draw", "trash_opt", "adj_secret"})


def check_atoms(where: str, atoms: Any, ops: frozenset[str], *, in_if: bool = False) -> None:
    """Validate an effect list: known ops, exactly the documented fields, nested lists too."""
    if not isinstance(atoms, list):
        raise ContentError(f"{where}: effects must be a list of atoms")
    for i, atom in enumerate(atoms):
        label = f"{where}[{i}]"
        if not isinstance(atom, dict) or not isinstance(atom.get("op"), str):
            raise ContentError(f"{label}: an atom is an object with a string 'op'")
        op = atom["op"]
        if op not in ops:
            raise ContentError(f"{label}: unknown effect {op!r}")
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
                check_atoms(f"{label}.{name}", value, ops, in_if=True)
            elif kind == "effects2":
                if not isinstance(value, list) or len(value) != 2:
                    raise ContentError(f"{label}: 'options' must list exactly two effect lists")
                for j, sub in enumerate(value):
                    check_atoms(f"{label}.options[{j}]", sub, ops, in_if=in_if)


@dataclass(frozen=True)
class StartingRow:
    """CK-3.4: one starting card type; ids ``s{seat}-NN`` for NN in first_index..last_index."""

    type: str
    name: str
    kind: str
    copies: int
    vp: int
    play: list[dict]
    first_index: int
    last_index: int


@dataclass(frozen=True)
class ReserveRow:
    """CK-3.5: a reserve pile (or the Goblin)."""

    type: str
    name: str
    pile: str
    kind: str
    cost: int
    cost_resource: str
    vp: int
    copies: int
    first_id: str
    last_id: str
    play: list[dict] = field(default_factory=list)
    defeat: list[dict] = field(default_factory=list)


@dataclass(frozen=True)
class DungeonRow:
    """CK-3.6: one dungeon card type with its copies."""

    type: str
    name: str
    kind: str
    cost: int
    cost_resource: str
    vp: int
    play: list[dict]
    acquire: list[dict]
    arrive: list[dict]
    defeat: list[dict]
    use: list[dict]
    endgame: list[dict]
    dragon: bool
    danger: bool
    copies: int
    first_id: str
    last_id: str


@dataclass(frozen=True)
class SecretRow:
    """CK-3.7 / CK-3.8: one secret token type."""

    type: str
    name: str
    count: int
    kind: str
    effect: list[dict]
    vp: int
    first_id: str
    last_id: str


@dataclass(frozen=True)
class Room:
    """CK-3.12: one room of the map."""

    id: str
    name: str
    x: int
    y: int
    zone: str
    crystal_cave: bool
    market: bool
    heal: int
    gold: int
    clank: int
    minor_secrets: int
    major_secrets: int
    idols: int
    artifact: str
    start: bool


@dataclass(frozen=True)
class Tunnel:
    """CK-3.13: one tunnel; ``one_way`` tunnels run from ``a`` to ``b`` only."""

    id: str
    a: str
    b: str
    boots: int
    monsters: int
    locked: bool
    one_way: bool
    wrap: bool


@dataclass(frozen=True)
class Artifact:
    """CK-3.10."""

    id: str
    name: str
    value: int
    room: str


@dataclass(frozen=True)
class MarketItem:
    """CK-3.9."""

    id: str
    kind: str
    name: str
    vp: int


@dataclass(frozen=True)
class Token:
    """CK-3.11: idols and mastery tokens."""

    id: str
    kind: str
    name: str
    vp: int


@dataclass(frozen=True)
class CardType:
    """A card type as the rules use it (any of the three card tables)."""

    type: str
    name: str
    kind: str
    cost: int
    vp: int
    play: list[dict]
    acquire: list[dict]
    arrive: list[dict]
    defeat: list[dict]
    use: list[dict]
    endgame: list[dict]
    dragon: bool
    danger: bool
    pile: str
    ids: tuple[str, ...]


@dataclass
class Catalog:
    """Everything static, indexed for the rules."""

    constants: dict[str, Any]
    card_types: dict[str, CardType]
    type_of: dict[str, str]
    dungeon_ids: list[str]
    reserve_piles: dict[str, CardType]
    secrets: dict[str, SecretRow]
    secret_type_of: dict[str, str]
    minor_ids: list[str]
    major_ids: list[str]
    rooms: dict[str, Room]
    tunnels: dict[str, Tunnel]
    artifacts: dict[str, Artifact]
    market: dict[str, MarketItem]
    tokens: dict[str, Token]
    #: room -> [(to, tunnel)] that may be walked from room, sorted by room number
    out_edges: dict[str, list[tuple[str, Tunnel]]] = field(default_factory=dict)
    #: room -> rooms joined by any tunnel (either direction, locked or not), sorted (CK-6.15)
    adjacent: dict[str, list[str]] = field(default_factory=dict)


def room_number(room: str) -> int:
    """'R17' -> 17, for ordering rooms numerically (CK-5.28)."""
    return int(room[1:])


def _plain(value: Any) -> Any:
    """Content rows freeze lists into tuples; effects are kept as plain JSON lists of dicts."""
    return json.loads(json.dumps(value))


def _id_range(where: str, rid: str, first: str, last: str, copies: int) -> list[str]:
    prefix = first.rstrip("0123456789")
    if not last.startswith(prefix) or first == prefix:
        raise ContentError(f"{where}: row {rid!r}: ids {first!r}..{last!r} do not share a numbered prefix")
    width = len(first) - len(prefix)
    lo, hi = int(first[len(prefix):]), int(last[len(prefix):])
    ids = [f"{prefix}{i:0{width}d}" for i in range(lo, hi + 1)]
    if len(ids) != copies:
        raise ContentError(f"{where}: row {rid!r}: ids {first}..{last} are {len(ids)}, copies says {copies}")
    return ids


def _check_effects(where: str, rows: Mapping[str, Any], fields: tuple[str, ...]) -> None:
    for rid, row in rows.items():
        for f in fields:
            value = getattr(row, f, None)
            if value is None:
                continue
            ops = ENDGAME_OPS if f == "endgame" else EFFECT_OPS
            check_atoms(f"{where}: row {rid!r}: field {f!r}", _plain(value), ops)


def load_catalog() -> Catalog:
    """Load and validate every content file (CK-3); raise ``ContentError`` naming file and row."""
    cards_where = f"{WHERE}/cards.toml"
    cards = load_data(PACKAGE, "cards.toml")
    starting = build_rows(cards_where, cards.get("starting", []), StartingRow, "type")
    reserve = build_rows(cards_where, cards.get("reserve", []), ReserveRow, "type")
    dungeon = build_rows(cards_where, cards.get("dungeon", []), DungeonRow, "type")
    _check_effects(cards_where, starting, ("play",))
    _check_effects(cards_where, reserve, ("play", "defeat"))
    _check_effects(cards_where, dungeon, ("play", "acquire", "arrive", "defeat", "use", "endgame"))

    card_types: dict[str, CardType] = {}
    type_of: dict[str, str] = {}
    for rid, s in starting.items():
        if s.kind != "starting":
            raise ContentError(f"{cards_where}: row {rid!r}: starting card of kind {s.kind!r}")
        if s.last_index - s.first_index + 1 != s.copies:
            raise ContentError(f"{cards_where}: row {rid!r}: index range does not match copies {s.copies}")
        ids = tuple(f"s{seat}-{i:02d}" for seat in range(MAX_SEATS)
                    for i in range(s.first_index, s.last_index + 1))
        card_types[rid] = CardType(rid, s.name, "starting", 0, s.vp, _plain(s.play), [], [], [], [], [],
                                   False, False, "", ids)
    check_count(cards_where, sum(s.copies for s in starting.values()), 10, "starting cards per player")
    reserve_piles: dict[str, CardType] = {}
    for rid, r in reserve.items():
        if r.kind not in ("reserve", "monster"):
            raise ContentError(f"{cards_where}: row {rid!r}: unknown reserve kind {r.kind!r}")
        rids = (tuple(_id_range(cards_where, rid, r.first_id, r.last_id, r.copies)) if r.copies > 1
                else (r.first_id,))
        ct = CardType(rid, r.name, r.kind, r.cost, r.vp, _plain(r.play), [], [], _plain(r.defeat), [], [],
                      False, False, r.pile, rids)
        card_types[rid] = ct
        reserve_piles[r.pile] = ct
    for pile, size in (("hireling", 15), ("pathfinder", 15), ("codex", 12), ("goblin", 1)):
        if pile not in reserve_piles:
            raise ContentError(f"{cards_where}: reserve pile {pile!r} is missing")
        check_count(f"{cards_where}: row {reserve_piles[pile].type!r}", len(reserve_piles[pile].ids), size,
                    "cards")
    dungeon_ids: list[str] = []
    blue = {"item", "gem", "companion"}
    for rid, d in dungeon.items():
        if d.kind not in blue | {"monster", "device"}:
            raise ContentError(f"{cards_where}: row {rid!r}: unknown kind {d.kind!r}")
        want = "swords" if d.kind == "monster" else "skill"
        if d.cost_resource != want or d.cost < 1:
            raise ContentError(f"{cards_where}: row {rid!r}: a {d.kind} costs at least 1 {want}")
        dids = _id_range(cards_where, rid, d.first_id, d.last_id, d.copies)
        if dungeon_ids and dids[0] != f"d{len(dungeon_ids):03d}":
            raise ContentError(
                f"{cards_where}: row {rid!r}: ids must continue in table order from d{len(dungeon_ids):03d}")
        dungeon_ids.extend(dids)
        card_types[rid] = CardType(rid, d.name, d.kind, d.cost, d.vp, _plain(d.play), _plain(d.acquire),
                                   _plain(d.arrive), _plain(d.defeat), _plain(d.use), _plain(d.endgame),
                                   d.dragon, d.danger, "", tuple(dids))
    check_count(cards_where, len(dungeon), 42, "dungeon card types")
    check_count(cards_where, len(dungeon_ids), 100, "dungeon cards")
    kinds = [d.kind for d in dungeon.values() for _ in range(d.copies)]
    for kind, n in (("item", 41), ("gem", 8), ("companion", 18), ("monster", 22), ("device", 11)):
        check_count(cards_where, kinds.count(kind), n, f"{kind} cards")
    check_count(cards_where, sum(d.copies for d in dungeon.values() if d.dragon), 28,
                "cards with a dragon icon")
    check_count(cards_where, sum(d.copies for d in dungeon.values() if d.danger), 5, "danger cards")
    check_count(cards_where, sum(d.copies for d in dungeon.values() if d.arrive), 6, "cards with Arrive text")
    for ct in card_types.values():
        for cid in ct.ids:
            if cid in type_of:
                raise ContentError(f"{cards_where}: row {ct.type!r}: instance id {cid!r} is used twice")
            type_of[cid] = ct.type

    sec_where = f"{WHERE}/secrets.toml"
    sec = load_data(PACKAGE, "secrets.toml")
    minor = build_rows(sec_where, sec.get("minor", []), SecretRow, "type")
    major = build_rows(sec_where, sec.get("major", []), SecretRow, "type")
    secrets: dict[str, SecretRow] = {}
    secret_type_of: dict[str, str] = {}
    minor_ids: list[str] = []
    major_ids: list[str] = []
    for rows, out in ((minor, minor_ids), (major, major_ids)):
        _check_effects(sec_where, rows, ("effect",))
        for rid, t in rows.items():
            if t.kind not in ("immediate", "potion", "trophy"):
                raise ContentError(f"{sec_where}: row {rid!r}: unknown token kind {t.kind!r}")
            if rid in secrets:
                raise ContentError(f"{sec_where}: row {rid!r}: duplicate type")
            secrets[rid] = t
            for tid in _id_range(sec_where, rid, t.first_id, t.last_id, t.count):
                if tid in secret_type_of:
                    raise ContentError(f"{sec_where}: row {rid!r}: token id {tid!r} is used twice")
                secret_type_of[tid] = rid
                out.append(tid)
    check_count(sec_where, len(minor_ids), 18, "minor secret tokens")
    check_count(sec_where, len(major_ids), 11, "major secret tokens")

    map_where = f"{WHERE}/map.toml"
    mp = load_data(PACKAGE, "map.toml")
    rooms = build_rows(map_where, mp.get("room", []), Room)
    tunnels = build_rows(map_where, mp.get("tunnel", []), Tunnel)
    check_count(map_where, len(rooms), 30, "rooms")
    check_count(map_where, len(tunnels), 53, "tunnels")
    check_refs(map_where, tunnels, "a", rooms, "room")
    check_refs(map_where, tunnels, "b", rooms, "room")
    for rid, room in rooms.items():
        if room.zone not in ("outside", "upper", "depths"):
            raise ContentError(f"{map_where}: row {rid!r}: unknown zone {room.zone!r}")
    pairs: set[tuple[str, str]] = set()
    for tid, tun in tunnels.items():
        lo, hi = sorted((tun.a, tun.b))
        pair = (lo, hi)
        if tun.a == tun.b or pair in pairs:
            raise ContentError(f"{map_where}: row {tid!r}: a tunnel must join two rooms not already joined")
        pairs.add(pair)
        if tun.boots not in (1, 2) or tun.monsters < 0:
            raise ContentError(f"{map_where}: row {tid!r}: boots must be 1 or 2 and monsters >= 0")
    check_count(map_where, sum(r.minor_secrets for r in rooms.values()), 16, "minor secret places")
    check_count(map_where, sum(r.major_secrets for r in rooms.values()), 7, "major secret places")

    game_where = f"{WHERE}/game.toml"
    gm = load_data(PACKAGE, "game.toml")
    constants = gm.get("constants")
    if not isinstance(constants, dict):
        raise ContentError(f"{game_where}: table 'constants' is missing")
    for key in ("hand_size", "row_size", "player_cubes", "dragon_cubes", "health", "market_price",
                "goblin_swords", "rage_track", "rage_start", "countdown_extra", "countdown_spaces",
                "start_clank", "artifacts_removed", "mastery_vp", "idol_vp", "colours", "start_room",
                "exit_room"):
        if key not in constants:
            raise ContentError(f"{game_where}: constants: missing field {key!r}")
    artifacts = build_rows(game_where, gm.get("artifact", []), Artifact)
    market = build_rows(game_where, gm.get("market_item", []), MarketItem)
    tokens = build_rows(game_where, gm.get("token", []), Token)
    check_count(game_where, len(artifacts), 7, "artifacts")
    check_refs(game_where, artifacts, "room", rooms, "room")
    for rid, room in rooms.items():
        if room.artifact and (room.artifact not in artifacts or artifacts[room.artifact].room != rid):
            raise ContentError(
                f"{map_where}: row {rid!r}: artifact {room.artifact!r} does not lie here in game.toml")
    for aid, a in artifacts.items():
        if rooms[a.room].zone != "depths":
            raise ContentError(f"{game_where}: row {aid!r}: artifacts lie in the Depths (CK-3.10)")
    for mid, m in market.items():
        if m.kind not in ("master_key", "backpack", "crown"):
            raise ContentError(f"{game_where}: row {mid!r}: unknown market item kind {m.kind!r}")
    check_count(game_where, len(market), 7, "market items")
    check_count(game_where, sum(r.idols for r in rooms.values()),
                sum(t.kind == "idol" for t in tokens.values()), "idols (map places vs tokens)")
    check_count(game_where, sum(t.kind == "mastery" for t in tokens.values()), 4, "mastery tokens")
    check_count(game_where, len(constants["rage_track"]), 7, "rage track spaces")

    cat = Catalog(constants, card_types, type_of, dungeon_ids, reserve_piles, secrets, secret_type_of,
                  minor_ids, major_ids, rooms, tunnels, artifacts, market, tokens)
    for rid in rooms:
        cat.out_edges[rid] = []
        cat.adjacent[rid] = []
    for tun in tunnels.values():
        cat.out_edges[tun.a].append((tun.b, tun))
        cat.adjacent[tun.a].append(tun.b)
        cat.adjacent[tun.b].append(tun.a)
        if not tun.one_way:
            cat.out_edges[tun.b].append((tun.a, tun))
    for rid in rooms:
        cat.out_edges[rid].sort(key=lambda e: room_number(e[0]))
        cat.adjacent[rid].sort(key=room_number)
    return cat


@lru_cache(maxsize=1)
def catalog() -> Catalog:
    """The validated catalog, loaded once."""
    return load_catalog()


def used_effect_keys() -> tuple[set[str], set[str]]:
    """Every effect op named anywhere in the content (play/Arrive/... and end-game), for the unused check."""
    cat = catalog()
    used: set[str] = set()
    end: set[str] = set()

    def walk(atoms: list[dict], into: set[str]) -> None:
        for a in atoms:
            into.add(a["op"])
            for sub in a.get("options", []):
                walk(sub, into)
            walk(a.get("then", []), into)

    for ct in cat.card_types.values():
        for fx in (ct.play, ct.acquire, ct.arrive, ct.defeat, ct.use):
            walk(fx, used)
        walk(ct.endgame, end)
    for s in cat.secrets.values():
        walk(_plain(s.effect), used)
    return used, end
