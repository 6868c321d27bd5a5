"""Control groups (version 1) for one hosted bot's sandbox: memory and process-count limits.

The launcher (``rlimit_exec.py``, still root) creates ``<controller>/arena-hosted/<id>`` under
the memory, pids and cpuacct hierarchies, writes the limits and moves itself in before it starts the
sandbox, so every process of the sandbox is counted from its first instruction. The referee reads
the counters afterwards (an OOM kill, a refused fork) to name the violation, kills whatever is left
and removes the groups. Standard library only: the launcher imports this module before exec.
"""
from __future__ import annotations

import contextlib
import os
import signal
import time

ROOT = os.environ.get("ARENA_CGROUP_ROOT", "/sys/fs/cgroup")
PARENT = "arena-hosted"
CONTROLLERS = ("memory", "pids", "cpuacct")


def _dir(controller: str, group: str) -> str:
    return os.path.join(ROOT, controller, PARENT, group)


def writable() -> bool:
    """True when this process may create memory and pids groups (root on a cgroup v1 host)."""
    for c in CONTROLLERS:
        base = os.path.join(ROOT, c)
        if not os.path.isfile(os.path.join(base, "cgroup.procs")) or not os.access(base, os.W_OK):
            return False
    return True


def _write(path: str, value: str) -> None:
    with open(path, "w") as f:
        f.write(value)


def create_and_join(group: str, memory_bytes: int, pids: int) -> None:
    """Make the groups, set the limits, move the calling process in (raises OSError on failure)."""
    for c in CONTROLLERS:
        os.makedirs(_dir(c, group), exist_ok=True)
    mem = _dir("memory", group)
    if memory_bytes:
        _write(os.path.join(mem, "memory.limit_in_bytes"), str(memory_bytes))
        # swap counts too, or a bot could page its way past the limit
        with contextlib.suppress(OSError):
            _write(os.path.join(mem, "memory.memsw.limit_in_bytes"), str(memory_bytes))
    if pids:
        _write(os.path.join(_dir("pids", group), "pids.max"), str(pids))
    me = str(os.getpid())
    for c in CONTROLLERS:
        _write(os.path.join(_dir(c, group), "cgroup.procs"), me)


def _read_kv(path: str) -> dict[str, int]:
    out = {}
    with contextlib.suppress(OSError), open(path) as f:
        for line in f:
            k, _, v = line.strip().partition(" ")
            with contextlib.suppress(ValueError):
                out[k] = int(v)
    return out


def cpu_seconds(group: str) -> float:
    """CPU time used by every process of the group so far (dead ones included)."""
    return _read_int(os.path.join(_dir("cpuacct", group), "cpuacct.usage")) / 1e9


def counters(group: str) -> tuple[int, int, float]:
    """(OOM kills, refused forks, CPU seconds) so far: a warm sandbox compares them per match."""
    oom = _read_kv(os.path.join(_dir("memory", group), "memory.oom_control")).get("oom_kill", 0)
    refused = _read_kv(os.path.join(_dir("pids", group), "pids.events")).get("max", 0)
    return oom, refused, cpu_seconds(group)


def violation_since(group: str, before: tuple[int, int, float], cpu_s: int = 0) -> str:
    """The limit broken since ``before`` (``counters``), if any."""
    oom, refused, cpu = counters(group)
    if oom > before[0]:
        limit = _read_int(os.path.join(_dir("memory", group), "memory.limit_in_bytes"))
        return f"out of memory (limit {limit >> 20} MiB)"
    if refused > before[1]:
        limit = _read_int(os.path.join(_dir("pids", group), "pids.max"))
        return f"too many processes (limit {limit}; {refused - before[1]} fork(s) refused)"
    if cpu_s and cpu - before[2] > cpu_s:
        return f"CPU time exhausted (limit {cpu_s}s)"
    return ""


def violation(group: str, cpu_s: int = 0) -> str:
    """The limit this group ran into, if any ('' when none)."""
    mem = _dir("memory", group)
    oom = _read_kv(os.path.join(mem, "memory.oom_control")).get("oom_kill", 0)
    if oom:
        limit = _read_int(os.path.join(mem, "memory.limit_in_bytes"))
        return f"out of memory (limit {limit >> 20} MiB)"
    refused = _read_kv(os.path.join(_dir("pids", group), "pids.events")).get("max", 0)
    if refused:
        limit = _read_int(os.path.join(_dir("pids", group), "pids.max"))
        return f"too many processes (limit {limit}; {refused} fork(s) refused)"
    if cpu_s and cpu_seconds(group) > cpu_s:
        return f"CPU time exhausted (limit {cpu_s}s)"
    return ""


def _read_int(path: str) -> int:
    try:
        with open(path) as f:
            return int(f.read().strip())
    except (OSError, ValueError):
        return 0


def pids_in(group: str) -> list[int]:
    try:
        with open(os.path.join(_dir("pids", group), "cgroup.procs")) as f:
            return [int(x) for x in f.read().split()]
    except OSError:
        return []


def destroy(group: str, timeout_s: float = 3.0) -> None:
    """Kill every process still in the group, then remove the groups."""
    deadline = time.monotonic() + timeout_s
    while True:
        left = pids_in(group)
        for pid in left:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        if not left or time.monotonic() > deadline:
            break
        time.sleep(0.02)
    for c in CONTROLLERS:
        for _ in range(50):
            try:
                os.rmdir(_dir(c, group))
                break
            except FileNotFoundError:
                break
            except OSError:  # still busy for a moment after the last process died
                time.sleep(0.02)


def sweep_stale() -> int:
    """Remove the groups of referees that died without cleaning up (names start with their pid)."""
    removed = 0
    base = os.path.join(ROOT, "pids", PARENT)
    try:
        names = [n for n in os.listdir(base) if os.path.isdir(os.path.join(base, n))]
    except OSError:
        return 0
    for name in names:
        digits = name[1:].partition("-")[0]
        if not digits.isdigit() or os.path.exists(f"/proc/{digits}"):
            continue
        destroy(name, timeout_s=0.5)
        removed += 1
    return removed
