"""The Celery app as ``arena worker`` builds it: a second app (the worker's own broker and queue) next to
the module's."""
from __future__ import annotations

import subprocess
import sys

CODE = """
import warnings
warnings.simplefilter("error")
from arena.celery_app import LADDER_TASK, TASK, app, make_app
worker_app = make_app("redis://127.0.0.1:6379/15", "q-test")
for a in (app, worker_app):
    a.finalize()
    assert {TASK, LADDER_TASK} <= set(a.tasks), sorted(a.tasks)
assert worker_app.tasks[TASK] is not app.tasks[TASK]
print("ok")
"""


def test_a_second_app_registers_its_own_tasks_without_a_warning() -> None:
    # A shared task re-registered by the second app logged a DuplicateTaskNameWarning in every worker.
    out = subprocess.run([sys.executable, "-c", CODE], capture_output=True, text=True, timeout=60,
                         check=False)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-2000:]
