"""The no-leak check: re-drawing what a seat cannot see must not change what it sees.

For every seat: ``redeterminize(seat)`` leaves that seat's view, legal list and event feed
unchanged; and the PUBLIC view is unchanged by every seat's redeterminization (so it holds
nothing some seat cannot see). For games with hidden information the re-draw must actually
change something somewhere, or the check would be vacuous.
"""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine import PUBLIC, Rng, canonical

from .harness import EXAMPLES, Case, sample_points, walk


@settings(settings.get_profile("conformance"), max_examples=EXAMPLES)
@given(seed=st.integers(0, 2**31 - 1))
def test_redeterminize_keeps_each_view(conformance_case: Case, seed: int) -> None:
    game, players, options = conformance_case
    points = sample_points(seed + 2)
    changed = 0
    for ply, state in walk(game, players, options, seed):
        if not state.pending():
            break  # game over: specs may release everything to everyone (e.g. DT-7.9)
        if ply not in points:
            continue
        before = state.digest()
        public = state.observe(PUBLIC)
        for seat in range(players):
            other = state.redeterminize(seat, Rng(f"redet:{seed}:{ply}:{seat}"))
            assert state.digest() == before, "redeterminize must not touch the original"
            assert other.observe(seat) == state.observe(seat), \
                f"ply {ply}: seat {seat}'s view leaks hidden state"
            assert other.legal_actions(seat) == state.legal_actions(seat), \
                f"ply {ply}: seat {seat}'s legal list depends on hidden state"
            assert other.events_for(seat) == state.events_for(seat), f"ply {ply}: seat {seat}'s events leak"
            assert other.observe(PUBLIC) == public, \
                f"ply {ply}: the public view holds something seat {seat} can't see"
            assert other.events_for(PUBLIC) == state.events_for(PUBLIC)
            assert other.pending() == state.pending()
            changed += other.digest() != before
    if game.info.hidden_information:
        assert changed > 0, "redeterminize never changed anything: the no-leak check would be vacuous"


@settings(settings.get_profile("conformance"), max_examples=EXAMPLES)
@given(seed=st.integers(0, 2**31 - 1))
def test_redeterminize_depends_only_on_what_the_seat_saw(conformance_case: Case, seed: int) -> None:
    """Two true states ``seat`` cannot tell apart give equal copies for equal seeds, snapshot for snapshot.

    The other true states are the real one re-drawn with two other seeds: same view, legal list and
    feed for ``seat`` (checked above), different hidden values. A copy that still held a true value
    anywhere (a hand, a deck order, the RNG, another seat's private event) would differ between them.
    """
    game, players, options = conformance_case
    points = sample_points(seed + 3)
    for ply, state in walk(game, players, options, seed):
        if not state.pending():
            break
        if ply not in points:
            continue
        for seat in range(players):
            truths = [state, state.redeterminize(seat, Rng(f"truth-a:{seed}:{ply}")),
                      state.redeterminize(seat, Rng(f"truth-b:{seed}:{ply}"))]
            seeded = Rng(f"copy:{seed}:{ply}:{seat}")
            copies = [canonical(t.redeterminize(seat, seeded.copy()).snapshot()) for t in truths]
            assert copies[1] == copies[0] and copies[2] == copies[0], \
                f"ply {ply}: seat {seat}'s redeterminized copy depends on hidden values of the true state"
            copy = state.redeterminize(seat, seeded.copy())
            assert all(e.visible_to(seat) for e in copy.log.entries), "the copy kept another seat's secret"
            assert copy.rng.to_json() != state.rng.to_json(), "the copy's RNG must be reseeded"
