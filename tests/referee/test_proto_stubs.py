"""The committed stubs are exactly what the generator produces, and every proto field is documented."""
from __future__ import annotations

import re

import pytest

from referee.protocol import gen


def test_regenerating_the_stubs_changes_nothing() -> None:
    pytest.importorskip("grpc_tools")
    produced = gen.generate()
    assert set(produced) == {f"{name}{suffix}" for name in ("bot_pb2", "organizer_pb2", "developer_pb2")
                             for suffix in (".py", ".pyi", "_grpc.py")}
    for name, text in produced.items():
        committed = (gen.OUT_DIR / name).read_text()
        assert committed == text, (f"referee/protocol/{name} is stale: run `python -m referee.protocol.gen` "
                                   "(or the grpcio-tools version differs from the one that generated it)")


def test_generated_imports_do_not_touch_the_arena_package() -> None:
    for name, text in gen.generate().items():
        assert "from arena" not in text and "import arena" not in text, name


_FIELD = re.compile(r"^\s*(?:repeated |optional )?(?:map<[^>]+>|[\w.]+)\s+\w+\s*=\s*\d+;")
_ENUM_VALUE = re.compile(r"^\s*[A-Z_]+\s*=\s*\d+;")
_DECL = re.compile(r"^\s*(message|service|enum|rpc|oneof)\b")


@pytest.mark.parametrize("path", gen.proto_files(), ids=lambda p: p.name)
def test_every_field_and_rpc_is_documented(path) -> None:
    """A field, rpc or enum value must have a // comment on the line(s) above it.

    (Empty request messages and the UNSPECIFIED zero values are exempt.)"""
    lines = path.read_text().splitlines()
    missing = []
    for i, line in enumerate(lines):
        is_field = _FIELD.match(line) or (_ENUM_VALUE.match(line) and "UNSPECIFIED" not in line)
        is_rpc = line.strip().startswith("rpc ")
        if not (is_field or is_rpc):
            continue
        prev = lines[i - 1].strip() if i else ""
        if not prev.startswith("//"):
            missing.append(f"{path.name}:{i + 1}: {line.strip()}")
    assert not missing, "undocumented:\n" + "\n".join(missing)


def test_services_use_one_oneof_envelope_per_direction() -> None:
    from referee.protocol import bot_pb2

    assert [o.name for o in bot_pb2.BotMessage.DESCRIPTOR.oneofs] == ["kind"]
    assert [o.name for o in bot_pb2.RefereeMessage.DESCRIPTOR.oneofs] == ["kind"]
    svc = bot_pb2.DESCRIPTOR.services_by_name["BotService"]
    rpc = svc.methods_by_name["Connect"]
    assert rpc.client_streaming and rpc.server_streaming
