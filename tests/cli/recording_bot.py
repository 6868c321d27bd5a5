"""A bot that writes every request it gets (view, legal, events) to $RECORD_TO, one JSON line each.

In-process: ``arena play GAME --bots tests/cli/recording_bot.py:Recorder,...``; over gRPC:
``python tests/cli/recording_bot.py`` (what ``arena refeed`` starts).
"""
from __future__ import annotations

import json
import os
import random
import sys

from bots.sdk import Bot, DecisionRequest, MatchStart


class Recorder(Bot):
    def start(self, info: MatchStart) -> None:
        super().start(info)
        self.rng = random.Random(self.seed)

    def act(self, request: DecisionRequest) -> int:
        with open(os.environ["RECORD_TO"], "a") as out:
            out.write(json.dumps({"view": request.view, "legal": request.legal, "events": request.events},
                                 sort_keys=True) + "\n")
        return self.rng.randrange(len(request.legal))


if __name__ == "__main__":
    from bots.sdk import run

    run(Recorder, give_up_s=10.0)
    sys.exit(0)
