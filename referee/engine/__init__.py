"""The engine core: one contract for every game (see DESIGN.md, "Engine contract")."""
from __future__ import annotations

from .actions import Action, ActionSet
from .agent import Agent, DecisionRequest, MatchStart, TimeControl
from .content import EffectRegistry, build_rows, check_count, check_refs, load_data
from .decisions import DecisionStack, Frame
from .errors import (
                     ArenaError,
                     BadOptions,
                     ContentError,
                     IllegalAction,
                     MalformedAction,
                     NotYourDecision,
                     ReplayError,
                     SnapshotError,
                     UnknownGame,
)
from .events import Event, EventLog
from .game import Game, GameInfo, Option, OptionsSpec, Scenario
from .jsonutil import canonical, digest_of
from .outcome import Outcome
from .registry import all_games, game_ids, get_game, register
from .replay import Replay, verify
from .rng import Rng
from .runner import EngineBug, FaultPolicy, MatchResult, random_playout, run_match
from .state import State
from .viewer import ALL, PUBLIC, Viewer

__all__ = [
    "ALL", "PUBLIC", "Action", "ActionSet", "Agent", "ArenaError", "BadOptions", "ContentError",
    "DecisionRequest", "DecisionStack", "EffectRegistry", "EngineBug", "Event", "EventLog", "FaultPolicy",
    "Frame", "Game", "GameInfo", "IllegalAction", "MalformedAction", "MatchResult", "MatchStart",
    "NotYourDecision", "Option", "OptionsSpec", "Outcome", "Replay", "ReplayError", "Rng", "Scenario",
    "SnapshotError", "State", "TimeControl", "UnknownGame", "Viewer", "all_games", "build_rows",
    "canonical", "check_count", "check_refs", "digest_of", "game_ids", "get_game", "load_data",
    "random_playout", "register", "run_match", "verify",
]
