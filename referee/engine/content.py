"""Content as data: load TOML/JSON beside a game's code and validate it at load time.

Rows become frozen dataclasses; every error names the file and the row
("clank/content/cards.toml: row 'c17': unknown effect 'draw_then_trsh'").
"""
from __future__ import annotations

import dataclasses
import json
import tomllib
import types
import typing
from collections.abc import Callable, Collection, Iterable, Mapping
from importlib import resources
from typing import Any, Generic, Literal, TypeVar, get_args, get_origin, get_type_hints

from .errors import ContentError

T = TypeVar("T")
F = TypeVar("F", bound=Callable[..., Any])


def load_data(package: str, name: str) -> Any:
    """Parse ``name`` (TOML or JSON) from ``package``'s directory; parse errors name the file."""
    where = f"{package.replace('.', '/')}/{name}"
    try:
        text = resources.files(package).joinpath(name).read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise ContentError(f"{where}: file not found") from exc
    try:
        if name.endswith(".toml"):
            return tomllib.loads(text)
        if name.endswith(".json"):
            return json.loads(text)
    except (tomllib.TOMLDecodeError, json.JSONDecodeError) as exc:
        raise ContentError(f"{where}: cannot parse: {exc}") from exc
    raise ContentError(f"{where}: unsupported content format (use .toml or .json)")


def _conforms(value: Any, hint: Any) -> bool:
    origin = get_origin(hint)
    if hint is Any:
        return True
    if origin is Literal:
        return value in get_args(hint)
    if origin in (typing.Union, types.UnionType):
        return any(_conforms(value, a) for a in get_args(hint))
    if hint is type(None):
        return value is None
    if origin in (list, tuple):
        items = [a for a in get_args(hint) if a is not Ellipsis]
        if not isinstance(value, list | tuple):
            return False
        return all(_conforms(v, items[0]) for v in value) if items else True
    if origin is dict or hint is dict:
        if not isinstance(value, dict):
            return False
        args = get_args(hint)
        return all(_conforms(v, args[1]) for v in value.values()) if args else True
    if hint is float:
        return isinstance(value, int | float) and not isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if isinstance(hint, type):
        return isinstance(value, hint)
    return True


def _freeze(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    return value


def build_rows(where: str, rows: Iterable[Mapping[str, Any]], cls: type[T],
               id_field: str = "id") -> dict[str, T]:
    """Rows -> ``{id: dataclass}``; unknown/missing fields, wrong types and duplicate ids are errors."""
    if not dataclasses.is_dataclass(cls):
        raise TypeError(f"{cls!r} is not a dataclass")
    hints = get_type_hints(cls)
    fields = {f.name: f for f in dataclasses.fields(cls)}
    out: dict[str, T] = {}
    for n, row in enumerate(rows, 1):
        rid = row.get(id_field, f"#{n}") if isinstance(row, Mapping) else f"#{n}"
        label = f"{where}: row {rid!r}"
        if not isinstance(row, Mapping):
            raise ContentError(f"{label}: a row must be a table/object")
        unknown = sorted(set(row) - set(fields))
        if unknown:
            raise ContentError(f"{label}: unknown field(s) {unknown}")
        values: dict[str, Any] = {}
        for name, f in fields.items():
            if name not in row:
                if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                    raise ContentError(f"{label}: missing field {name!r}")
                continue
            if not _conforms(row[name], hints[name]):
                raise ContentError(f"{label}: field {name!r} has the wrong type ({row[name]!r})")
            values[name] = _freeze(row[name])
        key = str(values.get(id_field, rid))
        if key in out:
            raise ContentError(f"{label}: duplicate id")
        out[key] = cls(**values)
    return out


def check_refs(where: str, rows: Mapping[str, Any], field: str, valid: Collection[str], what: str) -> None:
    """Every ``row.field`` (a string or a list of strings) must name an id in ``valid``."""
    for rid, row in rows.items():
        value = getattr(row, field)
        refs = value if isinstance(value, tuple | list) else [value]
        for ref in refs:
            if ref is not None and ref not in valid:
                raise ContentError(f"{where}: row {rid!r}: field {field!r} names unknown {what} {ref!r}")


def check_count(where: str, actual: int, expected: int, what: str) -> None:
    if actual != expected:
        raise ContentError(f"{where}: expected {expected} {what}, found {actual}")


class EffectRegistry(Generic[F]):
    """Effect keys named in data -> functions in code. Unknown keys are content errors;
    ``unused`` lists functions no row names (a test asserts it is empty)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.effects: dict[str, F] = {}

    def register(self, key: str) -> Callable[[F], F]:
        def deco(fn: F) -> F:
            if key in self.effects:
                raise TypeError(f"{self.name}: effect {key!r} registered twice")
            self.effects[key] = fn
            return fn
        return deco

    def resolve(self, key: str, where: str = "") -> F:
        try:
            return self.effects[key]
        except KeyError:
            raise ContentError(f"{where or self.name}: unknown effect {key!r}") from None

    def check(self, where: str, used: Mapping[str, Iterable[str]]) -> None:
        """``used`` maps row id -> effect keys it names; every key must resolve."""
        for rid, keys in used.items():
            for key in keys:
                if key not in self.effects:
                    raise ContentError(f"{where}: row {rid!r}: unknown effect {key!r}")

    def unused(self, used_keys: Iterable[str]) -> list[str]:
        return sorted(set(self.effects) - set(used_keys))
