"""The developer service's settings, from the environment (the style of ``arena.config``).

===============================  ===================================================  =========
variable                         meaning                                              default
===============================  ===================================================  =========
ARENA_DEV_REGISTRATION           ``open`` (a new developer may submit at once) or      approval
                                 ``approval`` (``arena developer approve NAME``)
ARENA_DEV_SUBMISSIONS_PER_HOUR   submissions per developer in any sliding hour         12
ARENA_DEV_PACKAGE_MB             largest upload (the compressed archive), MiB          64
ARENA_DEV_UNPACKED_MB            largest package once unpacked, MiB                    512
ARENA_DEV_FILES                  most files (and directories) in a package             50000
ARENA_DEV_BUILD_S                wall-time limit of a build, seconds                   600
ARENA_DEV_ACTIVE_VERSIONS        active versions per developer; a new active version   3
                                 beyond it retires the developer's oldest active one
ARENA_DEV_BUILDERS               builds (and smoke tests) at once                      1
ARENA_DEV_SMOKE_GAMES            most games a smoke test plays (0 = every game the     0
                                 version plays)
===============================  ===================================================  =========
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Literal

Registration = Literal["open", "approval"]


class SettingsError(ValueError):
    """A setting with a value it cannot take."""


def _int(name: str, default: int, minimum: int) -> int:
    raw = os.environ.get(name, "")
    if raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise SettingsError(f"{name}={raw!r} is not a whole number") from None
    if value < minimum:
        raise SettingsError(f"{name}={value} must be at least {minimum}")
    return value


@dataclass(frozen=True)
class DevSettings:
    registration: Registration = "approval"
    submissions_per_hour: int = 12
    package_bytes: int = 64 << 20
    unpacked_bytes: int = 512 << 20
    max_files: int = 50_000
    build_s: int = 600
    active_versions: int = 3
    builders: int = 1
    smoke_games: int = 0

    @classmethod
    def from_env(cls) -> DevSettings:
        mode = os.environ.get("ARENA_DEV_REGISTRATION", "") or "approval"
        if mode not in ("open", "approval"):
            raise SettingsError(f"ARENA_DEV_REGISTRATION={mode!r} must be 'open' or 'approval'")
        return cls(
            registration="open" if mode == "open" else "approval",
            submissions_per_hour=_int("ARENA_DEV_SUBMISSIONS_PER_HOUR", 12, 1),
            package_bytes=_int("ARENA_DEV_PACKAGE_MB", 64, 1) << 20,
            unpacked_bytes=_int("ARENA_DEV_UNPACKED_MB", 512, 1) << 20,
            max_files=_int("ARENA_DEV_FILES", 50_000, 1),
            build_s=_int("ARENA_DEV_BUILD_S", 600, 1),
            active_versions=_int("ARENA_DEV_ACTIVE_VERSIONS", 3, 1),
            builders=_int("ARENA_DEV_BUILDERS", 1, 1),
            smoke_games=_int("ARENA_DEV_SMOKE_GAMES", 0, 0),
        )
