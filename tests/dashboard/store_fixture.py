"""A real store for dashboard tests: bots, a sealed-bids round robin played in-process through the
same task a worker runs (claim, play, record, refit), a running and a queued match, and hostile
strings where a bot or organizer could put them."""
from __future__ import annotations

from sqlalchemy import select, update

from arena.store import Store, ladders, models, ops
from arena.store.ops import TournamentRequest
from arena.tasks import play_match
from referee.engine import register
from tests.fixtures.sealed_bids import GAME as SEALED

EVIL = "<script>alert(1)</script>"


def build_store(url: str, *, extra_games: list[str] = (), leave_open: int = 2) -> tuple[Store, dict]:
    """Returns the store and ids: {'tournament', 'done', 'running', 'queued', 'evil_match', 'games'}."""
    register(SEALED)
    store = Store(url)
    store.migrate()
    for name in ["random", "alpha", "beta", "gamma"]:
        ops.add_bot(store, name, command="{python} -m bots.serve random", agent="random")
    tid = ops.create_tournament(store, TournamentRequest(
        game="sealed_bids", bots=("random", "alpha", "beta", "gamma"), games_per_pairing=1, seed=5,
        executor="inprocess", name="Spring Cup <b>bold</b>"))
    ops.start_tournament(store, tid)
    with store.read() as s:
        ids = list(s.scalars(select(models.Match.id).where(models.Match.tournament_id == tid)
                             .order_by(models.Match.number)))
    for mid in ids[:-leave_open]:
        play_match(mid, store=store, executor_name="inprocess")
    running, queued = ids[-leave_open], ids[-1]
    assert ops.claim(store, running, "test-worker", 3600).ok
    out = {"tournament": tid, "done": ids[:-leave_open], "running": running, "queued": queued, "games": {}}
    for gid in extra_games:
        t2 = ops.create_tournament(store, TournamentRequest(game=gid, bots=("random", "alpha"), seed=3,
                                                            executor="inprocess", name=f"{gid} showcase"))
        ops.start_tournament(store, t2)
        with store.read() as s:
            rows = s.execute(select(models.Match.id,
                                    models.Match.deal).where(models.Match.tournament_id == t2)
                             .order_by(models.Match.number)).all()
        gids = [mid for mid, _ in rows]
        first_deal = rows[0][1]  # play a whole deal group: its results are published only then
        for mid, deal in rows:
            if deal == first_deal or mid == gids[1]:
                play_match(mid, store=store, executor_name="inprocess")
        out["games"][gid] = gids[0]
    ladders.refresh(store, "sealed_bids", tournament_id=tid, force=True)
    for gid in extra_games:  # a worker refits at most so often: publish the final fit of every game
        ladders.refresh(store, gid, force=True)
    # Hostile strings: a live bot whose name the store did not vet, sitting in a finished match.
    evil_match = ids[0]
    with store.tx() as s:
        s.add(models.Bot(name=EVIL, kind="live", games=[], env={}))
        s.execute(update(models.MatchSeat).where(models.MatchSeat.match_id == evil_match,
                                                 models.MatchSeat.seat == 0).values(bot=EVIL))
    out["evil_match"] = evil_match
    return store, out
