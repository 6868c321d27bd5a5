"""Heuristic Dungeon Twister bot (spec section 11): a greedy exit racer that fights when the
odds are clearly good.

It sees only what a remote bot sees: ``request.view`` (the documented view: slots with square
codes and wall bits, portcullis states, face-up tokens), ``request.legal`` and ``request.events``.
Each decision rebuilds a small board model from the view and runs breadth-first searches toward
the enemy starting line (face-down rooms count as open, so characters walk toward them and
reveal them). Priorities: exit now > kill a wounded enemy at good odds > reveal > move toward
the enemy line > rotate a room when nobody can progress > heal/regenerate > end the turn.
"""
from __future__ import annotations

from collections import deque
from heapq import heappop, heappush
from typing import Any

from bots.sdk import Bot, DecisionRequest
from referee.engine.rng import Rng

DX = {"N": 0, "E": 1, "S": 0, "W": -1}
DY = {"N": -1, "E": 0, "S": 1, "W": 0}
DIRS = ("N", "E", "S", "W")
BIT = {"N": 1, "E": 2, "S": 4, "W": 8}
OPP = {"N": "S", "S": "N", "E": "W", "W": "E"}
COMBAT = {"cleric": 2, "goblin": 1, "mekanork": 2, "thief": 2, "troll": 4, "wall_walker": 1, "warrior": 3,
          "wizard": 1}
STARTERS = ("thief", "wizard", "goblin", "warrior", "cleric", "troll", "wall_walker", "mekanork")
FULL_COMBAT = [0, 1, 2, 2, 3, 3, 4, 5, 6]
INF = 10 ** 6
#: Strict mode (``HeuristicBot.strict``): a wall or closed portcullis counts as this many extra steps
#: instead of no way at all, so a walled-in character still has a distance: it walks to the wall that a
#: room's turn could open (a gear's rotation is then scored by the steps it saves).
WALL_COST = 6


Square = tuple[int, int]


class _Board:
    """The walls of a board position (square codes, own-wall bits, closed portcullis edges) and, built on
    first use, the BFS neighbour lists. Shared by every ``Model`` of the same position: it changes only
    when a room is revealed or turned or a portcullis moves, so most decisions reuse one."""

    def __init__(self, view: dict[str, Any], rotate: tuple[int, str] | None) -> None:
        self.kind: dict[Square, str] = {}
        self.walls: dict[Square, int] = {}
        for y in range(10):
            self.kind[(0, y)] = self.kind[(21, y)] = "L"
            self.walls[(0, y)] = self.walls[(21, y)] = 0
        for slot in view["slots"]:
            x0, y0 = slot["origin"]
            if not slot["revealed"]:
                for i in range(25):
                    self.kind[(x0 + i % 5, y0 + i // 5)] = "H"
                    self.walls[(x0 + i % 5, y0 + i // 5)] = 0
                continue
            codes, walls = slot["squares"], slot["walls"]
            if rotate is not None and rotate[0] == slot["slot"]:
                codes, walls = _rotated(codes, walls, rotate[1])
            for i in range(25):
                self.kind[(x0 + i % 5, y0 + i // 5)] = codes[i]
                self.walls[(x0 + i % 5, y0 + i // 5)] = int(walls[i], 16)
        self.closed: set[tuple[Square, Square]] = set()
        for p in view["portcullis"]:
            if p["state"] == "closed" and (rotate is None or p["slot"] != rotate[0]):
                a, b = tuple(p["squares"][0]), tuple(p["squares"][1])
                self.closed.add((a, b))
                self.closed.add((b, a))
        self._nbrs: dict[Square, list[Square]] | None = None
        self._strict: dict[Square, list[Square]] | None = None
        self._walled: dict[Square, list[Square]] | None = None

    def step(self, p: Square, d: str) -> Square | None:
        q = (p[0] + DX[d], p[1] + DY[d])
        if q not in self.kind:
            return None
        if self.walls[p] & BIT[d] or self.walls[q] & BIT[OPP[d]] or (p, q) in self.closed:
            return None
        return q

    def neighbours(self, strict: bool = False) -> dict[Square, list[Square]]:
        """For each square q, the squares p from which a step reaches q (walls and portcullises of the
        edge checked once here, not on every BFS visit: that was most of a decision's time).

        ``strict``: a face-down square is reached from a revealed one only where that one's own tile has
        no wall on the shared side, the only place a reveal can start (DT-5.6.1 b). Without it a
        character waits forever behind a wall it believes leads into the face-down room."""
        if strict:
            if self._strict is None:
                base = self.neighbours()
                self._strict = {q: [p for p in ps if self.kind[q] != "H" or self.kind[p] in ("H", "L")
                                    or not self.walls[p] & BIT[_towards(p, q)]]
                                for q, ps in base.items()}
            return self._strict
        if self._nbrs is None:
            nbrs = {}
            for q, k in self.kind.items():
                out = []
                for d in DIRS:
                    p = self.step(q, OPP[d]) if k != "H" else (q[0] - DX[d], q[1] - DY[d])
                    if p is not None and p in self.kind:
                        out.append(p)
                nbrs[q] = out
            self._nbrs = nbrs
        return self._nbrs

    def walled(self) -> dict[Square, list[Square]]:
        """For each square q, the orthogonal neighbours p that the strict ``neighbours`` leave out (a
        wall, a closed portcullis, a walled side facing a face-down room): a room's turn may open them."""
        if self._walled is None:
            strict = self.neighbours(True)
            self._walled = {}
            for q in self.kind:
                near = [(q[0] - DX[d], q[1] - DY[d]) for d in DIRS]
                self._walled[q] = [p for p in near if p in self.kind and p not in strict[q]
                                   and not (self.kind[p] == "H" and self.kind[q] == "H")]
        return self._walled


def _towards(p: Square, q: Square) -> str:
    """The direction of the step from ``p`` to its neighbour ``q``."""
    return next(d for d in DIRS if (p[0] + DX[d], p[1] + DY[d]) == q)


_BOARDS: dict[tuple[Any, ...], _Board] = {}
_BOARDS_MAX = 512


def _board(view: dict[str, Any], rotate: tuple[int, str] | None) -> _Board:
    """The cached ``_Board`` of a view's walls (keyed by everything it is built from)."""
    key = (rotate, tuple((s["slot"], s["revealed"], s.get("squares"), s.get("walls")) for s in view["slots"]),
           tuple((p["slot"], p["state"], tuple(map(tuple, p["squares"]))) for p in view["portcullis"]))
    board = _BOARDS.get(key)
    if board is None:
        if len(_BOARDS) >= _BOARDS_MAX:
            _BOARDS.clear()
        board = _BOARDS[key] = _Board(view, rotate)
    return board


class Model:
    """The board as the view shows it: square codes, own-wall bits, portcullis edges, tokens."""

    def __init__(self, view: dict[str, Any], rotate: tuple[int, str] | None = None,
                 strict: bool = False) -> None:
        board = _board(view, rotate)
        self.strict = strict  # reveal access through walls: see ``_Board.neighbours``
        self.kind, self.walls, self.closed = board.kind, board.walls, board.closed
        self._board = board
        self.tokens = {t["id"]: t for t in view["tokens"]}
        self.at: dict[tuple[int, int], list[dict[str, Any]]] = {}
        for t in view["tokens"]:
            if t["carried_by"] is None:
                self.at.setdefault(tuple(t["square"]), []).append(t)
        self._dist_cache: dict[tuple[str, str], dict[tuple[int, int], int]] = {}

    def _blockers(self, colour: str, walker: str) -> tuple[set[Square], set[Square]]:
        """Squares with a healthy character, and those with a healthy enemy a ``walker`` cannot cross."""
        healthy = {sq for sq, ts in self.at.items()
                   if any(t["character"] and t["state"] == "healthy" for t in ts)}
        enemy = set() if walker == "wizard" else {
            sq for sq, ts in self.at.items()
            if any(t["character"] and t["state"] == "healthy" and t["colour"] != colour for t in ts)}
        return healthy, enemy

    def dist_to_gear(self, colour: str, walker: str) -> dict[Square, int]:
        """Strict-mode BFS distances to the nearest free rotation gear (a walled-in character's goal)."""
        key = ("gear:" + colour, walker)
        cached = self._dist_cache.get(key)
        if cached is not None:
            return cached
        healthy, enemy = self._blockers(colour, walker)
        dist = {q: 0 for q, k in self.kind.items() if k == "G" and q not in healthy}
        queue = deque(dist)
        nbrs = self._board.neighbours(True)
        while queue:
            q = queue.popleft()
            for p in nbrs[q]:
                k = self.kind[p]
                if p in dist or p in enemy or k == "H" or (k == "T" and walker == "normal"):
                    continue
                dist[p] = dist[q] + 1
                queue.append(p)
        self._dist_cache[key] = dist
        return dist

    def step(self, p: tuple[int, int], d: str) -> tuple[int, int] | None:
        return self._board.step(p, d)

    def dist_to_line(self, colour: str, walker: str) -> dict[tuple[int, int], int]:
        """BFS distances to the enemy line of ``colour`` for a walker class ('normal', 'trap', 'wizard');
        face-down squares count as open floor (optimistic), healthy enemies block non-wizards."""
        key = (colour, walker)
        cached = self._dist_cache.get(key)
        if cached is not None:
            return cached
        goal_x = 21 if colour == "blue" else 0
        healthy = {sq for sq, ts in self.at.items()
                   if any(t["character"] and t["state"] == "healthy" for t in ts)}
        enemy = set() if walker == "wizard" else {
            sq for sq, ts in self.at.items()
            if any(t["character"] and t["state"] == "healthy" and t["colour"] != colour for t in ts)}
        # DT-6.9.4: a line square holding a healthy character is no exit.
        dist = {(goal_x, y): 0 for y in range(10) if (goal_x, y) not in healthy}
        if self.strict:
            self._graded(dist, enemy, goal_x, walker)
            self._dist_cache[key] = dist
            return dist
        queue = deque(dist)
        kind, nbrs = self.kind, self._board.neighbours()
        while queue:
            q = queue.popleft()
            dq = dist[q] + 1
            for p in nbrs[q]:
                if p in dist or p in enemy:
                    continue
                k = kind[p]
                if (k == "L" and p[0] == goal_x) or (k == "T" and walker == "normal"):
                    continue
                dist[p] = dq
                queue.append(p)
        self._dist_cache[key] = dist
        return dist

    def _graded(self, dist: dict[Square, int], enemy: set[Square], goal_x: int, walker: str) -> None:
        """Dijkstra from ``dist``'s goals in place: a step costs 1, a walled edge 1 + ``WALL_COST``."""
        kind, nbrs, walled = self.kind, self._board.neighbours(True), self._board.walled()
        heap = [(0, q) for q in dist]
        while heap:
            dq, q = heappop(heap)
            if dq > dist[q]:
                continue
            for cost, ps in ((1, nbrs[q]), (1 + WALL_COST, walled[q])):
                for p in ps:
                    k = kind[p]
                    if p in enemy or (k == "L" and p[0] == goal_x) or (k == "T" and walker == "normal"):
                        continue
                    if dq + cost < dist.get(p, INF):
                        dist[p] = dq + cost
                        heappush(heap, (dq + cost, p))


def _rotated(codes: str, walls: str, d: str) -> tuple[str, str]:
    """Turn a slot's square codes and wall bits a quarter (cw: (c, r) -> (4-r, c))."""
    new_codes = [""] * 25
    new_walls = [0] * 25
    for i in range(25):
        c, r = i % 5, i // 5
        cc, rr = (4 - r, c) if d == "cw" else (r, 4 - c)
        w = int(walls[i], 16)
        nw = 0
        for k in range(4):
            if w & (1 << k):
                nw |= 1 << ((k + (1 if d == "cw" else 3)) % 4)
        new_codes[rr * 5 + cc] = codes[i]
        new_walls[rr * 5 + cc] = nw
    return "".join(new_codes), "".join(f"{w:x}" for w in new_walls)


class HeuristicBot(Bot):
    """Spec section 11 baseline: race to the exit, reveal, rotate when stuck, fight at good odds."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.rng = Rng(seed)
        self.opp_spent: list[int] = []
        self.visited: set[tuple[int, int]] = set()
        self.mover: str | None = None
        self.move_start: tuple[int, int] | None = None
        self.stuck: set[tuple[int, str]] = set()     # (turn, character) whose move went nowhere
        #: Wall-aware reveal access (``_Board.neighbours``). Off: the baseline heuristic as measured; the
        #: search bot turns it on in its own instances (bots/search/improve.py).
        self.strict = False
        self.gear_seekers: set[str] = set()  # strict mode: characters whose move of ``_main`` seeks a gear
        self.to_gear = False  # the move under way seeks a gear, not the enemy line
        #: The main-phase scores of the last ``_main`` call (one per legal action), for a search that
        #: wants the heuristic's ranking of its moves (bots/search/improve.py).
        self.last_scores: list[float] = []

    # -- bookkeeping from events -------------------------------------------------------------
    def _read_events(self, request: DecisionRequest) -> None:
        me = request.seat
        for e in request.events:
            if e.get("type") == "combat_result":
                v = e["cards"][1 - me]
                if v != 0:
                    self.opp_spent.append(v)

    def _opp_hand(self) -> list[int]:
        hand = list(FULL_COMBAT)
        for v in self.opp_spent:
            if v in hand:
                hand.remove(v)
        return hand or [0]

    # -- entry point ---------------------------------------------------------------------------
    def act(self, request: DecisionRequest) -> int:
        self._read_events(request)
        self.last_scores = []
        legal = request.legal
        if len(legal) == 1:
            if self.strict and legal[0]["type"] == "end_move":
                self._note_stuck(request.view)  # out of steps where it began: try another next time
            return 0
        kind = legal[0]["type"]
        view = request.view
        if kind == "choose_starter":
            return self._pick_first(legal, lambda a: STARTERS.index(a["character"]))
        if kind == "place_hidden":
            return self._place_hidden(view, legal)
        if kind == "play_action_card":
            return max(range(len(legal)), key=lambda i: legal[i]["value"])
        if kind == "combat_card":
            return self._combat_card(view, legal)
        if kind == "place_revealed":
            return self._place_revealed(view, legal)
        sub = view.get("subphase")
        if sub is not None and sub["kind"] == "move":
            return self._move_step(view, legal, sub)
        return self._main(view, legal)

    @staticmethod
    def _pick_first(legal: list[dict[str, Any]], key: Any) -> int:
        return min(range(len(legal)), key=lambda i: key(legal[i]))

    # -- setup -----------------------------------------------------------------------------------
    def _place_hidden(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> int:
        own_side = {0, 4} if view["colour"] == "blue" else {3, 7}
        middle = {1, 2, 5, 6}

        def score(a: dict[str, Any]) -> tuple[int, int]:
            kind = a["token"].split(".", 1)[1]
            if kind in ("treasure", "rope", "speed_potion"):
                want = own_side
            elif kind in COMBAT:
                want = middle
            else:
                want = set(range(8)) - own_side
            return (0 if a["slot"] in want else 1, a["slot"])
        return self._pick_first(legal, score)

    def _place_revealed(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> int:
        me = view["colour"]
        other = "red" if me == "blue" else "blue"
        model = Model(view, strict=self.strict)
        mine = model.dist_to_line(me, "normal")
        theirs = model.dist_to_line(other, "normal")

        def score(a: dict[str, Any]) -> int:
            colour, kind = a["token"].split(".", 1)
            sq = tuple(a["square"])
            if kind in COMBAT:
                return mine.get(sq, 99) if colour == me else -theirs.get(sq, 99)
            return mine.get(sq, 99)
        return self._pick_first(legal, score)

    # -- combat ----------------------------------------------------------------------------------
    def _combat_card(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> int:
        sub = view["subphase"]
        me = view["seat"]
        attacking = sub["attacker_seat"] == me
        mine = sub["base_totals"]["attack" if attacking else "defence"]
        theirs = sub["base_totals"]["defence" if attacking else "attack"]
        values = [a["value"] for a in legal]
        opp_best = max(self._opp_hand())
        idx = {a["value"]: i for i, a in enumerate(legal)}
        if mine - theirs > opp_best:
            return idx[min(values)]
        if mine + max(values) <= theirs:
            return idx[min(values)]
        for v in sorted(values):
            if mine + v > theirs + opp_best:
                return idx[v]
        best = max(values)
        return idx[best] if mine + best > theirs + 2 else idx[min(values)]

    def _estimate(self, view: dict[str, Any], model: Model, attacker: str, target: str) -> tuple[int, int]:
        """DT-5.8.2 group participants on the model; base totals (no item bonuses)."""
        toks = model.tokens
        a, t = toks[attacker], toks[target]

        def joins(x: dict[str, Any], colour: str) -> bool:
            return (x["character"] and x["colour"] == colour and x["state"] == "healthy" and not x["blocked"]
                    and x["carried_by"] is None)
        att, dfn = {attacker}, {target}
        changed = True
        while changed:
            changed = False
            for side, other, colour in ((att, dfn, a["colour"]), (dfn, att, t["colour"])):
                squares = {tuple(toks[i]["square"]) for i in other}
                for x in toks.values():
                    if x["id"] in side or not joins(x, colour):
                        continue
                    p = tuple(x["square"])
                    if any(model.step(p, d) in squares for d in DIRS):
                        side.add(x["id"])
                        changed = True

        def total(ids: set[str]) -> int:
            return sum(COMBAT[toks[i]["kind"]] for i in ids if toks[i]["state"] == "healthy")
        return total(att), total(dfn)

    # -- main phase --------------------------------------------------------------------------------
    def _walker(self, tok: dict[str, Any], model: Model) -> str:
        if tok["kind"] == "wizard":
            return "wizard"
        carried = tok["carrying"]
        if tok["kind"] == "thief" or (carried and carried.endswith(".rope")):
            return "trap"
        return "normal"

    def _dists(self, view: dict[str, Any], model: Model) -> dict[str, dict[tuple[int, int], int]]:
        return {w: model.dist_to_line(view["colour"], w) for w in ("normal", "trap", "wizard")}

    def _main(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> int:
        me = view["colour"]
        model = Model(view, strict=self.strict)
        dists = self._dists(view, model)
        toks = model.tokens
        hand = view["hand"]["combat"]
        best_card = max(hand) if hand else 0
        opp_best = max(self._opp_hand())

        def cur_dist(cid: str, m: Model = model, ds: dict[str, Any] = dists) -> int:
            t = m.tokens[cid]
            return ds[self._walker(t, m)].get(tuple(t["square"]), INF)

        scores: list[float] = []
        gear_seekers: set[str] = set()
        for a in legal:
            kind = a["type"]
            s = -1.0
            if kind == "end_turn":
                s = 0.0
            elif kind == "move":
                t = toks[a["character"]]
                d = cur_dist(a["character"])
                if d < INF and (view["turn"], t["id"]) not in self.stuck \
                        and self._can_progress(model, t, dists):
                    speed = {"thief": 5, "troll": 2, "warrior": 3, "mekanork": 3}.get(t["kind"], 4)
                    bonus = 3 if t["kind"] == "goblin" or (t["carrying"] or "").endswith("treasure") else 0
                    s = 100 + bonus - d if d <= speed else 20 + bonus - d / 10
                elif self.strict and model.kind.get(tuple(t["square"])) != "G":
                    # walled in: walk to a gear, whose turn of a room is scored by the steps it saves
                    g = model.dist_to_gear(me, self._walker(t, model)).get(tuple(t["square"]), INF)
                    if 0 < g < INF:
                        s = 12 - g / 10
                        gear_seekers.add(t["id"])
            elif kind == "reveal":
                s = 40
            elif kind == "attack":
                mine, theirs = self._estimate(view, model, a["character"], a["target"])
                wounded = toks[a["target"]]["state"] == "wounded"
                if mine + min(best_card, 6) > theirs + opp_best \
                        or (wounded and mine - theirs + best_card - opp_best >= 0):
                    s = 60 if wounded else 30
            elif kind == "fireball":
                s = 70 if self._fireball_hits_enemy(model, a, me) else -1
            elif kind in ("heal", "regenerate"):
                tgt = toks[a.get("target", a["character"])]
                s = 15 if tgt["colour"] == me else -1
            elif kind == "rotate":
                s = self._rotation_gain(view, a, dists)
            elif kind in ("jump", "wall_walk"):
                t = toks[a["character"]]
                d0 = cur_dist(a["character"])
                if kind == "jump":
                    land = tuple(a["land"])
                else:
                    land = (t["square"][0] + DX[a["dir"]], t["square"][1] + DY[a["dir"]])
                own_line = 0 if me == "blue" else 21  # DT-3.2.2: blue starts on column 0
                d1 = 0 if model.kind.get(land) == "L" and land[0] in (0, 21) and land[0] != own_line \
                    else dists[self._walker(t, model)].get(land, INF)
                if d0 - d1 >= 3:
                    s = 25 + (d0 - d1)
            elif kind == "drink_potion":
                s = 10
            elif kind == "open_portcullis" or kind == "break_portcullis":
                s = 5
            scores.append(s)
        self.last_scores = scores
        self.gear_seekers = gear_seekers
        best = max(range(len(legal)), key=lambda i: (scores[i], -i))
        self.chose(view, legal[best])
        return best

    def chose(self, view: dict[str, Any], action: dict[str, Any]) -> None:
        """The main-phase move actually played: a move's steps remember where it started. A search
        that overrules this bot tells it here, so the steps follow the move really made."""
        if action.get("type") == "move":
            tok = next(t for t in view["tokens"] if t["id"] == action["character"])
            self.mover = action["character"]
            self.move_start = tuple(tok["square"])
            self.visited = {self.move_start}
            self.to_gear = action["character"] in self.gear_seekers

    def _note_stuck(self, view: dict[str, Any]) -> None:
        """A move that ends on the square it began from went nowhere: not that character again this turn
        (the baseline notes it only when it chooses ``end_move``, not when that is the only action)."""
        sub = view.get("subphase") or {}
        tok = next((t for t in view["tokens"] if t["id"] == sub.get("character")), None)
        if tok is not None and tok["square"] is not None and tuple(tok["square"]) == self.move_start:
            self.stuck.add((view["turn"], tok["id"]))

    def _can_progress(self, model: Model, t: dict[str, Any], dists: dict[str, Any]) -> bool:
        p = tuple(t["square"])
        dist = dists[self._walker(t, model)]
        here = dist.get(p, INF)
        for d in DIRS:
            q = model.step(p, d)
            if q is not None and model.kind.get(q) != "H" and dist.get(q, INF) < here:
                return True
        return False

    def _fireball_hits_enemy(self, model: Model, a: dict[str, Any], me: str) -> bool:
        p = tuple(model.tokens[a["character"]]["square"])
        while True:
            q = model.step(p, a["dir"])
            if q is None or model.kind.get(q) == "H":
                return False
            chars = [t for t in model.at.get(q, ()) if t["character"]]
            if chars:
                return all(t["colour"] != me for t in chars)
            p = q

    def _rotation_gain(self, view: dict[str, Any], a: dict[str, Any], dists: dict[str, Any]) -> float:
        """Sum over own characters of the distance saved by this quarter turn (tokens turn too,
        so only characters outside the rotated slot are compared)."""
        me = view["colour"]
        rotated = Model(view, (a["slot"], a["dir"]), self.strict)
        new = self._dists(view, rotated)
        slot = view["slots"][a["slot"]]
        x0, y0 = slot["origin"]
        gain = 0
        model = Model(view, strict=self.strict)
        for t in model.tokens.values():
            if not t["character"] or t["colour"] != me or t["state"] != "healthy" or t["carried_by"]:
                continue
            p = tuple(t["square"])
            q = p
            if x0 <= p[0] < x0 + 5 and y0 <= p[1] < y0 + 5:   # it turns with the room
                c, r = p[0] - x0, p[1] - y0
                c, r = (4 - r, c) if a["dir"] == "cw" else (r, 4 - c)
                q = (x0 + c, y0 + r)
            w = self._walker(t, model)
            cap = 200 if self.strict else 60  # strict distances count walls: longer, and rarely INF
            gain += min(dists[w].get(p, cap), cap) - min(new[w].get(q, cap), cap)
        if gain >= 2:
            return 8 + gain
        # Deadlock breaker: now and then turn a room even without a measurable gain.
        return 0.5 if gain >= 0 and self.rng.below(4) == 0 else -1

    # -- movement sub-phase -----------------------------------------------------------------------
    def _move_step(self, view: dict[str, Any], legal: list[dict[str, Any]], sub: dict[str, Any]) -> int:
        model = Model(view, strict=self.strict)
        t = model.tokens[sub["character"]]
        walker = self._walker(t, model)
        dist = model.dist_to_gear(view["colour"], walker) if self.strict and self.to_gear \
            else model.dist_to_line(view["colour"], walker)
        p = tuple(t["square"])
        self.visited.add(p)
        here = dist.get(p, INF)
        best_i, best_d = None, here
        end_i = None
        for i, a in enumerate(legal):
            if a["type"] == "step":
                q = (p[0] + DX[a["dir"]], p[1] + DY[a["dir"]])
                if q[0] in (0, 21) and q[0] != (0 if view["colour"] == "blue" else 21):
                    return i                                   # exit now
                if q in self.visited:
                    continue
                dq = dist.get(q, INF)
                if dq < best_d:
                    best_i, best_d = i, dq
            elif a["type"] == "end_move":
                end_i = i
            elif a["type"] == "pick_up" and t["carrying"] is None \
                    and a["token"].split(".", 1)[1] in ("treasure", "rope", "sword", "speed_potion"):
                return i
        if best_i is not None:
            return best_i
        if end_i is not None:
            if p == self.move_start:
                self.stuck.add((view["turn"], sub["character"]))
            return end_i
        steps = [i for i, a in enumerate(legal) if a["type"] == "step"]
        return steps[0] if steps else 0
