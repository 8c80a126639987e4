"""The two casts LanceDB applies to a later write into a table whose types are decided.

``table.add`` casts leniently in Rust (2.5 becomes 2 in an int64 column, 5 becomes ``'5'`` in a
string column); ``merge_insert`` uses pyarrow's safe cast (2.5 into int64 raises). ``castable``
says whether a column's type casts at all, ``cast_value`` casts one value or raises
:class:`CastError`, which ``cast_errors`` turns into the write's own message.
"""

from __future__ import annotations

import math
import re
from typing import Any

from placeborag_core.backends.lancedb.arrow.datatypes import (
    I64_MAX,
    I64_MIN,
    ArrowType,
    CastMode,
)

__all__ = ["CastError", "cast_value", "castable", "format_float"]


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
    if not I64_MIN <= number <= I64_MAX:
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
            if I64_MIN <= value <= I64_MAX:
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
