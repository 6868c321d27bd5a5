"""The checks ``arena check-bot`` runs, each a real match (or several) through a referee.

The checked bot plays as a live bot (a registered name); the other seats are played by a random
bot. Each check gives one row: pass, fail (with the reason, read from the referee's report and the
bot's own process) or skip (with why it could not apply).
"""
from __future__ import annotations

import secrets
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Literal

from referee.client import RefereeClient
from referee.engine import Game, Replay, TimeControl, get_game, run_match
from referee.engine.replay import states
from referee.matchspec import MatchRejected, MatchSpec, RefereeUnavailable, SeatSpec

from .botproc import BotProcess
from .proxy import CutProxy
from .verdict import Verdict, judge

Status = Literal["pass", "fail", "skip"]


@dataclass(frozen=True)
class Row:
    check: str
    status: Status
    detail: str


@dataclass
class Settings:
    deadline_ms: int = 500  # the tight-deadline check's per-decision limit
    relaxed_ms: int = 10_000  # every other check's limit (generous: a check is not a speed test)
    capacity: int = 4  # ARENA_CAPACITY given to the bot's command
    concurrent: int = 4  # matches at once in the concurrency check (at most the bot's capacity)
    quick: bool = False  # only the smallest and largest seat count of each game
    games: list[str] = field(default_factory=list)  # empty = every game the referee offers
    live_wait_s: float = 3.0  # how long a match waits for the bot to take a seat
    match_timeout_s: float = 300.0


@dataclass
class Target:
    """The bot under check: its registered name, and (CMD mode) its process and the proxy it goes through."""

    name: str
    filler: SeatSpec
    process: BotProcess | None = None
    proxy: CutProxy | None = None


def _simultaneous_plies(replay: Replay) -> int:
    """Positions of a replay where more than one seat had to decide."""
    return sum(1 for _ply, state in states(replay) if len(state.pending()) > 1)


class Checker:
    def __init__(self, client: RefereeClient, target: Target, settings: Settings,
                 progress: Callable[[str], None] = lambda _m: None) -> None:
        self.client = client
        self.t = target
        self.s = settings
        self.progress = progress
        self.rows: list[Row] = []
        self.capacity = 1
        self.accepted: list[str] = []
        self.verdicts: dict[str, list[Verdict]] = {}
        self.tag = secrets.token_hex(3)
        self.count = 0
        self.lock = threading.Lock()

    # -- plumbing ---------------------------------------------------------------------------
    def add(self, check: str, status: Status, detail: str) -> None:
        self.rows.append(Row(check, status, detail))
        self.progress(f"{check}: {status}")

    def spec(self, game: str, players: int, bot_seats: set[int], per_decision_ms: int) -> MatchSpec:
        with self.lock:
            self.count += 1
            n = self.count
        seats = [SeatSpec(self.t.name) if s in bot_seats else self.t.filler for s in range(players)]
        return MatchSpec(f"check-{self.tag}-{n}", game, 1000 + n, seats,
                         time_control=TimeControl(per_decision_ms=per_decision_ms))

    def play(self, spec: MatchSpec, bot_seats: set[int]) -> tuple[Verdict | None, str | None]:
        """Play ``spec``; the checked seats' verdict, or why the match could not be played."""
        try:
            report = self.client.run_match(spec, timeout_s=self.s.match_timeout_s,
                                           live_wait_s=self.s.live_wait_s)
        except (RefereeUnavailable, MatchRejected) as exc:
            return None, str(exc)
        verdict = judge(report, bot_seats)
        if verdict.other_forfeits and not verdict.forfeits:
            return None, f"the check is void: the random bot forfeited ({verdict.other_forfeits[0]})"
        return verdict, None

    def died(self) -> str | None:
        """CMD mode: if the bot's process exited, why (and restart it for the next checks)."""
        p = self.t.process
        if p is None:
            return None
        why = p.check_exit()
        if p.alive():
            return why
        # the dead process's session may still be listed for a moment: the restarted bot is connected only
        # once a session shows up after that one has gone
        deadline = time.monotonic() + 10
        while self.session() is not None and time.monotonic() < deadline:
            time.sleep(0.05)
        p.start()
        self.wait_connected(30)
        return why

    def session(self) -> dict[str, int] | None:
        for b in self.client.list_bots():
            if b["name"] == self.t.name and b["sessions"] > 0:
                return {"sessions": b["sessions"], "free": b["free_capacity"]}
        return None

    def wait_connected(self, timeout_s: float) -> dict[str, int] | str:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.t.process is not None and not self.t.process.alive():
                return self.t.process.check_exit() or "the bot exited"
            s = self.session()
            if s is not None:
                return s
            time.sleep(0.1)
        return f"no session of {self.t.name!r} within {timeout_s:.0f}s"

    # -- the checks -------------------------------------------------------------------------
    def run(self) -> list[Row]:
        if not self.check_connects():
            return self.rows
        self.check_games()
        if not self.accepted:
            for name in ("simultaneous", "re-ask", "deadline", "reconnect", "concurrent"):
                self.add(name, "skip", "no game to play")
        else:
            self.check_simultaneous()
            self.check_reask()
            self.check_deadline()
            self.check_concurrent()
            self.check_reconnect()
        self.check_process()
        return self.rows

    def check_connects(self) -> bool:
        got = self.wait_connected(30)
        if isinstance(got, str):
            self.add("connects", "fail", got)
            return False
        self.capacity = max(1, got["free"])
        self.add("connects", "pass", f"{got['sessions']} session(s), capacity {self.capacity}")
        return True

    def seat_counts(self, game: Game) -> list[int]:
        lo, hi = game.info.min_players, game.info.max_players
        return sorted({lo, hi}) if self.s.quick else list(range(lo, hi + 1))

    def check_games(self) -> None:
        offered = self.s.games or self.client.status()["games"]
        for gid in offered:
            game = get_game(gid)
            counts = self.seat_counts(game)
            self.progress(f"game {gid}: {len(counts)} seat count(s)")
            # the first match finds out whether the bot plays the game at all
            verdict, error = self.play(self.spec(gid, counts[0], {0}, self.s.relaxed_ms), {0})
            if verdict is None:
                why = self.died()
                if why is not None:
                    self.add(f"game {gid}", "fail", why)
                elif error and "no connected session" in error:
                    self.add(f"game {gid}", "skip", "the bot does not play it (not in its Hello.games)")
                else:
                    self.add(f"game {gid}", "fail", error or "the match could not be played")
                continue
            self.accepted.append(gid)
            died = [why for why in [self.died()] if why]  # restarted before the other seat counts
            results: list[tuple[int, Verdict | None, str | None]] = [(counts[0], verdict, None)]
            rest = [(n, self.spec(gid, n, {n - 1}, self.s.relaxed_ms)) for n in counts[1:]]
            with ThreadPoolExecutor(max_workers=max(1, min(self.capacity, 4))) as pool:
                answers = pool.map(lambda x: self.play(x[1], {x[0] - 1}), rest)
                for (n, _spec), (v, err) in zip(rest, answers, strict=True):
                    results.append((n, v, err))
            self.verdicts[gid] = [v for _, v, _ in results if v is not None]
            problems = [f"{n} seat{'' if n == 1 else 's'}: {p}" for n, v, err in results
                        for p in (v.problems if v else [err or "?"])]
            died += [why for why in [self.died()] if why]
            problems = died[:1] + problems
            decisions = sum(v.decisions for v in self.verdicts[gid])
            slowest = max((v.max_ms for v in self.verdicts[gid]), default=0)
            seats = ", ".join(str(n) for n in counts)
            if problems:
                self.add(f"game {gid}", "fail",
                         "; ".join(problems[:3]) + (" ..." if len(problems) > 3 else ""))
            else:
                self.add(f"game {gid}", "pass",
                         f"{seats} seats: {len(results)} match(es), {decisions} decisions, "
                                               f"slowest answer {slowest} ms")
        if not self.accepted and not any(r.status == "fail" for r in self.rows):
            self.add("games", "fail", f"the bot plays none of the referee's games ({', '.join(offered)})")

    def simultaneous_game(self) -> tuple[str, int] | None:
        """An accepted game where several seats decide at once (found by an in-process random playout)."""
        from bots.random_bot import RandomBot

        best: tuple[str, int, int] | None = None
        for gid in self.accepted:
            game = get_game(gid)
            n = min(self.capacity, game.info.max_players)
            if n < 2 or n < game.info.min_players:
                continue
            result = run_match(game, [RandomBot(s) for s in range(n)], seed=1, match_id="probe")
            many = _simultaneous_plies(result.replay)
            if best is None or many > best[2]:
                best = (gid, n, many)
        return (best[0], best[1]) if best else None

    def check_simultaneous(self) -> None:
        if self.capacity < 2:
            self.add("simultaneous", "skip", "capacity 1: the bot takes one seat at a time "
                                             "(it can read ARENA_CAPACITY)")
            return
        choice = self.simultaneous_game()
        if choice is None:
            self.add("simultaneous", "skip", "no accepted game seats two or more")
            return
        gid, n = choice
        seats = set(range(n))
        verdict, error = self.play(self.spec(gid, n, seats, self.s.relaxed_ms), seats)
        why = self.died()
        if verdict is None or verdict.problems or why:
            detail = why or (error if verdict is None else "; ".join(verdict.problems[:2]))
            self.add("simultaneous", "fail", f"{gid}, all {n} seats in one session: {detail}")
        else:
            self.add("simultaneous", "pass",
                     f"{gid}, all {n} seats in one session: {verdict.decisions} decisions")

    def check_reask(self) -> None:
        wrong = {"illegal_action", "malformed_answer", "oversized", "stale_decision"}
        answered = sum(v.decisions for vs in self.verdicts.values() for v in vs)
        if not answered:  # a bot that never answered has not passed anything
            self.add("re-ask", "skip", "the bot answered no decision")
            return
        n, example = 0, ""
        for vs in self.verdicts.values():
            for v in vs:
                for name in wrong & set(v.faults):
                    n += v.faults[name]
                    example = example or f"{name.replace('_', ' ')}: {v.examples[name]}"
        if n:
            self.add("re-ask", "fail",
                     f"{n} answer(s) still wrong when re-asked (a strike each), e.g. {example}")
        else:
            self.add("re-ask", "pass", f"{answered} decisions, no answer still wrong when re-asked")

    def busiest(self) -> str:
        """The accepted game with the longest matches (most decisions per match so far)."""
        def per_match(gid: str) -> float:
            vs = self.verdicts.get(gid) or []
            return sum(v.plies for v in vs) / len(vs) if vs else 0.0
        return max(self.accepted, key=per_match)

    def check_deadline(self) -> None:
        gid = self.busiest()
        game = get_game(gid)
        verdict, error = self.play(self.spec(gid, game.info.min_players, {0}, self.s.deadline_ms), {0})
        why = self.died()
        limit = f"{self.s.deadline_ms} ms per decision"
        if verdict is None or why:
            self.add("deadline", "fail", f"{gid} at {limit}: {why or error}")
        elif verdict.faults.get("timeout") or verdict.forfeits:
            self.add("deadline", "fail", f"{gid} at {limit}: " + "; ".join(verdict.problems[:2]))
        else:
            self.add("deadline", "pass", f"{gid} at {limit}: {verdict.decisions} decisions, "
                                         f"slowest answer {verdict.max_ms} ms")

    def check_concurrent(self) -> None:
        k = min(self.capacity, self.s.concurrent)
        if k < 2:
            self.add("concurrent", "skip", "capacity 1: one match at a time (it can read ARENA_CAPACITY)")
            return
        gid = self.accepted[0]
        players = get_game(gid).info.min_players
        specs = [self.spec(gid, players, {0}, self.s.relaxed_ms) for _ in range(k)]
        with ThreadPoolExecutor(max_workers=k) as pool:
            results = list(pool.map(lambda sp: self.play(sp, {0}), specs))
        problems = [p for v, err in results for p in (v.problems if v else [err or "?"])]
        why = self.died()
        if why or problems:
            self.add("concurrent", "fail",
                     f"{k} {gid} matches at once: " + "; ".join(([why] if why else []) + problems[:2]))
        else:
            self.add("concurrent", "pass", f"{k} {gid} matches at once, "
                                           f"{sum(v.decisions for v, _ in results if v)} decisions")

    def check_reconnect(self) -> None:
        if self.t.proxy is None:
            self.add("reconnect", "skip", "a live bot by name: check-bot cannot cut its connection")
            return
        gid = self.busiest()
        game = get_game(gid)
        spec = self.spec(gid, game.info.min_players, {0}, self.s.relaxed_ms)
        result: list[tuple[Verdict | None, str | None]] = []
        player = threading.Thread(target=lambda: result.append(self.play(spec, {0})), daemon=True)
        accepted_before = self.t.proxy.accepted
        player.start()
        cut = 0
        deadline = time.monotonic() + 60
        while player.is_alive() and time.monotonic() < deadline:
            running = [m for m in self.client.list_matches() if m["match_id"] == spec.match_id]
            if running and running[0]["ply"] >= 2:
                cut = self.t.proxy.cut()
                break
            time.sleep(0.02)
        player.join(self.s.match_timeout_s)
        verdict, error = result[0] if result else (None, "the match did not end")
        if not cut:
            self.add("reconnect", "skip", f"the {gid} match ended before the connection could be cut")
            return
        why = self.died()
        back = self.t.proxy.accepted - accepted_before
        if verdict is None:
            self.add("reconnect", "fail", f"{gid}: {why or error}")
        elif any("reconnect" in f for f in verdict.forfeits):
            self.add("reconnect", "fail", f"{gid}: connection cut at ply 2, the bot did not resume its seat "
                                          f"({verdict.forfeits[0]})" + (f"; {why}" if why else ""))
        elif verdict.problems or why:
            self.add("reconnect", "fail", f"{gid}: after the cut: " + "; ".join(([why] if why else [])
                                                                                + verdict.problems[:2]))
        else:
            self.add("reconnect", "pass", f"{gid}: connection cut mid-match, the bot reconnected ({back} new "
                                          f"connection(s)) and finished the match")

    def check_process(self) -> None:
        p = self.t.process
        if p is None:
            return
        p.check_exit()
        if p.exits:
            self.add("stays up", "fail", f"{len(p.exits)} unexpected exit(s); first: {p.exits[0]}")
        else:
            self.add("stays up", "pass", "the bot's process ran through every check")
