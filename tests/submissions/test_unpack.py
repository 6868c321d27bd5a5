"""Unpacking refuses hostile packages while extracting, and leaves nothing behind when it does."""

from __future__ import annotations

import io
import os
import stat
from pathlib import Path

import pytest

from arena.submissions.pack import pack
from arena.submissions.unpack import PackageError, UnpackLimits, unpack
from tests.submissions import archives

LIMITS = UnpackLimits(unpacked_bytes=4 << 20, max_files=100)


def test_an_honest_package_unpacks_with_its_inside_links(tmp_path: Path) -> None:
    got = unpack(io.BytesIO(archives.honest()), tmp_path / "pkg", LIMITS)
    pkg = tmp_path / "pkg"
    assert got.files == 6
    assert (pkg / "lib" / "alias.py").read_text() == "X = 1\n"
    assert os.readlink(pkg / "lib" / "alias.py") == "util.py"
    assert (pkg / "top").read_text() == "print('hi')\n"
    assert stat.S_IMODE((pkg / "bot.py").stat().st_mode) == 0o755
    assert stat.S_IMODE((pkg / "lib" / "util.py").stat().st_mode) == 0o644


@pytest.mark.parametrize("kind", sorted(archives.HOSTILE))
def test_a_hostile_package_is_refused_and_nothing_escapes(kind: str, tmp_path: Path) -> None:
    make, words = archives.HOSTILE[kind]
    outside = set(tmp_path.iterdir())
    dest = tmp_path / "jail" / "pkg"
    with pytest.raises(PackageError) as err:
        unpack(io.BytesIO(make()), dest, LIMITS)
    assert words in str(err.value)
    assert "\n" not in str(err.value)
    assert list(dest.iterdir()) == []  # refused: emptied
    assert set(tmp_path.iterdir()) == outside | {tmp_path / "jail"}
    assert sorted(p.name for p in (tmp_path / "jail").iterdir()) == ["pkg"]
    assert not Path("/tmp/arena-escape.txt").exists()


def test_a_gzip_bomb_stops_at_the_cap_not_after(tmp_path: Path) -> None:
    bomb = archives.gzip_bomb(64)
    assert len(bomb) < 200_000  # a small upload ...
    with pytest.raises(PackageError, match="more than 4 MiB"):
        unpack(io.BytesIO(bomb), tmp_path / "pkg", LIMITS)  # ... refused on its declared size
    assert list((tmp_path / "pkg").iterdir()) == []


def test_a_flood_without_honest_headers_stops_at_the_decompression_cap(tmp_path: Path) -> None:
    bomb = archives.lying_bomb(48)
    assert len(bomb) < 200_000
    with pytest.raises(PackageError, match="more than"):
        unpack(io.BytesIO(bomb), tmp_path / "pkg", UnpackLimits(unpacked_bytes=8 << 20, max_files=100))


def test_too_many_files(tmp_path: Path) -> None:
    with pytest.raises(PackageError, match="more than 100 entries"):
        unpack(io.BytesIO(archives.many_files(150)), tmp_path / "pkg", LIMITS)


def test_pack_then_unpack_round_trips_and_is_reproducible(tmp_path: Path) -> None:
    src = tmp_path / "src"
    (src / "sub").mkdir(parents=True)
    (src / "arena-bot.toml").write_bytes(archives.MANIFEST)
    (src / "sub" / "a.txt").write_text("a")
    os.link(src / "sub" / "a.txt", src / "sub" / "hard.txt")  # sent as a file of its own
    os.symlink("a.txt", src / "sub" / "soft.txt")
    (src / "build").mkdir()
    (src / "build" / "big.bin").write_bytes(b"0" * 1000)
    (src / ".git").mkdir()
    (src / ".git" / "HEAD").write_text("ref")
    data = pack(src, ("build",))
    assert data == pack(src, ("build",))
    unpack(io.BytesIO(data), tmp_path / "out", LIMITS)
    out = tmp_path / "out"
    assert (out / "sub" / "hard.txt").read_text() == "a" and not (out / "sub" / "hard.txt").is_symlink()
    assert os.readlink(out / "sub" / "soft.txt") == "a.txt"
    assert not (out / "build").exists() and not (out / ".git").exists()
