"""The deal commands as an organizer and a bot developer run them: a reproducible key, independent deals
for live bots, ``verify`` and ``report`` after a tournament, ``gauntlet --sprt``; one line for bad input."""
from __future__ import annotations

import re

from .test_cli import arena, one_line_error  # noqa: F401 - the fixture

KEY = "5e" * 32


def test_key_verify_and_report(arena, tmp_path) -> None: # noqa: F811
    from arena.store import open_store, ops, queries

    assert arena("bot", "add", "r1", "--builtin", "random").returncode == 0
    assert arena("bot", "add", "r2", "--builtin", "random").returncode == 0
    store = open_store(f"sqlite:///{tmp_path}/home/arena.db", cached=False)
    ops.add_bot(store, "remote", kind="live", games=["sealed_bids"])  # (`bot add --live` asks a referee)
    out = arena("tournament", "create", "sealed_bids", "--bots", "r1,r2", "--games", "6", "--executor",
                "inprocess", "--seed", "9", "--key", KEY)
    assert out.returncode == 0, out.stderr
    assert "paired deals: r1|r2" in out.stdout
    one_line_error(arena("tournament", "verify", "1"), "is not over")
    assert arena("tournament", "run", "1", "--no-progress").returncode == 0
    out = arena("tournament", "verify", "1")
    assert out.returncode == 0 and "all 12 seeds verified" in out.stdout and KEY in out.stdout
    out = arena("tournament", "report", "1")
    assert out.returncode == 0, out.stderr
    assert re.search(r"r1\|r2\s+│\s+paired\s+│\s+6\s+│\s+2", out.stdout), out.stdout
    assert "pooled: variance per unit" in out.stdout
    # The same key and label deal the same seeds: the organizer can replay a run.
    out = arena("tournament", "create", "sealed_bids", "--bots", "r1,r2", "--games", "6", "--executor",
                "referee", "--seed", "9", "--key", KEY)
    assert out.returncode == 0
    from sqlalchemy import select

    from arena.store import models

    with store.read() as s:  # the organizer's view: tournament 2 is not played, its seeds are sealed
        seeds = [list(s.execute(select(models.Match.deal,
                                       models.Match.seed).where(models.Match.tournament_id == t)
                                .order_by(models.Match.number))) for t in (1, 2)]
    assert seeds[0] == seeds[1] and len({seed for _, seed in seeds[0]}) == 6
    assert all(m.seed is None for m in queries.matches(store, tournament_id=2, limit=50).items)
    # A live bot can remember a deal: its pairings get independent deals, and the summary says so.
    out = arena("tournament", "create", "sealed_bids", "--bots", "r1,r2,remote", "--games", "1")
    assert out.returncode == 0
    assert "paired deals: r1|r2" in out.stdout and "independent deals" in out.stdout
    assert "r1|remote" in out.stdout
    one_line_error(arena("tournament", "create", "sealed_bids", "--bots", "r1,remote", "--deals", "paired"),
                   "remote can")
    one_line_error(arena("tournament", "create", "sealed_bids", "--bots", "r1,r2", "--key", "abc"),
                   "64 hex digits")


def test_gauntlet_sprt_decides_and_stops(arena) -> None: # noqa: F811
    out = arena("gauntlet", "sealed_bids", "-s", "tests.arena.helpers:HighBidder", "-f", "random",
                "--sprt", "0,150", "-u", "200", "-j", "1", "--key", KEY)
    assert out.returncode == 0, out.stderr
    assert "H1 accepted" in out.stdout
    units = int(re.search(r"(\d+) games in", out.stdout).group(1)) // 2
    assert units < 200  # stopped as soon as it decided
    out = arena("gauntlet", "sealed_bids", "-s", "random", "-f", "tests.arena.helpers:HighBidder",
                "--sprt", "0,150", "-u", "200", "-j", "1")
    assert out.returncode == 0 and "H0 accepted" in out.stdout
    one_line_error(arena("gauntlet", "sealed_bids", "-s", "random", "--sprt", "zero"), "ELO0,ELO1")
    one_line_error(arena("gauntlet", "sealed_bids", "-s", "random", "--sprt", "10,0"),
                   "elo0 must be below elo1")
    one_line_error(arena("gauntlet", "greyport", "-s", "random"), "cooperative")


def test_gauntlet_bots_get_seeds_unrelated_to_the_deal() -> None:
    """A bot's own seed must not give away the game's seed (and with it every hidden card)."""
    from arena.gauntlet import unit_jobs
    from arena.scheduling import Dealer

    a, b = (unit_jobs("sealed_bids", "x", "y", 2, {}, Dealer(k), 0) for k in (KEY, "6f" * 32))
    for job in a:
        seeds = {job.bot_seed(s) for s in range(2)}
        assert len(seeds) == 2 and not seeds & {job.seed * 31 + s for s in range(2)}
    assert {j.bot_seed(0) for j in a}.isdisjoint({j.bot_seed(0) for j in b})
