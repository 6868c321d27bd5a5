"""The pytest plugin behind the conformance suite.

Registered as a ``pytest11`` entry point (so it loads wherever arena is installed) and loadable
with ``-p referee.engine.conformance.plugin``. It adds ``--arena-game MODULE[:ATTR]|ID`` (repeatable:
the games to check; default every registered game plus the ini list ``arena_conformance_games``) and
parametrizes the suite's two fixtures: ``conformance_case`` = (game, players, options) for every seat
count and every ``Game.variants`` mode, and ``conformance_game``.
"""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, Phase, settings

from referee.engine.errors import UnknownGame
from referee.engine.game import Game

from .harness import cases, select_games

settings.register_profile(
    # No shrinking: a seed is already a minimal example, and shrinking long playouts takes minutes.
    "conformance", deadline=None, derandomize=True, print_blob=True,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("arena", "Arena conformance suite")
    group.addoption("--arena-game", action="append", default=[], metavar="MODULE[:ATTR]",
                    help="a game to run the conformance suite on (repeatable); default: every registered one")
    parser.addini("arena_conformance_games", type="linelist", default=[],
                  help="extra games (MODULE[:ATTR]) the suite checks besides the registered ones")


_GAMES = pytest.StashKey[list[Game]]()


def _games(config: pytest.Config) -> list[Game]:
    if _GAMES not in config.stash:
        try:
            config.stash[_GAMES] = select_games(config.getoption("arena_game"),
                                                config.getini("arena_conformance_games"))
        except UnknownGame as exc:
            raise pytest.UsageError(str(exc)) from None
    games: list[Game] = config.stash[_GAMES]
    return list(games)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "conformance_case" in metafunc.fixturenames:
        found = cases(_games(metafunc.config))
        metafunc.parametrize("conformance_case", [c for _, c in found], ids=[i for i, _ in found])
    if "conformance_game" in metafunc.fixturenames:
        games = _games(metafunc.config)
        metafunc.parametrize("conformance_game", games, ids=[g.info.id for g in games])
