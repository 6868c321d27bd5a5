"""Bot names on the command line.

Built-ins (``random``, ``heuristic``) or ``module:Class`` / ``file.py:Class``.
"""
from __future__ import annotations

import importlib
import importlib.util
from pathlib import Path
from types import ModuleType

from bots.builtin import UnknownBot, make_bot
from bots.sdk.bot import Bot


def parse_bot_list(text: str, players: int) -> list[str]:
    """'random' -> N copies; 'a,b' must name one bot per seat (or exactly one)."""
    names = [n.strip() for n in text.split(",") if n.strip()]
    if len(names) == 1:
        return names * players
    if len(names) != players:
        raise UnknownBot(f"--bots names {len(names)} bots for {players} seats")
    return names


def _module_name(path: Path) -> str | None:
    """``bots/random_bot.py`` -> ``bots.random_bot`` when the file sits in packages under the current
    directory (so its relative imports work); None for a stand-alone file."""
    try:
        rel = path.resolve().relative_to(Path.cwd().resolve())
    except ValueError:
        return None
    parts = rel.with_suffix("").parts
    for i in range(1, len(parts)):
        if not (Path.cwd() / Path(*parts[:i]) / "__init__.py").exists():
            return None
    return ".".join(parts) if len(parts) > 1 else None


def _import(target: str) -> ModuleType:
    if target.endswith(".py"):
        path = Path(target)
        if not path.is_file():
            raise UnknownBot(f"bot file {target} does not exist")
        dotted = _module_name(path)
        if dotted is not None:
            return _import(dotted)
        spec = importlib.util.spec_from_file_location(path.stem, path)
        if spec is None or spec.loader is None:
            raise UnknownBot(f"{target} is not a Python file")
        module = importlib.util.module_from_spec(spec)
        try:
            spec.loader.exec_module(module)
        except Exception as exc:  # noqa: BLE001 - the user's file: report it in one line
            raise UnknownBot(f"cannot load {target}: {type(exc).__name__}: {exc}") from None
        return module
    try:
        return importlib.import_module(target)
    except ModuleNotFoundError as exc:
        raise UnknownBot(f"cannot import bot module {target!r} ({exc})") from None
    except Exception as exc:  # noqa: BLE001
        raise UnknownBot(f"cannot import bot module {target!r}: {type(exc).__name__}: {exc}") from None


def load_bot(name: str, game_id: str, seed: int) -> Bot:
    """A fresh bot for one match."""
    if ":" not in name:
        return make_bot(name, game_id, seed)
    target, _, cls_name = name.rpartition(":")
    module = _import(target)
    cls = getattr(module, cls_name, None)
    if cls is None:
        raise UnknownBot(f"{target} has no class {cls_name!r}")
    if not (isinstance(cls, type) and callable(getattr(cls, "act", None))):
        raise UnknownBot(
            f"{target}:{cls_name} is not a bot class (one with an act() method, like bots.sdk.Bot)")
    try:
        return cls(seed)
    except Exception as exc:  # noqa: BLE001
        raise UnknownBot(f"cannot create {name}: {type(exc).__name__}: {exc}") from None
