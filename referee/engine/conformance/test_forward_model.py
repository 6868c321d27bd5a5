"""The forward model is leak-free: what a bot can simulate comes from its seat's information set only.

A bot's samples are ``SeatSampler(state, seat).sample(k, seed)`` (served as handles or as snapshots,
in-process or by the referee). Two true states the seat cannot tell apart must give the same sample stream for
the same seed, snapshot for snapshot (RNG and log included), so nothing a handle serves afterwards
(views of any seat, legal lists, events, outcomes, playouts) can depend on the true hidden state.
And working a handle never touches the true state.
"""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine import PUBLIC, Rng, canonical
from referee.engine.forward import ForwardModel
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


@settings(settings.get_profile("conformance"), max_examples=EXAMPLES)
@given(seed=st.integers(0, 2**31 - 1))
def test_remote_replies_depend_only_on_what_the_seat_saw(conformance_case: Case, seed: int) -> None:
    """The referee's forward service (the op runner behind ``ForwardCall``) gives byte-identical results
    for true states the seat cannot tell apart: no view, legal list, event, outcome or snapshot it
    serves through a handle can carry the true hidden state."""
    from referee.protocol import bot_pb2
    from referee.service.forward import run_ops

    op = bot_pb2.ForwardOp
    game, players, options = conformance_case
    points = sample_points(seed + 7)
    checked = 0
    for ply, state in walk(game, players, options, seed):
        if not state.pending() or checked == 4:  # a few plies and seats: the suite's time is budgeted
            break
        if ply not in points:
            continue
        checked += 1
        for seat in sorted({0, players - 1, state.pending()[0]}):
            ops = [op(op=bot_pb2.OP_SAMPLE, k=2, seed=f"r{seed}"), op(op=bot_pb2.OP_PENDING, handle=1),
                   *[op(op=bot_pb2.OP_VIEW, handle=1, seat=s) for s in range(players)],
                   *[op(op=bot_pb2.OP_LEGAL, handle=1, seat=s) for s in range(players)],
                   op(op=bot_pb2.OP_CLONE, handle=1),
                   op(op=bot_pb2.OP_PLAYOUT, handle=3, seed="p", max_decisions=40),
                   op(op=bot_pb2.OP_OUTCOME, handle=3), op(op=bot_pb2.OP_VIEW, handle=3, seat=seat),
                   op(op=bot_pb2.OP_SAMPLE, k=1, seed="snap", snapshots=True)]
            if seat in state.pending():
                ops.append(op(op=bot_pb2.OP_APPLY, handle=2, seat=seat, index=0))
                ops.append(op(op=bot_pb2.OP_VIEW, handle=2, seat=seat))
            replies = []
            truths = [state, state.redeterminize(seat, Rng(f"truth-a:{seed}:{ply}")),
                      state.redeterminize(seat, Rng(f"truth-b:{seed}:{ply}"))]
            for truth in truths:
                results: list[bot_pb2.ForwardResult] = []
                fm = ForwardModel(SeatSampler(truth, seat))
                for _ in run_ops(fm, SeatSampler(truth, seat), ops, results, lambda: False, max_snapshots=4):
                    pass
                assert all(r.error == bot_pb2.FORWARD_OK for r in results), results[-1].message
                replies.append([r.SerializeToString(deterministic=True) for r in results])
            assert replies[1] == replies[0] and replies[2] == replies[0], \
                f"ply {ply}: seat {seat}'s forward replies depend on the true hidden state"
