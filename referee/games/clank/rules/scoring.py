"""CK-8.2 .. CK-8.5: eligibility, points, ranking and the outcome object."""
from __future__ import annotations

from typing import Any

from referee.engine import Outcome

from ..effects import ENDGAME
from ..model import ESCAPED, KNOCKED_OUT, ClankModel, PlayerData


def eligible(st: ClankModel, seat: int) -> bool:
    """CK-8.2: escaped, or knocked out with an artifact outside the Depths."""
    p = st.p[seat]
    return p.status == ESCAPED or (p.status == KNOCKED_OUT and p.rescued)


def breakdown(st: ClankModel, p: PlayerData) -> dict[str, int]:
    """CK-8.3: every point source of one player (eligible or not)."""
    cat = st.cat
    market = sum(cat.market[i].vp for i in p.items)
    trophies = sum(cat.secrets[cat.secret_type_of[t]].vp for t in p.tokens)
    owned = p.owned()
    cards = sum(cat.card_types[cat.type_of[c]].vp for c in owned)
    bonus = 0
    for c in owned:
        for atom in cat.card_types[cat.type_of[c]].endgame:
            bonus += ENDGAME.effects[atom["op"]](p, atom, cat)
    return {
        "artifacts": sum(cat.artifacts[a].value for a in p.artifacts),
        "mastery": cat.constants["mastery_vp"] if p.mastery else 0,
        "idols": cat.constants["idol_vp"] * len(p.idols),
        "market": market,
        "trophies": trophies,
        "gold": p.gold,
        "cards": cards,
        "card_bonus": bonus,
    }


def final_outcome(st: ClankModel) -> Outcome:
    """CK-8.4 / CK-8.5: eligible players by points, ties by best artifact; ineligible last with 0."""
    n = st.players
    parts = [breakdown(st, p) for p in st.p]
    raw = [sum(b.values()) for b in parts]
    elig = [eligible(st, s) for s in range(n)]
    best = [max((st.cat.artifacts[a].value for a in p.artifacts), default=0) for p in st.p]
    keys = [(raw[s], best[s]) if elig[s] else (-1, -1) for s in range(n)]
    ranks = [1 + sum(1 for k in keys if k > keys[s]) for s in range(n)]
    scores = [float(raw[s]) if elig[s] else 0.0 for s in range(n)]
    details: dict[str, Any] = {
        "eligible": elig, "raw_points": raw, "breakdown": parts, "end_reason": st.end_reason,
        "stats": [{"rooms_visited": p.visited, "monsters_defeated": p.defeated,
                   "damage_taken": p.damage_taken, "clank_made": p.clank_made, "status": p.status}
                  for p in st.p],
        "rounds": st.round,
    }
    return Outcome(ranks, scores, "normal", details=details)


def finish(st: ClankModel, reason: str) -> None:
    """CK-8.1: the game is over; the outcome is computed from the final state."""
    if not st.over:
        st.over = True
        st.end_reason = reason
        st.stack.frames.clear()
        st.work.clear()
        st.log.public("game_over", reason=reason)
