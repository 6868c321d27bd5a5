"""The JSON-lines bridge: a bot in any language plays by reading and writing lines on stdin/stdout.

``arena bridge -- CMD ARGS...`` connects to the referee like any bot and starts ``CMD`` once per
match. Each line the program reads is one JSON object (see docs/protocol.md, "JSON lines"):

    {"type": "start", "match_id", "game", "game_version", "options", "seat", "players", "bots",
     "time_control": {"per_decision_ms", "bank_ms"}}
    {"type": "decision", "match_id", "decision_id", "seat", "view", "legal", "events",
     "deadline_ms", "time_bank_ms", "attempt"}
    {"type": "error", "code", "consequence", "message", "decision_id", "strikes"}
    {"type": "end", "outcome": {...}}            (then stdin closes; the program should exit)

and for every "decision" it writes exactly one line: ``{"index": N}`` or ``{"action": {...}}``.
A line that is not such an object is passed to the referee as is, so the referee's typed error
(MALFORMED_ANSWER) comes back as an "error" line. The program's stderr goes to the bridge's.
"""
from __future__ import annotations

import json
import logging
import subprocess
import threading
from collections.abc import Sequence
from typing import Any

from referee.engine.agent import DecisionRequest, MatchStart

from .bot import Bot

log = logging.getLogger("bots.bridge")


class PipeBot(Bot):
    """One child process per match, spoken to in JSON lines."""

    def __init__(self, argv: Sequence[str], cwd: str | None = None) -> None:
        super().__init__(0)
        self.argv = list(argv)
        self.cwd = cwd
        self.proc: subprocess.Popen[str] | None = None
        self._lock = threading.Lock()

    def _send(self, obj: dict[str, Any]) -> None:
        assert self.proc is not None and self.proc.stdin is not None
        try:
            self.proc.stdin.write(json.dumps(obj, separators=(",", ":")) + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, ValueError, OSError):
            log.warning("bot program exited early (%s)", self.proc.poll())

    def start(self, info: MatchStart) -> None:
        super().start(info)
        self.proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                     bufsize=1, cwd=self.cwd)
        self._send({"type": "start", "match_id": info.match_id, "game": info.game,
                    "game_version": info.game_version, "options": info.options, "seat": info.seat,
                    "players": info.players, "bots": info.bots, "time_control": info.time_control.to_json()})

    # A str is the program's answer line relayed as is, for the referee to judge (the SDK client
    # sends it as action_json): this bot only runs out of process, not as an in-process Agent.
    def act(self, request: DecisionRequest) -> int | dict[str, Any] | str:  # type: ignore[override]
        with self._lock:
            self._send({"type": "decision", "match_id": request.match_id, "decision_id": request.decision_id,
                        "seat": request.seat, "view": request.view, "legal": request.legal,
                        "events": request.events, "deadline_ms": request.deadline_ms,
                        "time_bank_ms": request.time_bank_ms})
            assert self.proc is not None and self.proc.stdout is not None
            line = self.proc.stdout.readline()
        if not line:
            return '"the bot program closed its stdout"'  # -> MALFORMED_ANSWER at the referee
        return parse_answer(line)

    def on_error(self, err: dict[str, Any]) -> None:
        self._send({"type": "error", **{k: v for k, v in err.items()}})

    def end(self, outcome: dict[str, Any]) -> None:
        if self.proc is None:
            return
        self._send({"type": "end", "outcome": outcome})
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def parse_answer(line: str) -> int | dict[str, Any] | str:
    """``{"index": N}`` -> N; ``{"action": {...}}`` -> the action; anything else -> the raw line."""
    try:
        obj = json.loads(line)
    except json.JSONDecodeError:
        return line.strip()
    if isinstance(obj, dict):
        if isinstance(obj.get("index"), int) and not isinstance(obj["index"], bool) and obj["index"] >= 0:
            return int(obj["index"])
        if isinstance(obj.get("action"), dict):
            return obj["action"]
    return line.strip()
