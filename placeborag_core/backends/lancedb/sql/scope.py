"""What the names and literals of one filter mean against one table.

``Scope`` resolves a column reference to its type and a reader of its value (``Resolved``),
remembers the literals stage 2 converted to their column's type, gives a node's type once the
columns are known, and builds the errors about unknown columns each stage raises. Every planning
stage and the evaluators share one scope.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from placeborag_core.backends.lancedb.arrow import (
    BOOL,
    NULL,
    ArrowType,
)
from placeborag_core.backends.lancedb.sql.messages import ANALYZER, invalid
from placeborag_core.backends.lancedb.sql.syntax import (
    Column,
    Literal,
    Node,
)
from placeborag_core.backends.lancedb.sql.table import Table, TableColumn, quoted
from placeborag_core.backends.lancedb.sql.tree import folded_literal, strip
from placeborag_core.backends.lancedb.sql.type_rules import coercion, literal_type
from placeborag_core.errors import FilterError

__all__ = ["Getter", "Resolved", "Scope"]


Getter = Callable[[Any, int], Any]


@dataclass(frozen=True)
class Resolved:
    """A column reference resolved: its type, and how to read it from a row."""

    type: ArrowType
    get: Getter
    name: str


def record_getter(column: TableColumn) -> Getter:
    """How a top-level column reads from a row of the store's view (a missing key: None)."""
    if column.role == "id":
        return lambda view, row: view.id_at(row)
    if column.role == "text":
        return lambda view, row: view.text_at(row)
    if column.role == "struct":
        return lambda view, row: dict(view.metadata_at(row))
    if column.role == "vector":

        def unsupported(view: Any, row: int) -> Any:
            raise NotImplementedError(
                "LanceDB filter: conditions on the vector column are not supported by "
                "placeborag's SQL reader"
            )

        return unsupported
    key = column.key
    return lambda view, row: view.metadata_at(row).get(key)


def field_getter(parent: Getter, key: str) -> Getter:
    """How struct field ``key`` reads from what ``parent`` reads (None unless a mapping)."""

    def read(view: Any, row: int) -> Any:
        value = parent(view, row)
        return value.get(key) if isinstance(value, Mapping) else None

    return read


class Scope:
    """One filter's columns and converted literals, against ``table``; ``text``: the filter
    as lance echoes it in its errors."""

    def __init__(self, table: Table, text: str) -> None:
        self.table = table
        self.text = text
        self.resolved: dict[int, Literal] = {}  # id(literal node) -> literal in the column type
        self.columns: dict[int, Resolved | None] = {}

    # ---- errors
    def optimizing(self, inner: str) -> FilterError:
        return invalid(f"Error optimizing sql filter: {self.text} ({inner})")

    def analyzer_error(self, message: str) -> FilterError:
        return self.optimizing(f"Invalid user input: {message}, {ANALYZER}")

    # ---- columns
    def column(self, node: Column) -> Resolved | None:
        """The column a reference names, or None when a name is unknown (not raised here)."""
        key = id(node)
        if key not in self.columns:
            self.columns[key] = self._resolve_column(node)
        return self.columns[key]

    def _resolve_column(self, node: Column) -> Resolved | None:
        (name, quote), *rest = node.parts
        top = self.table.lookup(name, quote)
        if top is None:
            return None
        kind, getter, label = top.type, record_getter(top), top.name
        for part, _ in rest:
            inner = kind.field(part) if kind.kind == "struct" else None
            if inner is None:
                return None
            getter, kind, label = field_getter(getter, part), inner, f"{label}.{part}"
        return Resolved(kind, getter, label)

    def column_error(self, node: Column) -> FilterError:
        """Stage 3's error for an unresolvable column reference."""
        (name, quote), *rest = node.parts
        top = self.table.lookup(name, quote)
        if top is None and self.table.statement == "delete":
            return invalid(f"Schema error: {self.table.field_not_found(name)}")
        if top is None:
            return invalid(
                f"Schema error: No field named {quoted(name)}. Valid fields are "
                f"{self.table.valid_fields()}."
            )
        kind = top.type
        for part, _ in rest:
            inner = kind.field(part) if kind.kind == "struct" else None
            if inner is None:
                return invalid(f"Error during planning: Field {part} not found in struct")
            kind = inner
        raise AssertionError("column_error on a resolvable column")  # pragma: no cover

    def optimizer_column_error(self, node: Column, location: str) -> FilterError:
        name = node.parts[0][0]
        if self.table.lookup(*node.parts[0]) is None:
            return self.optimizing(
                f"Invalid user input: Schema error: {self.table.field_not_found(name)}, {location}"
            )
        inner = str(self.column_error(node)).removeprefix("Invalid input, ")
        return self.optimizing(f"Invalid user input: {inner}, {location}")

    def is_resolved(self, node: Node) -> bool:
        return id(strip(node)) in self.resolved

    def literal(self, node: Node) -> Literal | None:
        return self.resolved.get(id(strip(node))) or folded_literal(node)

    # ---- types
    def type_of(self, node: Node) -> ArrowType:
        """A node's type once the columns are known (an unknown column reads as NULL)."""
        node = strip(node)
        literal = self.literal(node)
        if literal is not None:
            return literal_type(literal)
        if isinstance(node, Column):
            resolved = self.column(node)
            return NULL if resolved is None else resolved.type
        return BOOL

    def group_target(self, nodes: Sequence[Node]) -> ArrowType | None:
        """The common type DataFusion coerces a comparison's, an IN list's or a BETWEEN's
        operands to (None: none)."""
        target: ArrowType | None = self.type_of(nodes[0])
        for other in nodes[1:]:
            target = None if target is None else coercion(target, self.type_of(other))
        return target
