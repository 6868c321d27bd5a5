"""View patches (``referee.viewpatch``) rebuild every view exactly: values, types and key order."""
from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from referee import viewpatch
from referee.engine import Rng, game_ids, get_game
from referee.service.wirejson import dumps, dumps_view


def _text(v: Any) -> str:
    # order- and type-sensitive (1, 1.0 and true differ; so do {"a","b"} and {"b","a"})
    return json.dumps(v)


def _rebuild(views: list[dict[str, Any]], static: tuple[str, ...] = ()) -> tuple[int, int]:
    """Send ``views`` one after another as a referee would; check each rebuilt view. (patches, full views)"""
    parts: dict[str, bytes] | None = None
    have: Any = None
    patches = fulls = 0
    cache: dict[str, bytes] = {}
    for view in views:
        assert dumps_view(view, static, cache) == dumps(view)  # a full view, its static part encoded once
        parts, patch = viewpatch.encode(parts, view, static, cache)
        if patch:
            patches += 1
            have = viewpatch.apply(have, viewpatch.loads(patch))
            # a re-ask sends the same patch again: applying it twice changes nothing
            assert _text(viewpatch.apply(have, viewpatch.loads(patch))) == _text(view)
        else:
            fulls += 1
            have = viewpatch.loads(viewpatch.full_text(parts))
        assert _text(have) == _text(view)
    return patches, fulls


_scalars = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.sampled_from([0.0, 1.0, 2.5, -1.0]),
                     st.sampled_from(["", "a", "b", "é"]))
_values = st.recursive(_scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.sampled_from(["a", "b", "c", "d"]), inner, max_size=4)),
    max_leaves=12)
_views = st.dictionaries(st.sampled_from(["x", "y", "z", "w", "v"]), _values, max_size=5)


@settings(max_examples=300, deadline=None)
@given(views=st.lists(_views, min_size=1, max_size=6))
def test_random_views_rebuild_exactly(views: list[dict[str, Any]]) -> None:
    saved, viewpatch.MIN_PATCHED = viewpatch.MIN_PATCHED, 0  # patch every nested value, however small
    try:
        _rebuild(views)
    finally:
        viewpatch.MIN_PATCHED = saved


def test_types_order_and_shapes() -> None:
    views = [{"a": 1, "b": [1, 2], "c": {"x": 1, "y": [0, {"k": 1}]}},
             {"a": True, "b": [1, 2], "c": {"x": 1, "y": [0, {"k": 1.0}]}},  # 1 -> true, 1 -> 1.0 deep down
             # longer list, a new key
             {"a": 1.0, "b": [1, 2, 3], "c": {"x": 1, "y": [0, {"k": 1.0}], "z": 0}},
             {"a": 1.0, "c": {"y": [0, {"k": 1.0}], "x": 1}, "b": [1, 2, 3]},  # keys moved: full view
             {"a": 1.0, "c": {"x": 1}, "b": [1, 2, 3]}]  # a nested key moved: that value whole
    patches, fulls = _rebuild(views)
    assert (patches, fulls) == (3, 2)
    parts, _ = viewpatch.encode(None, views[-1])
    assert viewpatch.encode(parts, views[-1])[1] == '{"set":{},"del":[]}'  # nothing changed
    hand = list(range(400))  # long enough to be patched rather than replaced (viewpatch.MIN_PATCHED)
    parts, _ = viewpatch.encode(None, {"p": [{"hand": hand, "coins": 3}] * 2, "static": "x" * 100})
    _, patch = viewpatch.encode(parts, {"p": [{"hand": hand, "coins": 3}, {"hand": hand, "coins": 4}],
                                        "static": "x" * 100})
    assert patch == '{"set":{},"del":[],"sub":{"p":{"sub":{"1":{"set":{"coins":4}}}}}}'  # only what changed


def test_every_game_rebuilds_every_seat_view_exactly() -> None:
    """Random play of each registered game: every seat's sequence of views through patches."""
    for gid in game_ids():
        game = get_game(gid)
        info = game.info
        for players in sorted({info.min_players, min(info.max_players, 3)}):
            state = game.new_state(players, None, 11)
            rng = Rng(5)
            seen: dict[int, list[dict[str, Any]]] = {s: [] for s in range(players)}
            ply = 0
            while state.pending() and ply < 400:
                seat = state.pending()[0]
                seen[seat].append(state.observe(seat))
                legal = state.legal_actions(seat)
                state.apply_trusted(seat, legal[rng.below(len(legal))])
                ply += 1
            for views in seen.values():
                if views:
                    patches, _ = _rebuild(views, type(state).STATIC_VIEW_KEYS)
                    assert len(views) < 3 or patches > 0, f"{gid}: no view was sent as a patch"


def test_wire_json_is_the_standard_encoders_text_for_every_kind_of_key_and_view() -> None:
    """orjson is tried without OPT_NON_STR_KEYS first (twice as fast): integer keys, >64-bit integers
    and views that are all static still give ``json.dumps``'s compact text."""
    def std(v: Any) -> str:
        return json.dumps(v, separators=(",", ":"), ensure_ascii=False)

    for value in [{"a": 1, "é": [1.5, None]}, {1: "x", "b": {2: True}}, {"n": 1 << 70}, [{"k": -(1 << 65)}]]:
        assert dumps(value) == std(value)
    cache: dict[str, bytes] = {}
    for view in [{"static": {"map": [1, 2]}}, {"turn": 3, "static": {"map": [1, 2]}},
                 {"turn": 4, 7: "int key", "static": {"map": [1, 2]}}]:
        assert dumps_view(view, ("static",), cache) == std(view)
    moved = {"static": {"map": [1, 2]}, "turn": 5}  # static keys not last: encoded in full
    assert dumps_view(moved, ("static",), cache) == std(moved)
