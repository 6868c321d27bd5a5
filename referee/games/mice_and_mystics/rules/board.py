"""MM-3.9 / MM-5.18-5.20: the area graph, costs, adjacency, line of sight, distances and capacity."""
from __future__ import annotations

from collections import deque

from ..catalog import content
from ..model import MMModel

C = content()
AREAS = C.areas
FACES = {i + 1: f for i, f in enumerate(C.faces.values())}  # 1..6 -> Face (MM-3.1)
MELEE_HIT = frozenset(i for i, f in FACES.items() if f.symbol in ("sword", "sword_shield"))
RANGED_HIT = frozenset(i for i, f in FACES.items() if f.symbol == "bow")
BLOCK = frozenset(i for i, f in FACES.items() if f.symbol == "sword_shield")
CHEESE = frozenset(i for i, f in FACES.items() if f.symbol == "cheese")
BURST = frozenset(i for i, f in FACES.items() if f.burst)
NUMBER = {i: f.number for i, f in FACES.items()}


def face_name(face: int) -> str:
    return f"F{face}"


class SideGraph:
    """The precomputed graph of one tile side (MM-3.9)."""

    def __init__(self, side: str) -> None:
        self.side = side
        self.areas = sorted((a for a in AREAS.values() if a.side == side), key=lambda a: a.ord)
        self.ids = [a.id for a in self.areas]
        #: area -> [(neighbour, kind, mouse step cost)], neighbours by ordinal
        self.nbrs: dict[str, list[tuple[str, str, int]]] = {a: [] for a in self.ids}
        for e in C.edges.values():
            if AREAS[e.a].side != side:
                continue
            for x, y in ((e.a, e.b), (e.b, e.a)):
                cost = 1 if e.kind == "open" else (1 if e.toward == y else 3) if e.kind == "yellow" else 0
                self.nbrs[x].append((y, e.kind, cost))
        for a in self.ids:
            self.nbrs[a].sort(key=lambda n: AREAS[n[0]].ord)
        #: MM-3.9 adjacency (open or yellow; red is not adjacent)
        self.adj = {a: [n for n, k, _ in self.nbrs[a] if k != "red"] for a in self.ids}
        self.all_nbrs = {a: [n for n, _, _ in self.nbrs[a]] for a in self.ids}
        blocked = {(p.a, p.b) for p in C.nolos.values()} | {(p.b, p.a) for p in C.nolos.values()}
        self.los = {a: frozenset(b for b in self.ids if (a, b) not in blocked) for a in self.ids}
        self.dist = {a: self._bfs(a) for a in self.ids}

    def _bfs(self, start: str) -> dict[str, int]:
        out = {start: 0}
        q = deque([start])
        while q:
            a = q.popleft()
            for n in self.all_nbrs[a]:
                if n not in out:
                    out[n] = out[a] + 1
                    q.append(n)
        return out


GRAPHS = {s: SideGraph(s) for s in C.sides}


def graph(st: MMModel) -> SideGraph:
    return GRAPHS[st.side]


def edge_to(st: MMModel, a: str, b: str) -> tuple[str, int] | None:
    """(kind, mouse cost) of the edge a->b, or None if not connected."""
    for n, kind, cost in GRAPHS[AREAS[a].side].nbrs[a]:
        if n == b:
            return kind, cost
    return None


def adjacent_or_same(a: str, b: str) -> bool:
    """MM-3.9 same area, or joined by an open/yellow edge."""
    return a == b or b in GRAPHS[AREAS[a].side].adj[a]


def has_los(st: MMModel, a: str, b: str) -> bool:
    """MM-3.9 LOS; MM-3.8 Dark Tunnel limits it to the same or an adjacent area."""
    enc = st.encounter
    if enc["keyword"] == "dark_tunnel" and enc["keyword_side"] == st.side:
        return adjacent_or_same(a, b)
    return b in GRAPHS[AREAS[a].side].los[a]


def mice_in(st: MMModel, area: str) -> list[str]:
    """Non-captured mice in an area, in mouse order."""
    return [m.id for m in st.mice.values() if m.area == area and not m.captured]


def monsters_in(st: MMModel, area: str) -> list[str]:
    return [k for k, m in st.monsters.items() if m.area == area]


def size_of(mtype: str) -> str:
    return C.monsters[mtype].size


def can_accept(st: MMModel, area: str, size: str, ignore: str | None = None) -> bool:
    """MM-5.20 capacity: 4 small figures or 1 large; special areas have no limit."""
    if AREAS[area].special:
        return True
    small = 0
    for m in st.mice.values():
        if m.area == area and not m.captured:
            small += 1
    for k, mo in st.monsters.items():
        if mo.area == area and k != ignore:
            if C.monsters[mo.type].size == "large":
                return False
            small += 1
    if size == "large":
        return small == 0
    return small < 4


def mouse_areas(st: MMModel) -> set[str]:
    return {m.area for m in st.mice.values() if not m.captured and m.area is not None}


def dist_to_mice(st: MMModel, area: str) -> int:
    """Fewest crossings over all edges to the nearest area holding a non-captured mouse (MM-5.39, 6.8)."""
    d = GRAPHS[st.side].dist[area]
    best = 10 ** 6
    for m in st.mice.values():
        if not m.captured and m.area is not None and m.area in d:
            best = min(best, d[m.area])
    return best


def monsters_on_side(st: MMModel) -> bool:
    return bool(st.monsters)


def ordinal(area: str) -> int:
    return AREAS[area].ord


def bfs_within(st: MMModel, sources: set[str], passable: set[str]) -> dict[str, int]:
    """Multi-source BFS over all edges, only through ``passable`` areas (monster movement, MM-5.41)."""
    g = GRAPHS[st.side]
    out = {s: 0 for s in sources}
    q = deque(sorted(sources, key=ordinal))
    while q:
        a = q.popleft()
        for n in g.all_nbrs[a]:
            if n not in out and n in passable:
                out[n] = out[a] + 1
                q.append(n)
    return out
