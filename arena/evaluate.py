"""Bot evaluation: many in-process matches with paired seeds and rotated seats, in parallel.

Competitive games: the first bot plays against copies of the second; with 2 seats every seed
is played in both seat orders (paired seeds: luck cancels); with N seats the first bot takes
each seat in turn. Cooperative games: each listed bot plays as a whole team on the same seeds.
"""
from __future__ import annotations

import hashlib
import hmac
import os
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from referee.engine import get_game, run_match

from .botspec import load_bot


@dataclass(frozen=True)
class Job:
    game: str
    players: int
    seed: int
    bots: tuple[str, ...]
    options: dict[str, Any]
    subject_seat: int | None  # the seat of the bot under test (competitive), None for a team
    bot_key: str = ""  # secret (hex) the bots' own seeds are derived from; "" = derived from the seed

    def bot_seed(self, seat: int) -> int:
        """The seed of a seat's bot. With a key it says nothing about the game's seed: a bot that
        could invert ``seed * 31 + seat`` would know every hidden card of the deal."""
        if not self.bot_key:
            return self.seed * 31 + seat
        mac = hmac.new(bytes.fromhex(self.bot_key), f"bot\x1f{self.seed}\x1f{seat}".encode(), hashlib.sha256)
        return int.from_bytes(mac.digest()[:4], "big") & 0x7FFFFFFF


@dataclass
class Tally:
    bot: str
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    score: float = 0.0
    by_seat: dict[int, list[int]] = field(default_factory=dict)  # seat -> [games, wins]

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


def plan(game_id: str, bots: list[str], players: int, games: int, options: dict[str, Any],
         seed_base: int = 0) -> list[Job]:
    game = get_game(game_id)
    jobs: list[Job] = []
    if game.info.cooperative:
        for bot in bots:
            jobs += [Job(game_id, players, seed_base + g, (bot,) * players, options, None)
                     for g in range(games)]
        return jobs
    if players == 1:
        # a solo game has no field: every bot plays the same seeds alone (paired by seed)
        return [Job(game_id, 1, seed_base + g, (bot,), options, 0)
                for bot in dict.fromkeys(bots) for g in range(games)]
    if len(bots) != 2:
        raise ValueError("competitive evaluation takes two bots: the one under test and the field "
                         "(at 1 seat, any number)")
    subject, field_bot = bots
    for g in range(games):
        seat = g % players
        # Paired seeds: consecutive games share a seed and rotate the subject through the seats.
        seed = seed_base + g // players
        lineup = [field_bot] * players
        lineup[seat] = subject
        jobs.append(Job(game_id, players, seed, tuple(lineup), options, seat))
    return jobs


def play(job: Job) -> tuple[Job, dict[str, Any]]:
    game = get_game(job.game)
    agents = [load_bot(name, job.game, job.bot_seed(s)) for s, name in enumerate(job.bots)]
    result = run_match(game, agents, seed=job.seed, options=job.options, bot_names=list(job.bots),
                       match_id=f"eval-{job.seed}-{job.subject_seat}")
    return job, result.outcome.to_json()


def run(jobs: list[Job], workers: int | None = None) -> Iterator[tuple[Job, dict[str, Any]]]:
    workers = workers or os.cpu_count() or 1
    if workers == 1:
        yield from map(play, jobs)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        yield from pool.map(play, jobs, chunksize=max(1, len(jobs) // (workers * 8)))


def tally(results: Iterator[tuple[Job, dict[str, Any]]],
          on_result: Callable[[], None] | None = None) -> dict[str, Tally]:
    out: dict[str, Tally] = {}
    for job, outcome in results:
        if job.subject_seat is None:
            t = out.setdefault(job.bots[0], Tally(job.bots[0]))
            won = outcome.get("team_result") == "win"
            t.games += 1
            t.wins += won
            t.losses += not won
            t.score += float(outcome.get("team_score") or 0.0)
        else:
            seat = job.subject_seat
            t = out.setdefault(job.bots[seat], Tally(job.bots[seat]))
            ranks = outcome["ranks"]
            first = [s for s, r in enumerate(ranks) if r == 1]
            if len(ranks) == 1 and outcome.get("team_result") is not None:
                # A solo game is won or lost, not ranked: its single seat always has rank 1.
                first = [seat] if outcome["team_result"] == "win" else []
            t.games += 1
            if first == [seat]:
                t.wins += 1
            elif seat in first:
                t.draws += 1
            else:
                t.losses += 1
            t.score += float(outcome["scores"][seat])
            g, w = t.by_seat.get(seat, [0, 0])
            t.by_seat[seat] = [g + 1, w + (first == [seat])]
        if on_result:
            on_result()
    return out
