"""A test-state builder for Clank! scenarios (spec section 10's default start), and a path reader.

``build(spec)`` starts from a real setup, then lays the scenario's default position: 2 players,
seat 0 active in phase ``main``, pools 0, damage 0, supply 30, gold 0, every pawn on R0, empty
hands/decks/discards, rage index 2, bag of 24 black cubes, empty clank area, full reserve and
market, every artifact in its room, a harmless row (d000-d005) and the rest of the dungeon deck
in id order; minor and major secrets in id order over their rooms. ``spec`` overrides any of it.
"""
from __future__ import annotations

from typing import Any

from referee.engine import PUBLIC
from referee.games.clank import GAME
from referee.games.clank.catalog import catalog, room_number
from referee.games.clank.model import PlayerData
from referee.games.clank.rules.scoring import breakdown, eligible
from referee.games.clank.rules.turn import reset_turn
from referee.games.clank.state import ClankState

ROW_DEFAULT = ["d000", "d001", "d002", "d003", "d004", "d005"]


def build(spec: dict[str, Any] | None = None) -> ClankState:
    spec = dict(spec or {})
    players = spec.pop("players", 2)
    options = spec.pop("options", {})
    pspecs: list[dict[str, Any]] = spec.pop("player", [])
    minor_spec: dict[str, list[str]] = spec.pop("minor", {})
    major_spec: dict[str, str] = spec.pop("major", {})
    st: ClankState = GAME.new_state(players, options, spec.pop("seed", 0))
    cat = catalog()
    st.log.entries.clear()
    st.p = [PlayerData(supply=cat.constants["player_cubes"]) for _ in range(players)]
    st.round, st.active, st.over, st.end_reason = 1, 0, False, None
    st.rage, st.cd_owner, st.cd_space = 2, None, 0
    st.bag_black, st.black_aside = cat.constants["dragon_cubes"], 0
    reset_turn(st)
    st.row = list(ROW_DEFAULT)
    st.ddiscard, st.trashed, st.tokens_gone = [], [], []
    st.reserve = {pile: list(ct.ids) for pile, ct in cat.reserve_piles.items() if pile != "goblin"}
    st.removed_artifacts = []
    st.artifacts_at = {a.room: a.id for a in cat.artifacts.values()}
    st.work, st.stack.frames = [], []
    # secrets: explicit rooms first, the remaining tokens in id order over the remaining places
    rooms = sorted(cat.rooms.values(), key=lambda r: room_number(r.id))
    used_minor = {t for ts in minor_spec.values() for t in ts}
    free_minor = [t for t in cat.minor_ids if t not in used_minor]
    st.minor = {}
    for r in rooms:
        if r.id in minor_spec:
            st.minor[r.id] = list(minor_spec[r.id])
        elif r.minor_secrets:
            st.minor[r.id], free_minor = free_minor[:r.minor_secrets], free_minor[r.minor_secrets:]
    st.minor_aside = free_minor
    free_major = [t for t in cat.major_ids if t not in major_spec.values()]
    st.major = {}
    for r in rooms:
        if r.id in major_spec:
            st.major[r.id] = major_spec[r.id]
        elif r.major_secrets:
            st.major[r.id], free_major = free_major[0], free_major[1:]
    st.major_aside = free_major
    for key, value in spec.items():
        if key == "row":
            value = [c or None for c in value]  # TOML has no null: "" is an empty slot
        if not hasattr(st, key):
            raise KeyError(f"unknown state field {key!r}")
        setattr(st, key, value)
    for s, ps in enumerate(pspecs):
        p = st.p[s]
        for key, value in ps.items():
            if key == "damage":
                p.supply -= value - p.damage
            if not hasattr(p, key):
                raise KeyError(f"unknown player field {key!r}")
            setattr(p, key, list(value) if isinstance(value, list) else value)
            if key == "artifacts":
                for a in value:
                    st.artifacts_at.pop(cat.artifacts[a].room, None)
        if "area" in ps and "supply" not in ps:
            p.supply -= ps["area"]
    if "ddeck" not in spec:
        taken = {c for c in st.row if c} | set(st.ddiscard) | {c for p in st.p for c in p.owned()}
        st.ddeck = [c for c in cat.dungeon_ids if c not in taken]
    for s, p in enumerate(st.p):
        total = p.supply + p.area + p.bag + p.damage + p.removed
        assert total == cat.constants["player_cubes"], f"seat {s} cubes add up to {total}"
    return st


def read(st: ClankState, path: str) -> Any:
    """Read a dotted path: ``skill``, ``p.0.discard``, ``len:reserve.hireling``, ``outcome.ranks``,
    ``view.players.0.status`` (PUBLIC view), ``legal`` (pending seat's list), ``sum:a,b``."""
    if path.startswith("len:"):
        return len(read(st, path[4:]))
    if path.startswith("sum:"):
        return sum(read(st, part) for part in path[4:].split(","))
    parts = path.split(".")
    head = parts[0]
    if head == "outcome":
        obj: Any = st.outcome().to_json() if st.outcome() else None
    elif head == "view":
        obj = st.observe(PUBLIC)
    elif head == "legal":
        obj = st.legal_actions(st.pending()[0]) if st.pending() else []
    elif head == "pending":
        obj = st.pending()
    elif head == "events":
        obj = st.events_for(PUBLIC)
    elif head == "breakdown":
        obj = [breakdown(st, p) for p in st.p]
    elif head == "eligible":
        obj = [eligible(st, s) for s in range(st.players)]
    elif head == "arrive_in_row":
        obj = sum(1 for c in st.row if c and catalog().card_types[catalog().type_of[c]].arrive)
    elif head == "dragons_in_row":
        obj = sum(1 for c in st.row if c and catalog().card_types[catalog().type_of[c]].dragon)
    elif head == "decision":
        top = st.stack.top()
        obj = top.kind if top else ""
    else:
        obj = getattr(st, head)
    for part in parts[1:]:
        if isinstance(obj, list):
            obj = obj[int(part)]
        elif isinstance(obj, dict):
            obj = obj[part]
        else:
            obj = getattr(obj, part)
    return obj


def cubes_conserved(st: ClankState) -> None:
    """Invariant: every player's 30 cubes and the 24 black cubes are somewhere."""
    for s, p in enumerate(st.p):
        assert p.supply + p.area + p.bag + p.damage + p.removed == 30, f"seat {s} lost cubes"
        assert min(p.supply, p.area, p.bag, p.damage, p.removed) >= 0
    assert st.bag_black + st.black_aside == 24
