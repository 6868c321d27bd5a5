"""Game data declared once: dataclass fields give a record's snapshot, restore and clone.

A game declares its state as dataclasses (``@dataclass(slots=True) class Player(Record)``) and, for the
engine's ``State`` subclass itself, ``@dataclass(init=False, eq=False)`` over the same kind of fields.
From the field types this module generates, once per class, three small functions:

- ``dump(obj) -> dict``: the JSON snapshot (containers copied, nested records dumped);
- ``load(data) -> obj``: the inverse;
- ``copy(obj) -> obj``: a deep copy as fast as a hand-written one (no JSON in between).

Supported field types: ``int str bool float None Any``, ``X | None``, ``list[T]``, ``tuple[T, ...]``,
``set[T]`` / ``frozenset[T]`` (a sorted list in JSON), ``dict[str | int, T]`` (an ``int`` key is a string
in JSON), nested records, and any class with ``to_json()`` / ``from_json()`` (e.g. ``DecisionStack``;
its ``copy()`` if it has one).
``Any`` values must be JSON (dicts, lists, scalars) and are deep-copied. Field metadata:
``field(metadata=TRANSIENT)`` keeps a field out of snapshots (a cache; reset to its default on load and
copy), ``field(metadata=key("name"))`` names it differently in JSON.
"""
from __future__ import annotations

import dataclasses
import sys
import types
import typing
from collections.abc import Callable
from typing import Any, get_args, get_origin

#: field metadata: not snapshotted, reset to its default by load and copy (caches)
TRANSIENT: dict[str, Any] = {"arena_transient": True}


def key(name: str) -> dict[str, Any]:
    """Field metadata: the field's name in the JSON snapshot."""
    return {"arena_key": name}


def deep_json(v: Any) -> Any:
    """A deep copy of a JSON value (dicts, lists, scalars), faster than ``copy.deepcopy``."""
    if type(v) is dict:
        return {k: deep_json(x) for k, x in v.items()}
    if type(v) is list:
        return [deep_json(x) for x in v]
    return v


class Record:
    """Base of a game's data classes: ``to_json``, ``from_json`` and ``copy`` come from the fields.

    The first call of each generates the class's functions and puts them on the class, so later calls
    cost what hand-written ones would."""

    __slots__ = ()

    def to_json(self) -> dict[str, Any]:
        return codec(type(self)).dump(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Any:
        return codec(cls).load(data)

    def copy(self) -> Any:
        return codec(type(self)).copy(self)


class Codec:
    """The generated ``dump``/``load``/``copy`` of one class (see the module docstring)."""

    def __init__(self, cls: type) -> None:
        self.cls = cls
        self.source, namespace = _generate(cls)
        exec(compile(self.source, f"<record {cls.__qualname__}>", "exec"), namespace)  # noqa: S102
        self.dump: Callable[[Any], dict[str, Any]] = namespace["dump"]
        self.load: Callable[[dict[str, Any]], Any] = namespace["load"]
        self.copy: Callable[[Any], Any] = namespace["copy"]
        #: ``load_into(obj, data)`` / ``copy_into(src, dst)``: fill an object made elsewhere (a State)
        self.load_into: Callable[[Any, dict[str, Any]], None] = namespace["load_into"]
        self.copy_into: Callable[[Any, Any], None] = namespace["copy_into"]
        #: ``reset(obj)``: every field with a default set to it (a State's ``__init__``)
        self.reset: Callable[[Any], None] = namespace["reset"]


_CODECS: dict[type, Codec] = {}


def codec(cls: type) -> Codec:
    """The class's codec, generated on first use. Record subclasses get the functions as methods."""
    c = _CODECS.get(cls)
    if c is None:
        if not dataclasses.is_dataclass(cls):
            raise TypeError(f"{cls.__qualname__} is not a dataclass")
        c = _CODECS[cls] = Codec(cls)
        if issubclass(cls, Record):
            dump, load, copy = c.dump, c.load, c.copy
            methods: dict[str, Any] = {"to_json": lambda self: dump(self),
                                       "from_json": classmethod(lambda _cls, data: load(data)),
                                       "copy": lambda self: copy(self)}
            for name, method in methods.items():
                setattr(cls, name, method)
    return c


def dump(obj: Any) -> dict[str, Any]:
    return codec(type(obj)).dump(obj)


def load(cls: type, data: dict[str, Any]) -> Any:
    return codec(cls).load(data)


def copy(obj: Any) -> Any:
    return codec(type(obj)).copy(obj)


# -- code generation ---------------------------------------------------------------------------------
#: a piece of generated code: the source text of an expression over the given source text, or None for
#: "the value itself" (immutable scalars)
Expr = Callable[[str], str] | None


class _Gen:
    def __init__(self) -> None:
        self.ns: dict[str, Any] = {"deep_json": deep_json}
        self.n = 0

    def name(self, value: Any, prefix: str) -> str:
        self.n += 1
        n = f"_{prefix}{self.n}"
        self.ns[n] = value
        return n

    def var(self) -> str:
        self.n += 1
        return f"v{self.n}"

    def exprs(self, hint: Any, where: str) -> tuple[Expr, Expr, Expr]:
        """(dump, load, copy) of a value of type ``hint``."""
        origin = get_origin(hint)
        if hint in (int, str, bool, float, type(None)):
            return None, None, None
        if hint is Any or hint is object:
            return (lambda x: f"deep_json({x})",) * 3
        if origin in (typing.Union, types.UnionType):
            arms = [a for a in get_args(hint) if a is not type(None)]
            if all(a in (int, str, bool, float) for a in arms):
                return None, None, None
            if len(arms) != 1:
                raise TypeError(f"{where}: only X | None unions of a non-scalar are supported, not {hint!r}")
            d, lo, c = self.exprs(arms[0], where)
            return _optional(d), _optional(lo), _optional(c)
        if origin in (list, tuple):
            args = get_args(hint)
            if origin is tuple and not (len(args) == 2 and args[1] is Ellipsis):
                raise TypeError(f"{where}: only tuple[T, ...] is supported, not {hint!r}")
            item = args[0] if args else Any
            ctor = "tuple" if origin is tuple else "list"
            d, lo, c = self.exprs(item, where)
            return self._each(d, "list"), self._each(lo, ctor), self._each(c, ctor)
        if origin in (set, frozenset):
            args = get_args(hint)
            if not args or args[0] not in (int, str):
                raise TypeError(f"{where}: a set must hold int or str, not {hint!r}")
            ctor = origin.__name__
            return (lambda x: f"sorted({x})"), (lambda x: f"{ctor}({x})"), (lambda x: f"{ctor}({x})")
        if origin is dict or hint is dict:
            k, v = get_args(hint) or (str, Any)
            if k not in (str, int):
                raise TypeError(f"{where}: dict keys must be str or int, not {k!r}")
            if k is str and (v is Any or v is object):
                return (lambda x: f"deep_json({x})",) * 3
            d, lo, c = self.exprs(v, where)
            return (self._items(d, "str" if k is int else None), self._items(lo, "int" if k is int else None),
                    self._items(c, None))
        if isinstance(hint, type) and not issubclass(hint, Record) and hasattr(hint, "to_json") \
                and hasattr(hint, "from_json"):  # its own JSON form (DecisionStack: a list of frames)
            n = self.name(hint, "T")
            cp = (lambda x: f"{x}.copy()") if hasattr(hint, "copy") else \
                (lambda x: f"{n}.from_json({x}.to_json())")
            return (lambda x: f"{x}.to_json()"), (lambda x: f"{n}.from_json({x})"), cp
        if isinstance(hint, type) and dataclasses.is_dataclass(hint):
            n = self.name(hint, "C")
            return (lambda x: f"_codec({n}).dump({x})"), (lambda x: f"_codec({n}).load({x})"), \
                (lambda x: f"_codec({n}).copy({x})")
        raise TypeError(f"{where}: unsupported field type {hint!r}")

    def _each(self, item: Expr, ctor: str) -> Expr:
        if item is None:
            return lambda x: f"{ctor}({x})"
        i = self.var()
        if ctor == "list":
            return lambda x: f"[{item(i)} for {i} in {x}]"
        return lambda x: f"{ctor}({item(i)} for {i} in {x})"

    def _items(self, value: Expr, key_conv: str | None) -> Expr:
        if value is None and key_conv is None:
            return lambda x: f"dict({x})"
        k, v = self.var(), self.var()
        ke = f"{key_conv}({k})" if key_conv else k
        ve = value(v) if value is not None else v
        return lambda x: f"{{{ke}: {ve} for {k}, {v} in {x}.items()}}"


def _optional(e: Expr) -> Expr:
    if e is None:
        return None
    return lambda x: f"(None if {x} is None else {e(x)})"


def _field_hints(cls: type) -> dict[str, Any]:
    """The dataclass fields' types, each evaluated in the module of the class that declares it (a
    State subclass's base holds annotations that exist only for type checkers)."""
    out: dict[str, Any] = {}
    names = {f.name for f in dataclasses.fields(cls)}
    for klass in reversed(cls.__mro__):
        ann = klass.__dict__.get("__annotations__", {})
        if not any(n in ann for n in names):
            continue
        glob = vars(sys.modules[klass.__module__])
        for n, t in ann.items():
            if n in names:
                out[n] = eval(t, glob, dict(vars(klass))) if isinstance(t, str) else t  # noqa: S307
    return out


def _generate(cls: type) -> tuple[str, dict[str, Any]]:
    gen = _Gen()
    gen.ns["_codec"] = codec
    gen.ns["_cls"] = cls
    hints = _field_hints(cls)
    defaults: list[str] = []
    dumps: list[str] = []
    loads: list[str] = []
    copies: list[str] = []
    resets: list[str] = []
    for f in dataclasses.fields(cls):
        if f.default is not dataclasses.MISSING:
            defaults.append(f"o.{f.name} = {gen.name(f.default, 'D')}")
        elif f.default_factory is not dataclasses.MISSING:
            defaults.append(f"o.{f.name} = {gen.name(f.default_factory, 'F')}()")
        if f.metadata.get("arena_transient"):
            if f.default is not dataclasses.MISSING:
                resets.append(f"o.{f.name} = {gen.name(f.default, 'D')}")
            elif f.default_factory is not dataclasses.MISSING:
                resets.append(f"o.{f.name} = {gen.name(f.default_factory, 'F')}()")
            else:
                raise TypeError(f"{cls.__qualname__}.{f.name}: a transient field needs a default")
            continue
        k = f.metadata.get("arena_key", f.name)
        d, lo, c = gen.exprs(hints[f.name], f"{cls.__qualname__}.{f.name}")
        src, sv = f"o.{f.name}", f"s.{f.name}"
        jv = f"d[{k!r}]"
        dumps.append(f"{k!r}: {d(src) if d else src}")
        loads.append(f"o.{f.name} = {lo(jv) if lo else jv}")
        copies.append(f"o.{f.name} = {c(sv) if c else sv}")
    tail = "".join(f"\n    {r}" for r in resets)
    src = (
        "def dump(o):\n    return {" + ", ".join(dumps) + "}\n"
        "def load_into(o, d):\n    " + ("\n    ".join(loads) or "pass") + tail + "\n"
        "def copy_into(s, o):\n    " + ("\n    ".join(copies) or "pass") + tail + "\n"
        "def reset(o):\n    " + ("\n    ".join(defaults) or "pass") + "\n"
        "def load(d):\n    o = _cls.__new__(_cls)\n    load_into(o, d)\n    return o\n"
        "def copy(s):\n    o = _cls.__new__(_cls)\n    copy_into(s, o)\n    return o\n"
    )
    return src, gen.ns
