"""The Arrow types a LanceDB table gives metadata, as pyarrow infers them and casts into them.

LanceDB stores rows in typed columns. The Python client turns a list of dicts into an Arrow table
with ``pyarrow.Table.from_pylist``, so a column's type is what pyarrow infers from the values it
sees, and a later write is cast to the table's types. This module holds those types, their names
as the engines print them (pyarrow's ``int64``/``double``/``string``; DataFusion's ``Int64``,
``Float64``, ``Utf8``), pyarrow's inference with its errors, and the two casts LanceDB applies to
a later write: ``table.add`` casts leniently in Rust (2.5 becomes 2 in an int64 column, 5 becomes
``'5'`` in a string column), ``merge_insert`` with pyarrow's safe cast (2.5 into int64 raises).
Facts: ``docs/engines/lancedb.md#schema-and-writes`` (probe ``lancedb_schema.py``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

__all__ = [
    "BOOL",
    "FLOAT64",
    "INT64",
    "NULL",
    "UINT64",
    "UTF8",
    "ArrowInvalid",
    "ArrowType",
    "ArrowTypeError",
    "CastMode",
    "cast_value",
    "infer_column",
    "list_of",
    "struct_of",
]

CastMode = Literal["add", "merge"]
"""Which cast a write goes through: ``table.add`` (Rust, lenient) or ``merge_insert`` (pyarrow's
safe cast)."""

RUST_SOURCE = "/root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f"
"""Where the lancedb 0.40.0 wheel was built: its Rust errors end with a source location under
this path (the same for everyone who installs that wheel)."""

_I64_MIN, _I64_MAX = -(2**63), 2**63 - 1


class ArrowInvalid(ValueError):  # noqa: N818 - pyarrow's name
    """pyarrow's ``ArrowInvalid`` (a ValueError): a value that cannot become the column's type."""


class ArrowTypeError(TypeError):
    """pyarrow's ``ArrowTypeError`` (a TypeError): a value of the wrong Python type for a
    column whose type was already decided."""


@dataclass(frozen=True)
class ArrowType:
    """An Arrow type: ``kind`` is one of null, bool, int64, uint64, double, string, list,
    struct; ``item`` is a list's element type, ``fields`` a struct's named field types."""

    kind: str
    item: ArrowType | None = None
    fields: tuple[tuple[str, ArrowType], ...] = field(default=())

    def field(self, name: str) -> ArrowType | None:
        """The type of a struct field, or None."""
        for key, kind in self.fields:
            if key == name:
                return kind
        return None

    @property
    def numeric(self) -> bool:
        return self.kind in ("int64", "uint64", "double")

    @property
    def pyarrow(self) -> str:
        """The name pyarrow prints (``list<item: string>``, ``struct<a: int64>``)."""
        if self.kind == "list":
            assert self.item is not None
            return f"list<item: {self.item.pyarrow}>"
        if self.kind == "struct":
            return "struct<" + ", ".join(f"{k}: {t.pyarrow}" for k, t in self.fields) + ">"
        return self.kind

    @property
    def debug(self) -> str:
        """Rust's ``{:?}`` of the DataFusion type, as lance's literal errors print it."""
        if self.kind == "list":
            assert self.item is not None
            return f"List(Field {{ data_type: {self.item.debug}, nullable: true }})"
        if self.kind == "struct":
            inner = ", ".join(
                f'Field {{ name: "{k}", data_type: {t.debug}, nullable: true }}'
                for k, t in self.fields
            )
            return f"Struct([{inner}])"
        return _DEBUG[self.kind]

    @property
    def display(self) -> str:
        """Rust's ``{}`` of the DataFusion type, as planning errors print it (``List(Utf8)``)."""
        if self.kind == "list":
            assert self.item is not None
            return f"List({self.item.display})"
        if self.kind == "struct":
            return "Struct(" + ", ".join(f'"{k}": {t.display}' for k, t in self.fields) + ")"
        return _DEBUG[self.kind]


_DEBUG = {
    "null": "Null",
    "bool": "Boolean",
    "int64": "Int64",
    "uint64": "UInt64",
    "double": "Float64",
    "string": "Utf8",
}

NULL = ArrowType("null")
BOOL = ArrowType("bool")
INT64 = ArrowType("int64")
UINT64 = ArrowType("uint64")
FLOAT64 = ArrowType("double")
UTF8 = ArrowType("string")


def list_of(item: ArrowType) -> ArrowType:
    return ArrowType("list", item=item)


def struct_of(fields: Iterable[tuple[str, ArrowType]]) -> ArrowType:
    return ArrowType("struct", fields=tuple(fields))


# --------------------------------------------------------------------------- inference


def _kind(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int" if _I64_MIN <= value <= _I64_MAX else "big"
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


# --------------------------------------------------------------------------- casts


def _rust(path: str) -> str:
    return f"{RUST_SOURCE}/{path}"


class CastError(Exception):
    """A value that cannot be cast; the caller turns it into the write's own error."""

    def __init__(self, value: Any, source: ArrowType, target: ArrowType, reason: str) -> None:
        super().__init__(reason)
        self.value = value
        self.source = source
        self.target = target
        self.reason = reason


_INT_TEXT = re.compile(r"[+-]?[0-9]+")
_FLOAT_TEXT = re.compile(
    r"[+-]?(?:[0-9]+\.?[0-9]*(?:[eE][+-]?[0-9]+)?|\.[0-9]+(?:[eE][+-]?[0-9]+)?|inf|infinity|nan)",
    re.IGNORECASE,
)
_RUST_BOOL = {
    **dict.fromkeys(("true", "t", "yes", "y", "on", "1"), True),
    **dict.fromkeys(("false", "f", "no", "n", "off", "0"), False),
}
_ARROW_BOOL = {"true": True, "1": True, "false": False, "0": False}


def format_float(value: float, mode: CastMode) -> str:
    """A double as the cast to string writes it: shortest round-trip digits; pyarrow's cast
    (``merge``) drops a ``.0`` and writes ``1e-7`` for Python's ``1e-07``."""
    if math.isnan(value):
        return "NaN" if mode == "add" else "nan"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    text = repr(value)
    if mode == "merge":
        text = text.removesuffix(".0")
        text = re.sub(r"e([+-])0*(\d)", r"e\1\2", text)
    return text


def cast_value(value: Any, source: ArrowType, target: ArrowType, mode: CastMode) -> Any:
    """``value`` (of Arrow type ``source``) as a value of ``target``; raises
    :class:`CastError` when the write's cast refuses it."""
    if source == target:
        return value
    if value is None:
        # Rust's cast of a scalar column into a list one wraps every value, NULL included.
        wraps = mode == "add" and target.kind == "list" and source.kind not in ("list", "null")
        return [None] if wraps else None
    if target.kind == "null":
        raise CastError(value, source, target, "null")
    if target.kind == "string":
        return _to_string(value, source, target, mode)
    if target.kind in ("int64", "double", "bool"):
        return _to_scalar(value, source, target, mode)
    if target.kind == "list":
        assert target.item is not None
        if source.kind == "list":
            assert source.item is not None
            return [cast_value(v, source.item, target.item, mode) for v in value]
        if mode == "add" and source.kind != "struct":
            return [cast_value(value, source, target.item, mode)]
        raise CastError(value, source, target, "unsupported")
    if target.kind == "struct" and source.kind == "struct":
        out = {}
        for key, kind in target.fields:
            inner = source.field(key)
            out[key] = None if inner is None else cast_value(value.get(key), inner, kind, mode)
        return out
    raise CastError(value, source, target, "unsupported")


def _to_string(value: Any, source: ArrowType, target: ArrowType, mode: CastMode) -> str:
    if source.kind == "bool":
        return "true" if value else "false"
    if source.kind in ("int64", "uint64"):
        return str(value)
    if source.kind == "double":
        return format_float(float(value), mode)
    if source.kind == "list" and mode == "add":
        assert source.item is not None
        items = [
            "" if v is None else _to_string(v, source.item, target, mode)
            if source.item.kind != "string" else v
            for v in value
        ]  # fmt: skip
        return "[" + ", ".join(items) + "]"
    raise CastError(value, source, target, "unsupported")


def _to_scalar(value: Any, source: ArrowType, target: ArrowType, mode: CastMode) -> Any:
    kind = target.kind
    if source.kind in ("list", "struct"):
        raise CastError(value, source, target, "unsupported")
    if source.kind == "string":
        return _parse(value, source, target, mode)
    if source.kind == "bool":
        if kind == "int64":
            return int(value)
        if kind == "double":
            return float(value)
        return value
    number = value  # int64/uint64/double source
    if kind == "bool":
        return number != 0
    if kind == "double":
        return float(number)
    # into int64
    if isinstance(number, float):
        if math.isnan(number) or math.isinf(number):
            raise CastError(value, source, target, "range")
        if mode == "merge" and not number.is_integer():
            raise CastError(value, source, target, "truncated")
        number = int(number)  # add: truncated toward zero
    if not _I64_MIN <= number <= _I64_MAX:
        raise CastError(value, source, target, "range")
    return int(number)


_PYARROW_INT = re.compile(r"-?[0-9]+|0[xX][0-9a-fA-F]+")


def _parse(text: str, source: ArrowType, target: ArrowType, mode: CastMode) -> Any:
    """A string cast to a number or a bool: Rust's parsers for ``add``, pyarrow's for
    ``merge`` (which takes ``0x10`` as an int but not ``+1``)."""
    kind = target.kind
    if kind == "int64":
        pattern = _INT_TEXT if mode == "add" else _PYARROW_INT
        if pattern.fullmatch(text):
            value = int(text, 16) if text[:2] in ("0x", "0X") else int(text)
            if _I64_MIN <= value <= _I64_MAX:
                return value
        raise CastError(text, source, target, "parse")
    if kind == "double":
        if _FLOAT_TEXT.fullmatch(text):
            return float(text)
        raise CastError(text, source, target, "parse")
    table = _RUST_BOOL if mode == "add" else _ARROW_BOOL
    parsed = table.get(text.strip().lower() if mode == "add" else text.lower())
    if parsed is None:
        raise CastError(text, source, target, "parse")
    return parsed


def castable(source: ArrowType, target: ArrowType, mode: CastMode) -> bool:
    """Whether a column of ``source`` casts to ``target`` at all (checked for every column of a
    write before any value is cast): never a non-null type into a null one, never a struct into
    anything else; ``add`` casts a list into a string and a scalar into a list, ``merge`` not."""
    if source.kind == "null" or source == target:
        return True
    if target.kind == "null":
        return False
    if "struct" in (source.kind, target.kind):
        if source.kind != target.kind:
            return False
        return all(
            castable(inner, target.field(key) or inner, mode) for key, inner in source.fields
        )
    if source.kind == "list" and target.kind == "list":
        assert source.item is not None
        assert target.item is not None
        return castable(source.item, target.item, mode)
    if source.kind == "list":
        return mode == "add" and target.kind == "string"
    if target.kind == "list":
        assert target.item is not None
        return mode == "add" and castable(source, target.item, mode)
    return True


def add_type_error(source: ArrowType, target: ArrowType, column: str) -> Exception:
    """``table.add``'s error for a column whose type cannot become the table's (measured for
    a null column)."""
    return ValueError(
        f"Invalid input, cannot cast field '{column}' from {source.display} to {target.display}"
    )


def merge_type_error(source: ArrowType, target: ArrowType) -> Exception:
    """``merge_insert``'s (pyarrow's) error for a column whose type cannot be cast."""
    while source.kind == "list" and target.kind == "list":
        assert source.item is not None
        assert target.item is not None
        source, target = source.item, target.item
    name, function = _PYARROW_CAST[target.kind]
    return RuntimeError(
        "Arrow error: C Data interface error: NotImplemented: Unsupported cast from "
        f"{source.pyarrow} to {name} using function {function}"
    )


_PYARROW_CAST = {
    "string": ("utf8", "cast_string"),
    "bool": ("bool", "cast_boolean"),
    "int64": ("int64", "cast_int64"),
    "double": ("double", "cast_double"),
    "null": ("null", "cast_null"),
    "list": ("list", "cast_list"),
    "struct": ("struct", "cast_struct"),
}
"""How pyarrow names a cast's target type and compute function in its errors (measured)."""


def add_cast_error(failure: CastError, column: str) -> Exception:
    """The error ``table.add`` raises for a value its cast refuses (measured)."""
    if failure.reason == "null":
        return ValueError(
            f"Invalid input, cannot cast field '{column}' from {failure.source.debug} to Null"
        )
    if failure.reason == "parse":
        what = "value" if failure.target.kind == "bool" else "string"
        return ValueError(
            f"lance error: LanceError(Arrow): Cast error: Cannot cast {what} '{failure.value}' to "
            f"value of {failure.target.debug} type, "
            f"{_rust('lance-datafusion-13.0.0/src/utils.rs:51:31')}"
        )
    return ValueError(
        f"lance error: LanceError(Arrow): Cast error: Casting from {failure.source.display} to "
        f"{failure.target.display} not supported, "
        f"{_rust('lance-datafusion-13.0.0/src/utils.rs:51:31')}"
    )


def merge_cast_error(failure: CastError) -> Exception:
    """The error ``merge_insert`` raises for a value pyarrow's safe cast refuses (measured; the
    engine appends a Python traceback, left out here)."""
    prefix = "Arrow error: C Data interface error: "
    source, target = failure.source.pyarrow, failure.target.pyarrow
    if failure.reason == "null":
        return RuntimeError(
            f"{prefix}NotImplemented: Unsupported cast from {source} to null using function "
            "cast_null"
        )
    if failure.reason == "truncated":
        return RuntimeError(
            f"{prefix}Invalid: Float value {failure.value:f} was truncated converting to {target}"
        )
    if failure.reason == "parse" and failure.target.kind == "bool":
        return RuntimeError(f"{prefix}Invalid: Failed to parse value: {failure.value}")
    if failure.reason == "parse":
        return RuntimeError(
            f"{prefix}Invalid: Failed to parse string: '{failure.value}' as a scalar of type "
            f"{target}"
        )
    name, function = _PYARROW_CAST[failure.target.kind]
    return RuntimeError(
        f"{prefix}NotImplemented: Unsupported cast from {source} to {name} using function "
        f"{function}"
    )
