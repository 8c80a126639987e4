"""pyarrow's type inference for a column of Python values, with the errors it raises.

The Python client turns a list of dicts into an Arrow table with ``pyarrow.Table.from_pylist``,
so a metadata column's type is what pyarrow infers from the values it sees (``infer_column``),
and a value that cannot go into that column raises pyarrow's own error.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from placeborag_core.backends.lancedb.arrow.datatypes import (
    BOOL,
    FLOAT64,
    I64_MAX,
    I64_MIN,
    INT64,
    NULL,
    UTF8,
    ArrowType,
    list_of,
    struct_of,
)

__all__ = ["ArrowInvalid", "ArrowTypeError", "infer_column"]


class ArrowInvalid(ValueError):  # noqa: N818 - pyarrow's name
    """pyarrow's ``ArrowInvalid`` (a ValueError): a value that cannot become the column's type."""


class ArrowTypeError(TypeError):
    """pyarrow's ``ArrowTypeError`` (a TypeError): a value of the wrong Python type for a
    column whose type was already decided."""


def _kind(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int" if I64_MIN <= value <= I64_MAX else "big"
    if isinstance(value, float):
        return "float"
    if isinstance(value, str):
        return "str"
    if isinstance(value, list | tuple):
        return "list"
    if isinstance(value, Mapping):
        return "dict"
    return type(value).__name__


_PYTYPE = {
    "bool": "bool",
    "int": "int",
    "big": "int",
    "float": "float",
    "str": "str",
    "list": "list",
    "dict": "dict",
}
_TARGET = {"bool": "boolean", "int64": "int64", "double": "double"}


def _convert_error(value: Any, target: ArrowType) -> ArrowInvalid:
    return ArrowInvalid(
        f"Could not convert {_pyrepr(value)} with type {_PYTYPE[_kind(value)]}: tried to convert "
        f"to {_TARGET.get(target.kind, target.pyarrow)}"
    )


def _pyrepr(value: Any) -> str:
    if isinstance(value, tuple):
        value = list(value)
    return repr(value)


_MIX_LIST = "cannot mix list and non-list, non-null values"
_MIX_STRUCT = "cannot mix struct and non-struct, non-null values"
_OVERFLOW = "Python int too large to convert to C long"
_PYLONG = "PyLong is too large to fit int64"


def infer_column(values: Sequence[Any]) -> ArrowType:
    """The type pyarrow gives a column of these Python values (``pa.array(values)``), raising
    what pyarrow raises for values it cannot put in one column.

    pyarrow's type inference (``TypeInferrer``) counts the kinds it sees and stops at the first
    bool, float or str, so the values up to there decide: ints then a float make a double column,
    ints then a bool an int64 one (the bool then fails to convert), a str first a string column.
    The type is the highest kind counted (list, struct, double, int64, bool, string); a list or a
    struct beside other non-null values fails. Then every value is converted, in order, and the
    first that cannot be raises pyarrow's error.
    """
    target = _Inferrer().visit_all(values, stop_early=True).type()
    for value in values:
        _convert(value, target)
    return target


_STOPS = frozenset({"bool", "float", "str"})


class _Inferrer:
    """pyarrow's ``TypeInferrer``: counts per kind, a child inferrer for list elements and one
    per struct field (these see every value: only a sequence's own scan stops early)."""

    def __init__(self) -> None:
        self.counts: dict[str, int] = {}
        self.child: _Inferrer | None = None
        self.fields: dict[str, _Inferrer] = {}
        self.total = 0

    def visit_all(self, values: Sequence[Any], *, stop_early: bool) -> _Inferrer:
        for value in values:
            kind = self.visit(value)
            if stop_early and kind in _STOPS:
                break
        return self

    def visit(self, value: Any) -> str:
        kind = _kind(value)
        if kind not in _PYTYPE and kind != "none":
            raise ArrowInvalid(
                f"Could not convert {_pyrepr(value)} with type {kind}: did not recognize Python "
                "value type when inferring an Arrow data type"
            )
        self.total += 1
        key = "int" if kind == "big" else kind
        self.counts[key] = self.counts.get(key, 0) + 1
        if kind == "list":
            if self.child is None:
                self.child = _Inferrer()
            self.child.visit_all(list(value), stop_early=True)
        elif kind == "dict":
            for field_name, inner in value.items():
                self.fields.setdefault(field_name, _Inferrer()).visit(inner)
        return kind

    def type(self) -> ArrowType:
        present = self.total - self.counts.get("none", 0)
        if self.counts.get("list") and self.counts["list"] != present:
            raise ArrowInvalid(_MIX_LIST)
        if self.counts.get("dict") and self.counts["dict"] != present:
            raise ArrowInvalid(_MIX_STRUCT)
        if self.counts.get("list"):
            return list_of(self.child.type() if self.child is not None else NULL)
        if self.counts.get("dict"):
            return struct_of((key, inner.type()) for key, inner in self.fields.items())
        for kind, arrow in (("float", FLOAT64), ("int", INT64), ("bool", BOOL), ("str", UTF8)):
            if self.counts.get(kind):
                return arrow
        return NULL


def _convert(value: Any, target: ArrowType) -> None:
    """Raise pyarrow's error if ``value`` cannot be stored in a column of ``target``."""
    kind = _kind(value)
    if kind == "none":
        return
    if target.kind == "list":
        assert target.item is not None
        if kind != "list":
            raise _convert_error(value, target)
        for item in value:
            _convert(item, target.item)
        return
    if target.kind == "struct":
        if kind != "dict":
            raise _convert_error(value, target)
        for key, inner in target.fields:
            _convert(value.get(key), inner)
        return
    if target.kind == "null":
        raise _convert_error(value, target)
    _check_scalar(kind, value, target)


def _check_scalar(kind: str, value: Any, target: ArrowType) -> None:
    """Raise pyarrow's error for ``value`` going into a column of ``target`` (bool, string,
    int64 or double)."""
    if target is UTF8:
        if kind != "str":
            raise ArrowTypeError(f"Expected bytes, got a '{_PYTYPE[kind]}' object")
        return
    if target is BOOL:
        if kind != "bool":
            raise _convert_error(value, target)
        return
    if kind == "big":
        raise ArrowInvalid(_PYLONG) if target is FLOAT64 else OverflowError(_OVERFLOW)
    if target is INT64 and kind == "bool":
        raise ArrowTypeError("Expected integer, got bool")
    if kind not in ("bool", "int", "float"):
        raise _convert_error(value, target)
