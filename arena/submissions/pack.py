"""Packing a bot's directory for upload (``arena submit``): a gzip-compressed tar, reproducible.

Entries are sorted, owned by 0:0 with mtime 0, so the same files give the same SHA-256.
``.git``, ``__pycache__`` and the manifest's ``exclude`` paths stay out; symbolic links are kept as
links (the server refuses any that leads out of the package).
"""

from __future__ import annotations

import gzip
import hashlib
import io
import os
import tarfile
from pathlib import Path

ALWAYS_EXCLUDED = (".git", "__pycache__")


def _entries(root: Path, exclude: tuple[str, ...]) -> list[Path]:
    skip = {e.strip("/") for e in (*ALWAYS_EXCLUDED, *exclude)}
    out: list[Path] = []
    for dirpath, dirnames, filenames in os.walk(root):
        rel_dir = Path(dirpath).relative_to(root)
        keep = []
        for d in sorted(dirnames):
            rel = (rel_dir / d).as_posix()
            if d in ALWAYS_EXCLUDED or rel in skip:
                continue
            keep.append(d)
            out.append(rel_dir / d)
        dirnames[:] = [d for d in keep if not (Path(dirpath) / d).is_symlink()]
        for f in sorted(filenames):
            rel = (rel_dir / f).as_posix()
            if rel not in skip:
                out.append(rel_dir / f)
    return sorted(out, key=lambda p: p.as_posix())


def pack(root: Path, exclude: tuple[str, ...] = ()) -> bytes:
    """The archive of ``root`` (in memory: packages are small, and capped by the server)."""
    buf = io.BytesIO()
    with (
        gzip.GzipFile(fileobj=buf, mode="wb", mtime=0) as gz,
        tarfile.open(fileobj=gz, mode="w", format=tarfile.PAX_FORMAT) as tar,
    ):
        for rel in _entries(root, exclude):
            info = tar.gettarinfo(str(root / rel), arcname=rel.as_posix())
            info.uid = info.gid = 0
            info.uname = info.gname = ""
            info.mtime = 0
            if info.islnk():  # a second name of a file already packed: send it as a file of its own
                info.type, info.linkname, info.size = tarfile.REGTYPE, "", (root / rel).stat().st_size
            if info.isreg():
                with open(root / rel, "rb") as f:
                    tar.addfile(info, f)
            else:
                tar.addfile(info)
    return buf.getvalue()


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
