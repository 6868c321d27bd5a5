"""A bot hanging up during the referee's last write is one warning line in the log, never a traceback."""
from __future__ import annotations

import asyncio
import io
import logging

from grpc._cython import cygrpc

from referee.service.grpclog import quiet_closed_streams


def _capture(name: str) -> tuple[logging.Logger, io.StringIO, logging.Handler]:
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    logger = logging.getLogger(name)
    logger.addHandler(handler)
    return logger, out, handler


def test_grpc_logger_line_has_no_traceback() -> None:
    quiet_closed_streams()
    logger, out, handler = _capture("grpc._cython.cygrpc")
    try:
        try:
            raise cygrpc.ExecuteBatchError("Failed \"execute_batch\": (<SendStatusFromServerOperation>,)")
        except cygrpc.ExecuteBatchError:
            logger.exception("Unexpected [ExecuteBatchError] raised by servicer method [/arena.Bot/Play]")
        try:
            raise ValueError("a real bug")
        except ValueError:
            logger.exception("Unexpected [ValueError] raised by servicer method")
    finally:
        logger.removeHandler(handler)
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("WARNING") and "stream closed" in lines[0]
    # any other error keeps its traceback: the filter hides nothing else
    assert "Traceback" in out.getvalue() and "a real bug" in out.getvalue()
    assert out.getvalue().count("Traceback") == 1


def test_asyncio_unretrieved_task_line_has_no_traceback() -> None:
    quiet_closed_streams()
    _, out, handler = _capture("asyncio")

    async def main() -> None:
        # what asyncio's default handler is given for a servicer task whose exception nobody awaited
        asyncio.get_running_loop().call_exception_handler(
            {"message": "Task exception was never retrieved", "exception": cygrpc.ExecuteBatchError("x")})

    try:
        asyncio.run(main())
    finally:
        logging.getLogger("asyncio").removeHandler(handler)
    text = out.getvalue()
    assert "stream closed" in text and "Traceback" not in text
