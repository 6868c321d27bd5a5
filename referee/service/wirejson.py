"""JSON for the wire: compact, UTF-8, same text as ``json.dumps(obj, separators=(",", ":"),
ensure_ascii=False)``, ~10x faster (orjson). Encoding views was the referee's largest per-decision
cost (Clank's ~8 KB views: 140 us with ``json``, 14 us with orjson)."""
from __future__ import annotations

import json
from collections.abc import MutableMapping
from itertools import islice
from typing import Any

import orjson

_NON_STR_KEYS = orjson.OPT_NON_STR_KEYS
_fallback = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode


def dumps(obj: Any) -> str:
    """``obj`` as compact JSON text."""
    return encode(obj).decode()


def encode(obj: Any) -> bytes:
    """``dumps(obj)`` as UTF-8 bytes."""
    try:
        # orjson's OPT_NON_STR_KEYS doubles its cost (Clank's view: 10 us -> 5 us without it), and
        # string keys are the rule: it is used only for a value orjson refused without it
        return orjson.dumps(obj)
    except TypeError:
        pass
    try:
        return orjson.dumps(obj, option=_NON_STR_KEYS)
    except TypeError:  # e.g. an integer beyond 64 bits: the standard encoder takes anything JSON can
        return _fallback(obj).encode()


def dumps_view(view: dict[str, Any], static: tuple[str, ...], cache: MutableMapping[str, bytes]) -> str:
    """``dumps(view)``, the same text, with the values of the ``static`` keys (the game's
    ``STATIC_VIEW_KEYS``: the same in every view of a match, last in the view) taken from ``cache``,
    encoded once per match. A view whose last keys are not those is encoded in full."""
    n = len(static)
    if not n or len(view) < n or tuple(islice(reversed(view), n))[::-1] != static:
        return dumps(view)
    rest = dict(view)  # a copy and n deletions: cheaper than a filtered comprehension
    for k in static:
        del rest[k]
    tail = cache.get(_TAIL)
    if tail is None or _TAIL in static:  # the static keys and values, encoded once per match
        tail = b",".join(encode(k) + b":" + static_text(view, k, cache) for k in static)
        if _TAIL not in static:
            cache[_TAIL] = tail
    dyn = encode(rest)
    return (dyn[:-1] + (b"," if rest else b"") + tail + b"}").decode()


#: ``dumps_view``'s entry in the static cache for all static keys and values together (a name no
#: game uses as a view key; one that did would only have its tail encoded each time)
_TAIL = "\0static tail"


def static_text(view: dict[str, Any], key: str, cache: MutableMapping[str, bytes]) -> bytes:
    """The encoded value of a static view key, from ``cache`` (encoded on first use)."""
    text = cache.get(key)
    if text is None:
        text = cache[key] = encode(view[key])
    return text
