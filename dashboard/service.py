"""What the routes ask for, in one object: cached ladders, standings, frames, game info.

Nothing here raises HTTP errors: lookups return ``None`` (routes turn that into a 404) and
refusals raise ``Refused`` with a reason (routes turn that into a 403/409).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from referee.engine import ALL, Replay, game_ids, get_game
from referee.engine.errors import ReplayError, UnknownGame

from .fastpath import Payload
from .frames import FrameCache, parse_perspective
from .glossary import glossary
from .ladder import VersionedCache, bot_ratings, build_ladder, build_standings
from .live import LiveFeed
from .renderers import renderer_file
from .schemas import BotDetail, FramesOut, GameOut, LadderOut, MatchDetail, TournamentDetail
from .source import Source

STATIC = Path(__file__).parent / "static"


class Refused(Exception):
    """A request the dashboard will not answer for this viewer now (e.g. hidden information)."""

    def __init__(self, message: str, status: int = 403) -> None:
        super().__init__(message)
        self.status = status


def has_renderer(game_id: str) -> bool:
    return renderer_file(game_id) is not None


@dataclass
class Dashboard:
    source: Source
    organizer_token: str = ""
    live: LiveFeed | None = None
    cache: VersionedCache = field(init=False)
    frame_cache: FrameCache = field(default_factory=FrameCache)
    glossaries: dict[str, Payload] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.cache = VersionedCache(self.source)

    # -- games and ladders -------------------------------------------------------------------
    def games(self) -> list[GameOut]:
        def compute() -> list[GameOut]:
            counts = self.source.game_counts()
            ids = [g for g in game_ids()]
            ids += [g for g in counts if g not in ids]
            out = []
            for gid in ids:
                try:
                    info = get_game(gid).info
                except (UnknownGame, ImportError, TypeError):
                    continue
                n, bots = counts.get(gid, (0, 0))
                out.append(GameOut(id=gid, name=info.name, version=info.version, min_players=info.min_players,
                                   max_players=info.max_players, cooperative=info.cooperative,
                                   description=info.description, matches=n, bots=bots,
                                   has_renderer=has_renderer(gid)))
            return out
        return self.cache.get("games", compute)

    def game(self, game_id: str) -> GameOut | None:
        return next((g for g in self.games() if g.id == game_id), None)

    def ladder(self, game_id: str, seats: int | None = None) -> LadderOut | None:
        """The combined ladder, or with ``seats`` the ladder of that seat count (published as
        ``game@seats``)."""
        g = self.game(game_id)
        if g is None:
            return None

        def compute() -> LadderOut:
            results = self.source.results(game_id)
            counts = sorted({len(r.seats) for r in results})
            if seats is not None:
                results = [r for r in results if len(r.seats) == seats]
            key = game_id if seats is None else f"{game_id}@{seats}"
            lad = build_ladder(game_id, g.name, results, self.source.ratings(key))
            return lad.model_copy(update={"seats": seats, "seat_counts": counts})
        return self.cache.get(("ladder", game_id, seats), compute)

    def ladder_json(self, game_id: str, seats: int | None = None) -> Payload | None:
        """The ladder as JSON, serialised (and gzipped) once per version: ``FastPath`` serves it."""
        lad = self.ladder(game_id, seats)
        if lad is None:
            return None
        return self.cache.get(("ladder-json", game_id) if seats is None else ("ladder-json", game_id, seats),
                              lambda: Payload.build(lad.model_dump_json().encode(), "application/json"))

    def glossary(self, game_id: str) -> Payload | None:
        """Names for the ids in the game's views (``dashboard.glossary``), built once per process."""
        if self.game(game_id) is None:
            return None
        hit = self.glossaries.get(game_id)
        if hit is None:
            try:
                names = glossary(game_id)
            except (OSError, ValueError):  # unreadable content: the renderers fall back to ids
                names = {}
            hit = self.glossaries[game_id] = Payload.build(
                json.dumps(names, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode(),
                "application/json")
        return hit

    def bot(self, bot_id: str) -> BotDetail | None:
        info = self.source.bot(bot_id)
        if info is None:
            return None
        ladders = [lad for g in self.games() if (lad := self.ladder(g.id)) is not None]
        found = self.source.bot_version(info.id)
        version, others = found if found is not None else (None, [])
        return BotDetail(id=info.id, name=info.name, kind=info.kind, owner=info.owner or (version.developer
                         if version else None), created=info.created, ratings=bot_ratings(ladders, info.id),
                         health=self.source.health(info.id), version=version, other_versions=others,
                         matches_health=self.source.matches_health(info.id))

    def tournament(self, tid: str) -> TournamentDetail | None:
        t = self.source.tournament(tid)
        if t is None:
            return None

        def compute() -> TournamentDetail:
            standings, cross = build_standings(self.source.results(t.game, tid))
            return TournamentDetail(**t.model_dump(), standings=standings, crosstable=cross)
        return self.cache.get(("tournament", tid), compute)

    # -- matches -----------------------------------------------------------------------------
    def match(self, match_id: str) -> MatchDetail | None:
        m = self.source.match(match_id)
        if m is None:
            return None
        if m.status != "done" or m.sealed:
            # The seed decides every hidden deal, and its twins share it: it is published with the
            # replay once every match of the deal group is over, not before. (The store's reads
            # already withhold all this; refusing here too keeps any other Source honest.)
            m = m.model_copy(update={"seed": None, "outcome": None, "has_replay": False, "plies": None,
                                     "team_result": None, "reason": None if m.status == "done" else m.reason,
                                     "seats": [s.model_copy(update={"rank": None, "score": None})
                                               for s in m.seats]})
        return m

    def replay(self, match_id: str) -> Replay:
        """The stored replay, only once the match and every match dealt like it are over."""
        m = self.source.match(match_id)
        if m is None:
            raise LookupError(match_id)
        if m.status != "done":
            raise Refused(f"match {match_id} is {m.status}: its replay is published when it is over", 409)
        if m.sealed:
            raise Refused(f"match {match_id} shares its deal with a match still to be played: its replay is "
                          "published when every match of the deal is over", 409)
        rep = self.source.replay(match_id)
        if rep is None:
            raise LookupError(match_id)
        return rep

    def perspectives(self, m: MatchDetail) -> list[dict[str, str]]:
        """The views a spectator may choose: public always; every seat and the full view once over."""
        out = [{"id": "public", "label": "Public"}]
        if m.status == "done" and not m.sealed:
            out += [{"id": str(s.seat), "label": f"Seat {s.seat}: {s.name}"} for s in m.seats]
            out.append({"id": ALL, "label": "Full view"})
        return out

    def frames(self, match_id: str, perspective: str, start: int, limit: int) -> FramesOut:
        rep = self.replay(match_id)
        try:
            viewer = parse_perspective(perspective, rep.players)
        except ValueError as exc:
            raise Refused(str(exc), 400) from None
        try:
            frames = self.frame_cache.get(match_id, rep, viewer, start, limit)
        except ReplayError as exc:
            raise Refused(f"this replay cannot be re-simulated: {exc}", 409) from None
        return FramesOut(match_id=match_id, game=rep.game, perspective=str(viewer),
                         steps=len(rep.actions) + 1,
                         start=start, frames=frames, outcome=rep.outcome)  # type: ignore[arg-type] # validated

    def check_token(self, token: str | None) -> bool:
        import hmac

        return bool(self.organizer_token) and token is not None and hmac.compare_digest(
            token.encode(), self.organizer_token.encode())
