"""Unpacking an uploaded package (a gzip-compressed tar) with every check made while extracting.

Refused, with one line naming the entry: absolute paths, ``..`` components, hard links, symbolic
links whose target leaves the package (absolute, ``..`` beyond its root, or out once resolved
through the links before it, checked again when all are made), device files, FIFOs
and anything else that is not a file, a directory or an inside link; duplicate entries; writing
through a link. Capped *during* extraction, never after: decompressed bytes (a gzip bomb stops at
the cap, tar headers and padding included), file count, and each file's declared and actual size.
Files keep only their owner's execute bit (no setuid, no setgid, owned by the unpacking user).
"""

from __future__ import annotations

import gzip
import os
import posixpath
import shutil
import tarfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Protocol

from referee.engine.errors import ArenaError

CHUNK = 1 << 16
#: Tar headers, padding and the end marker on top of the file bytes a package may hold.
TAR_SLACK = 1 << 20
MAX_PATH = 1024


class PackageError(ArenaError):
    """A package refused while unpacking (the message names the entry and the rule)."""

    code = "package_error"


@dataclass(frozen=True)
class UnpackLimits:
    unpacked_bytes: int
    max_files: int


@dataclass(frozen=True)
class Unpacked:
    files: int
    bytes: int


class _Reader(Protocol):
    def read(self, n: int, /) -> bytes: ...


class _Capped:
    """A read-only stream that refuses to give more than ``limit`` bytes (the gzip bomb's end)."""

    def __init__(self, raw: _Reader, limit: int) -> None:
        self.raw, self.limit, self.count = raw, limit, 0

    def read(self, n: int = -1) -> bytes:
        want = self.limit + 1 - self.count if n is None or n < 0 else min(n, self.limit + 1 - self.count)
        data = self.raw.read(max(want, 0))
        self.count += len(data)
        if self.count > self.limit:
            raise PackageError(f"the package unpacks to more than {self.limit >> 20} MiB (limit)")
        return data


def _clean(name: str) -> str:
    """The entry's path inside the package, or PackageError for one that could leave it."""
    if "\x00" in name or len(name) > MAX_PATH:
        raise PackageError(f"entry {name[:80]!r}: not a usable path")
    if name.startswith("/"):
        raise PackageError(f"entry {name!r}: absolute paths are not allowed")
    parts = [p for p in name.split("/") if p not in ("", ".")]
    if ".." in parts:
        raise PackageError(f"entry {name!r}: '..' in a path is not allowed")
    return "/".join(parts)


def _link_inside(name: str, target: str) -> bool:
    """Whether link ``name`` -> ``target`` stays in the package (judged on the text, before use)."""
    if not target or target.startswith("/") or "\x00" in target:
        return False
    joined = posixpath.normpath(posixpath.join(posixpath.dirname(name), target))
    return not (joined == ".." or joined.startswith("../"))


def _link_resolves_inside(root: str, path: str, target: str) -> None:
    """Resolved on the disk (through every link made so far), the link must still end inside."""
    real = os.path.realpath(path)
    if real != root and not real.startswith(root + os.sep):
        raise PackageError(
            f"entry {os.path.relpath(path, root)!r}: a link out of the package ({target!r}) is not allowed"
        )


def _parent_inside(root: str, path: str) -> None:
    """The directory an entry goes into must really be inside (no earlier link leads out)."""
    parent = os.path.realpath(os.path.dirname(path))
    if parent != root and not parent.startswith(root + os.sep):
        raise PackageError(f"entry {os.path.relpath(path, root)!r}: goes through a link out of the package")


def unpack(archive: BinaryIO, dest: Path, limits: UnpackLimits) -> Unpacked:
    """Extract ``archive`` into the empty directory ``dest``; on refusal ``dest`` is left empty."""
    dest.mkdir(parents=True, exist_ok=True)
    root = os.path.realpath(dest)
    try:
        return _extract(archive, root, limits)
    except PackageError:
        _empty(dest)
        raise
    except (tarfile.TarError, EOFError, OSError, zlib.error, gzip.BadGzipFile) as exc:
        _empty(dest)
        raise PackageError(
            f"the package is not a readable .tar.gz archive ({type(exc).__name__}: {exc})"
        ) from None


def _empty(dest: Path) -> None:
    for child in dest.iterdir():
        if child.is_dir() and not child.is_symlink():
            shutil.rmtree(child, ignore_errors=True)
        else:
            child.unlink(missing_ok=True)


def _extract(archive: BinaryIO, root: str, limits: UnpackLimits) -> Unpacked:
    stream = _Capped(gzip.GzipFile(fileobj=archive, mode="rb"), limits.unpacked_bytes + TAR_SLACK)
    files = written = 0
    seen: set[str] = set()
    links: list[str] = []
    # typeshed wants a seekable, writable file object; the "r|" stream mode only ever reads it
    with tarfile.open(fileobj=stream, mode="r|") as tar:  # type: ignore[call-overload]
        for member in tar:
            rel = _clean(member.name)
            if not rel:
                continue  # the root itself ('./')
            files += 1
            if files > limits.max_files:
                raise PackageError(f"the package has more than {limits.max_files} entries (limit)")
            if rel in seen:
                raise PackageError(f"entry {rel!r} appears twice")
            seen.add(rel)
            path = os.path.join(root, rel)
            _parent_inside(root, path)
            if member.isdir():
                os.makedirs(path, mode=0o755, exist_ok=True)
                if os.path.islink(path) or not os.path.isdir(path):
                    raise PackageError(f"entry {rel!r}: a directory where a link or file already is")
                continue
            if member.issym():
                if not _link_inside(rel, member.linkname):
                    raise PackageError(
                        f"entry {rel!r}: a link out of the package ({member.linkname!r}) is not allowed"
                    )
                os.makedirs(os.path.dirname(path), mode=0o755, exist_ok=True)
                os.symlink(member.linkname, path)
                links.append(path)
                _link_resolves_inside(root, path, member.linkname)
                continue
            if member.islnk():
                raise PackageError(f"entry {rel!r}: hard links are not allowed")
            if not member.isreg():
                raise PackageError(
                    f"entry {rel!r}: only files, directories and links inside the package "
                    "are allowed (no devices, FIFOs or sockets)"
                )
            if written + member.size > limits.unpacked_bytes:
                raise PackageError(
                    f"the package unpacks to more than {limits.unpacked_bytes >> 20} MiB (limit)"
                )
            os.makedirs(os.path.dirname(path), mode=0o755, exist_ok=True)
            _parent_inside(root, path)
            mode = 0o755 if member.mode & 0o100 else 0o644
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, mode)
            src = tar.extractfile(member)
            assert src is not None  # a regular member always has a file object
            with os.fdopen(fd, "wb") as out:
                left = member.size
                while left > 0:
                    chunk = src.read(min(CHUNK, left))
                    if not chunk:
                        raise PackageError(f"entry {rel!r}: the archive ends inside it")
                    out.write(chunk)
                    left -= len(chunk)
            written += member.size
    for path in links:  # the text looked inside; through other links it must still end inside
        _link_resolves_inside(root, path, os.readlink(path))
    return Unpacked(files, written)
