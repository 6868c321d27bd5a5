"""Typed actions: one frozen dataclass per action type, canonical JSON on the wire, a JSON Schema.

A game declares its action types once::

    @dataclass(frozen=True)
    class Move(Action):
        TYPE: ClassVar[str] = "move"
        to: str
        swords: int = 0

    ACTIONS = ActionSet([Move, EndTurn])

``ActionSet.parse`` turns a wire dict into the dataclass (or raises ``MalformedAction``),
``ActionSet.schema()`` is the JSON Schema published for bots in other languages. Legal-action
lists stay plain dicts (``Move("r3").to_json()``) so they go on the wire unchanged.
"""
from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Iterable, Mapping
from typing import Any, ClassVar, Literal, get_args, get_origin, get_type_hints

from .errors import MalformedAction

#: field metadata: the field is left out of the wire dict when it holds its default (``Action.wire``)
OMIT_DEFAULT: dict[str, Any] = {"arena_omit_default": True}


@dataclasses.dataclass(frozen=True)
class Action:
    """Base of every action dataclass; subclasses set ``TYPE``.

    Rules build legal lists with ``Move.wire(to, swords)`` (the wire dict straight from the declared
    fields, as cheap as a dict literal) and take applied actions back as objects with
    ``ActionSet.trusted`` (no checks: the action came from the legal list), dispatched by class."""

    TYPE: ClassVar[str] = ""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.TYPE}
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            if f.metadata.get("arena_omit_default") and v == f.default:
                continue
            out[f.name] = list(v) if isinstance(v, tuple) else v
        return out

    @classmethod
    def wire(cls, *args: Any, **kwargs: Any) -> dict[str, Any]:
        """The wire dict of ``cls(*args, **kwargs)`` without building the object (legal lists are hot).
        Sequence fields are given as lists. Generated per class on first use."""
        out: dict[str, Any] = _wire_function(cls)(*args, **kwargs)
        return out


def _wire_function(cls: type[Action]) -> Any:
    fn = cls.__dict__.get("_wire_fn")
    if fn is not None:
        return fn
    ns: dict[str, Any] = {}
    params, items, omits = [], [f'"type": {cls.TYPE!r}'], []
    for f in dataclasses.fields(cls):
        if f.default is not dataclasses.MISSING:
            # a tuple default goes on the wire as the list a legal dict holds (``==`` with parsed JSON)
            ns[f"_d_{f.name}"] = list(f.default) if isinstance(f.default, tuple) else f.default
            params.append(f"{f.name}=_d_{f.name}")
        elif f.default_factory is not dataclasses.MISSING:
            raise TypeError(f"{cls.__qualname__}.{f.name}: wire() needs a plain default, not a factory")
        else:
            params.append(f.name)
        if f.metadata.get("arena_omit_default"):
            omits.append(f"    if {f.name} != _d_{f.name}:\n        out[{f.name!r}] = {f.name}\n")
        else:
            items.append(f"{f.name!r}: {f.name}")
    src = (f"def wire({', '.join(params)}):\n    out = {{{', '.join(items)}}}\n" + "".join(omits)
           + "    return out\n") if omits else \
        f"def wire({', '.join(params)}):\n    return {{{', '.join(items)}}}\n"
    exec(compile(src, f"<wire {cls.__qualname__}>", "exec"), ns)  # noqa: S102
    fn = staticmethod(ns["wire"])
    # later calls go straight to the generated function
    for name, value in (("_wire_fn", ns["wire"]), ("wire", fn)):
        setattr(cls, name, value)
    return ns["wire"]


def _trusted_function(cls: type[Action]) -> Any:
    """``d -> cls(...)`` without checks, for dicts taken from a legal list."""
    hints = get_type_hints(cls)
    ns: dict[str, Any] = {"_cls": cls}
    args = []
    for f in dataclasses.fields(cls):
        get = f"d[{f.name!r}]"
        if f.default is not dataclasses.MISSING:
            ns[f"_d_{f.name}"] = f.default
            get = f"d.get({f.name!r}, _d_{f.name})"
        elif f.default_factory is not dataclasses.MISSING:
            ns[f"_f_{f.name}"] = f.default_factory
            get = f"(d[{f.name!r}] if {f.name!r} in d else _f_{f.name}())"
        origin = get_origin(hints[f.name])
        if origin is tuple or (origin in (typing.Union, types.UnionType)
                               and any(get_origin(a) is tuple for a in get_args(hints[f.name]))):
            get = f"_tup({get})"
        args.append(get)
    ns["_tup"] = lambda v: tuple(v) if isinstance(v, list) else v
    src = f"def trusted(d):\n    return _cls({', '.join(args)})\n"
    exec(compile(src, f"<trusted {cls.__qualname__}>", "exec"), ns)  # noqa: S102
    return ns["trusted"]


def _check(value: Any, hint: Any, path: str) -> Any:
    """Validate ``value`` against a type hint; return it converted (lists to tuples for frozen use)."""
    origin = get_origin(hint)
    if hint is Any:
        return value
    if origin is Literal:
        if value not in get_args(hint):
            raise MalformedAction(f"{path} must be one of {list(get_args(hint))}")
        return value
    if origin in (typing.Union, types.UnionType):
        for arm in get_args(hint):
            try:
                return _check(value, arm, path)
            except MalformedAction:
                continue
        raise MalformedAction(f"{path} has the wrong type")
    if hint is type(None):
        if value is not None:
            raise MalformedAction(f"{path} must be null")
        return None
    if origin in (list, tuple):
        if not isinstance(value, list | tuple):
            raise MalformedAction(f"{path} must be an array")
        args = get_args(hint)
        item = args[0] if args else Any
        return tuple(_check(v, item, f"{path}[{i}]") for i, v in enumerate(value))
    if hint is bool:
        if not isinstance(value, bool):
            raise MalformedAction(f"{path} must be a boolean")
        return value
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise MalformedAction(f"{path} must be an integer")
        return value
    if hint is float:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise MalformedAction(f"{path} must be a number")
        return value
    if hint is str:
        if not isinstance(value, str):
            raise MalformedAction(f"{path} must be a string")
        return value
    if origin is dict or hint is dict:
        if not isinstance(value, dict):
            raise MalformedAction(f"{path} must be an object")
        return value
    raise TypeError(f"unsupported action field type {hint!r} at {path}")


def _schema_of(hint: Any) -> dict[str, Any]:
    origin = get_origin(hint)
    if hint is Any:
        return {}
    if origin is Literal:
        return {"enum": list(get_args(hint))}
    if origin in (typing.Union, types.UnionType):
        return {"anyOf": [_schema_of(a) for a in get_args(hint)]}
    if hint is type(None):
        return {"type": "null"}
    if origin in (list, tuple):
        args = get_args(hint)
        return {"type": "array", "items": _schema_of(args[0]) if args else {}}
    simple = {bool: "boolean", int: "integer", float: "number", str: "string", dict: "object"}
    if hint in simple:
        return {"type": simple[hint]}
    if origin is dict:
        return {"type": "object"}
    raise TypeError(f"unsupported action field type {hint!r}")


class ActionSet:
    """The action types of one game: parse wire dicts, export a JSON Schema."""

    def __init__(self, kinds: Iterable[type[Action]]) -> None:
        self.kinds: dict[str, type[Action]] = {}
        self._hints: dict[str, dict[str, Any]] = {}
        self._trusted: dict[str, Callable[[Mapping[str, Any]], Action]] = {}
        for k in kinds:
            if not k.TYPE or k.TYPE in self.kinds:
                raise TypeError(f"action class {k.__name__} needs a unique TYPE")
            self.kinds[k.TYPE] = k
            hints = get_type_hints(k)
            self._hints[k.TYPE] = {f.name: hints[f.name] for f in dataclasses.fields(k)}
            self._trusted[k.TYPE] = _trusted_function(k)

    def parse(self, data: Any) -> Action:
        """A wire dict -> its action dataclass; ``MalformedAction`` names what is wrong."""
        if not isinstance(data, Mapping):
            raise MalformedAction("an action must be a JSON object")
        kind = data.get("type")
        if not isinstance(kind, str) or kind not in self.kinds:
            raise MalformedAction(f"unknown action type {kind!r}; known: {sorted(self.kinds)}")
        cls = self.kinds[kind]
        hints = self._hints[kind]
        extra = set(data) - set(hints) - {"type"}
        if extra:
            raise MalformedAction(f"action {kind!r} has unknown fields {sorted(extra)}")
        values: dict[str, Any] = {}
        for f in dataclasses.fields(cls):
            if f.name in data:
                values[f.name] = _check(data[f.name], hints[f.name], f"{kind}.{f.name}")
            elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise MalformedAction(f"action {kind!r} is missing field {f.name!r}")
        return cls(**values)

    def trusted(self, data: Mapping[str, Any]) -> Action:
        """A dict from the legal list -> its action object, without checks (the rules' dispatch)."""
        return self._trusted[data["type"]](data)

    def validate(self, data: Any) -> None:
        """Raise ``MalformedAction`` unless ``data`` parses."""
        self.parse(data)

    def schema(self, game_id: str = "") -> dict[str, Any]:
        """A JSON Schema (draft 2020-12) accepting exactly the well-formed actions."""
        arms = []
        for kind, cls in self.kinds.items():
            props: dict[str, Any] = {"type": {"const": kind}}
            required = ["type"]
            for f in dataclasses.fields(cls):
                props[f.name] = _schema_of(self._hints[kind][f.name])
                if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                    required.append(f.name)
            arm: dict[str, Any] = {"type": "object", "title": kind, "properties": props,
                                   "required": required, "additionalProperties": False}
            if cls.__doc__:
                arm["description"] = cls.__doc__.strip().splitlines()[0]
            arms.append(arm)
        return {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": f"{game_id} action" if game_id else "action",
            "oneOf": arms,
        }
