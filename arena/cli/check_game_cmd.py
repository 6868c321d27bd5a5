"""``arena check-game MODULE[:ATTR]``: the conformance suite on one game, from any package.

It runs ``pytest --pyargs referee.engine.conformance`` in a child process (so hypothesis settings,
the environment and a crashing game stay out of this process) with a private ini file (so the
caller's own pytest configuration does not change what is checked), then prints one summary line.
Exit status: 0 every check passed, 1 some failed, 2 the game cannot be loaded (one line, no traceback).
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

import click

from referee.engine.errors import UnknownGame
from referee.engine.registry import load_game


def _load(spec: str) -> str:
    """The game's id; a game that cannot be loaded is a usage error of one line."""
    if os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())  # like `python -m pytest`: the current directory is importable
    try:
        return load_game(spec).info.id
    except UnknownGame:
        raise
    except Exception as exc:  # noqa: BLE001 - an author's broken module: one line, not a traceback
        raise UnknownGame(f"cannot load game {spec!r}: {type(exc).__name__}: {exc}") from None


def _summary(junit: Path) -> tuple[int, list[str]]:
    """(passed, names of failed or erroring tests) from pytest's JUnit XML."""
    passed, failed = 0, []
    for case in ET.parse(junit).getroot().iter("testcase"):
        bad = [c for c in case if c.tag in ("failure", "error")]
        if bad:
            failed.append(case.get("name", "?"))
        elif not any(c.tag == "skipped" for c in case):
            passed += 1
    return passed, failed


def register(cli: click.Group) -> None:
    @cli.command("check-game")
    @click.argument("spec", metavar="MODULE[:ATTR]")
    @click.option("--examples", type=click.IntRange(1, 10_000), default=3, show_default=True,
                  help="Random playouts per seat count and mode (more digs deeper).")
    @click.option("-x", "--exitfirst", is_flag=True, help="Stop at the first failure.")
    @click.option("-k", "keyword", default=None, help="Only checks whose name matches (pytest -k).")
    def check_game(spec: str, examples: int, exitfirst: bool, keyword: str | None) -> None:
        """Run the conformance suite on a game: MODULE[:ATTR] (ATTR defaults to GAME) or a registered id.

        MODULE is imported from the current directory or the installed packages. Prints pytest's
        report for the failures, then one summary line; exit status 1 if anything failed.
        """
        game_id = _load(spec)
        with tempfile.TemporaryDirectory(prefix="arena-check-") as tmp:
            ini = Path(tmp) / "pytest.ini"
            ini.write_text("[pytest]\n")
            junit = Path(tmp) / "junit.xml"
            cmd = [sys.executable, "-m", "pytest", "-q", "--tb=short", "-c", str(ini), "--rootdir", tmp,
                   "-p", "no:cacheprovider", "-p", "referee.engine.conformance.plugin",
                   "--pyargs", "referee.engine.conformance", "--arena-game", spec, "--junitxml", str(junit)]
            if exitfirst:
                cmd.append("-x")
            if keyword:
                cmd += ["-k", keyword]
            path = os.pathsep.join(p for p in [os.getcwd(), os.environ.get("PYTHONPATH", "")] if p)
            env = {**os.environ, "PYTHONPATH": path, "ARENA_CONFORMANCE_EXAMPLES": str(examples)}
            rc = subprocess.call(cmd, env=env)
            if not junit.exists():
                click.secho(f"check-game {game_id}: the suite did not run (pytest exit status {rc})",
                            fg="red", err=True)
                sys.exit(2 if rc in (3, 4) else 1)
            passed, failed = _summary(junit)
        if failed or rc not in (0, 5):
            click.secho(f"check-game {game_id}: FAILED — {passed} passed, {len(failed)} failed: "
                        + ", ".join(failed[:10]) + (" ..." if len(failed) > 10 else ""), fg="red")
            sys.exit(1)
        if passed == 0:
            click.secho(f"check-game {game_id}: FAILED — no check ran (see -k)", fg="red")
            sys.exit(1)
        click.secho(f"check-game {game_id}: OK — {passed} checks passed", fg="green")
