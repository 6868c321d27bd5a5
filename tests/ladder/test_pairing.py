"""The matchmaker's choices as pure code: placement first and spread, then the least recently played
version against its rating neighbours, at seat counts everyone in the match accepts, paired deals only
where allowed."""
from __future__ import annotations

import random
from collections import Counter

from arena.ladder.pairing import Entrant, plan, ranked, seed_order


def field(n: int = 10, *, played: int = 20, seats: tuple[int, ...] = (2,)) -> list[Entrant]:
    """Versions b0 (strongest) .. b{n-1}, 100 Elo apart, b0 played longest ago."""
    return [Entrant(f"b{i}", 1000.0 - 100 * i, played, i, seats) for i in range(n)]


def never(_: object) -> bool:
    return False


def always(_: object) -> bool:
    return True


def test_a_new_version_plays_its_placement_matches_first_against_a_spread_of_opponents() -> None:
    old = field(10)
    new = Entrant("new", None, 0, -1, (2,))
    opponents: list[str] = []
    entrants = [*old, new]
    for tick in range(6):  # six ticks of one match each, the ladder updated in between
        [group] = plan(entrants, 1, placement=6, window=2, rng=random.Random(1), can_pair=never)
        assert "new" in group.orders[0] and group.placement
        opp = next(b for b in group.orders[0] if b != "new")
        opponents.append(opp)
        entrants = [Entrant(e.name, e.rating, e.played + (e.name in group.orders[0]),
                            100 + tick if e.name in group.orders[0] else e.last, e.seats) for e in entrants]
    ranks = sorted(int(o[1:]) for o in opponents)
    # spread over the ladder: the top third, the middle and the bottom third all met
    assert ranks[0] <= 3 and ranks[-1] >= 6 and len(set(ranks)) >= 5, ranks
    # once placed, it is no longer put first
    assert seed_order(entrants, 6)[0].name != "new"


def test_the_least_recently_played_version_meets_opponents_within_the_window() -> None:
    entrants = field(10)
    order = [e.name for e in ranked(entrants)]
    groups = plan(entrants, 30, placement=0, window=2, rng=random.Random(7), can_pair=never)
    assert groups[0].orders[0].count("b0") == 1  # b0 played longest ago: the first seed
    for g in groups:
        a, b = g.orders[0]
        assert abs(order.index(a) - order.index(b)) <= 2, g  # rating neighbours only
    # one tick spreads its matches: with 30 matches over 10 versions nobody plays more than 9
    seen = Counter(b for g in groups for b in g.orders[0])
    assert max(seen.values()) <= 9 and len(seen) == 10


def test_paired_deals_give_both_seat_orders_only_where_allowed() -> None:
    entrants = field(4)
    paired = plan(entrants, 4, placement=0, window=3, rng=random.Random(3), can_pair=always)
    assert all(len(g.orders) == 2 and g.orders[1] == g.orders[0][::-1] for g in paired)
    single = plan(entrants, 4, placement=0, window=3, rng=random.Random(3), can_pair=never)
    assert all(len(g.orders) == 1 for g in single) and len(single) == 4
    # one slot left: no pair is split over the limit
    assert [len(g.orders) for g in plan(entrants, 1, placement=0, window=3, rng=random.Random(3),
                                        can_pair=always)] == [1]


def test_seat_counts_are_ones_every_bot_of_the_match_accepts() -> None:
    entrants = [Entrant("two", 0.0, 9, 0, (2,)), Entrant("any", 0.0, 9, 1, (2, 3, 4)),
                Entrant("three", 0.0, 9, 2, (3, 4)), Entrant("four", 0.0, 9, 3, (4,)),
                Entrant("also", 0.0, 9, 4, (3, 4))]
    groups = plan(entrants, 200, placement=0, window=4, rng=random.Random(5), can_pair=never)
    accepts = {e.name: e.seats for e in entrants}
    sizes = Counter()
    for g in groups:
        order = g.orders[0]
        assert len(set(order)) == len(order)
        assert all(len(order) in accepts[b] for b in order), order
        sizes[len(order)] += 1
    assert set(sizes) == {2, 3, 4}  # every seat count somebody accepts is played


def test_a_seed_with_no_possible_line_up_is_skipped_not_looped_on() -> None:
    entrants = [Entrant("lonely", 0.0, 0, -1, (4,)), Entrant("a", 0.0, 9, 1, (2,)),
                Entrant("b", 0.0, 9, 2, (2,))]
    groups = plan(entrants, 3, placement=6, window=2, rng=random.Random(2), can_pair=never)
    assert groups and all("lonely" not in g.orders[0] for g in groups)
    assert plan([Entrant("solo", 0.0, 0, -1, (2,))], 5, placement=1, window=1, rng=random.Random(0),
                can_pair=never) == []


def test_cooperative_games_put_the_seed_s_team_against_a_scenario() -> None:
    entrants = [Entrant("a", None, 0, -1, (1, 2)), Entrant("b", 10.0, 9, 3, (3,))]
    groups = plan(entrants, 4, placement=2, window=1, rng=random.Random(4), can_pair=always, cooperative=True)
    assert len(groups) == 4
    for g in groups:
        (order,) = g.orders
        assert len(set(order)) == 1 and g.scenario_players == len(order)
        assert len(order) in dict((e.name, e.seats) for e in entrants)[order[0]]
    assert groups[0].orders[0][0] == "a"  # placing first


def test_every_neighbouring_pair_meets_not_only_fixed_couples() -> None:
    # Six versions, window 1, every tick fills six slots with three paired deals. Least-recently-played
    # alone locked the ladder into fixed couples (ranks 1-2, 3-4, 5-6 met 140 times each in a 450-match
    # run; 2-3 and 4-5 twice), so nothing ordered the couples: q60 was rated above q80.
    names = [f"b{i}" for i in range(6)]
    entrants = field(6, played=20)
    met: Counter[frozenset[str]] = Counter()
    clock = 100
    for _ in range(40):
        for g in plan(entrants, 6, placement=0, window=1, rng=random.Random(clock), can_pair=always, met=met):
            a, b = g.orders[0]
            met[frozenset((a, b))] += len(g.orders)
            clock += 1
            entrants = [Entrant(e.name, e.rating, e.played + len(g.orders) * (e.name in (a, b)),
                                clock if e.name in (a, b) else e.last, e.seats) for e in entrants]
    neighbours = [met[frozenset((names[i], names[i + 1]))] for i in range(5)]
    # 240 matches over five neighbouring pairs (the ends have one neighbour): each pair gets a fair share
    assert min(neighbours) >= 30, neighbours
