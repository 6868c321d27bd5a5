"""Every command, fed bad input, answers with one clear line and exit status 2: never a traceback.

The commands are enumerated from the CLI's own parser, so a new command without bad-input cases
here fails ``test_every_command_has_bad_input_cases``. The cases run in-process through click's
runner (the real CLI, minus a process start per case); a few run as real processes below.
"""
from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import click
import pytest
from click.testing import CliRunner, Result

from arena.cli.main import cli
from referee.engine import get_game, run_match

ROOT = Path(__file__).resolve().parents[2]
MARKERS = ("Traceback", "internal error")

# Numeric options that take any integer: a seed, or an id (an unknown id is reported as such).
UNBOUNDED = {"--seed", "--seed-base", "tid"}


def commands(group: click.Group = cli, path: tuple[str, ...] = ()) -> Iterator[tuple[str, click.Command]]:
    """Every command a user can run, as 'group sub' paths (a group that runs by itself counts too)."""
    for name, cmd in sorted(group.commands.items()):
        if isinstance(cmd, click.Group):
            if cmd.invoke_without_command:
                yield " ".join((*path, name)), cmd
            yield from commands(cmd, (*path, name))
        else:
            yield " ".join((*path, name)), cmd


@pytest.fixture(scope="module")
def replay_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from bots.random_bot import RandomBot

    result = run_match(get_game("clank"), [RandomBot(1), RandomBot(2)], seed=3, match_id="m1")
    path = tmp_path_factory.mktemp("replays") / "m.json"
    result.replay.save(path)
    return path


# command path -> [(arguments after the path, words the one-line error must contain)]
BAD_INPUT: dict[str, list[tuple[list[str], str]]] = {
    "games": [(["chess"], "unknown game 'chess'"), (["show"], "which game"), (["--schema"], "needs a GAME")],
    "play": [(["clank", "--bots", "os:path"], "not a bot class"),
             (["clank", "--bots", "bots/nothere.py:Bot"], "does not exist"),
             (["clank", "--bots", "no_such_module:Bot"], "cannot import bot module"),
             (["clank", "--seats", "0"], "0 is not in the range"),
             (["clank", "--seats", "9"], "takes 2-4 seats"),
             (["clank", "--time-ms", "-5"], "-5 is not in the range")],
    "replay verify": [(["/nonexistent/r.json"], "cannot read replay")],
    "replay show": [(["{replay}", "--view", "7"], "no seat 7"),
                    (["{replay}", "--view", "me"], "viewer must be"),
                    (["{replay}", "--step", "99999"], "step must be"),
                    (["/nonexistent/r.json"], "cannot read")],
    "eval": [(["clank", "--bots", "heuristic,nobot"], "unknown built-in bot 'nobot'"),
             (["clank", "-j", "-1"], "-1 is not in the range"),
             (["clank", "--games", "0"], "0 is not in the range"),
             (["clank", "--seats", "0"], "0 is not in the range")],
    "gauntlet": [(["clank", "-s", "nobot"], "unknown built-in bot 'nobot'"),
                 (["clank", "-s", "random", "-u", "0"],
                 "0 is not in the range"),
                 (["clank", "-s", "random", "--alpha", "1.5"], "1.5 is not in the range")],
    "bench dashboard": [(["--bots", "1"], "1 is not in the range")],
    "bench forward": [(["--game", "chess"], "unknown game 'chess'"),
                      (["--runs", "0"], "0 is not in the range"),
                      (["--batch", "0"], "0 is not in the range"),
                      (["--remote", "--batch", "5000"], "5000 is not in the range")],
    "bench engine": [(["--game", "chess"], "unknown game 'chess'"),
                     (["--runs", "0"], "0 is not in the range")],
    "bench protocol": [(["--matches", "0"], "0 is not in the range")],
    "bench decision": [(["--matches", "0"], "0 is not in the range"),
                       (["--game", "chess"], "unknown game(s)")],
    "bench tournament": [(["--deals", "0"], "0 is not in the range")],
    "referee": [(["--address", "notanaddress"], "is not HOST:PORT"),
                (["--address", "127.0.0.1:99999"], "is not HOST:PORT"),
                (["--max-strikes", "0"], "0 is not in the range")],
    "referee add-bot": [(["bad name!"], "must be 1-64 characters")],
    "referee revoke-bot": [(["nobody"], "no registered bot named 'nobody'"),
                           (["x", "--referee", "nowhere"], "is not HOST:PORT")],
    "referee bots": [(["extra"], "unexpected extra argument")],
    "referee status": [(["--referee", "nowhere", "--organizer-token", "t"], "is not HOST:PORT")],
    "referee watch": [(["--organizer-token", "t"], "Missing argument")],
    "referee gen-proto": [(["extra"], "unexpected extra argument")],
    "bot add": [(["x", "--builtin", "random", "--games", "nogame"], "unknown game 'nogame'"),
                (["x"], "exactly one of"), (["bad name!", "--builtin", "random"], "bad bot name")],
    "bot list": [(["--game", "chess"], "unknown game 'chess'")],
    "bot remove": [(["nobody"], "no bot named 'nobody'")],
    "bot show": [(["nobody"], "no bot named 'nobody'"), (["x", "--recent", "-1"], "-1 is not in the range")],
    "bot output": [(["nobody"], "no bot named 'nobody'"), (["x", "--matches", "0"], "0 is not in the range")],
    "bridge": [(["--token", "t", "--capacity", "0", "--", "true"], "0 is not in the range"),
               (["--token", "t", "--referee", "x:y", "--", "true"], "is not HOST:PORT")],
    "connect": [(["--token", "t", "--capacity", "0", "random"], "0 is not in the range")],
    "tournament create": [(["clank", "--bots", "a,b"], "unknown bot 'a'"),
                          (["clank", "--bots", "a,b", "--games", "0"], "0 is not in the range"),
                          (["clank", "--bots", "a,b", "--seats", "two"], "not a seat count")],
    "tournament run": [(["999"], "no tournament 999"), (["x"], "is not a valid integer")],
    "tournament status": [(["999"], "no tournament 999")],
    "tournament cancel": [(["999"], "no tournament 999")],
    "tournament report": [(["999"], "no tournament 999")],
    "tournament verify": [(["999"], "no tournament 999")],
    "tournament retry": [(["999"], "no tournament 999"), (["x"], "is not a valid integer")],
    "ladder show": [(["--top", "-1"], "-1 is not in the range"), (["chess"], "unknown game 'chess'")],
    "ladder run": [(["chess"], "unknown game 'chess'"), (["clank", "--for", "soon"],
                                                         "'soon' is not a duration"),
                   (["clank", "--for", "0m"], "is not a duration"),
                   (["clank", "--for", "1s", "--option", "x"], "must look like key=value"),
                   (["clank", "--executor", "cloud"], "'cloud' is not one of")],
    "ladder status": [(["chess"], "unknown game 'chess'")],
    "ladder retire": [(["nobody"], "no bot named 'nobody'")],
    "ladder reinstate": [(["nobody"], "no bot named 'nobody'")],
    "ladder close": [(["chess"], "unknown game 'chess'"), (["clank"], "no clank ladder season is running")],
    "worker": [([], "no broker")],
    "demo": [(["--port", "-5"], "-5 is not in the range"),
             (["--games", "chess"], "Invalid value for --games: unknown game 'chess'"),
             (["--key", "abc"], "a deal key is 64 hex digits")],
    "check-bot": [([], "give either a command after -- or --bot NAME"),
                  (["--bot", "x"], "--bot needs --referee"),
                  (["--game", "chess", "--", "true"], "unknown game 'chess'"),
                  (["--", "/nonexistent/bot"], "cannot run /nonexistent/bot"),
                  (["--deadline-ms", "0"], "0 is not")],
    "refeed": [(["/nonexistent/r.json", "--seat", "0", "--", "true"], "cannot read replay"),
               (["{replay}", "--seat", "9", "--", "true"], "no seat 9 in this 2-seat match"),
               (["{replay}", "--seat", "0"], "Missing argument"),
               (["{replay}", "--seat", "0", "--", "/nonexistent/bot"], "cannot run /nonexistent/bot")],
    "check-game": [(["chess"], "cannot import 'chess'"), (["x", "--examples", "0"], "0 is not in the range")],
    "new-bot": [(["--lang", "rust", "x"], "'rust' is not one of"),
                (["--lang", "go", "{replay}"], "already exists"),
                (["--lang", "go", "/tmp/Bad Name"], "bot name 'bad name'")],
    "dashboard": [(["--port", "-5"], "-5 is not in the range"),
                  (["--replays", "/nonexistent"], "does not exist")],
    "devserver": [(["--address", "nowhere"], "is not HOST:PORT"),
                  (["--referee", "127.0.0.1:1"], "--referee needs --organizer-token")],
    "submit": [(["/nonexistent"], "does not exist"), (["{replay}"], "is a file"),
               (["/"], "/ has no arena-bot.toml"), (["/", "--server", "nowhere"], "is not HOST:PORT")],
    "developer register": [(["Bad Name"], "bad developer name 'Bad Name'"),
                           (["x", "--server", "x"], "is not HOST:PORT")],
    "developer status": [(["--server", "nowhere"], "is not HOST:PORT")],
    "developer versions": [(["--server", "nowhere"], "is not HOST:PORT")],
    "developer logs": [([], "Missing argument"), (["b@1", "--server", "x"], "is not HOST:PORT"),
                       (["b@1", "--matches", "-1"], "-1 is not in the range")],
    "developer retire": [([], "Missing argument"), (["b@1", "--server", "x"], "is not HOST:PORT")],
    "developer approve": [(["nobody"], "no developer named 'nobody'")],
    "developer disable": [(["nobody"], "no developer named 'nobody'")],
    "developer list": [(["extra"], "unexpected extra argument")],
}


def invoke(args: list[str], home: Path) -> Result:
    env = {"ARENA_HOME": str(home), "ARENA_DB_URL": "", "ARENA_BROKER_URL": "", "ARENA_REFEREE": "",
           "ARENA_ORGANIZER_TOKEN": "", "COLUMNS": "200"}
    return CliRunner().invoke(cli, args, env=env, catch_exceptions=True)


def check_one_clear_line(result: Result, args: list[str], words: str | None = None) -> None:
    shown = f"arena {' '.join(args)}: exit {result.exit_code}\n{result.output}"
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise AssertionError(f"{shown}\nunhandled {result.exception!r}") from result.exception
    assert not any(m in result.output for m in MARKERS), shown
    assert result.exit_code == 2, shown
    error_lines = [line for line in result.output.splitlines() if line.lower().startswith("error")]
    assert len(error_lines) == 1, shown
    if words is not None:
        assert words in error_lines[0], shown


def test_every_command_has_bad_input_cases() -> None:
    names = {name for name, _ in commands()}
    assert names - BAD_INPUT.keys() == set(), "commands without bad-input cases"
    assert BAD_INPUT.keys() - names == set(), "cases for commands that no longer exist"


@pytest.mark.parametrize("path, args, words", [(p, a, w) for p, cases in BAD_INPUT.items() for a, w in cases])
def test_bad_input(path: str, args: list[str], words: str, tmp_path: Path, replay_file: Path) -> None:
    argv = [*path.split(), *(a.replace("{replay}", str(replay_file)) for a in args)]
    check_one_clear_line(invoke(argv, tmp_path), argv, words)


@pytest.mark.parametrize("path", [name for name, _ in commands()])
def test_unknown_option(path: str, tmp_path: Path) -> None:
    argv = [*path.split(), "--no-such-option"]
    cmd = dict(commands())[path]
    # `arena bridge -- CMD` passes unknown options on to CMD: it still must fail cleanly (no --token)
    words = None if cmd.context_settings.get("ignore_unknown_options") else "No such option"
    check_one_clear_line(invoke(argv, tmp_path), argv, words)


def numeric_options() -> Iterator[tuple[str, click.Parameter]]:
    for name, cmd in commands():
        for param in cmd.params:
            if isinstance(param.type, (click.types.IntParamType, click.types.FloatParamType)):
                yield name, param


def test_numeric_options_have_ranges() -> None:
    """A count, size, port or delay cannot be negative (or zero where that means nothing)."""
    loose = [f"{name} {p.opts[0]}" for name, p in numeric_options()
             if not isinstance(p.type, click.types._NumberRangeBase) and p.opts[0] not in UNBOUNDED]
    assert loose == []


@pytest.mark.parametrize("path, opt, value", [
    (name, p.opts[0], str(p.type.min - 1 if p.type.min_open is False else p.type.min))
    for name, p in numeric_options() if isinstance(p.type, click.types._NumberRangeBase)
    and p.type.min is not None
    and isinstance(p, click.Option)])
def test_numeric_option_below_its_range(path: str, opt: str, value: str, tmp_path: Path) -> None:
    argv = [*path.split(), opt, value]
    check_one_clear_line(invoke(argv, tmp_path), argv, "is not in the range")


@pytest.mark.parametrize("path, opt",
                         [(name, p.opts[0]) for name, p in numeric_options() if isinstance(p, click.Option)])
def test_numeric_option_not_a_number(path: str, opt: str, tmp_path: Path) -> None:
    argv = [*path.split(), opt, "many"]
    check_one_clear_line(invoke(argv, tmp_path), argv, "is not a valid")


def test_an_unexpected_error_is_one_line_not_a_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    """The last line of defence: a bug still gives one line (and the traceback with ARENA_DEBUG=1)."""
    from arena.cli.main import ArenaGroup

    group = ArenaGroup()

    @group.command("buggy")
    def buggy() -> None:
        raise RuntimeError("boom")

    monkeypatch.delenv("ARENA_DEBUG", raising=False)
    out = CliRunner().invoke(group, ["buggy"])
    assert isinstance(out.exception, SystemExit) and out.exit_code == 1
    assert out.output.strip().startswith("error: internal error (RuntimeError: boom)")
    assert len(out.output.strip().splitlines()) == 1
    out = CliRunner().invoke(group, ["buggy"], env={"ARENA_DEBUG": "1"})
    assert isinstance(out.exception, RuntimeError)


def test_piped_output_is_not_wrapped(tmp_path: Path) -> None:
    deep = tmp_path / ("a-long-directory-name-" * 4) / ("and-another-one-" * 3)
    path = deep / "clank-replay-with-a-long-name.json"
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    env["PYTHONPATH"] = str(ROOT)
    out = subprocess.run([sys.executable, "-m", "arena.cli.main", "play", "clank", "--replay", str(path)],
                         capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120, check=False)
    assert out.returncode == 0, out.stderr
    assert len(str(path)) > 120
    line = next(line for line in out.stdout.splitlines() if "replay written to" in line)
    assert str(path) in line and f"arena replay show {path}" in line


def test_bench_engine_advice_keeps_its_brackets() -> None:
    from arena.bench import engine

    tree = ast.parse(Path(engine.__file__).read_text())
    # rich would read "[bench]" as a style tag and print "pip install -e '.'": the call opts out of markup
    call = next(n for n in ast.walk(tree) if isinstance(n, ast.Call)
                and any(isinstance(a, ast.Constant) and "pip install -e '.[bench]'" in str(a.value)
                        for a in n.args))
    assert any(k.arg == "markup" and isinstance(k.value, ast.Constant) and k.value.value is False
               for k in call.keywords)


def test_replay_viewer_summarises_each_step(replay_file: Path, tmp_path: Path) -> None:
    out = invoke(["replay", "show", str(replay_file), "--view", "1", "--no-interactive"], tmp_path)
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    assert lines[0].startswith("step 0/") and "start of the match" in lines[0]
    assert any(line.strip().startswith("· draw") for line in lines)
    assert any("next: seat 0 (RandomBot) to decide" in line for line in lines)
    assert "{" not in "\n".join(lines[:5]).replace('{"', ""), "no JSON view unless asked"
    assert len(lines) < 30 * len(json.loads(replay_file.read_text())["actions"])
    with_json = invoke(["replay", "show", str(replay_file), "--view", "1", "--step", "1"], tmp_path)
    assert with_json.exit_code == 0 and '"hand"' in with_json.output
    # the interactive viewer: j shows the view as JSON, q quits
    keys = invoke(["replay", "show", str(replay_file), "--interactive"], tmp_path)
    assert keys.exit_code == 1 or "step 0/" in keys.output  # no input: click aborts at the prompt
    keys = CliRunner().invoke(cli, ["replay", "show", str(replay_file), "--interactive"], input="n\nj\nq\n")
    assert keys.exit_code == 0, keys.output
    assert keys.output.count("step 1/") == 2
    before, after = keys.output.split("step 1/")[1:]
    assert "\n{" not in before and "\n{" in after  # the view as JSON only after 'j'
    assert len(after.splitlines()) > len(before.splitlines()) + 20


def test_dashboard_shows_each_replay_file(tmp_path: Path) -> None:
    """`arena play` names every match play-SEED: replays of two games with one seed are still two matches."""
    from fastapi.testclient import TestClient

    from dashboard.app import create_app

    for game in ("clank", "dungeon_twister"):
        out = invoke(["play", game, "--seed", "7", "--replay", str(tmp_path / f"{game}-seed7.json")],
                     tmp_path)
        assert out.exit_code == 0, out.output
    with TestClient(create_app(replays_dir=tmp_path)) as client:
        items = client.get("/api/matches").json()["items"]
    assert sorted(m["game"] for m in items) == ["clank", "dungeon_twister"]
    assert len({m["id"] for m in items}) == 2


def test_demo_dashboard_on_port_zero(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from arena.demo import dashboard_process

    monkeypatch.setenv("ARENA_HOME", str(tmp_path))
    with dashboard_process(0, log_dir=tmp_path, timeout_s=90) as url:
        assert url is not None and not url.endswith(":0/")
        import httpx

        assert httpx.get(url, timeout=30).status_code == 200
