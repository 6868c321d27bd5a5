"""Tournament formats as pure functions: bots in, a fixed list of planned matches out.

* ``round_robin`` (two seats): every pairing, both seat orders, ``games`` deals each. Both orders of
  a deal share one seed (paired seeds: the luck of the deal cancels).
* ``rotation`` (N seats): every group of N entrants (or, with fewer entrants than seats, every
  multiset of them holding at least two different bots) plays every cyclic rotation of its seating
  on each seed, so each bot sits in each position equally often.
* ``cooperative``: each team plays each of the game's scenarios (``Game.scenarios(n)``) at each seat
  count; a team is one bot in every seat, or with ``mixed`` every multiset of entrants.
* ``gauntlet`` (bot developers): one subject against each other bot of the field; the subject takes
  every seat in turn against copies of the opponent, on paired seeds.

Seeds are derived from the tournament seed and the *names* in a pairing or group, so adding an
entrant never changes the deals of the others. The order of the list is the order of the matches
(``Match.number``): the deal index varies slowest, so a half-finished tournament is balanced.
"""
from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import combinations, combinations_with_replacement
from typing import Any

from referee.engine.errors import ArenaError
from referee.engine.game import GameInfo, Scenario

FORMATS = ("round_robin", "rotation", "cooperative", "gauntlet")


class ScheduleError(ArenaError):
    """The tournament cannot be scheduled as asked (too few bots, impossible seat count, ...)."""

    code = "schedule_error"


@dataclass(frozen=True)
class PlannedMatch:
    seats: tuple[str, ...]
    seed: int
    group: str  # the pairing / group / team this deal belongs to
    scenario: str | None = None
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def players(self) -> int:
        return len(self.seats)


def derive_seed(base: int, *parts: object) -> int:
    """A stable 31-bit seed from the tournament seed and labels (fits a PostgreSQL integer)."""
    text = "\x1f".join([str(base), *map(str, parts)])
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "big") & 0x7FFFFFFF


def _rotations(group: Sequence[str]) -> list[tuple[str, ...]]:
    return [tuple(group[i:]) + tuple(group[:i]) for i in range(len(group))]


def _check_bots(bots: Sequence[str], least: int) -> None:
    if len(set(bots)) != len(bots):
        dup = sorted({b for b in bots if list(bots).count(b) > 1})
        raise ScheduleError(f"bot(s) entered twice: {', '.join(dup)}")
    if len(bots) < least:
        raise ScheduleError(f"this format needs at least {least} bot(s), got {len(bots)}")


def round_robin(bots: Sequence[str], games: int, seed: int,
                options: dict[str, Any] | None = None) -> list[PlannedMatch]:
    return rotation(bots, 2, games, seed, options)


def rotation(bots: Sequence[str], seats: int, games: int, seed: int,
             options: dict[str, Any] | None = None) -> list[PlannedMatch]:
    _check_bots(bots, 2)
    if seats < 2:
        raise ScheduleError(f"a competitive tournament needs at least 2 seats, not {seats}")
    if len(bots) >= seats:
        groups = list(combinations(bots, seats))
    else:
        groups = [g for g in combinations_with_replacement(bots, seats) if len(set(g)) > 1]
    out: list[PlannedMatch] = []
    for g in range(games):
        for group in groups:
            label = "|".join(group)
            s = derive_seed(seed, "group", label, g)
            out += [PlannedMatch(order, s, label, None, dict(options or {})) for order in _rotations(group)]
    return out


def cooperative(bots: Sequence[str], seat_counts: Sequence[int], scenarios: Callable[[int], list[Scenario]],
                games: int, seed: int, options: dict[str, Any] | None = None,
                mixed: bool = False) -> list[PlannedMatch]:
    _check_bots(bots, 1)
    out: list[PlannedMatch] = []
    for g in range(games):
        for n in seat_counts:
            teams = combinations_with_replacement(bots, n) if mixed else ((b,) * n for b in bots)
            for team in teams:
                for sc in scenarios(n):
                    # Every team meets the same deal of a scenario: seeds depend on scenario, size and deal.
                    s = derive_seed(seed, "scenario", sc.id, n, g)
                    out.append(PlannedMatch(tuple(team), s, "|".join(team), sc.id,
                                            {**(options or {}), **sc.options}))
    return out


def gauntlet(subject: str, field_bots: Sequence[str], seats: int, games: int, seed: int,
             options: dict[str, Any] | None = None) -> list[PlannedMatch]:
    opponents = [b for b in field_bots if b != subject]
    _check_bots([subject, *opponents], 2)
    if seats < 2:
        raise ScheduleError(f"a gauntlet needs at least 2 seats, not {seats}")
    out: list[PlannedMatch] = []
    for g in range(games):
        for opp in opponents:
            s = derive_seed(seed, "gauntlet", subject, opp, g)
            for seat in range(seats):
                lineup = [opp] * seats
                lineup[seat] = subject
                out.append(PlannedMatch(tuple(lineup), s, f"{subject}|{opp}", None, dict(options or {})))
    return out


def default_format(info: GameInfo, seats: int) -> str:
    if info.cooperative:
        return "cooperative"
    return "round_robin" if seats == 2 else "rotation"


def default_seats(info: GameInfo) -> int:
    """Two seats where the game allows it (head-to-head is the most informative), else its minimum."""
    return max(info.min_players, min(2, info.max_players))


def schedule(info: GameInfo, fmt: str, bots: Sequence[str], seat_counts: Sequence[int], games: int, seed: int,
             *, options: dict[str, Any] | None = None, subject: str | None = None,
             scenarios: Callable[[int], list[Scenario]] | None = None, mixed: bool = False) -> list[PlannedMatch]:
    """Check the request against the game and plan it; ``ScheduleError`` says what is wrong."""
    if fmt not in FORMATS:
        raise ScheduleError(f"unknown format {fmt!r}; formats: {', '.join(FORMATS)}")
    if games < 1:
        raise ScheduleError(f"games per pairing must be at least 1, not {games}")
    if not seat_counts:
        raise ScheduleError("no seat count given")
    for n in seat_counts:
        if not info.min_players <= n <= info.max_players:
            raise ScheduleError(f"{info.id} takes {info.min_players}-{info.max_players} seats, not {n}")
    if fmt == "cooperative":
        if not info.cooperative:
            raise ScheduleError(f"{info.id} is competitive; use round_robin, rotation or gauntlet")
        if scenarios is None:
            raise ScheduleError("a cooperative tournament needs the game's scenarios")
        return cooperative(bots, seat_counts, scenarios, games, seed, options, mixed)
    if info.cooperative:
        raise ScheduleError(f"{info.id} is cooperative: teams play its scenarios (format cooperative)")
    if len(seat_counts) != 1:
        raise ScheduleError("a competitive tournament is played at one seat count")
    seats = seat_counts[0]
    if fmt == "round_robin":
        if seats != 2:
            raise ScheduleError(f"round_robin is for two seats; use rotation for {seats}")
        return round_robin(bots, games, seed, options)
    if fmt == "rotation":
        return rotation(bots, seats, games, seed, options)
    if not subject:
        raise ScheduleError("a gauntlet needs a subject bot (--subject)")
    if subject not in bots:
        raise ScheduleError(f"the gauntlet subject {subject!r} is not among the bots")
    return gauntlet(subject, bots, seats, games, seed, options)
