"""Canonical JSON: the one spelling of a value used for digests, legality checks and the wire."""
from __future__ import annotations

import hashlib
import json
import re
from typing import Any

import orjson

#: the canonical spelling: the standard library's, built once (``json.dumps`` with arguments builds a new
#: encoder every call: most of its cost for a small event)
_json_canonical = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                                   allow_nan=False).encode
#: a number token with a fraction or an exponent (or a string holding one: a false alarm costs only time)
_FLOATISH = re.compile(rb"\d[.eE]")


def canonical(value: Any) -> str:
    """Sorted keys, no spaces, UTF-8 kept: equal values give equal strings.

    >>> canonical({"b": 1, "a": [1, 2]})
    '{"a":[1,2],"b":1}'

    The text is exactly ``json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
    allow_nan=False)`` (digests of stored replays depend on it), made ~10x faster by orjson where orjson
    writes the same text: everything but some floats (``1e-05`` vs ``0.00001``; any output with a
    fraction or an exponent is made by ``json`` instead), integer keys and integers beyond 64 bits
    (orjson refuses them: ``json`` again). One difference: a NaN is written ``null`` instead of refused;
    states, views and events never hold one (``is_jsonable`` refuses it).
    """
    try:
        out = orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
    except TypeError:
        return _json_canonical(value)
    if _FLOATISH.search(out):
        return _json_canonical(value)
    return out.decode()


def digest_of(value: Any) -> str:
    """SHA-256 of the canonical JSON, hex, first 32 characters (128 bits is plenty for replays)."""
    return digest_text(canonical(value))


def digest_text(text: str) -> str:
    """``digest_of`` a value whose canonical JSON ``text`` is already built."""
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def is_jsonable(value: Any) -> bool:
    """True when ``value`` survives a JSON round trip unchanged (no tuples, sets, NaN, non-str keys)."""
    try:
        return json.loads(canonical(value)) == value and _no_tuples(value)
    except (TypeError, ValueError):
        return False


def _no_tuples(value: Any) -> bool:
    if isinstance(value, tuple | set | frozenset):
        return False
    if isinstance(value, dict):
        return all(isinstance(k, str) and _no_tuples(v) for k, v in value.items())
    if isinstance(value, list):
        return all(_no_tuples(v) for v in value)
    return True
