"""``arena-bot.toml``: what is accepted, what is refused (one line naming the key), and that every
`arena new-bot` kit writes one that parses."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.starters import create, languages
from arena.submissions.manifest import ManifestError, load, parse

GOOD = 'name = "bot"\nruntime = "go"\ncommand = "build/bot"\n'


def test_a_minimal_manifest() -> None:
    m = parse(GOOD)
    assert (m.name, m.runtime, m.command, m.games, m.build) == ("bot", "go", "build/bot", (), "")
    assert m.seat_counts("clank") == [2, 3, 4]


def test_seats_narrow_a_game() -> None:
    m = parse(GOOD + 'games = ["clank"]\nseats = { clank = [3, 2] }\n')
    assert m.seat_counts("clank") == [2, 3]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("name = ", "not valid TOML"),
        ('runtime = "go"\ncommand = "x"\n', "'name' must be a non-empty string"),
        ('name = "Bot"\nruntime = "go"\ncommand = "x"\n', "must be 1-64 lowercase"),
        ('name = "b"\nruntime = "rust"\ncommand = "x"\n', "runtime 'rust' is not one of go, node, python"),
        ('name = "b"\nruntime = "go"\ncommand = ""\n', "'command' must be a non-empty string"),
        ('name = "b"\nruntime = "go"\ncommand = "/usr/bin/evil"\n', "not an absolute path"),
        ('name = "b"\nruntime = "go"\ncommand = "\'unclosed"\n', "cannot be split"),
        (GOOD + 'games = ["chess"]\n', "unknown game(s) chess"),
        (GOOD + 'games = "clank"\n', "'games' must be a list of strings"),
        (GOOD + 'games = ["clank"]\nseats = { greyport = [1] }\n', "a game the bot does not play"),
        (GOOD + "seats = { clank = [9] }\n", "seats.clank must be a non-empty list of seat counts in 2..4"),
        (GOOD + 'vendor = "npm ci"\n', "'vendor' and 'vendor_dir' go together"),
        (GOOD + 'comand = "typo"\n', "unknown key(s) comand"),
    ],
)
def test_bad_manifests(text: str, words: str) -> None:
    with pytest.raises(ManifestError) as err:
        parse(text)
    assert words in str(err.value) and "\n" not in str(err.value)


def test_a_directory_without_one(tmp_path: Path) -> None:
    with pytest.raises(ManifestError, match="has no arena-bot.toml"):
        load(tmp_path)


@pytest.mark.parametrize("lang", languages())
def test_every_kit_writes_a_manifest_that_parses(lang: str, tmp_path: Path) -> None:
    kit = create(lang, tmp_path / "kit", "my-bot")
    m = load(tmp_path / "kit")
    assert (m.name, m.runtime, m.games) == ("my-bot", lang, ())
    assert m.command == kit.command
    if lang == "go":
        assert m.build == "bash build.sh" and m.exclude == ("build",)
    if lang == "node":
        assert m.vendor.startswith("npm ci") and m.vendor_dir == "node_modules"
