"""Outcome -> one reward per seat in [0, 1], and the cut-off estimate when a playout is stopped early."""
from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from referee.engine.state import State
from referee.engine.viewer import PUBLIC
from referee.games.clank.rules.scoring import breakdown, eligible
from referee.games.clank.state import ClankState


def reward_of(outcome: dict[str, Any], players: int) -> list[float]:
    """Competitive: a win (1, shared on a tie for first) plus a small score-share bonus, so the search
    still prefers the better of two lost positions. Cooperative: the team's win plus its score."""
    if outcome.get("team_result") is not None:
        win = 1.0 if outcome["team_result"] == "win" else 0.0
        bonus = math.tanh(float(outcome.get("team_score") or 0.0) / 100.0)
        return [0.85 * win + 0.15 * bonus] * players
    ranks = outcome["ranks"]
    scores = [float(x) for x in outcome["scores"]]
    firsts = [s for s, r in enumerate(ranks) if r == 1]
    lo, hi = min(scores), max(scores)
    span = hi - lo if hi > lo else 1.0
    out = []
    for s in range(players):
        win = 1.0 / len(firsts) if s in firsts else 0.0
        out.append(0.85 * win + 0.15 * (scores[s] - lo) / span)
    return out


def _dungeon_twister(state: State) -> list[float]:
    # Victory points race to vp_target: the lead, scaled to the target, is the best cheap estimate.
    view = state.observe(PUBLIC)
    vp = [float(v) for v in view.get("vp", [])]
    target = float(view.get("vp_target") or 5)
    if len(vp) != state.players:
        return [1.0 / state.players] * state.players
    return [min(1.0, max(0.0, 0.5 + 0.5 * (vp[s] - max(vp[:s] + vp[s + 1:])) / target))
            for s in range(state.players)]


def _clank(state: State) -> list[float]:
    # Points so far (the game's own breakdown, on the sample), zero for a seat knocked out in the depths.
    assert isinstance(state, ClankState)
    pts = []
    for seat, p in enumerate(state.p):
        alive = p.status != "knocked_out" or eligible(state, seat)
        pts.append(float(sum(breakdown(state, p).values())) if alive else 0.0)
    n = state.players
    return [0.5 + 0.5 * math.tanh((pts[s] - max(pts[:s] + pts[s + 1:])) / 15.0) for s in range(n)]


#: Estimates for playouts cut off before the end (by game); any other game scores a cut-off as a draw.
CUTOFF: dict[str, Callable[[State], list[float]]] = {"dungeon_twister": _dungeon_twister, "clank": _clank}
#: Playout length (decisions) before the cut-off estimate, by game: long random games are cut early.
ROLLOUT_DEPTH: dict[str, int] = {"dungeon_twister": 60, "clank": 60}


def cutoff_reward(state: State) -> list[float]:
    fn = CUTOFF.get(state.game.info.id)
    if fn is not None:
        return fn(state)
    if state.game.info.cooperative:
        return [0.0] * state.players
    return [1.0 / state.players] * state.players


def _dt_progress(state: State) -> list[float]:
    """Dungeon Twister for the heuristic playouts: victory points plus the race that earns them (each
    healthy character's path length to the enemy line, walls counted as a detour, on the board its own
    seat sees) and material."""
    from bots.heuristic.dungeon_twister import INF, Model

    out = []
    for seat in range(state.players):
        view = state.observe(seat)
        # strict: walls count (as a detour of WALL_COST steps), so a walled-in character is far from the
        # line and a room's turn that opens its way is progress; the optimistic BFS saw neither
        model = Model(view, strict=True)
        dists = {w: model.dist_to_line(view["colour"], w) for w in ("normal", "trap", "wizard")}
        value = float(view["vp"][seat])
        for t in view["tokens"]:
            if not t["character"] or t["colour"] != view["colour"] or t["carried_by"] is not None:
                continue
            if t["state"] != "healthy":
                value += 0.1
                continue
            walker = "wizard" if t["kind"] == "wizard" else "trap" if t["kind"] == "thief" else "normal"
            d = dists[walker].get(tuple(t["square"]), INF)
            value += 0.3 + (0.5 * max(0.0, 1.0 - d / 15.0) if d < INF else 0.0)
        out.append(value)
    target = float(state.observe(PUBLIC).get("vp_target") or 5)
    return [0.5 + 0.5 * math.tanh((out[s] - max(out[:s] + out[s + 1:])) / (0.6 * target))
            for s in range(state.players)]


def _blockcraft(state: State) -> list[float]:
    """Blockcraft ``overlord`` (the last one alive wins; at the round limit the living rank by
    ``xp_earned``): each seat's share of survival weight, the dead 0, the downed little, the rest by
    stamina left and, a little, by experience; plus the score-share bonus of ``reward_of``. Other modes
    are team games this estimate does not model: a cut-off there is a draw, as before."""
    players = getattr(state, "p", None)
    if getattr(state, "mode", "") != "overlord" or not players:
        return [1.0 / state.players] * state.players
    weight, xp = [], []
    for pl in players:
        xp.append(float(pl.xp_earned))
        if not pl.alive:
            weight.append(0.0)
            continue
        health = max(0.0, float(pl.stamina)) / max(1.0, float(pl.max_stamina))
        weight.append((0.25 if pl.downed else 1.0) * (0.5 + health) * (1.0 + pl.xp_earned / 40.0))
    total = sum(weight) or 1.0
    lo, hi = min(xp), max(xp)
    span = hi - lo if hi > lo else 1.0
    return [0.85 * weight[s] / total + 0.15 * (xp[s] - lo) / span for s in range(state.players)]


#: Leaf estimates for the heuristic playouts (``improve.py``), by game; else ``cutoff_reward``.
LEAF: dict[str, Callable[[State], list[float]]] = {"dungeon_twister": _dt_progress, "blockcraft": _blockcraft}


def leaf_reward(state: State) -> list[float]:
    fn = LEAF.get(state.game.info.id)
    return fn(state) if fn is not None else cutoff_reward(state)
