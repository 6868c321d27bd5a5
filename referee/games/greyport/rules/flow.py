"""The decision runner: queued rule steps (``st.tasks``, by op in ``TASKS``) run until a seat must decide;
GB-5.3.5 forced single options are applied (logged ``auto``), never a hidden-hand main action or
``retire_curse`` with a hidden hand."""
from __future__ import annotations

from typing import Any

from ..model import GreyportModel
from .core import push
from .dispatch import RULES
from .encounter import checks
from .frames import frame_legal
from .main import main_auto_ok, main_legal
from .tasks import TASKS


def decide(st: GreyportModel, seat: int, action: dict[str, Any], auto: bool) -> None:
    """Apply a decision (an auto one is logged), then the state checks (GB-5.8)."""
    if auto:
        st.log.public("auto", seat=seat, action=dict(action))
    RULES(st, seat, action)
    checks(st)


def advance(st: GreyportModel) -> None:
    """Run queued rule steps until a seat must decide; GB-5.3.5 applies forced single options."""
    # The hottest loop of the engine: attributes are bound to locals (the lists and the stack are
    # mutated in place by the rules, never rebound, while this loop runs -- ``tasks`` is re-read
    # after each step all the same, a rule may assign a new list).
    frames = st.stack.frames
    steps = TASKS
    while st.result is None:
        if frames:
            top = frames[-1]
            if top.kind != "retire_curse" or main_auto_ok(st, top.seat):
                legal = frame_legal(st, top)
                if len(legal) == 1:
                    decide(st, top.seat, legal[0], auto=True)
                    frames = st.stack.frames
                    continue
                st.remember_legal(top.seat, legal)   # the list the seat is asked with next
            return
        tasks = st.tasks
        if tasks:
            t = tasks.pop()
            steps[t["op"]](st, t)
            checks(st)
            frames = st.stack.frames
            continue
        if st.phase != "action":
            raise AssertionError(f"greyport: no decision and no task in phase {st.phase}")
        if st.objective_met:
            # GB-5.7 step 1: the action phase stops; Cleanup, then the encounter ends.
            push(st, [{"op": "cleanup"}, {"op": "encounter_end", "mid_action": True}])
            continue
        seat = st.priority
        if main_auto_ok(st, seat):
            legal = main_legal(st, seat)
            if len(legal) == 1:
                decide(st, seat, legal[0], auto=True)
                frames = st.stack.frames
                continue
            st.remember_legal(seat, legal)
        return
    st.stack.frames = []
    st.tasks = []
