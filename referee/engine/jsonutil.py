"""Canonical JSON: the one spelling of a value used for digests, legality checks and the wire."""
from __future__ import annotations

import hashlib
import json
from typing import Any


def canonical(value: Any) -> str:
    """Sorted keys, no spaces, UTF-8 kept: equal values give equal strings.

    >>> canonical({"b": 1, "a": [1, 2]})
    '{"a":[1,2],"b":1}'
    """
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


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
