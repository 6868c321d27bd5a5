"""Hand-made archives for the unpacking tests: honest ones and each kind of hostile one."""

from __future__ import annotations

import gzip
import io
import tarfile
from collections.abc import Callable

MANIFEST = b'name = "evil"\nruntime = "python"\ncommand = "{python} bot.py"\n'


def archive(*members: tuple[tarfile.TarInfo, bytes | None]) -> bytes:
    buf = io.BytesIO()
    with (
        gzip.GzipFile(fileobj=buf, mode="wb", mtime=0) as gz,
        tarfile.open(fileobj=gz, mode="w", format=tarfile.GNU_FORMAT) as tar,
    ):
        for info, data in members:
            tar.addfile(info, io.BytesIO(data) if data is not None else None)
    return buf.getvalue()


def file(name: str, data: bytes = b"x", mode: int = 0o644) -> tuple[tarfile.TarInfo, bytes]:
    info = tarfile.TarInfo(name)
    info.size, info.mode = len(data), mode
    return info, data


def special(name: str, kind: bytes, linkname: str = "") -> tuple[tarfile.TarInfo, None]:
    info = tarfile.TarInfo(name)
    info.type, info.linkname = kind, linkname
    return info, None


def honest() -> bytes:
    return archive(
        file("arena-bot.toml", MANIFEST),
        file("bot.py", b"print('hi')\n", 0o755),
        special("lib", tarfile.DIRTYPE),
        file("lib/util.py", b"X = 1\n"),
        special("lib/alias.py", tarfile.SYMTYPE, "util.py"),
        special("top", tarfile.SYMTYPE, "lib/../bot.py"),
    )


def gzip_bomb(unpacked_mib: int) -> bytes:
    """One file of zeros, declared honestly: tiny compressed, ``unpacked_mib`` MiB once unpacked."""
    info = tarfile.TarInfo("zeros.bin")
    info.size = unpacked_mib << 20

    class Zeros:
        def __init__(self) -> None:
            self.left = info.size

        def read(self, n: int = -1) -> bytes:
            n = self.left if n < 0 else min(n, self.left)
            self.left -= n
            return bytes(n)

    buf = io.BytesIO()
    with (
        gzip.GzipFile(fileobj=buf, mode="wb", mtime=0, compresslevel=9) as gz,
        tarfile.open(fileobj=gz, mode="w", format=tarfile.GNU_FORMAT) as tar,
    ):
        tar.addfile(file("arena-bot.toml", MANIFEST)[0], io.BytesIO(MANIFEST))
        tar.addfile(info, Zeros())  # type: ignore[arg-type]
    return buf.getvalue()


def lying_bomb(unpacked_mib: int) -> bytes:
    """A raw stream of tar headers that each claim 0 bytes followed by megabytes of data-less
    padding: the gzip layer itself must stop it (tar headers say nothing of the flood)."""
    raw = io.BytesIO()
    with gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, compresslevel=9) as gz:
        info = tarfile.TarInfo("pax")
        info.type = tarfile.XHDTYPE  # a pax extended header that declares a huge record
        info.size = unpacked_mib << 20
        gz.write(info.tobuf(format=tarfile.GNU_FORMAT))
        zero = bytes(1 << 20)
        for _ in range(unpacked_mib):
            gz.write(zero)
    return raw.getvalue()


def many_files(n: int) -> bytes:
    return archive(file("arena-bot.toml", MANIFEST), *[file(f"f{i}.txt", b"") for i in range(n)])


HOSTILE: dict[str, tuple[Callable[[], bytes], str]] = {
    "dotdot": (lambda: archive(file("arena-bot.toml", MANIFEST), file("../escape.txt")), "'..' in a path"),
    "dotdot-deep": (lambda: archive(file("a/b/../../../escape.txt")), "'..' in a path"),
    "absolute": (lambda: archive(file("/tmp/arena-escape.txt")), "absolute paths"),
    "symlink-absolute": (
        lambda: archive(special("etc", tarfile.SYMTYPE, "/etc")),
        "a link out of the package",
    ),
    "symlink-up": (lambda: archive(special("up", tarfile.SYMTYPE, "../../..")), "a link out of the package"),
    "symlink-then-write": (
        lambda: archive(special("d", tarfile.SYMTYPE, "sub/../.."), file("d/x.txt")),
        "a link out of the package",
    ),
    # 'here' -> '.', so 'here/up' is really './up', and its '../x' leaves the package
    "symlink-via-link": (
        lambda: archive(
            special("here", tarfile.SYMTYPE, "."), special("here/up", tarfile.SYMTYPE, "../outside")
        ),
        "a link out",
    ),
    "symlink-dotdot-through-link": (
        lambda: archive(special("w", tarfile.SYMTYPE, "."), special("l", tarfile.SYMTYPE, "w/../..")),
        "a link out",
    ),
    "symlink-late-chain": (
        lambda: archive(special("a", tarfile.SYMTYPE, "b/.."), special("b", tarfile.SYMTYPE, ".")),
        "a link out",
    ),
    "hardlink": (
        lambda: archive(file("a.txt"), special("b.txt", tarfile.LNKTYPE, "/etc/passwd")),
        "hard links",
    ),
    "hardlink-inside": (
        lambda: archive(file("a.txt"), special("b.txt", tarfile.LNKTYPE, "a.txt")),
        "hard links",
    ),
    "char-device": (lambda: archive(special("null", tarfile.CHRTYPE)), "no devices"),
    "block-device": (lambda: archive(special("sda", tarfile.BLKTYPE)), "no devices"),
    "fifo": (lambda: archive(special("pipe", tarfile.FIFOTYPE)), "no devices"),
    "duplicate": (lambda: archive(file("a.txt"), file("a.txt")), "appears twice"),
    "not-gzip": (lambda: b"PK\x03\x04 this is a zip file", "not a readable .tar.gz"),
    "truncated": (lambda: honest()[:60], "not a readable .tar.gz"),
}
