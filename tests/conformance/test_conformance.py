"""Every registered game (and the sealed_bids fixture, see ``arena_conformance_games`` in pyproject.toml)
through the conformance suite, which lives in ``referee.engine.conformance`` so outside games can run
it too (``arena check-game``)."""
from __future__ import annotations

from referee.engine.conformance.test_apply import *  # noqa: F403
from referee.engine.conformance.test_forward_model import *  # noqa: F403
from referee.engine.conformance.test_game_info import *  # noqa: F403
from referee.engine.conformance.test_hidden_information import *  # noqa: F403
from referee.engine.conformance.test_playouts import *  # noqa: F403
from referee.engine.conformance.test_snapshot_replay import *  # noqa: F403
