"""``StoreSource``: the dashboard's ``Source`` over the tournament store's read API.

Uses ``arena.store.queries`` (bots, tournaments, matches, published ladders, rating history,
replays) and ``arena.store.ladders.load_results`` (results in the fixed order). Two small queries
of its own live here, on the store's models: a cheap change marker (``version``) and per-game
counts for the home page; plus tournament names for match lists.
"""
from __future__ import annotations

from typing import Any

from sqlalchemy import func, select

from arena.store import Store, open_store
from arena.store import models as sm
from arena.store import queries as q
from arena.store.ladders import load_results
from referee.engine import Replay
from referee.engine.errors import ReplayError

from .ladder import downsample
from .schemas import (
    BotHealth,
    BotRef,
    DealOut,
    DealsOut,
    DeveloperOut,
    MatchDetail,
    MatchFailure,
    MatchHealthOut,
    MatchSummary,
    Page,
    PairingOut,
    SeatOut,
    TournamentProgress,
    TournamentSummary,
    VersionOut,
)
from .source import BotInfo, FittedRating, MatchRow, SeatResult, paginate


def _iso(dt: Any) -> str | None:
    return dt.isoformat(timespec="seconds") if dt is not None else None


def _int_id(text: str) -> int | None:
    return int(text) if text.isdigit() and len(text) < 16 else None


class StoreSource:
    """Read-only view of an ``arena.store.Store``."""

    def __init__(self, store: Store) -> None:
        self.store = store

    @classmethod
    def from_url(cls, url: str | None = None) -> StoreSource:
        return cls(open_store(url))

    # -- change marker -----------------------------------------------------------------------
    def version(self) -> str:
        with self.store.read() as s:
            n_out, last = s.execute(select(func.count(), func.max(sm.Outcome.recorded_at))).one()
            statuses = s.execute(select(sm.Match.status, func.count()).group_by(sm.Match.status)).all()
            lad = s.execute(select(func.sum(sm.Ladder.results), func.max(sm.Ladder.computed_at))).one()
            bots, tours = s.execute(select(select(func.count()).select_from(sm.Bot).scalar_subquery(),
                                           select(func.count()).select_from(sm.Tournament).scalar_subquery())).one()
            tstat = s.execute(select(sm.Tournament.status, func.count()).group_by(sm.Tournament.status)).all()
        return repr((n_out, last, sorted(statuses), lad, bots, tours, sorted(tstat)))

    def game_counts(self) -> dict[str, tuple[int, int]]:
        with self.store.read() as s:
            done = dict(s.execute(select(sm.Match.game, func.count()).where(sm.Match.status == sm.DONE)
                                  .group_by(sm.Match.game)).all())
            bots = dict(s.execute(select(sm.Match.game, func.count(func.distinct(sm.MatchSeat.bot)))
                                  .join(sm.Match, sm.Match.id == sm.MatchSeat.match_id)
                                  .group_by(sm.Match.game)).all())
        return {g: (int(done.get(g, 0)), int(bots.get(g, 0))) for g in set(done) | set(bots)}

    # -- results and ratings -----------------------------------------------------------------
    def results(self, game: str, tournament_id: str | None = None) -> list[MatchRow]:
        tid = _int_id(tournament_id) if tournament_id is not None else None
        if tournament_id is not None and tid is None:
            return []
        out = []
        for r in load_results(self.store, game):
            if tid is not None and r.key[0] != tid:
                continue
            ranks = r.outcome.get("ranks") or [1] * len(r.bots)
            scores = r.outcome.get("scores") or [0.0] * len(r.bots)
            seats = tuple(SeatResult(b, b, int(ranks[i]), float(scores[i])) for i, b in enumerate(r.bots))
            out.append(MatchRow(f"{r.key}", game, seats, "", str(r.key[0]), r.outcome.get("team_result"),
                              f"{r.scenario or 'default'}@{len(r.bots)}"))
        return out

    def ratings(self, game: str) -> dict[str, FittedRating] | None:
        lad = q.ladder(self.store, game)
        if not lad.rows:
            return None
        hist = q.rating_history(self.store, game)
        return {r.player: FittedRating(r.rating, r.lo, r.hi,
                                       tuple(downsample([p.rating for p in hist.get(r.player, [])], 40)),
                                       (r.games, r.wins, r.draws, r.losses)) for r in lad.rows}

    # -- bots --------------------------------------------------------------------------------
    def bots(self, page: int, per_page: int) -> Page[BotRef]:
        items = [BotRef(id=b.name, name=b.name) for b in q.bots(self.store, include_removed=True)]
        return paginate(items, page, per_page)

    def bot(self, bot_id: str) -> BotInfo | None:
        b = q.bot(self.store, bot_id)
        if b is None:
            return None
        # a suspended or retired version is inactive too, but not removed: its status says why
        removed = not b.active and b.status == sm.B_ACTIVE
        return BotInfo(b.name, b.name, b.kind + (", removed" if removed else ""), None, _iso(b.created_at))

    def health(self, bot_id: str) -> list[BotHealth]:
        from arena.store import health

        return [BotHealth(**h.to_json()) for h in health.summary(self.store, bot_id)]

    def matches_health(self, bot_id: str, limit: int = 20) -> list[MatchHealthOut]:
        from arena.store import health

        return [MatchHealthOut(match_id=str(r.match_id), game=r.game, seat=r.seat,
                               **{k: v for k, v in r.health.items() if k in MatchHealthOut.model_fields})
                for r in health.recent(self.store, bot_id, limit=limit)]

    # -- versions and developers (issue 20) ----------------------------------------------------
    @staticmethod
    def _version(v: Any) -> VersionOut:
        return VersionOut(id=v.name, name=v.name, family=v.family, version=v.version, developer=v.developer,
                          status=v.status, reason=v.reason, runtime=v.runtime, submitted=_iso(v.submitted_at))

    def bot_version(self, bot_id: str) -> tuple[VersionOut, list[VersionOut]] | None:
        from arena.ladder import views

        found = views.version(self.store, bot_id)
        if found is None:
            return None
        this, others = found
        return self._version(this), [self._version(v) for v in others]

    def developer(self, name: str) -> DeveloperOut | None:
        from arena.ladder import views

        d = views.developer(self.store, name)
        if d is None:
            return None
        return DeveloperOut(name=d.name, status=d.status, created=_iso(d.created_at),
                            versions=[self._version(v) for v in d.versions])

    def submissions(self, limit: int = 10) -> list[VersionOut]:
        from arena.ladder import views

        return [self._version(v) for v in views.submissions(self.store, limit)]

    # -- matches -----------------------------------------------------------------------------
    def _tournament_names(self, ids: set[int]) -> dict[int, str]:
        if not ids:
            return {}
        with self.store.read() as s:
            return dict(s.execute(select(sm.Tournament.id, sm.Tournament.name)
                                  .where(sm.Tournament.id.in_(ids))).all())

    @staticmethod
    def _summary(v: q.MatchView, names: dict[int, str]) -> dict[str, Any]:
        done = v.status == sm.DONE
        seats = [SeatOut(seat=i, bot=BotRef(id=b, name=b), name=b,
                         rank=v.ranks[i] if done and v.ranks and i < len(v.ranks) else None,
                         score=v.scores[i] if done and v.scores and i < len(v.scores) else None)
                 for i, b in enumerate(v.bots)]
        outcome = v.outcome if done else None
        return {"id": str(v.id), "game": v.game, "status": v.status, "tournament_id": str(v.tournament_id),
                "tournament_name": names.get(v.tournament_id), "seats": seats,
                "reason": ((outcome or {}).get("reason") if done
                           else (v.reason if v.status == sm.FAILED else None)),
                "team_result": (outcome or {}).get("team_result"), "created": _iso(v.started_at),
                "finished": _iso(v.finished_at), "sealed": v.sealed and done}

    def matches(self, *, game: str | None = None, bot_id: str | None = None, tournament_id: str | None = None,
                status: str | None = None, page: int = 1, per_page: int = 25) -> Page[MatchSummary]:
        tid = None
        if tournament_id is not None:
            tid = _int_id(tournament_id)
            if tid is None:
                return Page(items=[], page=page, per_page=per_page, total=0)
        res = q.matches(self.store, tournament_id=tid, game=game, bot=bot_id, status=status, limit=per_page,
                        offset=(page - 1) * per_page, newest_first=tid is None)
        names = self._tournament_names({v.tournament_id for v in res.items})
        return Page(items=[MatchSummary(**self._summary(v, names)) for v in res.items], page=page,
                    per_page=per_page, total=res.total)

    def match(self, match_id: str) -> MatchDetail | None:
        mid = _int_id(match_id)
        v = q.match(self.store, mid) if mid is not None else None
        if v is None:
            return None
        names = self._tournament_names({v.tournament_id})
        return MatchDetail(**self._summary(v, names), options=dict(v.options), seed=v.seed, plies=v.plies,
                           has_replay=v.has_replay, outcome=v.outcome, deal=v.deal or None)

    def referee_match_id(self, match_id: str) -> str:
        """The id the referee plays this match under (namespaced by installation, as the workers send it)."""
        mid = _int_id(match_id)
        return self.store.referee_match_id(mid) if mid is not None else match_id

    def replay(self, match_id: str) -> Replay | None:
        mid = _int_id(match_id)
        data = q.replay(self.store, mid) if mid is not None else None
        if data is None:
            return None
        try:
            return Replay.from_json(data)
        except ReplayError:
            return None

    # -- tournaments -------------------------------------------------------------------------
    @staticmethod
    def _tsummary(t: q.TournamentView) -> TournamentSummary:
        p = t.progress
        return TournamentSummary(id=str(t.id), name=t.name, game=t.game, status=t.status,
                                 status_text=t.status_text, kind=t.format,
                                 progress=TournamentProgress(total=p.total, queued=p.queued,
                                                             running=p.running,
                                                             done=p.done, failed=p.failed + p.cancelled),
                                 created=_iso(t.created_at), seed_label=t.seed, deal_key=t.deal_key)

    def tournaments(self, *, status: str | None = None, page: int = 1, per_page: int = 25
                    ) -> Page[TournamentSummary]:
        res = q.tournaments(self.store, status=status, limit=per_page, offset=(page - 1) * per_page)
        return Page(items=[self._tsummary(t) for t in res.items], page=page, per_page=per_page,
                    total=res.total)

    def tournament(self, tournament_id: str) -> TournamentSummary | None:
        tid = _int_id(tournament_id)
        t = q.tournament(self.store, tid) if tid is not None else None
        if t is None:
            return None
        fails = [MatchFailure(match_id=str(f.match_id), reason=f.reason)
                 for f in q.failures(self.store, t.id)]
        pairings = [PairingOut(group=p.group, matches=p.matches, deals=p.deals, paired=p.paired)
                    for p in q.pairings(self.store, t.id)]
        return self._tsummary(t).model_copy(update={"failures": fails, "pairings": pairings})

    def deals(self, tournament_id: str) -> DealsOut | None:
        """The published key and every seed with its check, or None before the tournament is over."""
        from arena.scheduling import deal_seed

        tid = _int_id(tournament_id)
        published = q.deals(self.store, tid) if tid is not None else None
        if published is None:
            return None
        key, label, rows = published
        out = [DealOut(match_id=str(r.match_id), deal=r.deal, seed=r.seed,
                       verified=deal_seed(key, label, r.deal) == r.seed) for r in rows]
        return DealsOut(tournament_id=tournament_id, key=key, label=label, deals=out,
                        verified=all(d.verified for d in out))
