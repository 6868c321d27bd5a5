"""docs/protocol.md lists every outcome reason, error code, consequence and gRPC status the code can produce.

The lists come from the code: the engine's ``Reason`` literal, the proto's ``ErrorCode`` and
``Consequence`` enums, and every ``StatusCode.X`` the referee service sends.
"""
from __future__ import annotations

import re
import typing
from pathlib import Path

import pytest

from referee.engine.outcome import Reason
from referee.protocol import bot_pb2

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "protocol.md").read_text()


def _status_codes() -> set[str]:
    codes: set[str] = set()
    for path in (ROOT / "referee" / "service").glob("*.py"):
        text = path.read_text()
        codes |= set(re.findall(r"StatusCode\.([A-Z_]+)", text))
        if "grpc.max_receive_message_length" in text:  # gRPC itself refuses a larger message with it
            codes.add("RESOURCE_EXHAUSTED")
    return codes


def test_the_lists_are_not_empty() -> None:
    assert {"normal", "safety_limit", "forfeit"} <= set(typing.get_args(Reason))
    assert {"UNAUTHENTICATED", "RESOURCE_EXHAUSTED", "UNAVAILABLE"} <= _status_codes()


@pytest.mark.parametrize("reason", typing.get_args(Reason))
def test_every_outcome_reason_is_documented(reason: str) -> None:
    assert f"| `{reason}` |" in DOC


@pytest.mark.parametrize("code", [n for n in bot_pb2.ErrorCode.keys() if n != "ERROR_CODE_UNSPECIFIED"])
def test_every_error_code_is_documented(code: str) -> None:
    assert f"`{code}`" in DOC or f"`{code} /" in DOC or f"`{code}` /" in DOC


@pytest.mark.parametrize("consequence",
                         [n for n in bot_pb2.Consequence.keys() if n != "CONSEQUENCE_UNSPECIFIED"])
def test_every_consequence_is_documented(consequence: str) -> None:
    assert re.search(rf"\b{consequence}\b", DOC)


@pytest.mark.parametrize("status", sorted(_status_codes()))
def test_every_status_code_the_referee_sends_is_documented(status: str) -> None:
    assert f"`{status}`" in DOC
