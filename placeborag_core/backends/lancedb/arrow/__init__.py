"""The Arrow types a LanceDB table gives metadata, as pyarrow infers them and casts into them.

LanceDB stores rows in typed columns. The Python client turns a list of dicts into an Arrow table
with ``pyarrow.Table.from_pylist``, so a column's type is what pyarrow infers from the values it
sees, and a later write is cast to the table's types. This package holds those types, their names
as the engines print them (pyarrow's ``int64``/``double``/``string``; DataFusion's ``Int64``,
``Float64``, ``Utf8``), pyarrow's inference with its errors, and the two casts LanceDB applies to
a later write: ``table.add`` casts leniently in Rust (2.5 becomes 2 in an int64 column, 5 becomes
``'5'`` in a string column), ``merge_insert`` with pyarrow's safe cast (2.5 into int64 raises).
Facts: ``docs/engines/lancedb.md#schema-and-writes`` (probe ``lancedb_schema.py``).

Modules: ``datatypes`` (the types and their printed names), ``inference`` (pyarrow's inference
and its errors), ``casts`` (the two casts of a later write) and ``cast_errors`` (the errors the
writes raise); this package re-exports them.
"""

from placeborag_core.backends.lancedb.arrow.cast_errors import (
    add_cast_error,
    add_type_error,
    merge_cast_error,
    merge_type_error,
)
from placeborag_core.backends.lancedb.arrow.casts import (
    CastError,
    cast_value,
    castable,
    format_float,
)
from placeborag_core.backends.lancedb.arrow.datatypes import (
    BOOL,
    FLOAT64,
    INT64,
    NULL,
    RUST_SOURCE,
    UINT64,
    UTF8,
    ArrowType,
    CastMode,
    list_of,
    struct_of,
)
from placeborag_core.backends.lancedb.arrow.inference import (
    ArrowInvalid,
    ArrowTypeError,
    infer_column,
)

__all__ = [
    "BOOL",
    "FLOAT64",
    "INT64",
    "NULL",
    "RUST_SOURCE",
    "UINT64",
    "UTF8",
    "ArrowInvalid",
    "ArrowType",
    "ArrowTypeError",
    "CastError",
    "CastMode",
    "add_cast_error",
    "add_type_error",
    "cast_value",
    "castable",
    "format_float",
    "infer_column",
    "list_of",
    "merge_cast_error",
    "merge_type_error",
    "struct_of",
]
