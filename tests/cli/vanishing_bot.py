"""A bot launcher that exits at once, leaving the real bot running detached: ``python vanishing_bot.py``.

The detached bot connects, receives its first decision and holds the stream open for a few seconds without
answering. The process ``arena refeed`` started has exited (status 0) while the stream it was waiting on has
neither an answer nor an end yet.
"""
from __future__ import annotations

import asyncio
import os
import subprocess
import sys

import grpc

from referee.protocol import bot_pb2, bot_pb2_grpc

#: how long the detached bot holds the stream open
HOLD_S = 8.0


async def bot() -> None:
    async with grpc.aio.insecure_channel(os.environ["ARENA_REFEREE"]) as channel:
        call = bot_pb2_grpc.BotServiceStub(channel).Connect()
        await call.write(bot_pb2.BotMessage(hello=bot_pb2.Hello(token=os.environ["ARENA_TOKEN"], capacity=1)))
        async for msg in call:
            if msg.WhichOneof("kind") == "decision":
                await asyncio.sleep(HOLD_S)
                return


if __name__ == "__main__":
    if sys.argv[1:] == ["--detached"]:
        asyncio.run(bot())
    else:
        subprocess.Popen([sys.executable, __file__, "--detached"], start_new_session=True)
