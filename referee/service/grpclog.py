"""One line, not a traceback, when a bot's stream closes before the referee's last write reaches it.

A bot that hangs up just as the referee sends its final status makes gRPC's server raise
``ExecuteBatchError`` before it has marked the call closed; gRPC then logs the error with a traceback
(``grpc._cython.cygrpc``, or asyncio's "exception was never retrieved"). Nothing is lost: the session
has ended either way. The referee's log says so in one line, so a traceback there always means a bug.
"""
from __future__ import annotations

import logging

_MESSAGE = "a bot's stream closed before the referee's last write reached it (gRPC ExecuteBatchError)"
_LOGGERS = ("grpc._cython.cygrpc", "asyncio")


def _is_closed_stream(exc: BaseException | None) -> bool:
    return exc is not None and type(exc).__name__ == "ExecuteBatchError"


class ClosedStreamFilter(logging.Filter):
    """Rewrites a record carrying an ``ExecuteBatchError`` as one warning line without a traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if _is_closed_stream(exc):
            record.msg, record.args = _MESSAGE, ()
            record.exc_info, record.exc_text, record.stack_info = None, None, None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


def quiet_closed_streams() -> None:
    """Installs the filter on gRPC's and asyncio's loggers (once per process)."""
    for name in _LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, ClosedStreamFilter) for f in logger.filters):
            logger.addFilter(ClosedStreamFilter())
