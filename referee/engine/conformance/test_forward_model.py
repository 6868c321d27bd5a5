"""The forward model is leak-free: what a bot can simulate comes from its seat's information set only.

A bot's samples are ``SeatSampler(state, seat).sample(k, seed)`` (served as handles in-process, as
snapshots remotely). Two true states the seat cannot tell apart must give the same sample stream for
the same seed, snapshot for snapshot (RNG and log included), so nothing a handle serves afterwards
(views of any seat, legal lists, events, outcomes, playouts) can depend on the true hidden state.
And working a handle never touches the true state.
"""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine import PUBLIC, Rng, canonical
from referee.engine.sampling import SeatSampler

from .harness import EXAMPLES, Case, sample_points, walk


@settings(settings.get_profile("conformance"), max_examples=EXAMPLES)
@given(seed=st.integers(0, 2**31 - 1))
def test_sample_stream_depends_only_on_what_the_seat_saw(conformance_case: Case, seed: int) -> None:
    game, players, options = conformance_case
    points = sample_points(seed + 5)
    for ply, state in walk(game, players, options, seed):
        if not state.pending():
            break
        if ply not in points:
            continue
        for seat in range(players):
            # Indistinguishable for ``seat``: the truth and two re-draws of its hidden part.
            truths = [state, state.redeterminize(seat, Rng(f"truth-a:{seed}:{ply}")),
                      state.redeterminize(seat, Rng(f"truth-b:{seed}:{ply}"))]
            streams = [[canonical(s) for s in SeatSampler(t, seat).sample_snapshots(3, f"bot:{seed}")]
                       for t in truths]
            assert streams[1] == streams[0] and streams[2] == streams[0], \
                f"ply {ply}: seat {seat}'s sample stream depends on the true hidden state"


@settings(settings.get_profile("conformance"), max_examples=EXAMPLES)
@given(seed=st.integers(0, 2**31 - 1))
def test_handles_serve_the_seats_information_and_leave_the_truth_alone(conformance_case: Case,
                                                                      seed: int) -> None:
    from bots.sdk.forward import ForwardModel

    game, players, options = conformance_case
    points = sample_points(seed + 6)
    for ply, state in walk(game, players, options, seed):
        if not state.pending():
            break
        if ply not in points:
            continue
        before = state.digest()
        for seat in range(players):
            fm = ForwardModel(SeatSampler(state, seat))
            h, spare = fm.sample(2, seed)
            assert fm.view(h, seat) == state.observe(seat)
            assert fm.state(h).observe(PUBLIC) == state.observe(PUBLIC)
            assert fm.pending(h) == state.pending()
            for s in state.pending():
                if s == seat:
                    assert fm.legal(h, s) == state.legal_actions(s)
            assert fm.state(h).events_for(seat) == state.events_for(seat)
            assert all(e.visible_to(seat) for e in fm.state(h).log.entries), \
                "a handle holds another seat's secret"
            c = fm.clone(h)
            fm.playout(c, seed, max_decisions=200)
            fm.release(c, spare)
            assert fm.live == 1
        assert state.digest() == before, "working a handle changed the true state"
