"""The engine's part of ``redeterminize``: reseeded RNG, only the seat's events, and one place to re-draw."""
from __future__ import annotations

import pytest

from referee.engine import PUBLIC, Rng, State
from tests.fixtures.sealed_bids import GAME, SealedBidsState


def test_the_copy_keeps_only_what_the_seat_was_shown() -> None:
    st = GAME.new_state(3, {"rounds": 3}, 4)
    while st.pending() and not any(e.kind == "drew" for e in st.log.entries):
        for seat in st.pending():
            st.apply(seat, st.legal_actions(seat)[0])
    copy = st.redeterminize(1, Rng(9))
    assert [e for e in copy.log.entries if e.to is not None] == [e for e in st.log.entries if e.to == (1,)]
    assert copy.events_for(1) == st.events_for(1) and copy.events_for(PUBLIC) == st.events_for(PUBLIC)
    assert copy.rng.to_json() != st.rng.to_json()
    assert len(st.log) > len(copy.log)  # the original keeps every seat's secrets


def test_a_bad_seat_is_refused() -> None:
    st = GAME.new_state(2, None, 0)
    for bad in (2, -1, PUBLIC, True):
        with pytest.raises(ValueError):
            st.redeterminize(bad, Rng(0))


def test_overriding_redeterminize_is_refused_at_class_creation() -> None:
    with pytest.raises(TypeError, match="override redraw_hidden instead"):
        class Sneaky(SealedBidsState):
            def redeterminize(self, seat: int, rng: Rng) -> State:
                return self.clone()
