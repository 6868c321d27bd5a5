"""A store with a developer's submitted versions on a continuous ladder: ``ada/bidder`` v1 retired, v2
crashing (suspended by the ladder), v3 active, beside the organizer's ``random``; ladder matches played
in-process through the real task; one paired deal left half played (sealed)."""
from __future__ import annotations

import random
from dataclasses import replace
from datetime import timedelta

from sqlalchemy import select

from arena.config import settings
from arena.ladder import open_season, retire, tick
from arena.ladder.suspension import check
from arena.store import Store, models, ops
from arena.tasks import play_match
from referee.engine import register
from tests.fixtures.sealed_bids import GAME as SEALED

V1, V2, V3 = "ada/bidder@1", "ada/bidder@2", "ada/bidder@3"
EVIL_REASON = " (<img src=x onerror=alert(1)>)"


def build_versions_store(url: str) -> tuple[Store, dict[str, object]]:
    register(SEALED)
    store = Store(url)
    store.migrate()
    ops.add_bot(store, "random", command="{python} -m bots.serve random", agent="random")
    now = models.utcnow()
    with store.tx() as s:
        dev = models.Developer(name="ada", token_sha256="0" * 64, status="approved")
        s.add(dev)
        s.flush()
        for v, agent in ((1, "random"), (2, "tests.ladder.agents:Crasher"), (3, "tests.ladder.agents:Q100")):
            s.add(models.Bot(name=f"ada/bidder@{v}", kind="hosted", command="unused", agent=agent,
                             games=["sealed_bids"], env={}, developer_id=dev.id, family="ada/bidder",
                             version=v, status=models.B_ACTIVE,
                             active=True, runtime="python", seats={"sealed_bids": [2]},
                             submitted_at=now - timedelta(minutes=10 - v)))
    retire(store, V1, "superseded by v2")
    tid = open_season(store, "sealed_bids", executor="inprocess")
    rules = replace(settings(), ladder_inflight=4, ladder_placement=2)
    for i in range(30):
        for mid in tick(store, "sealed_bids", cfg=rules, rng=random.Random(i)).created:
            play_match(mid, store=store)
            check(store, mid, after=3)
        with store.read() as s:
            if s.scalar(select(models.Bot.status).where(models.Bot.name == V2)) == models.B_SUSPENDED:
                break
    for i in range(3):  # v3 and random play on without it
        for mid in tick(store, "sealed_bids", cfg=rules, rng=random.Random(50 + i)).created:
            play_match(mid, store=store)
    with store.tx() as s:  # a hostile reason string (a build log line could say anything)
        s.get(models.Bot,
              s.scalar(select(models.Bot.id).where(models.Bot.name == V2))).status_reason += EVIL_REASON
    # one more paired deal, half played: its twin's health must not show yet
    sealed = None
    for i in range(10):
        created = tick(store, "sealed_bids", cfg=replace(rules, ladder_inflight=2),
                       rng=random.Random(100 + i)).created
        with store.read() as s:
            deals = {mid: s.get(models.Match, mid).deal for mid in created}
        pair = [mid for mid in created if list(deals.values()).count(deals[mid]) == 2]
        for mid in created:
            if pair and mid == pair[0]:
                play_match(mid, store=store)
                sealed = mid
            elif mid not in pair:
                play_match(mid, store=store)
        if sealed:
            break
    assert sealed is not None
    return store, {"tournament": tid, "sealed": sealed}
