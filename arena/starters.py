"""Starter kits: ``arena new-bot --lang LANG DIR`` copies a runnable bot project.

Each language's kit is described by ``bots/starters/<lang>/starter.toml`` (which files, the set-up
steps, the command that runs the bot); the code files are the repository's own tested bots
(``bots/node``, ``bots/go``) or a template, so a kit cannot drift from what the tests play.
"""
from __future__ import annotations

import json
import re
import shutil
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STARTERS = ROOT / "bots" / "starters"
NAME_RE = re.compile(r"^[a-z0-9][a-z0-9._-]{0,63}$")
PLACEHOLDER = "__BOT_NAME__"


class StarterError(ValueError):
    """A bad language, name or target directory."""


@dataclass(frozen=True)
class Starter:
    lang: str
    files: dict[str, str]
    setup: list[str]
    command: str
    rename: dict[str, str]
    manifest: dict[str, object]

    def run_command(self) -> str:
        """The command that runs the bot from its directory (``{python}`` = this interpreter)."""
        return self.command.replace("{python}", sys.executable)


def languages() -> list[str]:
    return sorted(p.parent.name for p in STARTERS.glob("*/starter.toml"))


def starter(lang: str) -> Starter:
    path = STARTERS / lang / "starter.toml"
    if not path.is_file():
        raise StarterError(f"no starter kit for {lang!r}; kits: {', '.join(languages())}")
    data = tomllib.loads(path.read_text())
    return Starter(lang, dict(data["files"]), list(data.get("setup", [])), str(data["command"]),
                   dict(data.get("rename", {})), dict(data.get("manifest", {})))


def manifest_text(kit: Starter, name: str) -> str:
    """The kit's ``arena-bot.toml``: ``arena submit DIR`` uploads the project as it is."""
    lines = ["# How `arena submit` packs this bot and the platform builds and runs it (docs/submitting.md).",
             f"name = {json.dumps(name)}", f"runtime = {json.dumps(kit.manifest.get('runtime', kit.lang))}",
             f"command = {json.dumps(kit.command)}",
             "games = []  # the games it plays (empty = every game); e.g. seats = { clank = [2] } narrows",
             "# seat counts. Optional: build, vendor + vendor_dir, exclude (docs/submitting.md)."]
    for key, value in kit.manifest.items():
        if key != "runtime":
            lines.append(f"{key} = {json.dumps(value)}")
    return "\n".join(lines) + "\n"


def check_name(name: str) -> str:
    if not NAME_RE.match(name):
        raise StarterError(f"bot name {name!r} must be 1-64 lowercase letters, digits, '.', '_' or '-' "
                           "(starting with a letter or digit); choose one with --name")
    return name


def create(lang: str, target: Path, name: str) -> Starter:
    """Write the kit into ``target`` (which must not exist or be empty)."""
    kit = starter(lang)
    check_name(name)
    if target.exists() and (not target.is_dir() or any(target.iterdir())):
        raise StarterError(f"{target} already exists and is not an empty directory")
    for source, dest in kit.files.items():
        src = ROOT / source
        out = target / dest
        out.parent.mkdir(parents=True, exist_ok=True)
        try:
            text = src.read_text()
        except UnicodeDecodeError:
            shutil.copyfile(src, out)
            continue
        for old, new in kit.rename.items():
            text = text.replace(old, new)
        out.write_text(text.replace(PLACEHOLDER, name))
        shutil.copymode(src, out)
    from arena.submissions.manifest import MANIFEST

    (target / MANIFEST).write_text(manifest_text(kit, name))
    return kit
