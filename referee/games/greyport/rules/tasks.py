"""The rule steps queued on the state's task stack (``st.tasks``, ``{"op": name, ...}``, run by ``advance``):
op -> the function ``(st, task)`` that runs it, registered with ``@task(op)`` in the module of its
mechanic."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..model import GreyportModel

Step = Callable[[GreyportModel, dict[str, Any]], None]

#: op -> its step
TASKS: dict[str, Step] = {}


def task(op: str) -> Callable[[Step], Step]:
    def register(fn: Step) -> Step:
        assert op not in TASKS, f"greyport: two steps for op {op!r}"
        TASKS[op] = fn
        return fn
    return register
