"""``arena bench forward --remote``: simulated decisions per second through the referee's forward model.

A referee runs on a thread of the bench's process; the bot is a separate process (as a real bot is),
an SDK session of a ``RemoteForwardModel`` bot. For each timed run the bench plays a match of the game
between two seats of that bot; on the first decision it is sent, the bot simulates for ``seconds``
in batches — one call samples ``batch`` handles, the next plays each out to the end and releases
it (the local figure's work: sample + playout + release) — and reports the simulated decisions per
second, counted by the referee (``ForwardReply.decisions_used``). Every other decision is answered
at once.

    python -m arena.bench.forward_remote ADDRESS TOKEN SECONDS BATCH   # the bot (started by the bench)
"""
from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from typing import Any

import click

from bots.sdk.bot import Bot
from referee.engine import DecisionRequest, MatchStart, TimeControl
from referee.engine.rng import Rng


class _SimulatingBot(Bot):
    """Simulates flat out on its match's first decision, then answers at random at once."""

    measured: set[str] = set()  # matches already measured (one bot per seat, one figure per match)

    def __init__(self, seconds: float, batch: int) -> None:
        super().__init__(0)
        self.seconds = seconds
        self.batch_size = batch
        self.fm: Any = None
        self.rng = Rng("bench-remote")

    def bind_forward(self, fm: Any) -> None:
        self.fm = fm

    def start(self, info: MatchStart) -> None:
        super().start(info)

    def act(self, request: DecisionRequest) -> int:
        if request.match_id not in self.measured and self.fm is not None:
            self.measured.add(request.match_id)
            self._measure(request)
        return self.rng.below(len(request.legal))

    def _measure(self, request: DecisionRequest) -> None:
        fm = self.fm
        start_decisions = fm.decisions
        calls = 0
        t0 = time.perf_counter()
        i = 0
        size = 1  # batches grow to --batch while they fit the time left (a Dungeon Twister playout is long)
        try:
            while time.perf_counter() - t0 < self.seconds:
                t1 = time.perf_counter()
                handles = fm.sample(size, f"bench:{i}")
                b = fm.batch()
                for h in handles:
                    b.playout(h, f"{i}:{h}").release(h)
                b.run()
                calls += 2
                i += 1
                per = (time.perf_counter() - t1) / size
                left = self.seconds - (time.perf_counter() - t0)
                size = max(1, min(self.batch_size, size * 2, int(left / per) if per > 0 else self.batch_size))
            out = {"decisions": fm.decisions - start_decisions, "seconds": time.perf_counter() - t0,
                   "calls": calls}
        except Exception as exc:  # noqa: BLE001 - reported to the bench, which prints one line
            out = {"error": f"{type(exc).__name__}: {exc}"}
        print(json.dumps({"match": request.match_id, **out}), flush=True)


class RemoteBench:
    """A referee (this process) and a simulating bot (a child process), for several timed runs."""

    def __init__(self, seconds: float, batch: int) -> None:
        from referee.client import RefereeClient
        from referee.service.config import RefereeConfig
        from referee.service.server import RefereeThread
        from referee.service.tokens import TokenStore

        self.tmp = tempfile.TemporaryDirectory(prefix="arena-bench-forward-")  # a throw-away token store
        store = TokenStore(f"sqlite:///{self.tmp.name}/tokens.db")
        self.ref = RefereeThread(config=RefereeConfig(live_wait_s=30.0), store=store).start()
        self.client = RefereeClient(self.ref.address, self.ref.organizer_token)
        token = self.client.register_bot("bench-forward", [])
        self.seconds = seconds
        self.proc = subprocess.Popen([sys.executable, "-m", "arena.bench.forward_remote", self.ref.address,
                                      token,
                                      str(seconds), str(batch)], stdout=subprocess.PIPE, text=True)
        self.n = 0

    def run(self, game_id: str, players: int) -> float:
        """One timed run: simulated decisions per second."""
        from referee.matchspec import MatchSpec, SeatSpec

        self.n += 1
        spec = MatchSpec(f"bench-fm-{game_id}-{self.n}", game_id, self.n,
                         [SeatSpec("bench-forward")] * players,
                         time_control=TimeControl(per_decision_ms=int(self.seconds * 1000) + 30_000))
        self.client.run_match(spec, timeout_s=600, live_wait_s=30)
        assert self.proc.stdout is not None
        text = self.proc.stdout.readline()
        if not text:
            raise click.ClickException("the bench bot exited (see its messages above)")
        line = json.loads(text)
        if "error" in line:
            raise click.ClickException(f"the bench bot failed in {game_id}: {line['error']}")
        return float(line["decisions"]) / float(line["seconds"])

    def close(self) -> None:
        self.proc.terminate()
        self.proc.wait(10)
        self.client.close()
        self.ref.stop()
        self.tmp.cleanup()


def main(argv: list[str]) -> int:
    from bots.sdk.client import run

    address, token, seconds, batch = argv[0], argv[1], float(argv[2]), int(argv[3])
    run(lambda start: _SimulatingBot(seconds, batch), address, token, capacity=8)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
