"""View deltas (``Hello.view_delta``): a seat's view as a patch on the view it was sent before.

Shared by the referee (``encode``) and the Python SDK (``apply``); docs/protocol.md, "View deltas",
is the contract for bots in other languages. A patch on an object or array::

    {"set": {key: value, ...}, "del": [key, ...], "sub": {key: patch, ...}}

``set`` replaces (or adds) values, ``del`` removes keys, ``sub`` patches a nested object or array in
place (``sub`` only when present; arrays are addressed by decimal index and keep their length, and
have no ``del``). Rebuilt views equal the full ones exactly: values are compared as the encoded
text (so 1, 1.0 and true differ) and an object's keys keep their order (a patch is made only when
the kept keys stay in order and the new ones come last, as ``dict`` insertion does; otherwise the
value, or at the top the whole view, is sent in full). Applying a patch twice changes nothing.
"""
from __future__ import annotations

import json
from collections.abc import MutableMapping
from typing import Any

import orjson

from referee.service.wirejson import encode as _enc
from referee.service.wirejson import static_text

#: Values shorter than this (encoded) are replaced whole rather than patched: patching them saves
#: little and costs the referee a diff of every child.
MIN_PATCHED = 1024


def loads(text: str | bytes) -> Any:
    """JSON text -> value (orjson; the standard parser for what orjson refuses, e.g. >64-bit integers)."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)


def encode(previous: dict[str, bytes] | None, view: dict[str, Any], static: tuple[str, ...] = (),
           cache: MutableMapping[str, bytes] | None = None) -> tuple[dict[str, bytes], str]:
    """(the encoded top-level values of ``view``, its patch on the view whose values were
    ``previous``); the patch is "" when the whole view must be sent (no previous view, or its keys
    moved). Keep the first for the next call. The values of the ``static`` keys come from ``cache``
    (``wirejson.static_text``: encoded once per match)."""
    if static and cache is not None:
        parts = {str(k): static_text(view, k, cache) if k in static else _enc(v) for k, v in view.items()}
    else:
        parts = {str(k): _enc(v) for k, v in view.items()}
    if previous is None:
        return parts, ""
    patch = _patch(None, view, previous, parts, top=True)
    return parts, patch.decode() if patch else ""


def full_text(parts: dict[str, bytes]) -> str:
    """The whole view's JSON text from its encoded top-level values (as ``dumps(view)`` writes it)."""
    return (b"{" + b",".join(_enc(k) + b":" + v for k, v in parts.items()) + b"}").decode()


def _patch(old: Any, new: Any, old_texts: dict[str, bytes], new_texts: dict[str, bytes],
           top: bool = False) -> bytes | None:
    """The patch from ``old`` to ``new`` (containers of one kind, their children's texts given),
    or None when none keeps the keys' order. ``old`` None: decode a child from its text when needed."""
    keys = list(new_texts)
    kept = [k for k in old_texts if k in new_texts]
    if keys[:len(kept)] != kept:
        return None
    is_list = isinstance(new, list)
    sets: list[bytes] = []
    subs: list[bytes] = []
    for k in keys:
        text, before = new_texts[k], old_texts.get(k)
        if before == text:
            continue
        if before is not None and len(text) >= MIN_PATCHED and before[:1] == text[:1] and text[:1] in b"{[":
            child_new = new[int(k)] if is_list else new[k]
            child_old = loads(before) if old is None else (old[int(k)] if is_list else old[k])
            sub = _child_patch(child_old, child_new)
            if sub is not None and len(sub) < len(text):
                subs.append(_enc(k) + b":" + sub)
                continue
        sets.append(_enc(k) + b":" + text)
    dels = [k for k in old_texts if k not in new_texts]
    fields = []  # the top level always has "set" and "del" (the first bots read only those)
    if sets or top:
        fields.append(b'"set":{' + b",".join(sets) + b"}")
    if dels or top:
        fields.append(b'"del":' + _enc(dels))
    if subs:
        fields.append(b'"sub":{' + b",".join(subs) + b"}")
    return b"{" + b",".join(fields) + b"}"


def _child_patch(old: Any, new: Any) -> bytes | None:
    if isinstance(old, dict) and isinstance(new, dict):
        return _patch(old, new, {str(k): _enc(v) for k, v in old.items()},
                      {str(k): _enc(v) for k, v in new.items()})
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        return _patch(old, new, {str(i): _enc(v) for i, v in enumerate(old)},
                      {str(i): _enc(v) for i, v in enumerate(new)})
    return None


def apply(previous: Any, patch: dict[str, Any]) -> Any:
    """The value ``patch`` describes on ``previous`` (a new container; unchanged parts are shared)."""
    if isinstance(previous, list):
        out_list = list(previous)
        for k, v in patch.get("set", {}).items():
            out_list[int(k)] = v
        for k, p in patch.get("sub", {}).items():
            out_list[int(k)] = apply(out_list[int(k)], p)
        return out_list
    out = dict(previous)
    out.update(patch.get("set", {}))
    for k in patch.get("del", []):
        out.pop(k, None)
    for k, p in patch.get("sub", {}).items():
        out[k] = apply(out[k], p)
    return out
