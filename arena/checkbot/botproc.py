"""The checked bot's process: started with the referee's address and a token, watched for exits."""
from __future__ import annotations

import os
import shlex
import signal
import subprocess
import tempfile
from pathlib import Path


class BotProcess:
    """``CMD`` run as a live bot (ARENA_REFEREE, ARENA_TOKEN, ARENA_CAPACITY in its environment)."""

    def __init__(self, argv: list[str], env: dict[str, str], cwd: str | None = None) -> None:
        self.argv = argv
        self.env = env
        self.cwd = cwd
        self.log_path = Path(tempfile.mkdtemp(prefix="arena-check-bot-")) / "bot.log"
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0
        self.exits: list[str] = []  # one line per exit we did not ask for

    def start(self) -> None:
        with open(self.log_path, "ab") as log:
            try:
                self.proc = subprocess.Popen(self.argv, env=self.env, cwd=self.cwd, stdin=subprocess.DEVNULL,
                                             stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
            except OSError as exc:
                raise BotCommandError(f"cannot run {shlex.join(self.argv)}: {exc.strerror or exc}") from None
        self.starts += 1

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def check_exit(self) -> str | None:
        """If the process has exited (and this was not yet reported): why, in one line."""
        if self.proc is None or self.proc.poll() is None:
            return None
        code = self.proc.returncode
        self.proc = None
        how = f"killed by signal {-code}" if code < 0 else f"exited with code {code}"
        last = self.last_line()
        why = f"the bot {how}" + (f" (last output: {last})" if last else "")
        self.exits.append(why)
        return why

    def last_line(self) -> str:
        try:
            lines = [line.strip() for line in self.log_path.read_text(errors="replace").splitlines()
                     if line.strip()]
        except OSError:
            return ""
        return lines[-1][:200] if lines else ""

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        try:
            os.killpg(self.proc.pid, signal.SIGTERM)
        except ProcessLookupError:
            return
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(5)


class BotCommandError(RuntimeError):
    """The bot's command cannot be started at all."""
