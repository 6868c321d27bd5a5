"""A spectator's audit of the dashboard: every route, every id, every perspective; what a deal leaves behind.

``routes(app)`` enumerates the application's routes from the app itself, so a route added later is
audited too (an unknown path parameter fails the audit instead of being skipped). ``Secrets`` is
what a sealed match's deal would leave in a response: its seed as a number, and the sequence of
its initial hidden facts (for Dungeon Twister the face-down rooms, in slot order).
"""
from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient

from referee.engine import ALL, PUBLIC, get_game

PERSPECTIVES = ("public", "all", "0", "1")


def routes(app: FastAPI) -> Iterator[tuple[str, set[str]]]:
    """(path, methods) of every route, through included routers whatever FastAPI keeps them in."""
    def walk(items: Any) -> Iterator[tuple[str, set[str]]]:
        for r in items:
            inner = getattr(r, "original_router", None)
            if inner is not None:  # FastAPI >= 0.165 keeps included routers as a lazy wrapper
                yield from walk(inner.routes)
            elif hasattr(r, "path"):
                yield r.path, set(getattr(r, "methods", None) or ())
    yield from walk(app.routes)


@dataclass(frozen=True)
class Secrets:
    match_id: int
    seed: int
    hidden: tuple[str, ...]  # string facts of the initial full view that the public view does not show

    @classmethod
    def of(cls, match_id: int, game: str, players: int, options: dict[str, Any], seed: int) -> Secrets:
        st = get_game(game).new_state(players, options, seed)
        public = json.dumps(st.observe(PUBLIC))
        facts: list[str] = []

        def leaves(x: Any) -> None:
            if isinstance(x, dict):
                for v in x.values():
                    leaves(v)
            elif isinstance(x, list):
                for v in x:
                    leaves(v)
            elif isinstance(x, str) and len(x) >= 12 and x not in public:
                facts.append(x)
        leaves(st.observe(ALL))
        return cls(match_id, seed, tuple(facts))

    WINDOW = 9  # hidden facts in their order: several rooms' worth, so one deal and not one room

    def find(self, body: str, *, seed_only: bool = False) -> tuple[int, int] | None:
        """Where ``body`` shows the seed as a whole number, or ``WINDOW`` consecutive hidden facts in
        their order (a greedy scan, linear in the body: frames responses run to megabytes)."""
        m = re.search(rf"(?<![0-9]){self.seed}(?![0-9])", body)
        if m:
            return m.start(), m.end()
        if seed_only:
            return None
        for i in range(len(self.hidden) - self.WINDOW + 1):
            start = pos = body.find(self.hidden[i])
            for fact in self.hidden[i:i + self.WINDOW]:
                if pos < 0:
                    break
                pos = body.find(fact, pos)
                if pos >= 0:
                    pos += len(fact)
            if start >= 0 and pos >= 0:
                return start, pos
        return None


def audit(client: TestClient, app: FastAPI, ids: dict[str, list[str]], secrets: list[Secrets],
          still_sealed: Callable[[int], bool] | None = None) -> dict[str, int]:
    """Request every GET route with every id; return {url: status}. Fails on the first response that
    shows anything of a sealed deal.

    ``still_sealed(match_id)``: with a tournament running beside the audit a twin may finish
    mid-audit and legitimately publish the deal; a hit counts only if the group is still open after
    the response. Live streams (the public view of a running twin, which may show the same rooms
    as they are revealed in play: allowed) are checked for the seed and for a bare last frame."""
    seen: dict[str, int] = {}
    for path, methods in routes(app):
        if "GET" not in methods or path.startswith(("/static", "/api/docs", "/docs")):
            continue
        params = re.findall(r"{([a-z_]+)(?::path)?}", path)
        for p in params:
            assert p in ids, f"the audit does not know path parameter {p!r} of {path}: teach it"
        combos: list[dict[str, str]] = [{}]
        for p in params:
            combos = [{**c, p: v} for c in combos for v in ids[p]]
        for combo in combos:
            url = path
            for p, v in combo.items():
                url = re.sub(r"{" + p + r"(?::path)?}", v, url)
            queries = [""]
            if url.endswith("/frames"):
                queries = [f"?perspective={v}&limit=500" for v in PERSPECTIVES]
            elif url in ("/api/matches", "/matches"):
                queries = ["?per_page=200", "?status=done&per_page=200"] + [
                    f"?tournament={t}&per_page=200" for t in ids.get("tid", [])]
            for q in queries:
                for accept in ("application/json", "text/html"):
                    # TestClient ignores timeouts: a /live stream of a finished or sealed match ends itself
                    r = client.get(url + q, headers={"accept": accept})
                    seen[url + q] = r.status_code
                    body = r.text
                    live = url.endswith("/live")
                    if live:
                        frames = [json.loads(ln[6:]) for ln in body.splitlines() if ln.startswith("data: ")]
                        ends = [f for f in frames if f.get("over")]
                        assert all(set(f) <= {"step", "over"}
                                   for f in ends), f"{url}: the last frame shows {ends}"
                    for s in secrets:
                        hit = s.find(body, seed_only=live)
                        if hit is not None and still_sealed is not None and not still_sealed(s.match_id):
                            continue  # its twin finished during the request: published, rightly
                        assert hit is None, (f"{url + q} ({r.status_code}) shows the deal of sealed match "
                                             f"{s.match_id}: ...{body[max(0, hit[0] - 80):hit[1] + 80]}...")
    return seen
