"""Organizer authentication: every OrganizerService call carries ``authorization: Bearer <token>``."""
from __future__ import annotations

import hmac
from collections.abc import Iterable
from typing import Any

import grpc

from .reject import Reject


class OrganizerAuth:
    """Checks the organizer token of a call (constant-time comparison)."""

    def __init__(self, token: str) -> None:
        if not token:
            raise ValueError("the organizer token must not be empty")
        self.token = token

    def check(self, metadata: Iterable[tuple[str, Any]] | None) -> None:
        """Raise ``Reject(UNAUTHENTICATED)`` unless ``metadata`` carries the organizer token."""
        md = dict(metadata or ())
        given = md.get("authorization", "")
        given = given.decode("utf-8", "replace") if isinstance(given, bytes) else str(given)
        token = given[7:] if given.startswith("Bearer ") else ""
        if not token or not hmac.compare_digest(token.encode(), self.token.encode()):
            raise Reject(grpc.StatusCode.UNAUTHENTICATED, "missing or wrong organizer token "
                         "(metadata 'authorization: Bearer <token>')")
