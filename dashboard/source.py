"""Where the dashboard's data comes from: a small read interface, and an in-memory implementation.

Pages and the JSON API talk only to a ``Source``. ``dashboard.queries.StoreSource`` reads the
tournament store (``arena.store``); ``MemorySource`` holds matches in memory (tests, and
``arena dashboard --replays DIR`` to browse replay files without a store). Ladders, standings
and head-to-head tables are aggregated from ``MatchRow`` rows in ``dashboard.ladder`` and cached
per ``Source.version()``.
"""
from __future__ import annotations

import itertools
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from referee.engine import Replay
from referee.engine.errors import ReplayError

from .schemas import (
    BotHealth,
    BotRef,
    DealsOut,
    DeveloperOut,
    MatchDetail,
    MatchHealthOut,
    MatchSummary,
    Page,
    SeatOut,
    TournamentProgress,
    TournamentSummary,
    VersionOut,
)


@dataclass(frozen=True)
class SeatResult:
    bot_id: str
    name: str
    rank: int
    score: float = 0.0


@dataclass(frozen=True)
class MatchRow:
    """One finished match, as ladders and standings need it."""

    match_id: str
    game: str
    seats: tuple[SeatResult, ...]
    finished: str = ""
    tournament_id: str | None = None
    team_result: str | None = None
    scenario: str = "default"


@dataclass(frozen=True)
class FittedRating:
    rating: float
    lo: float
    hi: float
    history: tuple[float, ...] = ()
    record: tuple[int, int, int, int] | None = None  # games, wins, draws, losses as the fit counted them


@dataclass(frozen=True)
class BotInfo:
    id: str
    name: str
    kind: str | None = None
    owner: str | None = None
    created: str | None = None


class Source(Protocol):
    """Read-only access to bots, matches, tournaments, results and fitted ratings."""

    def version(self) -> str:
        """Changes whenever anything a ladder shows may have changed (a cheap query)."""

    def game_counts(self) -> dict[str, tuple[int, int]]:
        """game id -> (finished matches, distinct bots)."""

    def results(self, game: str, tournament_id: str | None = None) -> list[MatchRow]:
        """Finished matches of a game (of one tournament), in a fixed order (finish time, id)."""

    def ratings(self, game: str) -> dict[str, FittedRating] | None:
        """The published fit for a game's ladder (bot id -> rating), or None if there is none."""

    def bots(self, page: int, per_page: int) -> Page[BotRef]: ...

    def bot(self, bot_id: str) -> BotInfo | None: ...

    def health(self, bot_id: str) -> list[BotHealth]:
        """Per game (then "all"): answer times and faults of the bot's recorded matches."""

    def matches(self, *, game: str | None = None, bot_id: str | None = None, tournament_id: str | None = None,
                status: str | None = None, page: int = 1, per_page: int = 25) -> Page[MatchSummary]:
        """Newest first."""

    def match(self, match_id: str) -> MatchDetail | None: ...

    def replay(self, match_id: str) -> Replay | None:
        """The stored replay of a finished match (None if there is none)."""

    def tournaments(self, *, status: str | None = None, page: int = 1, per_page: int = 25
                    ) -> Page[TournamentSummary]: ...

    def tournament(self, tournament_id: str) -> TournamentSummary | None: ...

    def deals(self, tournament_id: str) -> DealsOut | None:
        """The published deal key and every match's deal and seed (None until the tournament is over)."""

    def bot_version(self, bot_id: str) -> tuple[VersionOut, list[VersionOut]] | None:
        """The bot's status as a version, and the other versions of its family (newest first)."""

    def developer(self, name: str) -> DeveloperOut | None:
        """A bot developer and every version it submitted."""

    def submissions(self, limit: int = 10) -> list[VersionOut]:
        """The most recently submitted versions, newest first."""

    def matches_health(self, bot_id: str, limit: int = 20) -> list[MatchHealthOut]:
        """Per recent finished match (deal group over): the bot's time per decision and faults."""


def paginate(items: list[Any], page: int, per_page: int) -> Page[Any]:
    start = (page - 1) * per_page
    return Page(items=items[start:start + per_page], page=page, per_page=per_page, total=len(items))


@dataclass
class _MemMatch:
    detail: MatchDetail
    replay: Replay | None = None
    seq: int = 0


@dataclass
class MemorySource:
    """Everything in memory; thread-safe enough for a test server (one lock around writes)."""

    _bots: dict[str, BotInfo] = field(default_factory=dict)
    _matches: dict[str, _MemMatch] = field(default_factory=dict)
    _tournaments: dict[str, TournamentSummary] = field(default_factory=dict)
    _ratings: dict[str, dict[str, FittedRating]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _seq: itertools.count = field(default_factory=itertools.count)
    _version: int = 0

    # -- writing (tests, the replay-directory mode) ------------------------------------------
    def add_bot(self, bot_id: str, name: str, kind: str | None = "hosted",
                owner: str | None = None) -> BotRef:
        with self._lock:
            self._bots[bot_id] = BotInfo(bot_id, name, kind, owner)
            self._version += 1
        return BotRef(id=bot_id, name=name)

    def add_tournament(self, tid: str, name: str, game: str, status: str = "running",
                       kind: str = "round_robin") -> None:
        with self._lock:
            self._tournaments[tid] = TournamentSummary(id=tid, name=name, game=game, status=status, kind=kind,
                                                       progress=TournamentProgress())
            self._version += 1

    def add_match(self, match_id: str, game: str, bot_ids: list[str], *, status: str = "done",
                  replay: Replay | None = None, outcome: dict[str, Any] | None = None,
                  tournament_id: str | None = None, seed: int = 0, options: dict[str, Any] | None = None,
                  finished: str | None = None) -> None:
        """Add a match; a done match takes its outcome from ``outcome`` or the replay's."""
        if replay is not None and outcome is None:
            outcome = replay.outcome
        ranks = (outcome or {}).get("ranks") or [None] * len(bot_ids)
        scores = (outcome or {}).get("scores") or [None] * len(bot_ids)
        seats = [SeatOut(seat=s, bot=BotRef(id=b, name=self._bots[b].name) if b in self._bots else None,
                         name=self._bots[b].name if b in self._bots else b,
                         rank=ranks[s] if status == "done" else None,
                         score=scores[s] if status == "done" else None) for s, b in enumerate(bot_ids)]
        t = self._tournaments.get(tournament_id or "")
        detail = MatchDetail(
            id=match_id, game=game, status=status,  # type: ignore[arg-type] # tests pass literals
            tournament_id=tournament_id,
            tournament_name=t.name if t else None, seats=seats,
            reason=(outcome or {}).get("reason") if status == "done" else None,
            team_result=(outcome or {}).get("team_result") if status == "done" else None,
            created=finished, finished=finished if status == "done" else None,
            options=options if options is not None else (replay.options if replay else {}),
            seed=replay.seed if replay else seed, plies=len(replay.actions) if replay else None,
            has_replay=replay is not None, outcome=outcome if status == "done" else None)
        with self._lock:
            self._matches[match_id] = _MemMatch(detail, replay, next(self._seq))
            self._version += 1

    def set_status(self, match_id: str, status: str) -> None:
        with self._lock:
            m = self._matches[match_id]
            m.detail = m.detail.model_copy(update={"status": status})
            self._version += 1

    def set_ratings(self, game: str, ratings: dict[str, FittedRating]) -> None:
        with self._lock:
            self._ratings[game] = dict(ratings)
            self._version += 1

    @classmethod
    def from_replays(cls, paths: Iterable[Path]) -> MemorySource:
        """Browse replay files: every distinct seat name becomes a bot."""
        src = cls()
        for path in sorted(paths):
            try:
                rep = Replay.load(path)
            except ReplayError:
                continue
            ids = []
            for seat in rep.seats:
                name = str(seat.get("bot", f"seat {seat.get('seat')}"))
                bot_id = name
                if bot_id not in src._bots:
                    src.add_bot(bot_id, name, "hosted")
                ids.append(bot_id)
            # Match ids repeat across files (`arena play` names every match play-SEED): the file name is
            # unique.
            match_id = rep.match_id if rep.match_id and rep.match_id not in src._matches else path.stem
            src.add_match(match_id, rep.game, ids, replay=rep, finished=rep.created or None)
        return src

    # -- the Source interface ----------------------------------------------------------------
    def version(self) -> str:
        return str(self._version)

    def game_counts(self) -> dict[str, tuple[int, int]]:
        out: dict[str, tuple[int, set[str]]] = {}
        for m in self._matches.values():
            n, bots = out.get(m.detail.game, (0, set()))
            if m.detail.status == "done":
                n += 1
            bots |= {s.bot.id for s in m.detail.seats if s.bot}
            out[m.detail.game] = (n, bots)
        return {g: (n, len(b)) for g, (n, b) in out.items()}

    def results(self, game: str, tournament_id: str | None = None) -> list[MatchRow]:
        rows = []
        for m in sorted(self._matches.values(), key=lambda m: m.seq):
            d = m.detail
            if d.game != game or d.status != "done" or (tournament_id and d.tournament_id != tournament_id):
                continue
            rows.append(MatchRow(d.id, d.game, tuple(
                SeatResult(s.bot.id if s.bot else s.name, s.name, s.rank or 1,
                           s.score or 0.0) for s in d.seats),
                d.finished or "", d.tournament_id, d.team_result))
        return rows

    def ratings(self, game: str) -> dict[str, FittedRating] | None:
        return self._ratings.get(game)

    def bots(self, page: int, per_page: int) -> Page[BotRef]:
        items = [BotRef(id=b.id, name=b.name)
                 for b in sorted(self._bots.values(), key=lambda b: b.name.lower())]
        return paginate(items, page, per_page)

    def bot(self, bot_id: str) -> BotInfo | None:
        return self._bots.get(bot_id)

    def health(self, bot_id: str) -> list[BotHealth]:
        from arena.store.health import MatchHealth, summarize
        from referee.health import seat_health

        rows = [MatchHealth(m.seq, m.detail.game, s.seat, seat_health(m.replay.to_json(), s.seat).to_json())
                for m in self._matches.values() if m.replay is not None
                for s in m.detail.seats if s.bot and s.bot.id == bot_id]
        return [BotHealth(**h.to_json()) for h in summarize(rows)]

    def matches(self, *, game: str | None = None, bot_id: str | None = None, tournament_id: str | None = None,
                status: str | None = None, page: int = 1, per_page: int = 25) -> Page[MatchSummary]:
        items = []
        for m in sorted(self._matches.values(), key=lambda m: -m.seq):
            d = m.detail
            if game and d.game != game or status and d.status != status:
                continue
            if tournament_id and d.tournament_id != tournament_id:
                continue
            if bot_id and not any(s.bot and s.bot.id == bot_id for s in d.seats):
                continue
            items.append(MatchSummary(**d.model_dump(include=set(MatchSummary.model_fields))))
        return paginate(items, page, per_page)

    def match(self, match_id: str) -> MatchDetail | None:
        m = self._matches.get(match_id)
        return m.detail if m else None

    def replay(self, match_id: str) -> Replay | None:
        m = self._matches.get(match_id)
        return m.replay if m else None

    def tournaments(self, *, status: str | None = None, page: int = 1, per_page: int = 25
                    ) -> Page[TournamentSummary]:
        items = [t for t in (self.tournament(tid) for tid in reversed(self._tournaments)) if t]
        if status:
            items = [t for t in items if t.status == status]
        return paginate(items, page, per_page)

    def deals(self, tournament_id: str) -> DealsOut | None:
        return None  # replay files carry no deal key

    def bot_version(self, bot_id: str) -> tuple[VersionOut, list[VersionOut]] | None:
        b = self._bots.get(bot_id)
        return (VersionOut(id=b.id, name=b.name, status="active"), []) if b else None

    def developer(self, name: str) -> DeveloperOut | None:
        return None  # replay files name no developers

    def submissions(self, limit: int = 10) -> list[VersionOut]:
        return []

    def matches_health(self, bot_id: str, limit: int = 20) -> list[MatchHealthOut]:
        from referee.health import seat_health

        out = []
        for m in sorted(self._matches.values(), key=lambda m: -m.seq):
            if m.replay is None or m.detail.status != "done":
                continue
            for s in m.detail.seats:
                if s.bot and s.bot.id == bot_id:
                    out.append(MatchHealthOut(match_id=m.detail.id, game=m.detail.game, seat=s.seat,
                                              **seat_health(m.replay.to_json(), s.seat).to_json()))
        return out[:limit]

    def tournament(self, tournament_id: str) -> TournamentSummary | None:
        t = self._tournaments.get(tournament_id)
        if t is None:
            return None
        prog = TournamentProgress()
        for m in self._matches.values():
            if m.detail.tournament_id == tournament_id:
                prog.total += 1
                st = m.detail.status
                if st in ("queued", "running", "done", "failed"):
                    setattr(prog, st, getattr(prog, st) + 1)
        return t.model_copy(update={"progress": prog})
