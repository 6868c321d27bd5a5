"""Where a decision's CPU goes, in-process and through the referee, and what that allows.

``arena bench tournament`` compares the referee executor's match throughput with the in-process
executor's. Both are CPU-bound on the same cores, so the ratio can never exceed

    in-process CPU per decision / (in-process CPU per decision + CPU of one bare gRPC round trip)

because a referee-run decision does all the in-process work (engine and bot) plus at least one gRPC
round trip between two processes. This module measures the three terms, all as CPU time of whole
processes (every thread: gRPC's own polling threads cost as much as the event loop's), so the
figures hold on a loaded machine far better than wall times:

* **in-process**: matches played in this process with the tournament's bots;
* **through the referee**: the same matches on a running referee: its process, and its sandboxed bots
  (their control groups' CPU counter; unknown where cgroups are not used);
* **bare round trip**: a gRPC bidirectional stream of raw bytes between this process and a child,
  sized like the game's requests and answers: ``arena bench protocol``'s ping-pong (``pingpong``).
"""
from __future__ import annotations

import asyncio
import os
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .pingpong import BareRound, bare_round, process_cpu


def _proc_cpu(pid: int) -> float:
    """User + system CPU seconds of a process (all its threads) from /proc."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _hosted_cpu() -> float | None:
    """CPU seconds of every sandboxed hosted bot so far (the parent control group), if there is one."""
    from referee.service import sandbox_cgroup

    path = os.path.join(sandbox_cgroup.ROOT, "cpuacct", sandbox_cgroup.PARENT, "cpuacct.usage")
    try:
        with open(path) as f:
            return int(f.read()) / 1e9
    except (OSError, ValueError):
        return None


@dataclass
class Ceiling:
    game: str
    inprocess_us: float  # CPU per decision, engine and bots in one process
    referee_us: float  # the referee process's CPU per decision
    bots_us: float | None  # the hosted bots' CPU per decision (None: not measurable here)
    bare_server_us: float  # one bare gRPC round trip: the server process's CPU
    bare_client_us: float  # ... and the client process's
    request_b: float
    answer_b: float

    @property
    def bare_us(self) -> float:
        return self.bare_server_us + self.bare_client_us

    @property
    def bound(self) -> float:
        """The referee / in-process throughput ratio no referee can beat with one round trip a decision."""
        return self.inprocess_us / (self.inprocess_us + self.bare_us)


def inprocess_cpu(game_id: str, agents: Sequence[str], seeds: Sequence[int]) -> float:
    """CPU seconds per decision of ``run_match`` with ``agents`` over ``seeds``."""
    from arena.botspec import load_bot
    from referee.engine import get_game, run_match

    game = get_game(game_id)
    decisions = 0
    c0 = process_cpu()
    for seed in seeds:
        bots = [load_bot(a, game_id, (seed * 7919 + s) & 0x7FFFFFFF) for s, a in enumerate(agents)]
        decisions += run_match(game, bots, seed=seed).plies
    return (process_cpu() - c0) / decisions


def referee_cpu(address: str, token: str, referee_pid: int, game_id: str, commands: Sequence[str],
                seeds: Sequence[int]) -> tuple[float, float | None]:
    """(referee CPU, hosted bots' CPU or None) in seconds per decision, matches played one at a time."""
    from referee.client import RefereeClient
    from referee.matchspec import MatchSpec, SeatSpec

    client = RefereeClient(address, token)
    seats = [SeatSpec(f"seat{i}", cmd) for i, cmd in enumerate(commands)]
    try:
        decisions = 0
        r0, b0 = _proc_cpu(referee_pid), _hosted_cpu()
        for seed in seeds:
            report = client.run_match(MatchSpec(f"ceiling-{game_id}-{seed}-{time.time_ns()}", game_id, seed,
                                                seats), timeout_s=120)
            decisions += len(report.replay["actions"])
        r1, b1 = _proc_cpu(referee_pid), _hosted_cpu()
    finally:
        client.close()
    if b0 is None and b1 is not None:
        # the parent group is made by the first sandboxed bot since boot: before it, nothing was counted
        b0 = 0.0
    bots = (b1 - b0) / decisions if b0 is not None and b1 is not None else None
    return (r1 - r0) / decisions, bots


def bare_cpu(request_size: int, answer_size: int, rounds: int) -> tuple[float, float]:
    """(server, client) process CPU seconds per round trip of the bare gRPC stream (``pingpong``); the
    server runs here, on a thread of its own."""
    result: dict[str, Any] = {}

    def run() -> None:
        result["r"] = asyncio.run(bare_round(request_size, answer_size, rounds))

    t = threading.Thread(target=run, name="bare-grpc", daemon=True)
    t.start()
    t.join(600)
    if "r" not in result:
        raise RuntimeError("the bare gRPC round trips did not finish")
    r: BareRound = result["r"]
    return r.process_cpu, r.client_cpu


def measure(game_id: str, agents: Sequence[str], commands: Sequence[str], address: str, token: str,
            referee_pid: int, matches: int = 8, rounds: int = 3000) -> Ceiling:
    from .protocol import _sizes

    seeds = [9000 + i for i in range(matches)]
    inproc = inprocess_cpu(game_id, agents, seeds)
    ref, bots = referee_cpu(address, token, referee_pid, game_id, commands, seeds)
    req_b, ans_b = _sizes(game_id, len(agents))
    server, client = bare_cpu(max(1, round(req_b)), max(1, round(ans_b)), rounds)
    return Ceiling(game_id, inproc * 1e6, ref * 1e6, None if bots is None else bots * 1e6, server * 1e6,
                   client * 1e6, req_b, ans_b)

