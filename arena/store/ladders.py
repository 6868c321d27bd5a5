"""Refitting a game's ladders from stored results, and their history.

Every game has a combined ladder (id = the game id) and one per seat count (``clank@4``): a bot's
strength at a 4-seat table says little about it head to head. Both are fitted from the same
published results (``load_results``: only results whose deal group is finished).

Any process may refit (workers after recording, the tournament driver, the CLI). The fit depends
only on the stored results, and a refit is published only if it covers more results than the
published one (a conditional update of ``ladders.results``), so concurrent refits never roll the
ladder back. A snapshot of the ladder is kept when a tournament finishes and every
``SNAPSHOT_EVERY`` results (unique per game and result count, so never twice).
"""
from __future__ import annotations

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from arena import ratings

from . import models as m
from .db import Store, updated
from .models import utcnow
from .queries import group_open

SNAPSHOT_EVERY = 100
#: The parts of an outcome that ratings, head-to-head tables and result lists read. Only these are
#: loaded: a refit reads every published result of the game, and a whole Clank outcome (per-seat
#: breakdowns and statistics, ~3.5 KB as Python objects) made each refit's peak, and so a worker's
#: resident memory, grow by ~12 KB per stored match (issue 16, point 9).
RATED = ("ranks", "scores", "team_result")


def load_results(store: Store, game: str, seats: int | None = None) -> list[ratings.Result]:
    """Every published result of ``game`` (of one seat count) in the fixed order (tournament id, number).

    A result is published once its whole deal group is finished (``queries.group_open``): until
    then even who won could say something about a deal its twins are still playing. Each result's
    ``outcome`` holds only the ``RATED`` parts of the stored outcome.
    """
    conds = [m.Match.game == game, m.Match.status == m.DONE, ~group_open()]
    if seats is not None:
        conds.append(m.Match.players == seats)
    with store.read() as s:
        rows = s.execute(
            select(m.Match.id, m.Match.tournament_id, m.Match.number, m.Match.scenario,
                   *(m.Outcome.data[k] for k in RATED))
            .join(m.Outcome, m.Outcome.match_id == m.Match.id)
            .where(*conds)
            .order_by(m.Match.tournament_id, m.Match.number)).all()
        by_match: dict[int, list[str]] = {}
        if rows:
            for mid, _seat, bot in s.execute(
                    select(m.MatchSeat.match_id, m.MatchSeat.seat, m.MatchSeat.bot)
                    .join(m.Match, m.Match.id == m.MatchSeat.match_id)
                    .where(*conds)
                    .order_by(m.MatchSeat.match_id, m.MatchSeat.seat)):
                by_match.setdefault(mid, []).append(bot)
    return [ratings.Result((tid, number), tuple(by_match.get(mid, [])),
                           {k: v for k, v in zip(RATED, parts, strict=True) if v is not None}, scenario)
            for mid, tid, number, scenario, *parts in rows]


def choose_anchor(store: Store, players: list[str]) -> str | None:
    """The random bot: the one named ``random``, else a bot whose in-process agent is ``random``."""
    if "random" in players:
        return "random"
    with store.read() as s:
        names = s.scalars(select(m.Bot.name).where(m.Bot.agent == "random").order_by(m.Bot.id)).all()
    return next((n for n in names if n in players), None)


def seat_ladder(game: str, seats: int) -> str:
    """The ladder id of ``game`` at one seat count (2-seat and 4-seat Clank are different games for a bot)."""
    return f"{game}@{seats}"


def refresh(store: Store, game: str, *, tournament_id: int | None = None, force: bool = False) -> bool:
    """Refit ``game``'s ladders, the combined one and one per seat count; publish each if newer.

    Returns True if this call published the combined ladder."""
    results = load_results(store, game)
    won = _refresh_one(store, game, results, tournament_id, force)
    for n in sorted({len(r.bots) for r in results}):
        _refresh_one(store, seat_ladder(game, n), [r for r in results if len(r.bots) == n], tournament_id,
                     force)
    return won


def _refresh_one(store: Store, key: str, results: list[ratings.Result], tournament_id: int | None,
                 force: bool) -> bool:
    count = len(results)
    players = sorted({b for r in results for b in r.bots})
    anchor = choose_anchor(store, players)
    rows, fit = ratings.ladder(results, anchor)
    game = key
    with store.tx() as s:
        current = s.scalar(select(m.Ladder.results).where(m.Ladder.game == game))
        if current is None:
            try:
                with s.begin_nested():
                    s.add(m.Ladder(game=game, results=-1))
            except IntegrityError:
                pass
        cond = [m.Ladder.game == game, (m.Ladder.results <= count) if force else (m.Ladder.results < count)]
        won = updated(s, update(m.Ladder).where(*cond).values(results=count, anchor=anchor, draw_nu=fit.nu,
                                                              computed_at=utcnow())
                         .execution_options(synchronize_session=False))
        if not won:
            return False
        s.execute(delete(m.Rating).where(m.Rating.game == game))
        if rows:
            s.execute(insert(m.Rating), [
                {"game": game, "player": r.player, "kind": r.kind, "rating": r.rating, "lo": r.lo, "hi": r.hi,
                 "games": r.record.games, "wins": r.record.wins, "draws": r.record.draws,
                 "losses": r.record.losses} for r in rows])
    if rows and (tournament_id is not None or (count and count % SNAPSHOT_EVERY == 0)):
        snapshot(store, game, count, rows, tournament_id)
    return True


def snapshot(store: Store, game: str, count: int, rows: list[ratings.Rated],
             tournament_id: int | None) -> bool:
    try:
        with store.tx() as s:
            snap = m.RatingSnapshot(game=game, results=count, tournament_id=tournament_id)
            s.add(snap)
            s.flush()
            s.execute(insert(m.RatingHistory), [
                {"snapshot_id": snap.id, "player": r.player, "rating": r.rating, "lo": r.lo, "hi": r.hi,
                 "games": r.record.games} for r in rows])
        return True
    except IntegrityError:
        if tournament_id is None:
            return False
        # Already snapped at this count (every-N snapshot): tag it with the tournament instead.
        with store.tx() as s:
            s.execute(update(m.RatingSnapshot).where(m.RatingSnapshot.game == game,
                                                     m.RatingSnapshot.results == count,
                                                     m.RatingSnapshot.tournament_id.is_(None))
                      .values(tournament_id=tournament_id).execution_options(synchronize_session=False))
        return False


def results_count(store: Store, game: str) -> int:
    with store.read() as s:
        return int(s.scalar(select(func.count()).select_from(m.Match)
                            .where(m.Match.game == game, m.Match.status == m.DONE)) or 0)
