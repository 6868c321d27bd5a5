"""Replay files: written, loaded, verified; corrupt, truncated and mismatched files get clear errors."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from bots.random_bot import RandomBot
from referee.engine import Replay, ReplayError, run_match, verify
from referee.engine.replay import states
from tests.fixtures.sealed_bids import GAME


@pytest.fixture()
def replay() -> Replay:
    return run_match(GAME, [RandomBot(1), RandomBot(2), RandomBot(3)], seed=8, checkpoint_every=5).replay


def test_save_load_verify_plain_and_gzip(tmp_path: Path, replay: Replay) -> None:
    for name in ("r.json", "r.json.gz"):
        path = replay.save(tmp_path / name)
        loaded = Replay.load(path)
        assert loaded.to_json() == replay.to_json()
        report = verify(loaded, GAME)
        assert report.plies == len(replay.actions)
        assert report.checkpoints == len(replay.checkpoints)


def test_replay_records_everything_it_promises(replay: Replay) -> None:
    d = replay.to_json()
    assert d["format"] == "arena-replay" and d["format_version"] == 1
    assert d["game"] == "sealed_bids" and d["game_version"] == GAME.info.version
    assert d["seed"] == 8 and d["players"] == 3 and len(d["seats"]) == 3
    assert all({"seat", "action", "ms"} <= set(a) for a in d["actions"])
    assert d["checkpoints"][0]["ply"] == 0 and d["checkpoints"][-1]["ply"] == len(d["actions"])
    assert d["outcome"]["ranks"]


def test_states_walk_every_ply(replay: Replay) -> None:
    plies = [ply for ply, _ in states(replay, GAME)]
    assert plies == list(range(len(replay.actions) + 1))


@pytest.mark.parametrize("mangle, words", [
    (lambda t: t[: len(t) // 2], "not valid JSON"),
    (lambda t: "[]", "must be a JSON object"),
    (lambda t: t.replace('"arena-replay"', '"chess-pgn"'), "not an arena replay"),
    (lambda t: t.replace('"format_version":1', '"format_version":9'), "format version 9"),
    (lambda t: json.dumps({k: v for k, v in json.loads(t).items() if k != "actions"}), "missing 'actions'"),
    (lambda t: t.replace('"seed":8', '"seed":"8"'), "'seed' must be int"),
])
def test_corrupt_files_get_clear_errors(replay: Replay, mangle: object, words: str) -> None:
    with pytest.raises(ReplayError, match=words):
        Replay.loads(mangle(replay.dumps()))


def test_gzip_corruption(tmp_path: Path, replay: Replay) -> None:
    path = replay.save(tmp_path / "r.json.gz")
    path.write_bytes(path.read_bytes()[:40])
    with pytest.raises(ReplayError, match="corrupt gzip"):
        Replay.load(path)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ReplayError, match="cannot read replay"):
        Replay.load(tmp_path / "nope.json")


def test_older_version_is_refused(replay: Replay) -> None:
    replay.game_version = "0"
    with pytest.raises(ReplayError, match="version 0.*refuses"):
        verify(replay, GAME)


def test_illegal_recorded_action_is_named(replay: Replay) -> None:
    replay.actions[3]["action"] = {"type": "bid", "card": 999}
    with pytest.raises(ReplayError, match="ply 4: seat .* does not apply"):
        verify(replay, GAME)


def test_changed_seed_breaks_digests(replay: Replay) -> None:
    replay.seed = 9
    with pytest.raises(ReplayError):
        verify(replay, GAME)


def test_truncated_actions_are_detected(replay: Replay) -> None:
    replay.actions = replay.actions[:-1]
    replay.checkpoints = [c for c in replay.checkpoints if c["ply"] <= len(replay.actions)]
    with pytest.raises(ReplayError, match="not over"):
        verify(replay, GAME)
