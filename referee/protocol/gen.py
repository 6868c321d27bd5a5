"""Regenerate the Python stubs of ``proto/arena/v1/*.proto`` into ``referee/protocol/``.

    python -m referee.protocol.gen          # or: arena referee gen-proto

``grpc_tools`` writes ``from arena.v1 import bot_pb2`` for the proto package ``arena.v1``;
that would import *our* ``arena`` Python package, so the imports are rewritten to
``referee.protocol``. ``tests/referee/test_proto_stubs.py`` fails when the committed stubs
differ from what this produces.
"""
from __future__ import annotations

import re
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROTO_ROOT = ROOT / "proto"
PROTO_DIR = PROTO_ROOT / "arena" / "v1"
OUT_DIR = Path(__file__).resolve().parent
PACKAGE = "referee.protocol"
_IMPORT = re.compile(r"^from arena\.v1 import (\w+) as (\w+)$", re.MULTILINE)


def proto_files() -> list[Path]:
    return sorted(PROTO_DIR.glob("*.proto"))


def generate() -> dict[str, str]:
    """File name -> content of every generated stub (nothing is written)."""
    import grpc_tools
    from grpc_tools import protoc

    include = str(Path(grpc_tools.__file__).parent / "_proto")
    with tempfile.TemporaryDirectory() as tmp:
        args = ["grpc_tools.protoc", f"-I{PROTO_ROOT}", f"-I{include}", f"--python_out={tmp}",
                f"--pyi_out={tmp}", f"--grpc_python_out={tmp}",
                *[str(p.relative_to(PROTO_ROOT)) for p in proto_files()]]
        if protoc.main(args) != 0:
            raise RuntimeError("protoc failed (see the message above)")
        out: dict[str, str] = {}
        for path in sorted((Path(tmp) / "arena" / "v1").iterdir()):
            text = _IMPORT.sub(rf"from {PACKAGE} import \1 as \2", path.read_text())
            out[path.name] = text
    return out


def write(files: dict[str, str]) -> list[Path]:
    written = []
    for name, text in files.items():
        p = OUT_DIR / name
        if not p.exists() or p.read_text() != text:
            p.write_text(text)
            written.append(p)
    return written


def main() -> int:
    written = write(generate())
    for p in written:
        print(f"wrote {p.relative_to(ROOT)}")
    if not written:
        print("stubs are up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())
