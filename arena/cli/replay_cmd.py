"""``arena replay verify|show``: check a replay by re-simulation, or step through it in the terminal."""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click
from rich.markup import escape
from rich.syntax import Syntax

from referee.engine import Replay, verify
from referee.engine.replay import states
from referee.engine.viewer import ALL, PUBLIC, parse_viewer

from .common import console

#: Events listed per step before "... and N more" (a step summary should fit on a screen).
MAX_EVENTS = 12


def _steps(replay: Replay, viewer: Any) -> list[dict[str, Any]]:
    """Every step's view, the action that led to it (ply 0 = the start), the events it caused as
    ``viewer`` sees them, and whose decision comes next."""
    out = []
    cursor = 0
    for ply, state in states(replay):
        action = replay.actions[ply - 1] if ply else None
        events = state.events_for(viewer, cursor)
        cursor = len(state.log.entries)
        out.append({"ply": ply, "action": action, "view": state.observe(viewer), "events": events,
                    "pending": state.pending()})
    return out


def _compact(value: Any, limit: int = 100) -> str:
    text = json.dumps(value, separators=(",", ":"))
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _event_line(event: dict[str, Any]) -> str:
    fields = " ".join(f"{k}={_compact(v, 40)}" for k, v in event.items() if k != "type")
    return f"{event.get('type', '?')} {fields}".rstrip()


def _print_step(step: dict[str, Any], seats: dict[int, str], total: int, show_view: bool) -> None:
    """A readable summary: who did what, what happened (events), who decides next.

    The view as JSON on request."""
    a = step["action"]
    head = f"[bold]step {step['ply']}/{total - 1}[/bold]"
    if a is None:
        console.print(f"{head}  start of the match")
    else:
        console.print(f"{head}  seat {a['seat']} ({escape(seats.get(a['seat'], '?'))}): "
                      f"{escape(_compact(a['action'], 200))}  [dim]{a.get('ms', 0)} ms[/dim]")
    events = step["events"]
    for e in events[:MAX_EVENTS]:
        console.print(f"  · {escape(_event_line(e))}", highlight=False)
    if len(events) > MAX_EVENTS:
        console.print(f"  · ... and {len(events) - MAX_EVENTS} more events", highlight=False)
    pending = step["pending"]
    if pending:
        who = ", ".join(f"seat {s} ({escape(seats.get(s, '?'))})" for s in pending)
        console.print(f"  next: {who} to decide" + (" (simultaneously)" if len(pending) > 1 else ""))
    else:
        console.print("  the match is over")
    if show_view:
        console.print(Syntax(json.dumps(step["view"], indent=1), "json", word_wrap=True))


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
    @click.option("--step", type=click.IntRange(min=0), default=None,
                  help="Print only this step (ply), with its view as JSON, and exit.")
    @click.option("--json", "with_json", is_flag=True, help="Print each step's view as JSON too.")
    @click.option("--interactive/--no-interactive", default=None,
                  help="Step with keys (default: when the terminal is interactive).")
    def show(path: Path, viewer_text: str, step: int | None, with_json: bool,
             interactive: bool | None) -> None:
        """Step through PATH: n/Enter next, p previous, g N go to step, j show/hide the view as JSON, q quit.

        Each step shows the move, the events it caused (as the chosen view sees them) and whose
        decision comes next.
        """
        rep = Replay.load(path)
        try:
            viewer = parse_viewer(viewer_text)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--view") from None
        if viewer not in (PUBLIC, ALL) and not 0 <= int(viewer) < rep.players:
            raise click.BadParameter(f"no seat {viewer} in this {rep.players}-seat match (seats "
                                     f"0-{rep.players - 1}, "
                                     "'public' or 'all')", param_hint="--view")
        steps = _steps(rep, viewer)
        seats = {s["seat"]: s["bot"] for s in rep.seats}
        if step is not None:
            if step >= len(steps):
                raise click.BadParameter(f"step must be 0..{len(steps) - 1}", param_hint="--step")
            _print_step(steps[step], seats, len(steps), show_view=True)
            return
        if interactive is None:
            interactive = sys.stdin.isatty()
        if not interactive:
            for s in steps:
                _print_step(s, seats, len(steps), show_view=with_json)
            console.print(f"outcome: {json.dumps(rep.outcome)}", highlight=False)
            return
        i, show_view = 0, with_json
        while True:
            _print_step(steps[i], seats, len(steps), show_view)
            cmd = click.prompt("[n]ext [p]rev [g N] [j]son [q]uit", default="n", show_default=False).strip()
            if cmd in ("q", "quit"):
                return
            if cmd in ("n", ""):
                i = min(i + 1, len(steps) - 1)
            elif cmd == "p":
                i = max(i - 1, 0)
            elif cmd in ("j", "v"):
                show_view = not show_view
            elif cmd.startswith("g"):
                try:
                    i = max(0, min(int(cmd[1:].strip()), len(steps) - 1))
                except ValueError:
                    console.print("usage: g N")
            else:
                console.print(
                    "keys: n next, p previous, g N go to step N, j show/hide the view as JSON, q quit")
