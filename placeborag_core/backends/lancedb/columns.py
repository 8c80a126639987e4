"""A LanceDB table's metadata columns: typed by its first write, enforced on every later one.

LanceDB has a schema per table, fixed when the table is created. Two layouts are modelled:

* ``"columns"``: each metadata key is a column of its own (a table written directly, rows
  ``{"id", "vector", **metadata}``). The Python client builds the Arrow table with
  ``pyarrow.Table.from_pylist``, whose columns are the keys of the **first** row: a key only later
  rows carry is dropped without a word, a row lacking a key gets NULL there.
* ``"struct"``: the metadata is one struct column (LangChain's and LlamaIndex's LanceDB stores):
  its fields are every key of every row.

A later write is inferred the same way and then cast to the table's types: ``table.add`` casts
leniently (2.5 into an int64 column is 2, 5 into a string column ``'5'``), ``merge_insert``
with pyarrow's safe cast (2.5 into int64 raises); a key the table lacks raises. Only the keys of
the write are written: ``merge_insert`` updates those columns of a matched row and leaves the
others. Facts: ``docs/engines/lancedb.md#schema-and-writes``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from placeborag_core.backends.lancedb.arrow import (
    ArrowType,
    CastError,
    CastMode,
    add_cast_error,
    add_type_error,
    cast_value,
    castable,
    infer_column,
    merge_cast_error,
    merge_type_error,
    struct_of,
)
from placeborag_core.backends.profile import ColumnRule

__all__ = ["LanceColumns", "MetadataSchema"]


@dataclass(frozen=True)
class MetadataSchema:
    """The metadata columns of one table (or the fields of its metadata struct), in order."""

    fields: tuple[tuple[str, ArrowType], ...]

    @property
    def keys(self) -> tuple[str, ...]:
        return tuple(key for key, _ in self.fields)

    def type_of(self, key: str) -> ArrowType | None:
        for name, kind in self.fields:
            if name == key:
                return kind
        return None

    @property
    def struct(self) -> ArrowType:
        """The fields as one struct type (the ``metadata`` column of the integrations)."""
        return struct_of(self.fields)


def _batch_schema(
    metas: Sequence[Mapping[str, Any] | None], layout: Literal["columns", "struct"]
) -> MetadataSchema:
    """What pyarrow infers for the metadata of one write."""
    rows = [m or {} for m in metas]
    if layout == "struct":  # one struct column: its field inferrers see every row's value
        kind = infer_column(rows)
        return MetadataSchema(kind.fields if kind.kind == "struct" else ())
    keys = list(rows[0]) if rows else []
    return MetadataSchema(
        tuple((key, infer_column([row.get(key) for row in rows])) for key in keys)
    )


@dataclass(frozen=True)
class LanceColumns(ColumnRule):
    """LanceDB's schema rule in one of the two layouts (see the module docstring).
    ``reserved``: the table's own column names, which a metadata key may not take in the
    ``"columns"`` layout."""

    layout: Literal["columns", "struct"] = "columns"
    reserved: frozenset[str] = frozenset({"id", "vector"})

    def create(self, metas: Sequence[Mapping[str, Any] | None]) -> MetadataSchema:
        """The schema a table gets from its first write."""
        self._check_reserved(metas)
        return _batch_schema(metas, self.layout)

    def conform(
        self, schema: Any, metas: Sequence[Mapping[str, Any] | None], append: bool
    ) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        """Each record's metadata as the write stores it (the write's keys only, cast to the
        table's types), and what a new row holds for the other keys (NULL)."""
        assert isinstance(schema, MetadataSchema)
        self._check_reserved(metas)
        mode: CastMode = "add" if append else "merge"
        batch = _batch_schema(metas, self.layout)
        for key, _ in batch.fields:
            if schema.type_of(key) is None:
                if append or self.layout == "struct":
                    raise ValueError(f"Invalid input, field '{key}' does not exist in table schema")
                raise ValueError(f"Field '{key}' not found in target schema")
        adding = append or self.layout == "struct"
        written = [(key, kind) for key, kind in schema.fields if batch.type_of(key) is not None]
        if adding:  # lance checks every column's type before it casts any value
            for key, target in written:
                source = batch.type_of(key)
                assert source is not None
                if not castable(source, target, mode):
                    raise add_type_error(source, target, key)
        rows = [meta or {} for meta in metas]
        columns: dict[str, list[Any]] = {}
        for key, target in written:  # in the table's column order
            source = batch.type_of(key)
            assert source is not None
            if not adding and not castable(source, target, mode):
                raise merge_type_error(source, target)
            columns[key] = self._cast_column(rows, key, source, target, mode)
        keys = batch.keys if self.layout == "columns" else schema.keys
        out = [
            {key: columns[key][i] if key in columns else None for key in keys}
            for i in range(len(rows))
        ]
        return out, dict.fromkeys(schema.keys)

    @staticmethod
    def _cast_column(
        rows: Sequence[Mapping[str, Any]],
        key: str,
        source: ArrowType,
        target: ArrowType,
        mode: CastMode,
    ) -> list[Any]:
        """One column of a write cast to the table's type: ``add`` fails at the first value it
        cannot cast, pyarrow's cast (``merge``) at the first it would truncate or the last string
        it cannot parse."""
        values: list[Any] = []
        failure: CastError | None = None
        for row in rows:
            try:
                values.append(cast_value(_as_type(row.get(key), source), source, target, mode))
            except CastError as error:
                if mode == "add":
                    raise add_cast_error(error, key) from None
                if error.reason != "parse":  # pyarrow names the first value it truncates
                    raise merge_cast_error(error) from None
                failure = error  # and the last string it cannot parse
                values.append(None)
        if failure is not None:
            raise merge_cast_error(failure)
        return values

    def _check_reserved(self, metas: Sequence[Mapping[str, Any] | None]) -> None:
        if self.layout != "columns":
            return
        for meta in metas:
            clash = sorted(self.reserved & set(meta or {}))
            if clash:
                raise ValueError(
                    f"metadata key {clash[0]!r} is a column of the LanceDB table itself (its "
                    f"columns are {', '.join(sorted(self.reserved))} and the metadata keys); "
                    "rename the key"
                )


def _as_type(value: Any, kind: ArrowType) -> Any:
    """A Python value as pyarrow stores it in a column of the type it inferred (an int in a
    double column is a float, a bool a 1.0)."""
    if value is None:
        return None
    if kind.kind == "double":
        return float(value)
    if kind.kind == "list":
        assert kind.item is not None
        item = kind.item
        return [_as_type(v, item) for v in value]
    if kind.kind == "struct":
        return {key: _as_type(value.get(key), inner) for key, inner in kind.fields}
    if kind.kind == "null":
        return None
    return value
