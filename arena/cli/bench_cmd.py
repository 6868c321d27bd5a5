"""``arena bench``: benchmarks. Each lives in ``arena/bench/<name>.py`` and defines a click ``command``."""
from __future__ import annotations

import importlib
import pkgutil

import click

import arena.bench


def register(cli: click.Group) -> None:
    @cli.group("bench")
    def bench() -> None:
        """Measure speed: engine, protocol, tournament, dashboard."""

    for info in sorted(pkgutil.iter_modules(arena.bench.__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"arena.bench.{info.name}")
        command = getattr(module, "command", None)
        if isinstance(command, click.Command):
            bench.add_command(command, info.name)
