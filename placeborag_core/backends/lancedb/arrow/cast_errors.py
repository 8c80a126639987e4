"""The errors ``table.add`` and ``merge_insert`` raise when a write's types or values do not cast.

Measured against lancedb 0.40.0: ``add`` reports lance's Rust errors (with their source
locations), ``merge_insert`` pyarrow's C Data interface errors.
"""

from __future__ import annotations

from placeborag_core.backends.lancedb.arrow.casts import CastError
from placeborag_core.backends.lancedb.arrow.datatypes import (
    RUST_SOURCE,
    ArrowType,
)

__all__ = ["add_cast_error", "add_type_error", "merge_cast_error", "merge_type_error"]


def _rust(path: str) -> str:
    return f"{RUST_SOURCE}/{path}"


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
