"""``arena replay verify|show``: check a replay by re-simulation, or step through it in the terminal."""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click
from rich.syntax import Syntax

from referee.engine import Replay, verify
from referee.engine.replay import states
from referee.engine.viewer import parse_viewer

from .common import console


def _steps(replay: Replay, viewer: Any) -> list[dict[str, Any]]:
    """Every step's view and the action that led to it (ply 0 = the start)."""
    out = []
    for ply, state in states(replay):
        action = replay.actions[ply - 1] if ply else None
        out.append({"ply": ply, "action": action, "view": state.observe(viewer),
                    "pending": state.pending()})
    return out


def register(cli: click.Group) -> None:
    @cli.group("replay")
    def replay() -> None:
        """Verify or step through replay files."""

    @replay.command("verify")
    @click.argument("path", type=click.Path(path_type=Path))
    def verify_cmd(path: Path) -> None:
        """Re-simulate PATH and check every recorded digest and the outcome."""
        rep = Replay.load(path)
        report = verify(rep)
        console.print(f"[green]OK[/green] {rep.game} v{rep.game_version}: {report.plies} decisions, "
                      f"{report.checkpoints} checkpoints match, final digest {report.final_digest}")
        console.print(f"outcome: ranks {report.outcome['ranks']}, scores {report.outcome['scores']}")

    @replay.command("show")
    @click.argument("path", type=click.Path(path_type=Path))
    @click.option("--view", "viewer_text", default="all", show_default=True,
                  help="Whose view to show: a seat number, 'public' or 'all'.")
    @click.option("--step", type=int, default=None, help="Print only this step (ply) and exit.")
    @click.option("--interactive/--no-interactive", default=None,
                  help="Step with keys (default: when the terminal is interactive).")
    def show(path: Path, viewer_text: str, step: int | None, interactive: bool | None) -> None:
        """Step through PATH: n/Enter next, p previous, g N go to step, v toggle view, q quit."""
        rep = Replay.load(path)
        try:
            viewer = parse_viewer(viewer_text)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--view") from None
        steps = _steps(rep, viewer)
        seats = {s["seat"]: s["bot"] for s in rep.seats}
        if step is not None:
            if not 0 <= step < len(steps):
                raise click.BadParameter(f"step must be 0..{len(steps) - 1}", param_hint="--step")
            _print_step(steps[step], seats, len(steps), show_view=True)
            return
        if interactive is None:
            interactive = sys.stdin.isatty()
        if not interactive:
            for s in steps:
                _print_step(s, seats, len(steps), show_view=False)
            console.print(f"outcome: {json.dumps(rep.outcome)}")
            return
        i, show_view = 0, True
        while True:
            _print_step(steps[i], seats, len(steps), show_view)
            cmd = click.prompt("[n]ext [p]rev [g N] [v]iew [q]uit", default="n", show_default=False).strip()
            if cmd in ("q", "quit"):
                return
            if cmd in ("n", ""):
                i = min(i + 1, len(steps) - 1)
            elif cmd == "p":
                i = max(i - 1, 0)
            elif cmd == "v":
                show_view = not show_view
            elif cmd.startswith("g"):
                try:
                    i = max(0, min(int(cmd[1:].strip()), len(steps) - 1))
                except ValueError:
                    console.print("usage: g N")


def _print_step(step: dict[str, Any], seats: dict[int, str], total: int, show_view: bool) -> None:
    a = step["action"]
    head = f"[bold]step {step['ply']}/{total - 1}[/bold]"
    if a is None:
        console.print(f"{head}  start; pending seats {step['pending']}")
    else:
        console.print(f"{head}  seat {a['seat']} ({seats.get(a['seat'], '?')}): "
                      f"{json.dumps(a['action'], separators=(',', ':'))}  [dim]{a.get('ms', 0)} ms[/dim]")
    if show_view:
        console.print(Syntax(json.dumps(step["view"], indent=1), "json", word_wrap=True))
