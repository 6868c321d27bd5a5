"""JSON for the wire: compact, UTF-8, same text as ``json.dumps(obj, separators=(",", ":"),
ensure_ascii=False)``, ~10x faster (orjson). Encoding views was the referee's largest per-decision
cost (Clank's ~8 KB views: 140 us with ``json``, 14 us with orjson)."""
from __future__ import annotations

import json
from typing import Any

import orjson

_OPTIONS = orjson.OPT_NON_STR_KEYS
_fallback = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode


def dumps(obj: Any) -> str:
    """``obj`` as compact JSON text."""
    try:
        return orjson.dumps(obj, option=_OPTIONS).decode()
    except TypeError:  # e.g. an integer beyond 64 bits: the standard encoder takes anything JSON can
        return _fallback(obj)
