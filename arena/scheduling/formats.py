"""Tournament formats as pure functions: bots in, a fixed list of planned matches out.

* ``round_robin`` (two seats): every pairing, both seat orders, ``games`` deals each. Both orders of
  a deal share one seed (paired deals: the luck of the deal cancels).
* ``rotation`` (N seats): every group of N entrants (or, with fewer entrants than seats, every
  multiset of them holding at least two different bots) plays every seating of a balanced design
  on each deal (``seatings``): each bot sits in each position equally often *and* directly
  before each other bot equally often, in the first round and round after round.
* ``cooperative``: each team plays each of the game's scenarios (``Game.scenarios(n)``) at each seat
  count; a team is one bot in every seat, or with ``mixed`` every multiset of entrants.
* ``gauntlet`` (bot developers): one subject against each other bot of the field; the subject takes
  every seat in turn against copies of the opponent, on paired deals.

Seeds come from ``deals.Dealer`` (an HMAC of the public *deal* label under the tournament's secret
key), so a published seed says nothing about the others. Deal labels name the *names* in a
pairing or group, so adding an entrant never changes the deals of the others. Matches that share
a deal form a deal group; a group is only formed from bots that cannot remember a deal between
matches (``memoryless``: hosted, sandboxed bots). Any other match of a game with hidden
information gets a deal of its own (``independent``). The order of the list is the order of the
matches (``Match.number``): the deal index varies slowest, so a half-finished tournament is balanced.
"""
from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from itertools import combinations, combinations_with_replacement, permutations
from typing import Any, Literal, TypeGuard

from referee.engine.errors import ArenaError
from referee.engine.game import GameInfo, Scenario

from .deals import Dealer

FORMATS = ("round_robin", "rotation", "cooperative", "gauntlet")
DEAL_MODES = ("auto", "paired", "independent")
DealMode = Literal["auto", "paired", "independent"]


def _is_deal_mode(deals: str) -> TypeGuard[DealMode]:
    return deals in DEAL_MODES


class ScheduleError(ArenaError):
    """The tournament cannot be scheduled as asked (too few bots, impossible seat count, ...)."""

    code = "schedule_error"


@dataclass(frozen=True)
class PlannedMatch:
    seats: tuple[str, ...]
    seed: int
    group: str  # the pairing / group / team this match belongs to
    scenario: str | None = None
    options: dict[str, Any] = field(default_factory=dict)
    deal: str = ""  # the public deal label; matches with one deal share one seed (a deal group)

    @property
    def players(self) -> int:
        return len(self.seats)


@dataclass(frozen=True)
class Pairing:
    """How deals are shared: ``memoryless`` bots may share a deal; ``mode`` may force one way."""

    memoryless: Collection[str] | None = None  # None: every bot (no bot can remember)
    hidden_information: bool = True
    mode: DealMode = "auto"

    def paired(self, bots: Sequence[str]) -> bool:
        if self.mode == "independent":
            return False
        if not self.hidden_information or self.memoryless is None:
            return True
        return all(b in self.memoryless for b in bots)


def _zigzag(m: int) -> list[int]:
    """0, 1, m-1, 2, m-2, ...: consecutive differences 1, -2, 3, -4, ... (Williams' first row)."""
    row, lo, hi = [0], 1, m - 1
    while len(row) < m:
        if len(row) % 2:
            row.append(lo)
            lo += 1
        else:
            row.append(hi)
            hi -= 1
    return row


def cyclic_design(n: int) -> list[tuple[int, ...]]:
    """n(n-1) seat orders (n >= 4) balanced for seat and for the player directly before, in the
    first round (linear order) *and* round after round (the cyclic order, last seat before first).

    n(n-1) is the least possible: seat balance needs a multiple of n rows, cyclic balance a
    multiple of n-1. Construction: a directed Hamiltonian cycle through seat ``∞ = n-1`` and the
    zigzag over Z_{n-1}, developed mod n-1 (add i to every seat but ∞), gives n-1 cycles. For odd n
    the zigzag's differences are every non-zero element of Z_{n-1} once, so the cycles hold every
    ordered pair once, and all n rotations of each are played. For even n they hold every
    difference but one, so the mirror cycles are added (every pair twice, as in Williams' odd
    squares) and each cycle is played in n/2 rotations: the forward cycles from even positions,
    the mirrored ones from odd positions, so each pair is the wrap-around (dropped) pair once.
    ``tests/arena/test_seating.py`` checks every property.
    """
    m = n - 1
    bases = [[m, *_zigzag(m)]]
    if n % 2 == 0:
        bases.append([m, *_zigzag(m)[::-1]])
    rows: list[tuple[int, ...]] = []
    for k, base in enumerate(bases):
        starts = range(n) if n % 2 else range(k, n, 2)
        for i in range(m):
            cycle = [x if x == m else (x + i) % m for x in base]
            rows += [tuple(cycle[(j + t) % n] for t in range(n)) for j in starts]
    return rows


def seat_design(n: int) -> list[tuple[int, ...]]:
    """Seat orders (as position permutations) for an n-seat group, balanced for seat and for the
    linear and cyclic predecessor: every permutation up to three seats, else ``cyclic_design``
    (both n(n-1) orders)."""
    if n <= 3:
        return list(permutations(range(n)))
    return cyclic_design(n)


def seatings(group: Sequence[str]) -> list[tuple[str, ...]]:
    """The seat orders a group plays on each deal (distinct orders only, for repeated bots)."""
    out: list[tuple[str, ...]] = []
    seen: set[tuple[str, ...]] = set()
    small = len(group) <= 3
    for row in seat_design(len(group)):
        order = tuple(group[i] for i in row)
        if small and order in seen:  # all permutations: a repeated bot gives repeated orders
            continue
        seen.add(order)
        out.append(order)
    return out


def _deal_seats(dealer: Dealer, pairing: Pairing, deal: str, orders: Sequence[tuple[str, ...]],
                group: str, scenario: str | None, options: dict[str, Any]) -> list[PlannedMatch]:
    """One deal played in several seat orders: shared when every bot is memoryless, else one each."""
    bots = sorted({b for o in orders for b in o})
    if pairing.paired(bots):
        s = dealer.seed(deal)
        return [PlannedMatch(o, s, group, scenario, dict(options), deal) for o in orders]
    out = []
    for i, o in enumerate(orders):
        d = f"{deal}/{i}"
        out.append(PlannedMatch(o, dealer.seed(d), group, scenario, dict(options), d))
    return out


def _check_bots(bots: Sequence[str], least: int) -> None:
    if len(set(bots)) != len(bots):
        dup = sorted({b for b in bots if list(bots).count(b) > 1})
        raise ScheduleError(f"bot(s) entered twice: {', '.join(dup)}")
    if len(bots) < least:
        raise ScheduleError(f"this format needs at least {least} bot(s), got {len(bots)}")


def round_robin(bots: Sequence[str], games: int, dealer: Dealer, options: dict[str, Any] | None = None,
                pairing: Pairing | None = None) -> list[PlannedMatch]:
    return rotation(bots, 2, games, dealer, options, pairing)


def rotation(bots: Sequence[str], seats: int, games: int, dealer: Dealer,
             options: dict[str, Any] | None = None, pairing: Pairing | None = None) -> list[PlannedMatch]:
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
            out += _deal_seats(dealer, pairing or Pairing(), f"group/{label}/{g}", seatings(group), label,
                               None, options or {})
    return out


def cooperative(bots: Sequence[str], seat_counts: Sequence[int], scenarios: Callable[[int], list[Scenario]],
                games: int, dealer: Dealer, options: dict[str, Any] | None = None,
                mixed: bool = False, pairing: Pairing | None = None) -> list[PlannedMatch]:
    _check_bots(bots, 1)
    pairing = pairing or Pairing()
    out: list[PlannedMatch] = []
    for g in range(games):
        for n in seat_counts:
            teams = combinations_with_replacement(bots, n) if mixed else ((b,) * n for b in bots)
            for team in teams:
                label = "|".join(team)
                for sc in scenarios(n):
                    # Every memoryless team meets the same deal of a scenario (one deal group per
                    # scenario, size and deal index); a team that could remember gets its own.
                    deal = f"scenario/{sc.id}/{n}/{g}"
                    if not pairing.paired(team):
                        deal += f"/{label}"
                    out.append(PlannedMatch(tuple(team), dealer.seed(deal), label, sc.id,
                                            {**(options or {}), **sc.options}, deal))
    return out


def gauntlet(subject: str, field_bots: Sequence[str], seats: int, games: int, dealer: Dealer,
             options: dict[str, Any] | None = None, pairing: Pairing | None = None) -> list[PlannedMatch]:
    opponents = [b for b in field_bots if b != subject]
    _check_bots([subject, *opponents], 2)
    if seats < 2:
        raise ScheduleError(f"a gauntlet needs at least 2 seats, not {seats}")
    out: list[PlannedMatch] = []
    for g in range(games):
        for opp in opponents:
            orders = []
            for seat in range(seats):
                lineup = [opp] * seats
                lineup[seat] = subject
                orders.append(tuple(lineup))
            out += _deal_seats(dealer, pairing or Pairing(), f"gauntlet/{subject}|{opp}/{g}", orders,
                               f"{subject}|{opp}", None, options or {})
    return out


def default_format(info: GameInfo, seats: int) -> str:
    if info.cooperative:
        return "cooperative"
    return "round_robin" if seats == 2 else "rotation"


def default_seats(info: GameInfo) -> int:
    """The game's own choice, else two seats where the game allows it (head-to-head is the most
    informative), else its minimum."""
    if info.default_seats is not None:
        return info.default_seats
    return max(info.min_players, min(2, info.max_players))


def schedule(info: GameInfo, fmt: str, bots: Sequence[str], seat_counts: Sequence[int], games: int,
             dealer: Dealer, *, options: dict[str, Any] | None = None, subject: str | None = None,
             scenarios: Callable[[int], list[Scenario]] | None = None, mixed: bool = False,
             memoryless: Collection[str] | None = None, deals: str = "auto") -> list[PlannedMatch]:
    """Check the request against the game and plan it; ``ScheduleError`` says what is wrong.

    ``memoryless``: the bots that cannot carry anything from one match to the next (None = all).
    ``deals``: ``auto`` (paired where every bot of a group is memoryless or the game has no hidden
    information), ``independent`` (a deal per match), or ``paired`` (refused if a bot could remember).
    """
    if not _is_deal_mode(deals):
        raise ScheduleError(f"unknown deal mode {deals!r}; modes: {', '.join(DEAL_MODES)}")
    pairing = Pairing(memoryless, info.hidden_information, deals)
    if deals == "paired" and info.hidden_information and memoryless is not None:
        remembering = sorted(set(bots) - set(memoryless))
        if remembering:
            raise ScheduleError(f"paired deals need bots that cannot remember a deal (hosted, sandboxed); "
                                f"{', '.join(remembering)} can: use --deals auto or independent")
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
        return cooperative(bots, seat_counts, scenarios, games, dealer, options, mixed, pairing)
    if info.cooperative:
        raise ScheduleError(f"{info.id} is cooperative: teams play its scenarios (format cooperative)")
    if len(seat_counts) != 1:
        raise ScheduleError("a competitive tournament is played at one seat count")
    seats = seat_counts[0]
    if fmt == "round_robin":
        if seats != 2:
            raise ScheduleError(f"round_robin is for two seats; use rotation for {seats}")
        return round_robin(bots, games, dealer, options, pairing)
    if fmt == "rotation":
        return rotation(bots, seats, games, dealer, options, pairing)
    if not subject:
        raise ScheduleError("a gauntlet needs a subject bot (--subject)")
    if subject not in bots:
        raise ScheduleError(f"the gauntlet subject {subject!r} is not among the bots")
    return gauntlet(subject, bots, seats, games, dealer, options, pairing)
