"""The rule steps queued on the state's task stack (``st.tasks``, ``{"op": name, ...}``, run by ``advance``):
op -> the function ``(st, task)`` that runs it, registered with ``@task(op)`` in the module of its
mechanic."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

Task = Callable[[Any, dict[str, Any]], None]

#: op -> its step; each step takes the rules mixin it needs, so the table is typed over ``Any``
TASKS: dict[str, Task] = {}


def task(op: str) -> Callable[[Callable[[Any, dict[str, Any]], None]], Callable[[Any, dict[str, Any]], None]]:
    def register(fn: Callable[[Any, dict[str, Any]], None]) -> Callable[[Any, dict[str, Any]], None]:
        assert op not in TASKS, f"greyport: two steps for op {op!r}"
        TASKS[op] = fn
        return fn
    return register
