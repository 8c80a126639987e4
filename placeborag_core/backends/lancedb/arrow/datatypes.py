"""The Arrow types of a LanceDB table's columns, and their names as each engine prints them.

pyarrow prints ``int64``/``double``/``string`` (``ArrowType.pyarrow``); DataFusion's errors print
``Int64``/``Float64``/``Utf8`` with Rust's ``{}`` (``display``) or ``{:?}`` (``debug``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

__all__ = [
    "BOOL",
    "FLOAT64",
    "I64_MAX",
    "I64_MIN",
    "INT64",
    "NULL",
    "RUST_SOURCE",
    "UINT64",
    "UTF8",
    "ArrowType",
    "CastMode",
    "list_of",
    "struct_of",
]


CastMode = Literal["add", "merge"]
"""Which cast a write goes through: ``table.add`` (Rust, lenient) or ``merge_insert`` (pyarrow's
safe cast)."""

RUST_SOURCE = "/root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f"
"""Where the lancedb 0.40.0 wheel was built: its Rust errors end with a source location under
this path (the same for everyone who installs that wheel)."""

I64_MIN, I64_MAX = -(2**63), 2**63 - 1


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
