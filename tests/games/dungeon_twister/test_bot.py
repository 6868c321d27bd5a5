"""The heuristic bot answers with legal indices from what a remote bot sees (smoke test)."""
from __future__ import annotations

from collections import deque

from bots.heuristic.dungeon_twister import DIRS, DX, DY, OPP, HeuristicBot, Model
from bots.sdk import DecisionRequest
from referee.engine import run_match
from referee.games.dungeon_twister import GAME


def test_heuristic_bot_plays_legally() -> None:
    result = run_match(GAME, [HeuristicBot(1), HeuristicBot(2)], seed=2, checkpoint_every=0,
                       options={"max_turns": 12})
    assert result.faults == []
    assert result.outcome.details["turns"] == 12 or max(result.outcome.scores) >= 5


def _reference_dist(model: Model, colour: str, walker: str) -> dict[tuple[int, int], int]:
    """The heuristic's BFS as first written (walls tested on every visit), to check the cached one."""
    goal_x = 21 if colour == "blue" else 0
    dist = {(goal_x, y): 0 for y in range(10)
            if not any(t["character"] and t["state"] == "healthy" for t in model.at.get((goal_x, y), ()))}
    queue = deque(dist)
    while queue:
        q = queue.popleft()
        for d in DIRS:
            p = model.step(q, OPP[d]) if model.kind.get(q) != "H" else (q[0] - DX[d], q[1] - DY[d])
            if p is None or p not in model.kind or p in dist:
                continue
            if (model.kind[p] == "L" and p[0] == goal_x) or (model.kind[p] == "T" and walker == "normal"):
                continue
            if walker != "wizard" and any(t["character"] and t["state"] == "healthy" and t["colour"] != colour
                                          for t in model.at.get(p, ())):
                continue
            dist[p] = dist[q] + 1
            queue.append(p)
    return dist


def test_cached_board_distances_match_the_plain_bfs_through_a_game() -> None:
    """The board cache (walls and neighbour lists shared by every Model of one position) changes no
    distance: checked on every 7th position of a heuristic game, both colours, every walker, and on a
    rotated model (the key includes the rotation)."""
    state = GAME.new_state(2, {}, 4)
    bots = [HeuristicBot(0), HeuristicBot(1)]
    for n in range(400):
        pending = state.pending()
        if not pending:
            break
        seat = pending[0]
        view, legal = state.observe(seat), state.legal_actions(seat)
        if n % 7 == 0 and view.get("slots"):
            models = [Model(view)]
            revealed = [s["slot"] for s in view["slots"] if s["revealed"]]
            if revealed:
                models.append(Model(view, (revealed[0], "cw")))
            for model in models:
                for colour in ("blue", "red"):
                    for walker in ("normal", "trap", "wizard"):
                        assert model.dist_to_line(colour, walker) == _reference_dist(model, colour, walker)
        answer = bots[seat].act(DecisionRequest("m", n, "dungeon_twister", seat, view, legal, []))
        state.apply_trusted(seat, legal[answer])


def test_main_phase_scores_are_kept_and_chose_moves_the_step_memory() -> None:
    state = GAME.new_state(2, {}, 2)
    bots = [HeuristicBot(0), HeuristicBot(1)]
    for n in range(400):
        (seat,) = state.pending()[:1]
        view, legal = state.observe(seat), state.legal_actions(seat)
        answer = bots[seat].act(DecisionRequest("m", n, "dungeon_twister", seat, view, legal, []))
        moves = [a for a in legal if a["type"] == "move"]
        if view.get("subphase") is None and len(moves) >= 2 and legal[0]["type"] != "play_action_card":
            bot = bots[seat]
            assert len(bot.last_scores) == len(legal)
            assert answer == max(range(len(legal)), key=lambda i: (bot.last_scores[i], -i))
            other = next(a for a in moves if a != legal[answer])
            bot.chose(view, other)
            start = next(t["square"] for t in view["tokens"] if t["id"] == other["character"])
            assert bot.mover == other["character"] and bot.visited == {tuple(start)}
            return
        state.apply_trusted(seat, legal[answer])
    raise AssertionError("no main-phase decision with two moves")
