"""Response schemas: the JSON API's edge (and what the page templates render)."""
from __future__ import annotations

from typing import Any, Generic, Literal, TypeVar

from pydantic import BaseModel, Field

T = TypeVar("T")

MatchStatus = Literal["queued", "running", "done", "failed", "cancelled"]


class Page(BaseModel, Generic[T]):
    """One page of a list; ``total`` counts every item, ``page`` starts at 1."""

    items: list[T]
    page: int
    per_page: int
    total: int

    @property
    def pages(self) -> int:
        return max(1, -(-self.total // self.per_page))


class BotRef(BaseModel):
    id: str
    name: str


class GameOut(BaseModel):
    id: str
    name: str
    version: str
    min_players: int
    max_players: int
    cooperative: bool
    description: str = ""
    matches: int = 0
    bots: int = 0
    has_renderer: bool = False


class SeatOut(BaseModel):
    seat: int
    bot: BotRef | None = None
    name: str
    rank: int | None = None
    score: float | None = None


class MatchSummary(BaseModel):
    id: str
    game: str
    status: MatchStatus
    tournament_id: str | None = None
    tournament_name: str | None = None
    seats: list[SeatOut]
    reason: str | None = Field(None, description="why it ended (normal, forfeit, ...) or why it failed")
    team_result: str | None = None
    created: str | None = None
    finished: str | None = None
    sealed: bool = Field(default=False,
                         description="finished, but a match dealt from the same seed is still to be "
                                            "played: its result, seed and replay are withheld until then")


class MatchDetail(MatchSummary):
    options: dict[str, Any] = {}
    seed: int | None = Field(None, description="only once every match of its deal group is over (the seed "
                                               "decides every deal)")
    deal: str | None = Field(default=None,
                             description="the public deal label; matches sharing it share a seed")
    plies: int | None = None
    has_replay: bool = False
    outcome: dict[str, Any] | None = None


class RatingPoint(BaseModel):
    at: str | None = None
    rating: float


class LadderRow(BaseModel):
    rank: int
    bot: BotRef
    rating: float | None = Field(description="null: results stored that the published fit has not seen yet")
    lo: float | None = Field(description="lower end of the confidence interval")
    hi: float | None = Field(description="upper end of the confidence interval")
    games: int
    wins: int
    draws: int
    losses: int
    history: list[float] = Field(default_factory=list, description="rating after each refit, oldest first")


class H2HCell(BaseModel):
    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses


class LadderOut(BaseModel):
    game: str
    game_name: str
    rows: list[LadderRow]
    head_to_head: list[list[H2HCell | None]] = Field(
        description="head_to_head[i][j]: row i's results against row j (pairwise by rank)")
    matches: int
    computed_at: str
    seats: int | None = Field(default=None,
                              description="the seat count of this ladder; null: every seat count")
    seat_counts: list[int] = Field(default_factory=list, description="seat counts with a ladder of their own")


class TournamentProgress(BaseModel):
    total: int = 0
    queued: int = 0
    running: int = 0
    done: int = 0
    failed: int = 0

    @property
    def percent(self) -> int:
        return int(100 * (self.done + self.failed) / self.total) if self.total else 0


class MatchFailure(BaseModel):
    match_id: str
    reason: str


class PairingOut(BaseModel):
    group: str
    matches: int
    deals: int
    paired: bool = Field(description="its seat orders share deals (luck cancels); false: independent deals")


class TournamentSummary(BaseModel):
    id: str
    name: str
    game: str
    status: str
    #: ``done, 3 failed`` when matches failed for good (never a plain ``done`` then)
    status_text: str = ""
    kind: str | None = None
    progress: TournamentProgress
    created: str | None = None
    #: the failed matches and why (the tournament page and its JSON; empty in lists)
    failures: list[MatchFailure] = []
    seed_label: int | None = Field(default=None,
                                   description="the public label mixed into every deal (--seed)")
    deal_key: str | None = Field(default=None,
                                 description="the secret deal key, published once the tournament is over: "
                                                   "seed = HMAC-SHA256(key, label + '\\x1f' + deal)[:4] & "
                                                   "0x7fffffff")
    pairings: list[PairingOut] = Field(default_factory=list)


class StandingRow(BaseModel):
    rank: int
    bot: BotRef
    played: int
    points: float
    wins: int
    draws: int
    losses: int


class DealOut(BaseModel):
    match_id: str
    deal: str
    seed: int
    verified: bool


class DealsOut(BaseModel):
    tournament_id: str
    key: str
    label: int
    formula: str = "seed = int.from_bytes(HMAC-SHA256(key, f'{label}\\x1f{deal}')[:4], 'big') & 0x7fffffff"
    deals: list[DealOut]
    verified: bool


class TournamentDetail(TournamentSummary):
    standings: list[StandingRow]
    crosstable: list[list[H2HCell | None]]


class BotGameRating(BaseModel):
    game: str
    rank: int | None = None
    rating: float | None = None
    lo: float | None = None
    hi: float | None = None
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    history: list[float] = []


class BotHealth(BaseModel):
    """How the bot behaved in one game ("all": every game) over its recorded matches."""

    game: str
    matches: int
    decisions: int
    mean_ms: float = Field(description="mean time per decision, from request sent to answer received")
    p95_ms: int = Field(description="the worst match's 95th percentile time per decision")
    max_ms: int
    timeouts: int
    illegal: int = Field(description="wrong answers: illegal, malformed or oversized")
    strikes: int
    crashes: int = Field(description="matches its process or connection died in")
    forfeits: int


class VersionOut(BaseModel):
    """A bot as a submitted version (issue 20); organizer-registered bots have no family or developer."""

    id: str
    name: str
    family: str | None = Field(default=None, description="'<developer>/<bot>': the versions of one bot")
    version: int | None = None
    developer: str | None = None
    status: str = Field(description="building | failed | active | suspended | retired (removed: an organizer "
                                    "removed it)")
    reason: str | None = Field(default=None, description="why it is failed, suspended or retired")
    runtime: str | None = None
    submitted: str | None = None


class MatchHealthOut(BaseModel):
    """How the bot behaved in one finished match (only once the match's deal group is over)."""

    match_id: str
    game: str
    seat: int
    decisions: int = 0
    mean_ms: float = Field(0.0, description="mean time per decision")
    p95_ms: int = 0
    max_ms: int = 0
    timeouts: int = 0
    illegal: int = 0
    strikes: int = 0
    crashes: int = 0
    forfeits: int = 0
    forfeit_reason: str | None = None


class DeveloperOut(BaseModel):
    name: str
    status: str
    created: str | None = None
    versions: list[VersionOut] = Field(description="by bot (family), newest version first")


class BotDetail(BaseModel):
    id: str
    name: str
    kind: str | None = None
    owner: str | None = None
    created: str | None = None
    ratings: list[BotGameRating]
    health: list[BotHealth] = []
    version: VersionOut | None = Field(None, description="its status (and family, for a submitted version)")
    other_versions: list[VersionOut] = Field(default_factory=list, description="the family's other versions")
    matches_health: list[MatchHealthOut] = Field(default_factory=list,
                                                 description="time per decision and faults, "
                                                             "recent matches first")


class Frame(BaseModel):
    """One step of a replay as one perspective sees it."""

    step: int
    actors: list[int] = Field(description="seats whose decision led to this step (empty at step 0)")
    action: dict[str, Any] | None = Field(
        None, description="the action, when this perspective may see it (its own seat, the full view, "
                          "or a perfect-information game); otherwise null")
    events: list[dict[str, Any]] = Field(description="events of this step that this perspective may see")
    view: dict[str, Any]
    over: bool = False


class FramesOut(BaseModel):
    match_id: str
    game: str
    perspective: str
    steps: int = Field(description="number of steps (frames) in the replay, step 0 included")
    start: int
    frames: list[Frame]
    outcome: dict[str, Any] | None = None
