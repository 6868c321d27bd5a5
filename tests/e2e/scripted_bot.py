"""A deterministic bot that misbehaves on cue, in-process or as a hosted process.

Its choices depend only on the request (never on a seed), and its faults on the number of the
decision of its seat (1 = its first decision; a re-ask of the same decision counts once), so the
same script gives the same fault sequence whether the bot runs in-process or behind a referee:

* ``illegal``: an index past the end of the legal list;
* ``unlisted``: an action object that is not in the legal list;
* ``malformed``: JSON text that is not an object;
* ``timeout``: answers (well) after its deadline;
* ``exit``: the bot exits with code 3 (in-process ``SystemExit``; a hosted process dies at once).

    python -m tests.e2e.scripted_bot "2:illegal,5:timeout"     # hosted: ARENA_REFEREE / ARENA_TOKEN
"""
from __future__ import annotations

import os
import sys
import time
from typing import Any

from bots.sdk.bot import Bot
from referee.engine import DecisionRequest

LATE_S = 0.4  # how far past its deadline a "timeout" answers


def parse_script(text: str) -> dict[int, str]:
    out = {}
    for part in filter(None, text.split(",")):
        n, _, what = part.partition(":")
        out[int(n)] = what
    return out


class ScriptedBot(Bot):
    def __init__(self, script: dict[int, str], seed: int = 0) -> None:
        super().__init__(seed)
        self.script = script
        self.seen: list[int] = []

    def act(self, request: DecisionRequest) -> int | dict[str, Any] | str:
        if not self.seen or self.seen[-1] != request.decision_id:
            self.seen.append(request.decision_id)
        what = self.script.get(len(self.seen), "")
        n = len(request.legal)
        choice = (request.decision_id * 31 + request.seat * 7 + len(request.events)) % n
        if what == "illegal":
            return n + 5
        if what == "unlisted":
            return {"type": "no_such_action", "n": 1}
        if what == "malformed":
            return "[1, 2"
        if what == "timeout":
            time.sleep(request.deadline_ms / 1000 + LATE_S)
        if what == "exit":
            raise SystemExit(3)
        return choice


class _HostedScriptedBot(ScriptedBot):
    def act(self, request: DecisionRequest) -> int | dict[str, Any] | str:
        try:
            return super().act(request)
        except SystemExit as exc:
            sys.stderr.flush()
            os._exit(int(exc.code or 0))  # a crash: no goodbye, no clean-up


def main() -> int:
    from bots.sdk.client import run

    script = parse_script(sys.argv[1] if len(sys.argv) > 1 else "")
    run(lambda start: _HostedScriptedBot(script), give_up_s=10.0, threaded=False, client="scripted bot")
    return 0


if __name__ == "__main__":
    sys.exit(main())
