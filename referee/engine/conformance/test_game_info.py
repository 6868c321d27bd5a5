"""Static checks: info, options, content, action schema."""
from __future__ import annotations

import jsonschema
import pytest

from bots.random_bot import RandomBot
from referee.engine import BadOptions, Game, Rng, run_match
from referee.engine.jsonutil import is_jsonable


def test_info_and_options(conformance_game: Game) -> None:
    game = conformance_game
    info = game.info
    assert info.id.isidentifier() and info.version and info.name
    assert 1 <= info.min_players <= info.max_players <= 10
    assert info.safety_limit > 0
    assert is_jsonable(game.describe())
    assert game.options.validate(None) == game.options.defaults()
    with pytest.raises(BadOptions):
        game.new_state(info.min_players, {"no_such_option": 1}, 0)
    with pytest.raises(BadOptions):
        game.new_state(info.max_players + 1, None, 0)
    with pytest.raises(BadOptions):
        game.new_state(info.min_players - 1, None, 0)
    for opt in game.options.options:
        with pytest.raises(BadOptions):
            game.new_state(info.min_players, {opt.name: object()}, 0)


def test_every_action_type_has_a_rule(conformance_game: Game) -> None:
    game = conformance_game
    # one rules style (docs/rules-style.md): actions parsed once and dispatched by class
    assert game.rules is not None, f"{game.info.id} declares no rules table (Game.rules = a Dispatch)"
    assert game.actions is not None and game.rules.actions is game.actions
    game.rules.check()


def test_content_loads(conformance_game: Game) -> None:
    game = conformance_game
    game.validate_content()


def test_legal_actions_match_exported_schema(conformance_game: Game) -> None:
    game = conformance_game
    schema = game.action_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    state = game.new_state(game.info.min_players, None, 11)
    rng = Rng(3)
    for _ in range(300):
        pending = state.pending()
        if not pending:
            break
        for seat in pending:
            for a in state.legal_actions(seat):
                validator.validate(a)
        seat = pending[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))


def test_same_seed_same_game(conformance_game: Game) -> None:
    game = conformance_game
    players = game.info.min_players
    a = run_match(game, [RandomBot(1) for _ in range(players)], seed=99)
    b = run_match(game, [RandomBot(1) for _ in range(players)], seed=99)
    assert a.replay.checkpoints == b.replay.checkpoints
