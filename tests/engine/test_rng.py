"""The RNG's outputs are pinned: a change here silently breaks every stored replay."""
from __future__ import annotations

import pytest

from referee.engine.rng import Rng


def test_raw_outputs_are_pinned() -> None:
    r = Rng(42)
    assert [r.next64() for _ in range(3)] == [10996452266160306281, 2958219263312191191, 3069497704473277141]


def test_helpers_are_pinned() -> None:
    r = Rng(42)
    assert r.shuffled(range(10)) == [4, 7, 2, 9, 0, 6, 8, 5, 3, 1]
    assert r.choice("abcdef") == "d"
    assert r.dice(5) == [3, 3, 5, 3, 3]
    assert r.below(1000) == 47
    assert r.sample(range(20), 4) == [15, 12, 16, 10]
    assert round(r.random(), 12) == 0.339624539523


def test_text_seed_and_fork_are_pinned() -> None:
    assert Rng("match-17").to_json() == "fd6131c4efa242de"
    parent = Rng(7)
    before = parent.to_json()
    assert parent.fork("x").to_json() == "f88ce855e8c35272"
    assert parent.to_json() == before, "fork must not advance the parent"


def test_snapshot_round_trip_continues_identically() -> None:
    a = Rng(5)
    a.dice(10)
    b = Rng.from_json(a.to_json())
    assert [a.next64() for _ in range(5)] == [b.next64() for _ in range(5)]


def test_below_is_uniform_enough_and_in_range() -> None:
    r = Rng(1)
    counts = [0] * 6
    for _ in range(6000):
        counts[r.below(6)] += 1
    assert all(850 < c < 1150 for c in counts), counts
    assert all(1 <= r.die(6) <= 6 for _ in range(100))


def test_bad_arguments() -> None:
    with pytest.raises(ValueError):
        Rng(0).below(0)
    with pytest.raises(IndexError):
        Rng(0).choice([])
    with pytest.raises(ValueError):
        Rng(0).sample([1, 2], 3)
