"""``Reject``: end an RPC with a gRPC status code (raised below the servicers, which abort with it)."""
from __future__ import annotations

import grpc


class Reject(Exception):
    """An RPC refused with ``code`` and a one-line ``detail`` (never a hidden fact)."""

    def __init__(self, code: grpc.StatusCode, detail: str) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail
