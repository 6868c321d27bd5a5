"""The gRPC referee: bot sessions, matches, hosted bots, organizer calls (see docs/protocol.md).

``create_server(address)`` builds and starts a server (tests bind port 0);
``serve(...)`` runs one until interrupted (``arena referee``). Imports are lazy so that
``referee.client`` can use ``referee.service.convert`` without loading the server.
"""
from __future__ import annotations

from typing import Any

__all__ = ["Referee", "RefereeConfig", "create_server", "serve"]


def __getattr__(name: str) -> Any:
    if name == "RefereeConfig":
        from .config import RefereeConfig

        return RefereeConfig
    if name in ("Referee", "create_server", "serve"):
        from . import server

        return getattr(server, name)
    raise AttributeError(name)
