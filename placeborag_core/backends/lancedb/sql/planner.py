"""A parsed LanceDB filter checked against a table's columns and turned into an evaluator.

Lance plans a filter in stages, and which error a filter with several faults raises depends on
their order (measured; ``docs/engines/lancedb.md#filter-semantics-and-errors``):

1. conversion: constructs lance refuses (``IS DISTINCT FROM``, a tuple, ``<=>``, unary ``+``) and
   unknown columns in function arguments (``Error parsing function: ...``);
2. literal resolution: in ``column <op> literal`` (also ``IN`` lists and ``BETWEEN`` bounds, but
   not under ``NOT``) the literal must convert to the column's type exactly (an integer becomes a
   double; nothing else converts): ``Received literal Utf8("1") and could not convert ...``;
3. schema: left to right, every column must exist (``No field named``) and struct fields too;
   ``AND``/``OR`` need booleans and two columns compared need types that meet. Under ``NOT``,
   and in ``IN``, ``LIKE`` and ``BETWEEN``, the walk stops at the first operand that may be
   NULL (any column, a NULL literal), so ``NOT (color = nosuch)`` and ``color IN (nosuch)``
   pass here; ``IS NULL`` operands are not visited;
4. the filter must be boolean (``The filter i does not return a boolean``);
5. optimisation, DataFusion's analyser (children before parents): columns missed by stage 3,
   ``LIKE`` operand types, ``NOT`` and ``IS TRUE`` of a non-boolean, comparisons, ``IN`` and
   ``BETWEEN`` under ``NOT`` whose types do not meet; then string literals cast to the numeric
   side of such a comparison; then columns under ``IS NULL``;
6. execution: a string column compared with a number is cast batch-wise while the query runs,
   and a value that does not parse fails it (a ``RuntimeError``).

Evaluation follows SQL's three-valued logic: a comparison with NULL (a missing key) is NULL,
``NOT NULL`` is NULL, and only rows whose filter is TRUE pass. It works on a whole batch of rows
at once, as DataFusion does (``AND`` skips its right side only when the left is FALSE for every
row), so a failing cast surfaces where the engine's does. Doubles order NaN above every number and
equal to itself, and ``-0.0`` equals ``0.0`` (lance normalises signed zeros).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from placeborag_core.backends.lancedb.arrow import (
    BOOL,
    FLOAT64,
    INT64,
    NULL,
    RUST_SOURCE,
    UINT64,
    UTF8,
    ArrowType,
)
from placeborag_core.backends.lancedb.sql.parser import (
    Between,
    Binary,
    Column,
    Function,
    InList,
    IsTest,
    Like,
    Literal,
    Nested,
    Node,
    Unary,
    Unsupported,
)
from placeborag_core.errors import FilterError

__all__ = [
    "HIDDEN_COLUMNS",
    "LanceExecutionError",
    "Plan",
    "Table",
    "TableColumn",
    "plan",
    "rust_float",
]

HIDDEN_COLUMNS = (
    "_rowid",
    "_rowaddr",
    "_row_last_updated_at_version",
    "_row_created_at_version",
    "_rowoffset",
    "_distance",
)
"""Columns lance adds to a vector search; its optimiser lists them among the valid fields."""

_LANCE_DF = f"{RUST_SOURCE}/lance-datafusion-13.0.0/src"
_LOGICAL_EXPR = f"{_LANCE_DF}/logical_expr.rs:23:88"
_ANALYZER = f"{_LANCE_DF}/planner.rs:1070:20"
_SIMPLIFIER = f"{_LANCE_DF}/planner.rs:1087:20"
_ESCAPE = f"{_LANCE_DF}/planner.rs:1096:12"
_SIGNED_ZERO = f"{_LANCE_DF}/signed_zero.rs:99:8"
_PREFILTER_READ = f"{RUST_SOURCE}/lance-13.0.0/src/io/exec/filtered_read.rs:1639:33"
_POSTFILTER_SCAN = f"{RUST_SOURCE}/lance-13.0.0/src/dataset/scanner.rs:8155:66"
_PRE_SELECTION = 0.2
"""DataFusion's ``PRE_SELECTION_THRESHOLD``: an AND whose left side selects at most this share
of a batch evaluates its right side on the selected rows only."""
_DATAFUSION_BUG = (
    "This issue was likely caused by a bug in DataFusion's code. Please help us to resolve this "
    "by filing a bug report in our issue tracker: https://github.com/apache/datafusion/issues"
)


class LanceExecutionError(RuntimeError):
    """A filter that plans but fails on the data (a string value that does not parse as the
    number it is compared with), as lance fails while executing the query."""


@dataclass(frozen=True)
class TableColumn:
    """A column of the table: ``role`` says which part of a record it holds: ``id``, ``text``,
    ``vector``, ``key`` (one metadata key, ``key``), ``struct`` (the whole metadata)."""

    name: str
    type: ArrowType
    role: str
    key: str = ""


@dataclass(frozen=True)
class Table:
    """The columns a filter is planned against, in the table's order; ``statement``: what the
    filter belongs to: a ``"vector"`` search (lance then exposes ``_distance`` too), a
    ``"plain"`` search without a vector, or a ``"delete"`` (which reports an unknown column with
    DataFusion's own message)."""

    columns: tuple[TableColumn, ...]
    statement: str = "vector"

    @property
    def hidden(self) -> tuple[str, ...]:
        return HIDDEN_COLUMNS if self.statement == "vector" else HIDDEN_COLUMNS[:-1]

    def lookup(self, name: str, quote: str | None) -> TableColumn | None:
        """A top-level column: a quoted name matches exactly, an unquoted one ignoring case."""
        for column in self.columns:
            if column.name == name:
                return column
        if quote is None:
            folded = name.casefold()
            for column in self.columns:
                if column.name.casefold() == folded:
                    return column
        return None

    def valid_fields(self) -> str:
        """The list of lance's ``No field named`` (stage 3): struct columns expanded."""
        out: list[str] = []

        def walk(prefix: str, kind: ArrowType) -> None:
            if kind.kind == "struct" and kind.fields:
                for key, inner in kind.fields:
                    walk(f"{prefix}.`{key}`", inner)
            else:
                out.append(prefix)

        for column in self.columns:
            walk(f"`{column.name}`", column.type)
        return ", ".join(out)

    def field_not_found(self, name: str) -> str:
        """DataFusion's ``FieldNotFound`` message, as its optimiser raises it: a case hint, a
        near name (normalised Levenshtein >= 0.5) or the fields lance's search exposes."""
        names = [*(c.name for c in self.columns), *self.hidden]
        text = f"No field named {_quoted(name)}"
        if name.lower() in (n.lower() for n in names):
            text += (
                ". Column names are case sensitive. You can use double quotes to refer to the "
                f'"{_quoted(name)}" column or set the '
                "datafusion.sql_parser.enable_ident_normalization configuration"
            )
        near = next((n for n in names if _similarity(n, name) >= 0.5), None)
        if near is not None:
            text += f". Did you mean '{near}'?"
        else:
            text += ". Valid fields are " + ", ".join(_quoted(n) for n in names)
        return text + "."


def _similarity(a: str, b: str) -> float:
    """strsim's ``normalized_levenshtein``."""
    if not a and not b:
        return 1.0
    previous = list(range(len(b) + 1))
    for i, char_a in enumerate(a, start=1):
        current = [i]
        for j, char_b in enumerate(b, start=1):
            cost = 0 if char_a == char_b else 1
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost))
        previous = current
    return 1.0 - previous[-1] / max(len(a), len(b))


_PLAIN_NAME = re.compile(r"[a-z_][a-z0-9_]*")


def _quoted(name: str) -> str:
    """A column name as DataFusion prints it: double-quoted unless plain lower-case."""
    return name if _PLAIN_NAME.fullmatch(name) else '"' + name.replace('"', '""') + '"'


def _invalid(message: str) -> FilterError:
    return FilterError(f"Invalid input, {message}")


def rust_float(value: float) -> str:
    """Rust's ``{}`` of an f64 (no exponent: 1e20 is 100000000000000000000, 1.0 is 1)."""
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    text = format(Decimal(repr(value)), "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


def _rust_debug_str(text: str) -> str:
    escaped = (
        text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
    )
    return '"' + escaped.replace("\r", "\\r") + '"'


def _literal_debug(literal: Literal) -> str:
    """A literal as DataFusion's ``ScalarValue`` debug-prints it (``Int64(1)``)."""
    if literal.kind == "int":
        return f"Int64({literal.value})"
    if literal.kind == "uint":
        return f"UInt64({literal.value})"
    if literal.kind == "float":
        return f"Float64({rust_float(literal.value)})"
    if literal.kind == "str":
        return f"Utf8({_rust_debug_str(literal.value)})"
    if literal.kind == "bool":
        return f"Boolean({'true' if literal.value else 'false'})"
    return "NULL"


_LITERAL_TYPES = {"int": INT64, "uint": UINT64, "float": FLOAT64, "str": UTF8, "bool": BOOL}


def _literal_type(literal: Literal) -> ArrowType:
    return _LITERAL_TYPES.get(literal.kind, NULL)


def _strip(node: Node) -> Node:
    while isinstance(node, Nested):
        node = node.inner
    return node


def _folded_literal(node: Node) -> Literal | None:
    """A literal, or a negated number literal folded into one (lance folds ``-1.5``)."""
    node = _strip(node)
    if isinstance(node, Literal):
        return node
    if isinstance(node, Unary) and node.op == "-":
        inner = _folded_literal(node.operand)
        if inner is not None and inner.kind in ("int", "uint", "float"):
            value = -inner.value
            kind = "int" if inner.kind in ("int", "uint") and value >= -(2**63) else "float"
            if kind == "float":
                value = float(value)
            return Literal(kind, value, "-" + inner.text)
    return None


# --------------------------------------------------------------------------- columns and values

Batch = list[Any]
Eval = Callable[[Any, Sequence[int]], Batch]
Getter = Callable[[Any, int], Any]


@dataclass(frozen=True)
class _Resolved:
    """A column reference resolved: its type, and how to read it from a row."""

    type: ArrowType
    get: Getter
    name: str


def _record_getter(column: TableColumn) -> Getter:
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


def _field_getter(parent: Getter, key: str) -> Getter:
    def read(view: Any, row: int) -> Any:
        value = parent(view, row)
        return value.get(key) if isinstance(value, Mapping) else None

    return read


def _float_key(value: float) -> tuple[int, float]:
    if math.isnan(value):
        return (1, 0.0)
    return (0, value + 0.0)  # -0.0 + 0.0 is 0.0


def _compare(left: Any, right: Any) -> int:
    """-1/0/1 for two non-null values of one comparable kind (lists element by element)."""
    if isinstance(left, list) and isinstance(right, list):
        for a, b in zip(left, right, strict=False):
            if a is None or b is None:
                if a is not b:
                    return -1 if a is None else 1
                continue
            order: int = _compare(a, b)
            if order:
                return order
        return (len(left) > len(right)) - (len(left) < len(right))
    if isinstance(left, str) or isinstance(right, str):
        a_text, b_text = str(left), str(right)
        return (a_text > b_text) - (a_text < b_text)
    if isinstance(left, int) and isinstance(right, int):
        return (left > right) - (left < right)
    a, b = _float_key(float(left)), _float_key(float(right))
    return (a > b) - (a < b)


_TESTS: dict[str, Callable[[int], bool]] = {
    "=": lambda c: c == 0,
    "==": lambda c: c == 0,
    "<>": lambda c: c != 0,
    "<": lambda c: c < 0,
    "<=": lambda c: c <= 0,
    ">": lambda c: c > 0,
    ">=": lambda c: c >= 0,
}
_DF_OPERATOR = {"=": "=", "==": "=", "<>": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">="}
_FLOAT_TEXT = re.compile(
    r"[+-]?(?:[0-9]+\.?[0-9]*(?:[eE][+-]?[0-9]+)?|\.[0-9]+(?:[eE][+-]?[0-9]+)?|inf|infinity|nan)",
    re.IGNORECASE,
)


def _parse_number(text: str, target: ArrowType) -> int | float | None:
    if target.kind in ("int64", "uint64"):
        return int(text) if re.fullmatch(r"[+-]?[0-9]+", text) else None
    return float(text) if _FLOAT_TEXT.fullmatch(text) else None


def _like_regex(pattern: str, insensitive: bool) -> re.Pattern[str]:
    out: list[str] = []
    i = 0
    while i < len(pattern):
        char = pattern[i]
        if char == "\\" and i + 1 < len(pattern):
            out.append(re.escape(pattern[i + 1]))
            i += 2
            continue
        out.append(".*" if char == "%" else "." if char == "_" else re.escape(char))
        i += 1
    return re.compile("".join(out), re.DOTALL | (re.IGNORECASE if insensitive else 0))


class _Evaluation:
    """What one evaluation knows: whether it runs as a pre-filter (the whole table) or a
    post-filter (the search's results), which decides the message of a failing cast."""

    def __init__(self, prefilter: bool) -> None:
        self.prefilter = prefilter

    def cast_failed(self, value: str, target: ArrowType) -> LanceExecutionError:
        cast = f"Cast error: Cannot cast string '{value}' to value of {target.debug} type"
        if self.prefilter:
            return LanceExecutionError(
                "lance error: Query Execution error: Error applying filter expression to batch: "
                f"Arrow error: {cast}, {_PREFILTER_READ}"
            )
        return LanceExecutionError(f"lance error: LanceError(Arrow): {cast}, {_POSTFILTER_SCAN}")


# --------------------------------------------------------------------------- planning


@dataclass(frozen=True)
class Plan:
    """A planned filter: ``passing(view, rows, prefilter)`` tells which rows pass."""

    evaluate: Callable[[Any, Sequence[int], _Evaluation], Batch]

    def passing(self, view: Any, rows: Sequence[int], prefilter: bool) -> list[bool]:
        """For each row, whether the filter is TRUE (not FALSE, not NULL) for it."""
        if not rows:
            return []
        return [value is True for value in self.evaluate(view, rows, _Evaluation(prefilter))]


class _Planner:
    def __init__(self, table: Table, text: str) -> None:
        self.table = table
        self.text = text
        self.resolved: dict[int, Literal] = {}  # id(literal node) -> literal in the column type
        self.columns: dict[int, _Resolved | None] = {}

    # ---- errors
    def optimizing(self, inner: str) -> FilterError:
        return _invalid(f"Error optimizing sql filter: {self.text} ({inner})")

    def analyzer_error(self, message: str) -> FilterError:
        return self.optimizing(f"Invalid user input: {message}, {_ANALYZER}")

    # ---- columns
    def column(self, node: Column) -> _Resolved | None:
        """The column a reference names, or None when a name is unknown (not raised here)."""
        key = id(node)
        if key not in self.columns:
            self.columns[key] = self._resolve_column(node)
        return self.columns[key]

    def _resolve_column(self, node: Column) -> _Resolved | None:
        (name, quote), *rest = node.parts
        top = self.table.lookup(name, quote)
        if top is None:
            return None
        kind, getter, label = top.type, _record_getter(top), top.name
        for part, _ in rest:
            inner = kind.field(part) if kind.kind == "struct" else None
            if inner is None:
                return None
            getter, kind, label = _field_getter(getter, part), inner, f"{label}.{part}"
        return _Resolved(kind, getter, label)

    def column_error(self, node: Column) -> FilterError:
        """Stage 3's error for an unresolvable column reference."""
        (name, quote), *rest = node.parts
        top = self.table.lookup(name, quote)
        if top is None and self.table.statement == "delete":
            return _invalid(f"Schema error: {self.table.field_not_found(name)}")
        if top is None:
            return _invalid(
                f"Schema error: No field named {_quoted(name)}. Valid fields are "
                f"{self.table.valid_fields()}."
            )
        kind = top.type
        for part, _ in rest:
            inner = kind.field(part) if kind.kind == "struct" else None
            if inner is None:
                return _invalid(f"Error during planning: Field {part} not found in struct")
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

    # ---- stage 1: conversion
    def convert(self, node: Node) -> None:
        if isinstance(node, Unsupported):
            raise _invalid(node.message)
        if isinstance(node, Unary):
            if node.op == "+":
                raise _invalid("Unary operator 'Plus' is not supported")
            if node.op == "-" and _folded_literal(node) is None:
                inner = _strip(node.operand)
                if not (isinstance(inner, Literal) and inner.kind == "str"):
                    raise NotImplementedError(
                        "LanceDB filter: negating an expression other than a number literal is "
                        "not supported by placeborag's SQL reader"
                    )
        if isinstance(node, Binary):
            if node.op in ("<=>", "~"):
                raise _invalid(f"Operator {node.op} is not supported")
            if node.op not in _TESTS and node.op not in ("AND", "OR"):
                raise NotImplementedError(
                    f"LanceDB filter: the operator {node.op} (arithmetic, concatenation) is not "
                    "supported by placeborag's SQL reader"
                )
        if isinstance(node, Function):
            self.function(node)
        for child in _children(node):
            self.convert(child)

    def function(self, node: Function) -> None:
        if node.name.lower() not in ("array_has", "array_contains") or len(node.args) != 2:
            raise NotImplementedError(
                f"LanceDB filter: the function {node.name}() is not supported by placeborag's "
                "SQL reader (array_has and array_contains are)"
            )
        for arg in node.args:
            target = _strip(arg)
            if isinstance(target, Column) and self.table.lookup(*target.parts[0]) is None:
                fields = [*(_quoted(c.name) for c in self.table.columns), *self.table.hidden]
                raise _invalid(
                    "Error parsing function: Schema error: No field named "
                    f"{_quoted(target.parts[0][0])}. Valid fields are {', '.join(fields)}."
                )
        target = _strip(node.args[0])
        literal = _folded_literal(node.args[1])
        if not isinstance(target, Column) or literal is None:
            raise NotImplementedError(
                "LanceDB filter: array_has/array_contains are supported on a column and a literal"
            )

    # ---- stage 2: literal resolution
    def resolve(self, node: Node) -> None:
        node = _strip(node)
        if isinstance(node, Binary):
            if node.op in ("AND", "OR"):
                self.resolve(node.left)
                self.resolve(node.right)
                return
            left, right = _strip(node.left), _strip(node.right)
            if isinstance(left, Column):
                self.resolve_literal(left, node.right)
            elif isinstance(right, Column):
                self.resolve_literal(right, node.left)
            return
        column = _strip(node.operand) if isinstance(node, InList | Between) else None
        if isinstance(column, Column) and len(column.parts) > 1:
            column = None  # lance resolves IN and BETWEEN literals against plain columns only
        if isinstance(node, InList) and isinstance(column, Column):
            for item in node.items:
                self.resolve_literal(column, item)
        elif isinstance(node, Between) and isinstance(column, Column):
            self.resolve_literal(column, node.low)
            self.resolve_literal(column, node.high)
        elif isinstance(node, IsTest):
            self.resolve(node.operand)

    def resolve_literal(self, column: Column, other: Node) -> None:
        literal = _folded_literal(other)
        resolved = self.column(column)
        if literal is None or resolved is None:
            return
        converted = _convert_literal(literal, resolved.type)
        if converted is None:
            raise _invalid(
                f"Error resolving filter expression {self.text}: Invalid user input: Received "
                f"literal {_literal_debug(literal)} and could not convert to literal of type "
                f"'{resolved.type.debug}', {_LOGICAL_EXPR}"
            )
        self.resolved[id(_strip(other))] = converted

    def is_resolved(self, node: Node) -> bool:
        return id(_strip(node)) in self.resolved

    # ---- stage 3: schema
    def typed(self, node: Node) -> ArrowType:
        """The node's type, checking every column (left to right, children first)."""
        node = _strip(node)
        literal = self.literal(node)
        if literal is not None:
            return _literal_type(literal)
        if isinstance(node, Column):
            resolved = self.column(node)
            if resolved is None:
                raise self.column_error(node)
            return resolved.type
        if isinstance(node, Unary):  # NOT
            self.may_be_null(node.operand)
            return BOOL
        if isinstance(node, IsTest):
            return BOOL
        if isinstance(node, Function):
            self.typed_function(node)
            return BOOL
        if isinstance(node, InList | Like | Between):
            self.may_be_null(node)  # DataFusion stops at the first operand that may be NULL
            return BOOL
        if isinstance(node, Binary):
            left, right = self.typed(node.left), self.typed(node.right)
            if node.op in ("AND", "OR"):
                if left.kind not in ("bool", "null") or right.kind not in ("bool", "null"):
                    raise _invalid(
                        "Error during planning: Cannot infer common argument type for logical "
                        f"boolean operation {left.display} {node.op} {right.display}"
                    )
            elif (
                not (self.is_resolved(node.left) or self.is_resolved(node.right))
                and _coercion(left, right) is None
            ):
                raise _invalid(
                    "Error during planning: Cannot infer common argument type for comparison "
                    f"operation {left.display} {_DF_OPERATOR[node.op]} {right.display}"
                )
            return BOOL
        for child in _children(node):
            self.typed(child)
        return BOOL

    def typed_function(self, node: Function) -> None:
        array, element = self.typed(node.args[0]), self.typed(node.args[1])
        self.check_array_has(array, element)

    def may_be_null(self, node: Node) -> bool:
        """DataFusion's ``nullable`` (under ``NOT``): operands left to right until one may be
        NULL; a column may always be NULL, a literal only if it is NULL."""
        node = _strip(node)
        literal = self.literal(node)
        if literal is not None:
            return literal.kind == "null"
        if isinstance(node, Column):
            if self.column(node) is None:
                raise self.column_error(node)
            return True
        if isinstance(node, IsTest):
            return False
        if isinstance(node, Function):
            self.typed_function(node)
            return True
        return any(self.may_be_null(child) for child in _children(node))

    def check_array_has(self, array: ArrowType, element: ArrowType) -> None:
        item = array.item if array.kind == "list" else None
        if item is not None and (element.kind == "null" or _coercion(item, element) is not None):
            return
        raise _invalid(
            "Error during planning: Failed to coerce arguments to satisfy a call to 'array_has' "
            f"function: coercion from {array.display}, {element.display} to the signature "
            "ArraySignature(array, element) failed. No function matches the given name and "
            f"argument types 'array_has({array.display}, {element.display})'. You might need to "
            "add explicit type casts.\n\tCandidate functions:\n\tarray_has(array, element)"
        )

    def literal(self, node: Node) -> Literal | None:
        return self.resolved.get(id(_strip(node))) or _folded_literal(node)

    # ---- stage 5: the optimiser
    def type_of(self, node: Node) -> ArrowType:
        """A node's type once the columns are known (an unknown column reads as NULL)."""
        node = _strip(node)
        literal = self.literal(node)
        if literal is not None:
            return _literal_type(literal)
        if isinstance(node, Column):
            resolved = self.column(node)
            return NULL if resolved is None else resolved.type
        return BOOL

    def analyze(self, node: Node) -> None:
        """DataFusion's type coercion: children first, each node checks its operands' types
        (an unknown column among them is an error here)."""
        node = _strip(node)
        for child in _children(node):
            self.analyze(child)
        if isinstance(node, IsTest) and node.test in ("NULL", "NOT NULL"):
            return
        if isinstance(node, Column | Literal | Function) or self.literal(node) is not None:
            return
        for child in _children(node):
            target = _strip(child)
            if isinstance(target, Column) and self.column(target) is None:
                raise self.optimizer_column_error(target, _ANALYZER)
        if isinstance(node, Unary) and node.op == "-":
            raise self.analyzer_error(
                "Error during planning: Negation only supports numeric, interval and timestamp "
                "types"
            )
        if isinstance(node, Unary | IsTest):
            kind = self.type_of(node.operand)
            if kind.kind not in ("bool", "null"):
                raise self.analyzer_error(
                    "Error during planning: Cannot infer common argument type for comparison "
                    f"operation {kind.display} IS DISTINCT FROM Boolean"
                )
        elif isinstance(node, Binary) and node.op in ("AND", "OR"):
            left, right = self.type_of(node.left), self.type_of(node.right)
            if left.kind not in ("bool", "null") or right.kind not in ("bool", "null"):
                raise self.analyzer_error(
                    "Error during planning: Cannot infer common argument type for logical "
                    f"boolean operation {left.display} {node.op} {right.display}"
                )
        elif isinstance(node, Binary):
            if self.is_resolved(node.left) or self.is_resolved(node.right):
                return
            left, right = self.type_of(node.left), self.type_of(node.right)
            if _coercion(left, right) is None:
                raise self.analyzer_error(
                    "Error during planning: Cannot infer common argument type for comparison "
                    f"operation {left.display} {_DF_OPERATOR[node.op]} {right.display}"
                )
        elif isinstance(node, Like):
            left, right = self.type_of(node.operand), self.type_of(node.pattern)
            if "null" not in (left.kind, right.kind) and (left, right) != (UTF8, UTF8):
                word = "ILIKE" if node.insensitive else "LIKE"
                raise self.analyzer_error(
                    "Error during planning: There isn't a common type to coerce "
                    f"{left.display} and {right.display} in {word} expression"
                )
        elif isinstance(node, InList):
            self.analyze_in(node)
        elif isinstance(node, Between):
            self.analyze_between(node)

    def analyze_in(self, node: InList) -> None:
        kind = self.type_of(node.operand)
        unresolved = [item for item in node.items if not self.is_resolved(item)]
        if not unresolved:
            return
        types = [self.type_of(item) for item in node.items]
        target: ArrowType | None = kind
        for other in types:
            target = None if target is None else _coercion(target, other)
        if target is None:
            listed = ", ".join(t.display for t in types)
            raise self.analyzer_error(
                "Error during planning: Can not find compatible types to compare "
                f"{kind.display} with [{listed}]"
            )

    def analyze_between(self, node: Between) -> None:
        if self.is_resolved(node.low) and self.is_resolved(node.high):
            return
        kind = self.type_of(node.operand)
        coerced = []
        for bound in (node.low, node.high):
            other = self.type_of(bound)
            common = _coercion(kind, other)
            if common is None:
                raise self.between_error(kind, other)
            coerced.append(common)
        if _coercion(coerced[0], coerced[1]) is None:
            raise self.between_error(kind, self.type_of(node.high))

    def between_error(self, kind: ArrowType, other: ArrowType) -> FilterError:
        return self.optimizing(
            "LanceError(IO): Internal error: Failed to coerce types "
            f"{kind.display} and {other.display} in BETWEEN expression.\n"
            f"{_DATAFUSION_BUG}, {_ANALYZER}"
        )

    def group_target(self, nodes: Sequence[Node]) -> ArrowType | None:
        """The common type DataFusion coerces a comparison's, an IN list's or a BETWEEN's
        operands to (None: none)."""
        target: ArrowType | None = self.type_of(nodes[0])
        for other in nodes[1:]:
            target = None if target is None else _coercion(target, self.type_of(other))
        return target

    def cast_literals(self, node: Node) -> None:
        """The string literals of a comparison, IN list or BETWEEN the analyser coerced to a
        number, cast (lance's signed-zero pass evaluates them), left to right."""
        node = _strip(node)
        for child in _children(node):
            self.cast_literals(child)
        if isinstance(node, Binary) and node.op not in ("AND", "OR"):
            group: Sequence[Node] = (node.left, node.right)
        elif isinstance(node, InList | Between):
            group = _children(node)
        else:
            return
        if any(self.is_resolved(member) for member in group):
            return
        target = self.group_target(group)
        if target is None or not target.numeric:
            return
        for member in group:
            literal = _folded_literal(member)
            if (
                literal is not None
                and literal.kind == "str"
                and _parse_number(literal.value, target) is None
            ):
                raise self.optimizing(
                    f"LanceError(Arrow): Cast error: Cannot cast string '{literal.value}' to "
                    f"value of {target.debug} type, {_SIGNED_ZERO}"
                )

    def simplify(self, node: Node) -> None:
        """Columns only ``IS NULL`` refers to, checked last (DataFusion's simplifier)."""
        for column in _columns_in(node):
            if self.column(column) is None:
                raise self.optimizer_column_error(column, _SIMPLIFIER)

    def physical(self, node: Node) -> None:
        """Physical planning, left to right: a LIKE whose NULL-typed side the optimiser gave
        the other side's non-string type (``Int64 and Int64``), a LIKE with another escape
        character than the backslash."""
        node = _strip(node)
        if isinstance(node, Like):
            left, right = self.type_of(node.operand), self.type_of(node.pattern)
            if (left.kind == "null") != (right.kind == "null"):
                kind = right if left.kind == "null" else left
                if kind.kind != "string":
                    word = "ILIKE" if node.insensitive else "LIKE"
                    raise _invalid(
                        "Error during planning: There isn't a common type to coerce "
                        f"{kind.display} and {kind.display} in {word} expression"
                    )
            if node.escape is not None and node.escape != "\\":
                raise LanceExecutionError(
                    "lance error: Query Execution error: Execution error: LIKE does not support "
                    f"escape_char other than the backslash (\\), {_ESCAPE}"
                )
        for child in _children(node):
            self.physical(child)

    # ---- evaluators (a batch of rows at a time)
    def build(self, node: Node) -> Callable[[Any, Sequence[int], _Evaluation], Batch]:
        node = _strip(node)
        literal = self.literal(node)
        if literal is not None:
            value = literal.value
            return lambda view, rows, run: [value] * len(rows)
        if isinstance(node, Column):
            resolved = self.column(node)
            assert resolved is not None
            get = resolved.get
            return lambda view, rows, run: [get(view, row) for row in rows]
        if isinstance(node, Unary):  # NOT (negated literals were folded)
            inner = self.build(node.operand)
            return lambda view, rows, run: [
                None if v is None else not v for v in inner(view, rows, run)
            ]
        if isinstance(node, IsTest):
            return self.build_is(node)
        if isinstance(node, Binary):
            if node.op in ("AND", "OR"):
                return self.build_logic(node)
            return self.build_compare(node.left, node.op, node.right)
        if isinstance(node, InList):
            return self.build_in(node)
        if isinstance(node, Between):
            return self.build_between(node)
        if isinstance(node, Like):
            return self.build_like(node)
        if isinstance(node, Function):
            return self.build_array_has(node)
        raise NotImplementedError(f"LanceDB filter: cannot evaluate {node.sql()}")

    def constant(self, node: Node) -> tuple[bool, Any]:
        """Whether a subtree reads no column, and then its value (DataFusion folds it)."""
        if _columns_in(node) or any(isinstance(n, Function) for n in _walk(node)):
            return False, None
        return True, self.build(node)(None, [0], _Evaluation(prefilter=True))[0]

    def build_logic(self, node: Binary) -> Callable[[Any, Sequence[int], _Evaluation], Batch]:
        conjunction = node.op == "AND"
        decided = not conjunction
        for side, other in ((node.left, node.right), (node.right, node.left)):
            fixed, value = self.constant(side)
            if fixed and value is decided:  # x AND false, x OR true: folded, x never runs
                return lambda view, rows, run: [decided] * len(rows)
            if fixed and value is (not decided):  # x AND true, x OR false: just x
                return self.build(other)
        left, right = self.build(node.left), self.build(node.right)

        def logic(view: Any, rows: Sequence[int], run: _Evaluation) -> Batch:
            # DataFusion's short circuits: the right side is skipped when the left decides
            # every row, and an AND whose left is TRUE for at most a fifth of the rows (and
            # never NULL) evaluates its right side on those rows only.
            a = left(view, rows, run)
            if all(v is decided for v in a):
                return a
            if conjunction and None not in a:
                chosen = [row for row, v in zip(rows, a, strict=True) if v]
                if len(chosen) <= _PRE_SELECTION * len(rows):
                    picked = iter(right(view, chosen, run)) if chosen else iter(())
                    return [next(picked) if v else False for v in a]
            b = right(view, rows, run)
            out: Batch = []
            for x, y in zip(a, b, strict=True):
                if x is decided or y is decided:
                    out.append(decided)
                elif x is None or y is None:
                    out.append(None)
                else:
                    out.append(not decided)
            return out

        return logic

    def build_is(self, node: IsTest) -> Callable[[Any, Sequence[int], _Evaluation], Batch]:
        inner = self.build(node.operand)
        checks: dict[str, Callable[[Any], bool]] = {
            "NULL": lambda v: v is None,
            "NOT NULL": lambda v: v is not None,
            "TRUE": lambda v: v is True,
            "NOT TRUE": lambda v: v is not True,
            "FALSE": lambda v: v is False,
            "NOT FALSE": lambda v: v is not False,
        }
        check = checks[node.test]
        return lambda view, rows, run: [check(v) for v in inner(view, rows, run)]

    def operand(
        self, node: Node, kind: ArrowType, target: ArrowType | None
    ) -> Callable[[Any, Sequence[int], _Evaluation], Batch]:
        """A comparison operand; a string column meeting a number is cast to it, batch-wise."""
        values = self.build(node)
        if target is None or not (kind.kind == "string" and target.numeric):
            return values
        literal = _folded_literal(node)
        if literal is not None:
            parsed = _parse_number(literal.value, target)
            return lambda view, rows, run: [parsed] * len(rows)

        def cast(view: Any, rows: Sequence[int], run: _Evaluation) -> Batch:
            out: Batch = []
            for value in values(view, rows, run):
                parsed = None if value is None else _parse_number(value, target)
                if value is not None and parsed is None:
                    raise run.cast_failed(value, target)
                out.append(parsed)
            return out

        return cast

    def build_compare(
        self, left_node: Node, op: str, right_node: Node, group: Sequence[Node] = ()
    ) -> Callable[[Any, Sequence[int], _Evaluation], Batch]:
        """``left op right``, both coerced to the common type of ``group`` (default: of the two
        operands: an IN list or BETWEEN coerces all its operands together)."""
        left_type, right_type = self.type_of(left_node), self.type_of(right_node)
        target = self.group_target(group or (left_node, right_node))
        if self.is_resolved(left_node) or self.is_resolved(right_node):
            target = _coercion(left_type, right_type)
        if target is not None and target.kind == "null":
            return lambda view, rows, run: [None] * len(rows)
        left = self.operand(left_node, left_type, target)
        right = self.operand(right_node, right_type, target)
        test = _TESTS[op]

        def compare(view: Any, rows: Sequence[int], run: _Evaluation) -> Batch:
            a, b = left(view, rows, run), right(view, rows, run)
            return [
                None if x is None or y is None else test(_compare(x, y))
                for x, y in zip(a, b, strict=True)
            ]

        return compare

    def build_in(self, node: InList) -> Callable[[Any, Sequence[int], _Evaluation], Batch]:
        group = _children(node)
        items = [self.build_compare(node.operand, "=", item, group) for item in node.items]
        negated = node.negated

        def member(view: Any, rows: Sequence[int], run: _Evaluation) -> Batch:
            results = [item(view, rows, run) for item in items]
            out: Batch = []
            for column in zip(*results, strict=True):
                if any(v is True for v in column):
                    out.append(not negated)
                elif any(v is None for v in column):
                    out.append(None)
                else:
                    out.append(negated)
            return out

        return member

    def build_between(self, node: Between) -> Callable[[Any, Sequence[int], _Evaluation], Batch]:
        group = _children(node)
        low = self.build_compare(node.operand, ">=", node.low, group)
        high = self.build_compare(node.operand, "<=", node.high, group)
        negated = node.negated

        def between(view: Any, rows: Sequence[int], run: _Evaluation) -> Batch:
            out: Batch = []
            for a, b in zip(low(view, rows, run), high(view, rows, run), strict=True):
                result = False if a is False or b is False else None if None in (a, b) else True
                out.append(None if result is None else result != negated)
            return out

        return between

    def build_like(self, node: Like) -> Callable[[Any, Sequence[int], _Evaluation], Batch]:
        values, patterns = self.build(node.operand), self.build(node.pattern)
        negated, insensitive = node.negated, node.insensitive

        def like(view: Any, rows: Sequence[int], run: _Evaluation) -> Batch:
            out: Batch = []
            for text, shape in zip(values(view, rows, run), patterns(view, rows, run), strict=True):
                if text is None or shape is None:
                    out.append(None)
                else:
                    matched = _like_regex(shape, insensitive).fullmatch(text) is not None
                    out.append(matched != negated)
            return out

        return like

    def build_array_has(self, node: Function) -> Callable[[Any, Sequence[int], _Evaluation], Batch]:
        column = _strip(node.args[0])
        assert isinstance(column, Column)
        resolved = self.column(column)
        assert resolved is not None
        item_type = resolved.type.item
        assert item_type is not None
        literal = self.literal(node.args[1])
        assert literal is not None
        needle = literal.value
        target = _coercion(item_type, _literal_type(literal))
        cast = item_type.kind == "string" and target is not None and target.numeric
        get = resolved.get

        def has(view: Any, rows: Sequence[int], run: _Evaluation) -> Batch:
            lists = [get(view, row) for row in rows]
            if cast:
                assert target is not None
                for values in lists:
                    for value in values or ():
                        if value is not None and _parse_number(value, target) is None:
                            raise run.cast_failed(value, target)
            out: Batch = []
            for values in lists:
                if values is None or needle is None:
                    out.append(None)
                    continue
                items = [
                    _parse_number(v, target) if cast and target is not None else v
                    for v in values
                    if v is not None
                ]
                out.append(any(_compare(v, needle) == 0 for v in items))
            return out

        return has


def _children(node: Node) -> Sequence[Node]:
    if isinstance(node, Nested):
        return (node.inner,)
    if isinstance(node, Unary):
        return (node.operand,)
    if isinstance(node, Binary):
        return (node.left, node.right)
    if isinstance(node, IsTest):
        return (node.operand,)
    if isinstance(node, InList):
        return (node.operand, *node.items)
    if isinstance(node, Between):
        return (node.operand, node.low, node.high)
    if isinstance(node, Like):
        return (node.operand, node.pattern)
    if isinstance(node, Function):
        return node.args
    return ()


def _walk(node: Node) -> list[Node]:
    return [node, *(n for child in _children(node) for n in _walk(child))]


def _columns_in(node: Node) -> list[Column]:
    if isinstance(node, Column):
        return [node]
    return [column for child in _children(node) for column in _columns_in(child)]


def _convert_literal(literal: Literal, target: ArrowType) -> Literal | None:
    """The literal converted to the column's type, or None (lance's literal resolution)."""
    if literal.kind == "null":
        return literal
    kind = target.kind
    if literal.kind == "int" and kind in ("int64", "double"):
        value = literal.value if kind == "int64" else float(literal.value)
        return Literal("int" if kind == "int64" else "float", value, literal.text)
    if literal.kind == "uint" and kind == "double":
        return Literal("float", float(literal.value), literal.text)
    if (literal.kind, kind) in (("float", "double"), ("str", "string"), ("bool", "bool")):
        return literal
    return None


def _coercion(left: ArrowType, right: ArrowType) -> ArrowType | None:
    """DataFusion's common type for comparing two types (None: they cannot be compared)."""
    if left.kind == "null":
        return right
    if right.kind == "null":
        return left
    if left == right:
        return left
    if left.numeric and right.numeric:
        return FLOAT64 if "double" in (left.kind, right.kind) else INT64
    if left.numeric and right.kind == "string":
        return left
    if right.numeric and left.kind == "string":
        return right
    return None


def plan(node: Node, table: Table, text: str) -> Plan:
    """The filter ``node`` (whose echoed text is ``text``) planned against ``table``: raises
    lance's error for the first fault in lance's order, or returns the evaluator."""
    planner = _Planner(table, text)
    planner.convert(node)
    planner.resolve(node)
    kind = planner.typed(node)
    if kind.kind != "bool":
        raise _invalid(f"The filter {_df_display(node, planner)} does not return a boolean")
    planner.analyze(node)
    planner.cast_literals(node)
    planner.simplify(node)
    planner.physical(node)
    return Plan(planner.build(node))


def _df_display(node: Node, planner: _Planner) -> str:
    """A non-boolean filter as DataFusion displays the expression (``i``, ``Int64(1)``)."""
    node = _strip(node)
    literal = _folded_literal(node)
    if literal is not None:
        return _literal_debug(literal)
    if isinstance(node, Column):
        resolved = planner.column(node)
        return resolved.name if resolved is not None else node.sql()
    return node.sql()
