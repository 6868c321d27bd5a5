"""The content loader: rows become dataclasses; every error names the file and the row."""
from __future__ import annotations

from dataclasses import dataclass

import pytest

from referee.engine import ContentError, EffectRegistry, build_rows, check_count, check_refs


@dataclass(frozen=True)
class Card:
    id: str
    cost: int
    effects: tuple[str, ...] = ()
    requires: str | None = None


ROWS = [{"id": "c1", "cost": 2, "effects": ["draw"]}, {"id": "c2", "cost": 0, "requires": "c1"}]


def test_rows_build_frozen_dataclasses() -> None:
    cards = build_rows("cards.toml", ROWS, Card)
    assert cards["c1"] == Card("c1", 2, ("draw",))
    assert cards["c2"].requires == "c1"


@pytest.mark.parametrize("rows, words", [
    ([{"id": "c1", "cost": "2"}], "cards.toml: row 'c1': field 'cost' has the wrong type"),
    ([{"id": "c1"}], "cards.toml: row 'c1': missing field 'cost'"),
    ([{"id": "c1", "cost": 1, "colour": "red"}], r"cards.toml: row 'c1': unknown field\(s\) \['colour'\]"),
    ([{"id": "c1", "cost": 1}, {"id": "c1", "cost": 2}], "cards.toml: row 'c1': duplicate id"),
    ([{"id": "c1", "cost": 1, "effects": "draw"}], "field 'effects' has the wrong type"),
])
def test_bad_rows_name_file_and_row(rows: list[dict[str, object]], words: str) -> None:
    with pytest.raises(ContentError, match=words):
        build_rows("cards.toml", rows, Card)


def test_refs_and_counts() -> None:
    cards = build_rows("cards.toml", ROWS + [{"id": "c3", "cost": 1, "requires": "c9"}], Card)
    with pytest.raises(ContentError, match="row 'c3': field 'requires' names unknown card 'c9'"):
        check_refs("cards.toml", cards, "requires", set(cards), "card")
    with pytest.raises(ContentError, match="expected 100 cards, found 3"):
        check_count("cards.toml", len(cards), 100, "cards")


def test_effect_registry() -> None:
    effects: EffectRegistry = EffectRegistry("demo effects")

    @effects.register("draw")
    def draw() -> str:
        return "drew"

    @effects.register("trash")
    def trash() -> str:
        return "trashed"

    assert effects.resolve("draw")() == "drew"
    with pytest.raises(ContentError, match="unknown effect 'drw'"):
        effects.resolve("drw", "cards.toml: row 'c1'")
    with pytest.raises(ContentError, match="cards.toml: row 'c2': unknown effect 'zap'"):
        effects.check("cards.toml", {"c1": ["draw"], "c2": ["zap"]})
    assert effects.unused(["draw"]) == ["trash"]
    with pytest.raises(TypeError):
        effects.register("draw")(draw)
