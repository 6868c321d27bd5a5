"""BC-8: end conditions, the round limit and the outcome."""
from __future__ import annotations

from typing import Any

from referee.engine import Outcome

from ..model import BlockcraftModel


def check_end(st: BlockcraftModel) -> None:
    """BC-6.4.5 / BC-8.2-BC-8.5: checked after every single death."""
    if st.phase == "over":
        return
    alive = [p for p in st.p if p.alive]
    if st.mode == "boss":
        assert st.boss_seat is not None
        if not st.p[st.boss_seat].alive:
            finish(st, "boss_dead")
        elif all(not p.alive for p in st.p if p.seat != st.boss_seat):
            finish(st, "anti_boss_dead")
    elif st.mode == "team":
        if len({p.identity for p in alive}) <= 1:
            finish(st, "one_faction")
    elif st.mode == "overlord":
        if len(alive) <= 1:
            finish(st, "last_player")
    elif not alive:
        finish(st, "all_dead")


def finish(st: BlockcraftModel, reason: str, winner: int | None = None) -> None:
    """The game ends at once: every pending window or effect is abandoned (BC-6.4.5)."""
    st.phase = "over"
    st.stack.frames = []
    ranks, results = _ranks(st, reason, winner)
    st.result = {"reason": reason, "winner": winner, "ranks": ranks, "results": results, "rounds": st.round}
    st.log.public("game_over", reason=reason, ranks=ranks, results=results)


def _competition(keys: list[Any]) -> list[int]:
    """Standard competition ranking (1, 2, 2, 4), higher key = better."""
    return [1 + sum(1 for k in keys if k > key) for key in keys]


def _ranks(st: BlockcraftModel, reason: str, winner: int | None) -> tuple[list[int], list[str]]:
    n = st.players
    xp = [p.xp_earned for p in st.p]
    if reason == "boss_dead":
        return ([2 if s == st.boss_seat else 1 for s in range(n)],
                ["loss" if s == st.boss_seat else "win" for s in range(n)])
    if reason == "anti_boss_dead" or (reason == "round_limit" and st.mode == "boss"):
        return ([1 if s == st.boss_seat else 2 for s in range(n)],
                ["win" if s == st.boss_seat else "loss" for s in range(n)])
    if reason == "one_faction":
        alive = {p.identity for p in st.p if p.alive}
        return ([1 if p.identity in alive else 2 for p in st.p],
                ["win" if p.identity in alive else "loss" for p in st.p])
    if reason == "target_card":
        return ([1 if s == winner else 2 for s in range(n)],
                ["win" if s == winner else "loss" for s in range(n)])
    if reason == "all_dead":
        return [1] * n, ["loss"] * n
    if reason == "last_player" or (reason == "round_limit" and st.mode == "overlord"):
        # BC-8.4 / BC-8.6: living seats by xp_earned, then the dead by death order (last to die best).
        dead_pos = {s: i for i, s in enumerate(st.death_order)}
        keys = [(1, xp[s], 0) if st.p[s].alive else (0, 0, dead_pos[s]) for s in range(n)]
        ranks = _competition(keys)
        best = [s for s in range(n) if ranks[s] == 1 and st.p[s].alive]
        results = ["loss"] * n
        for s in best:
            results[s] = "win" if len(best) == 1 else "draw"
        return ranks, results
    if st.mode == "team":
        # BC-8.6 team: factions by living members, then by summed xp_earned.
        facs = sorted({p.identity for p in st.p})
        key = {f: (sum(1 for p in st.p if p.identity == f and p.alive),
                   sum(p.xp_earned for p in st.p if p.identity == f)) for f in facs}
        dense = sorted(set(key.values()), reverse=True)
        rank_of = {f: 1 + dense.index(key[f]) for f in facs}
        tied = sum(1 for f in facs if rank_of[f] == 1) > 1
        ranks = [rank_of[p.identity] for p in st.p]
        return ranks, [("draw" if tied else "win") if r == 1 else "loss" for r in ranks]
    # extreme round limit: no winner, ranks by xp_earned.
    return _competition(xp), ["loss"] * n


def make_outcome(st: BlockcraftModel) -> Outcome:
    """BC-8.7: ranks, scores (= xp_earned) and per-seat statistics; solo extreme is a team result."""
    assert st.result is not None
    res = st.result
    stats = [{"seat": p.seat, "character": p.character, "xp_earned": p.xp_earned, "kills": p.kills,
              "alive": p.alive, "stamina": p.stamina, "hunger": p.hunger} for p in st.p]
    details = {"results": {str(s): r for s, r in enumerate(res["results"])}, "reason": res["reason"],
               "rounds": res["rounds"], "stats": stats}
    if st.players == 1:
        win = res["reason"] == "target_card"
        xp = st.p[0].xp_earned
        score = 10 * (st.max_rounds - st.round + 1) + xp if win else xp
        return Outcome([1], [float(score)], "normal", "win" if win else "loss", float(score), details=details)
    return Outcome(list(res["ranks"]), [float(p.xp_earned) for p in st.p], "normal", details=details)
