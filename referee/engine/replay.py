"""Replays: a versioned JSON record of a match that re-simulates exactly.

Format ``arena-replay`` version 1 (documented in ``docs/replay-format.md``)::

    {"format": "arena-replay", "format_version": 1,
     "game": "clank", "game_version": "1.0.0", "players": 2, "options": {...}, "seed": 7,
     "seats": [{"seat": 0, "bot": "random"}, ...],
     "actions": [{"seat": 0, "action": {...}, "ms": 3}, ...],
     "checkpoints": [{"ply": 0, "digest": "..."}, ..., {"ply": N, "digest": "..."}],
     "outcome": {...}, "forfeits": {"1": "timeout"}, "match_id": "...", "created": "...", "meta": {}}

A replay of another game version is refused rather than silently replayed.
"""
from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .errors import ArenaError, ReplayError, UnknownGame
from .game import Game
from .outcome import Outcome, undecided
from .state import State

FORMAT = "arena-replay"
FORMAT_VERSION = 1


@dataclass
class Replay:
    game: str
    game_version: str
    players: int
    options: dict[str, Any]
    seed: int
    seats: list[dict[str, Any]]
    actions: list[dict[str, Any]] = field(default_factory=list)
    checkpoints: list[dict[str, Any]] = field(default_factory=list)
    outcome: dict[str, Any] | None = None
    forfeits: dict[int, str] = field(default_factory=dict)
    match_id: str = ""
    created: str = field(default_factory=lambda: datetime.now(UTC).isoformat(timespec="seconds"))
    meta: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT, "format_version": FORMAT_VERSION,
            "game": self.game, "game_version": self.game_version, "players": self.players,
            "options": self.options, "seed": self.seed, "seats": self.seats,
            "actions": self.actions, "checkpoints": self.checkpoints, "outcome": self.outcome,
            "forfeits": {str(k): v for k, v in sorted(self.forfeits.items())},
            "match_id": self.match_id, "created": self.created, "meta": self.meta,
        }

    @classmethod
    def from_json(cls, d: Any) -> Replay:
        """Validate the shape; every problem names the field (and the ply, for actions)."""
        if not isinstance(d, dict):
            raise ReplayError("replay must be a JSON object")
        if d.get("format") != FORMAT:
            raise ReplayError(f"not an arena replay (format is {d.get('format')!r})")
        if d.get("format_version") != FORMAT_VERSION:
            raise ReplayError(f"replay format version {d.get('format_version')!r} is not supported "
                              f"(this arena reads version {FORMAT_VERSION})")
        spec = {"game": str, "game_version": str, "players": int, "options": dict, "seed": int,
                "seats": list, "actions": list, "checkpoints": list}
        for key, kind in spec.items():
            if key not in d:
                raise ReplayError(f"replay is missing {key!r} (truncated?)")
            if not isinstance(d[key], kind) or isinstance(d[key], bool):
                raise ReplayError(f"replay field {key!r} must be {kind.__name__}")
        for i, a in enumerate(d["actions"]):
            if not (isinstance(a, dict) and isinstance(a.get("seat"), int)
                    and isinstance(a.get("action"), dict)):
                raise ReplayError(f"replay action #{i} must be an object with 'seat' and 'action'")
        for i, c in enumerate(d["checkpoints"]):
            if not (isinstance(c, dict) and isinstance(c.get("ply"), int)
                    and isinstance(c.get("digest"), str)):
                raise ReplayError(f"replay checkpoint #{i} must be an object with 'ply' and 'digest'")
        outcome = d.get("outcome")
        if outcome is not None and not isinstance(outcome, dict):
            raise ReplayError("replay field 'outcome' must be an object or null")
        try:
            forfeits = {int(k): str(v) for k, v in (d.get("forfeits") or {}).items()}
        except (ValueError, AttributeError) as exc:
            raise ReplayError("replay field 'forfeits' must map seat numbers to reasons") from exc
        return cls(d["game"], d["game_version"], d["players"], d["options"], d["seed"], d["seats"],
                   d["actions"], d["checkpoints"], outcome, forfeits, str(d.get("match_id", "")),
                   str(d.get("created", "")), dict(d.get("meta") or {}))

    # -- files -------------------------------------------------------------------------------
    def dumps(self) -> str:
        return json.dumps(self.to_json(), separators=(",", ":"))

    def save(self, path: str | Path) -> Path:
        p = Path(path)
        p.parent.mkdir(parents=True, exist_ok=True)
        data = self.dumps().encode()
        p.write_bytes(gzip.compress(data, mtime=0) if p.suffix == ".gz" else data)
        return p

    @classmethod
    def loads(cls, text: str | bytes) -> Replay:
        if isinstance(text, bytes) and text[:2] == b"\x1f\x8b":
            try:
                text = gzip.decompress(text)
            except (OSError, EOFError) as exc:
                raise ReplayError(f"replay is a corrupt gzip file: {exc}") from exc
        try:
            data = json.loads(text)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise ReplayError(f"replay is not valid JSON ({exc}); truncated or corrupt?") from exc
        return cls.from_json(data)

    @classmethod
    def load(cls, path: str | Path) -> Replay:
        p = Path(path)
        try:
            raw = p.read_bytes()
        except OSError as exc:
            raise ReplayError(f"cannot read replay {p}: {exc.strerror}") from exc
        return cls.loads(raw)


def _game_for(replay: Replay, game: Game | None) -> Game:
    if game is None:
        from .registry import get_game

        try:
            game = get_game(replay.game)
        except UnknownGame as exc:
            raise ReplayError(f"replay is of unknown game {replay.game!r}") from exc
    if game.info.id != replay.game:
        raise ReplayError(f"replay is of game {replay.game!r}, not {game.info.id!r}")
    if game.info.version != replay.game_version:
        raise ReplayError(f"replay was recorded with {replay.game} version {replay.game_version}; "
                          f"this engine is version {game.info.version} and refuses to re-simulate it")
    return game


def states(replay: Replay, game: Game | None = None) -> Iterator[tuple[int, State]]:
    """Yield (ply, state) from the initial state through every recorded action (same object, mutated)."""
    g = _game_for(replay, game)
    try:
        state = g.new_state(replay.players, replay.options, replay.seed)
    except ArenaError as exc:
        raise ReplayError(f"replay setup is invalid: {exc}") from exc
    yield 0, state
    for ply, step in enumerate(replay.actions, 1):
        try:
            state.apply(step["seat"], step["action"])
        except ArenaError as exc:
            raise ReplayError(f"ply {ply}: seat {step['seat']}'s action does not apply: {exc}") from exc
        yield ply, state


@dataclass
class VerifyReport:
    plies: int
    checkpoints: int
    final_digest: str
    outcome: dict[str, Any]


def verify(replay: Replay, game: Game | None = None) -> VerifyReport:
    """Re-simulate; raise ``ReplayError`` at the first checkpoint or outcome that differs."""
    expected = {c["ply"]: c["digest"] for c in replay.checkpoints}
    checked = 0
    state: State | None = None
    ply = 0
    for ply, state in states(replay, game):
        want = expected.get(ply)
        if want is not None:
            got = state.digest()
            if got != want:
                raise ReplayError(f"ply {ply}: digest {got} differs from the recorded {want}")
            checked += 1
    assert state is not None
    engine_outcome = state.outcome()
    if replay.forfeits:
        base = engine_outcome or undecided(replay.players, cooperative=state.game.info.cooperative)
        for seat, why in sorted(replay.forfeits.items()):
            base = base.with_forfeit(seat, why)
        final = base
    else:
        if engine_outcome is None:
            raise ReplayError(f"replay ends at ply {ply} but the game is not over (truncated?)")
        final = engine_outcome
    if replay.outcome is not None and Outcome.from_json(replay.outcome).to_json() != final.to_json():
        raise ReplayError("re-simulated outcome differs from the recorded outcome")
    return VerifyReport(ply, checked, state.digest(), final.to_json())
