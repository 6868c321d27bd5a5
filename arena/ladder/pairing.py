"""Choosing the next matches of a continuous ladder: pure code, entrants in, line-ups out.

Each pick (as Halite's coordinator does): a *seed* version, then opponents near it in rating.

* **Placement first**: a version with fewer than ``placement`` ladder matches is the seed before
  any other, and meets opponents spread over the whole ladder (its k-th placement match aims at a
  point of a low-discrepancy sequence over the ranks), so its first rating is bracketed quickly.
* **Then the least recently played** version is the seed; its opponents come from a window of
  ``window`` ranks either side (widened when too few bots accept the seat count), those it has met
  least first, then the least recently played (random among equals). Least recently played alone
  locked a full ladder into fixed couples (ranks 1-2, 3-4, ... every tick, 2-3 almost never), so
  nothing ordered one couple against the next.
* **Seat counts**: one the seed accepts, picked at random among those enough other versions accept.
* **Deals**: two seats on a shareable deal (``can_pair``: every bot of the group is memoryless or the
  game has no hidden information) give both seat orders on one deal; otherwise one match, seats in
  random order, on a deal of its own. Cooperative games: the seed's team against a scenario.

What a pick changes (matches played, last played) is applied before the next pick of the same
tick, so one tick spreads its matches over the field.
"""
from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace

GOLDEN = 0.6180339887498949  # the spread of placement opponents: {k * GOLDEN} covers [0, 1) evenly


@dataclass(frozen=True)
class Entrant:
    """A version the matchmaker may play. ``last``: order of its latest ladder match (-1: never)."""

    name: str
    rating: float | None  # published Elo (None: not rated yet)
    played: int  # ladder matches, finished or not
    last: int
    seats: tuple[int, ...]  # seat counts it accepts in this game


@dataclass(frozen=True)
class Group:
    """Matches sharing one deal: each ``orders`` entry is one match's seating."""

    orders: tuple[tuple[str, ...], ...]
    placement: bool = False
    scenario_players: int = 0  # cooperative: the team size (scenario chosen by the caller)

    @property
    def bots(self) -> tuple[str, ...]:
        return tuple(sorted({b for o in self.orders for b in o}))


@dataclass
class _Book:
    """Running state of one tick's picks."""

    entrants: dict[str, Entrant]
    met: Counter[frozenset[str]]  # matches each pair of versions played (stored and picked)
    clock: int = field(default=0)  # a pick is more recent than every stored match

    def __post_init__(self) -> None:
        self.clock = max((e.last for e in self.entrants.values()), default=0) + 1

    def played(self, group: Group) -> None:
        for name in group.bots:
            e = self.entrants[name]
            self.clock += 1
            self.entrants[name] = replace(e, played=e.played + len(group.orders), last=self.clock)
        bots = group.bots
        for i, a in enumerate(bots):
            for b in bots[i + 1:]:
                self.met[frozenset((a, b))] += len(group.orders)


def ranked(entrants: Sequence[Entrant]) -> list[Entrant]:
    """Best first; a version not rated yet sits at 0 (the random anchor's level), ties by name."""
    return sorted(entrants, key=lambda e: (-(e.rating if e.rating is not None else 0.0), e.name))


def seed_order(entrants: Sequence[Entrant], placement: int) -> list[Entrant]:
    """Who should play next: placing versions (fewest matches first), then the least recently played."""
    placing = sorted((e for e in entrants if e.played < placement), key=lambda e: (e.played, e.last, e.name))
    rest = sorted((e for e in entrants if e.played >= placement), key=lambda e: (e.last, e.played, e.name))
    return placing + rest


def _spread(others: list[Entrant], k: int, need: int) -> list[Entrant]:
    """``need`` opponents around the point ``{(k + 0.5) * GOLDEN}`` of the ranking (placement)."""
    centre = int(((k + 0.5) * GOLDEN) % 1.0 * len(others))
    by_distance = sorted(range(len(others)), key=lambda i: (abs(i - centre), i))
    return [others[i] for i in by_distance[:need]]


def _near(seed: Entrant, pool: list[Entrant], field_: list[Entrant], need: int, window: int,
          rng: random.Random, met: Mapping[frozenset[str], int]) -> list[Entrant]:
    """``need`` opponents within ``window`` ranks of the seed (wider if too few): those it met least
    first, then the least recently played."""
    order = [e.name for e in field_]
    at = order.index(seed.name)
    width = window
    while True:
        near = [e for e in pool if abs(order.index(e.name) - at) <= width]
        if len(near) >= need or width >= len(order):
            break
        width += 1
    near.sort(key=lambda e: (met.get(frozenset((seed.name, e.name)), 0), e.last, rng.random()))
    return near[:need]


def plan(entrants: Sequence[Entrant], slots: int, *, placement: int, window: int, rng: random.Random,
         can_pair: Callable[[Sequence[str]], bool], cooperative: bool = False,
         met: Mapping[frozenset[str], int] | None = None) -> list[Group]:
    """Up to ``slots`` matches (grouped by deal) for this tick. ``met``: ladder matches each pair of
    versions has played so far (not changed here)."""
    book = _Book({e.name: e for e in entrants}, Counter(met or {}))
    out: list[Group] = []
    stuck: set[str] = set()  # seeds no line-up can be found for this tick
    while slots > 0:
        candidates = [e for e in seed_order(list(book.entrants.values()), placement) if e.name not in stuck]
        if not candidates:
            break
        seed = candidates[0]
        group = _pick(seed, book, slots, placement=placement, window=window, rng=rng, can_pair=can_pair,
                      cooperative=cooperative)
        if group is None:
            stuck.add(seed.name)
            continue
        out.append(group)
        book.played(group)
        slots -= len(group.orders)
    return out


def _pick(seed: Entrant, book: _Book, slots: int, *, placement: int, window: int, rng: random.Random,
          can_pair: Callable[[Sequence[str]], bool], cooperative: bool) -> Group | None:
    placing = seed.played < placement
    if cooperative:
        n = rng.choice(sorted(seed.seats)) if seed.seats else 0
        return Group(((seed.name,) * n,), placing, n) if n else None
    field_ = ranked(list(book.entrants.values()))
    feasible = [n for n in sorted(seed.seats)
                if sum(1 for e in field_ if e.name != seed.name and n in e.seats) >= n - 1]
    if not feasible:
        return None
    n = rng.choice(feasible)
    pool = [e for e in field_ if e.name != seed.name and n in e.seats]
    if placing:
        opponents = _spread(pool, seed.played, n - 1)
    else:
        opponents = _near(seed, pool, field_, n - 1, window, rng, book.met)
    bots = [seed.name, *(e.name for e in opponents)]
    if n == 2 and slots >= 2 and can_pair(bots):
        a, b = bots
        return Group(((a, b), (b, a)), placing)
    rng.shuffle(bots)
    return Group((tuple(bots),), placing)
