"""Milvus filter expressions read as core predicates, with Milvus 2.5's meaning and errors.

``read_expression`` parses an expression (``expressions.py``), checks it the way Milvus's planner
does, and returns a :class:`~placeborag_core.filters.predicates.Predicate`. Record metadata plays
the dynamic field (``$meta``, JSON); the primary key (``id``, VARCHAR or INT64) and, in
integrations, the text field are typed fields (:class:`Schema`). What was measured
(``docs/engines/milvus.md#filter-expressions``):

* ``==`` compares same kinds only (bool with bool, numbers with numbers, strings with strings);
  two ints compare exactly as int64, otherwise both sides as doubles (``1 == 1.0``); a list,
  object, null or missing value equals nothing. ``!=`` is its negation, so a missing key, a null
  and a value of another type all match ``!=`` (and ``not in``).
* ``< <= > >=`` compare numbers with numbers, strings with strings (byte order) and bools with
  bools; anything else (a missing key too) does not match. The range form ``1 < n < 5`` and
  arithmetic are rejected on JSON keys.
* A literal on the left of ``==``/``!=`` *swaps* them (``1 == n`` means ``n != 1``): a Milvus
  2.5 bug, reproduced; ``<`` and friends are reversed correctly.
* ``in [..]`` needs every item of the kind of the first (int, float, bool, str); ``[]`` is an
  error. ``like`` matches string values (``%``, ``_``, ``\\`` escapes, case-sensitive); a
  pattern of only ``%`` matches nothing. ``json_contains*``/``array_contains*`` test list
  elements; ``array_length(k) == n`` counts a non-list as 0.
* ``not``/``!`` is rejected: on a comparison by the core ("unsupported expr proto node"), on a
  bare name by the planner; ``exists`` and ``is null`` are rejected on JSON keys; a bare JSON
  name is a type error.

Errors are :class:`~placeborag_core.backends.milvus.errors.MilvusFilterError` with Milvus's
codes and messages. Most are raised when the expression is read; two are raised by the engine
only once it evaluates rows (comparing two JSON keys, mixed kinds in ``in``), and so are they here
(an empty collection does not raise them).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from placeborag_core.backends.milvus import expressions as ex
from placeborag_core.backends.milvus.errors import MilvusFilterError, invalid_expr, segcore
from placeborag_core.backends.profile import NativeWhere, PayloadLayout
from placeborag_core.errors import FilterError
from placeborag_core.filters.predicates import (
    BoolMask,
    ColumnView,
    Everything,
    Predicate,
    RecordPredicate,
)
from placeborag_core.messages import shown

__all__ = [
    "MISSING",
    "Schema",
    "expression_of",
    "read_expression",
    "read_milvus_filter",
]

FieldType = Literal["varchar", "int64", "double", "bool"]
_KIND_OF_TYPE: dict[str, type] = {"varchar": str, "int64": int, "double": float, "bool": bool}


@dataclass(frozen=True)
class Schema:
    """The typed fields an expression may name. ``id_field``/``id_type``: the primary key;
    ``text_field``: the field holding the record's text (None: none); ``fields``: metadata keys
    that are typed scalar fields of the collection (langchain-milvus builds them from its first
    batch); ``dynamic``: whether any other name is a key of the record's metadata, Milvus's
    dynamic JSON field (else naming it is an error)."""

    id_field: str = "id"
    id_type: FieldType = "varchar"
    text_field: str | None = None
    fields: Mapping[str, FieldType] = field(default_factory=dict)
    dynamic: bool = True


class _Missing:
    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()
"""A key a record does not have (distinct from a stored null)."""

_PLAN_PROTO = "query/PlanProto.cpp"


def _not_supported() -> MilvusFilterError:
    return segcore(" => unsupported expr proto node: ", f"{_PLAN_PROTO}:543")


def _json_type_error(type_name: str = "JSON") -> MilvusFilterError:
    return segcore(f" => expr type check failed, actual type: {type_name}", f"{_PLAN_PROTO}:550")


def _empty_term() -> MilvusFilterError:
    return segcore(
        'Assert "fields_.find(field_id) != fields_.end()"  => Cannot find field with field_id: 0',
        "common/Schema.h:178",
    )


_VAL_CASE = {bool: "kBoolVal", int: "kInt64Val", float: "kFloatVal", str: "kStringVal"}
_VAL_LINE = {bool: 115, int: 130, float: 122, str: 145}


def _term_kind_error(kind: type) -> MilvusFilterError:
    return segcore(
        f'Assert "(value_proto.val_case() == milvus::proto::plan::GenericValue::'
        f'{_VAL_CASE[kind]})" ',
        f"exec/expression/Utils.h:{_VAL_LINE[kind]}",
        operator=True,
    )


def _field_compare_error() -> MilvusFilterError:
    return segcore(
        " => unsupported left datatype:JSON of compare expr",
        "exec/expression/CompareExpr.cpp:277",
        operator=True,
    )


# --- value semantics -------------------------------------------------------------------------


def _kind(value: Any) -> type | None:
    """The literal kind of a JSON scalar: bool, int, float or str (None for anything else)."""
    if isinstance(value, bool):
        return bool
    if isinstance(value, int):
        return int
    if isinstance(value, float):
        return float
    if isinstance(value, str):
        return str
    return None


def _numeric(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def json_equal(value: Any, operand: Any) -> bool:
    """Milvus ``value == operand`` for a JSON value and a literal."""
    if isinstance(operand, bool) or isinstance(value, bool):
        return isinstance(operand, bool) and isinstance(value, bool) and value == operand
    if isinstance(operand, str):
        return isinstance(value, str) and value == operand
    if not (_numeric(value) and _numeric(operand)):
        return False
    if isinstance(value, int) and isinstance(operand, int):
        return value == operand
    return float(value) == float(operand)


def json_order(value: Any, operand: Any) -> int | None:
    """-1, 0 or 1 comparing a JSON value with a literal, or None when they do not compare."""
    if isinstance(operand, bool) or isinstance(value, bool):
        if not (isinstance(operand, bool) and isinstance(value, bool)):
            return None
        left: Any = int(value)
        right: Any = int(operand)
    elif isinstance(operand, str):
        if not isinstance(value, str):
            return None
        left, right = (
            value.encode("utf-8", "surrogatepass"),
            operand.encode("utf-8", "surrogatepass"),
        )
    elif _numeric(value) and _numeric(operand):
        if isinstance(value, int) and isinstance(operand, int):
            left, right = value, operand
        else:
            left, right = float(value), float(operand)
            if math.isnan(left) or math.isnan(right):
                return None
    else:
        return None
    return int(left > right) - int(left < right)


_TESTS: dict[str, Callable[[int], bool]] = {
    "<": lambda c: c < 0,
    "<=": lambda c: c <= 0,
    ">": lambda c: c > 0,
    ">=": lambda c: c >= 0,
}
_ARITHMETIC = ("+", "-", "*", "/", "%", "**")


def _truncated_division(a: int, b: int) -> int:
    quotient = abs(a) // abs(b)
    return quotient if (a >= 0) == (b > 0) else -quotient


_INT_ARITHMETIC: dict[str, Callable[[Any, Any], Any]] = {
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "/": _truncated_division,
    "%": lambda a, b: a - b * _truncated_division(a, b),
}
"""INT64 arithmetic as the Milvus core does it (C's truncating ``/`` and ``%``)."""
_FLOAT_ARITHMETIC: dict[str, Callable[[Any, Any], Any]] = {
    "+": lambda a, b: float(a) + b,
    "-": lambda a, b: float(a) - b,
    "*": lambda a, b: float(a) * b,
    "/": lambda a, b: float(a) / b,
    "%": lambda a, b: None,  # measured: ``price % 2 == 1.5`` matches nothing
}
"""DOUBLE arithmetic (``%`` on a DOUBLE field matches nothing)."""

_REVERSED = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "!=", "!=": "=="}
"""A literal on the left: relational operators turn around; ``==``/``!=`` swap (the bug)."""


def like_regex(pattern: str) -> re.Pattern[str] | None:
    """The pattern as an anchored regex (None: a pattern of only ``%``, which matches nothing)."""
    if pattern and set(pattern) == {"%"}:
        return None
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
    return re.compile("".join(out), re.DOTALL)


# --- predicates ------------------------------------------------------------------------------


def _step(value: Any, step: str | int) -> Any:
    """``value[step]`` along a JSON path (a key of an object, an index of a list), or MISSING."""
    if isinstance(step, str):
        return value[step] if isinstance(value, Mapping) and step in value else MISSING
    return value[step] if isinstance(value, list) and step < len(value) else MISSING


class _Getter:
    """Reads one named value of the record in a row: a JSON path, the id (an int for an INT64
    key) or the text."""

    def __init__(
        self, source: Literal["json", "id", "int_id", "text"], path: tuple[str | int, ...]
    ) -> None:
        self.source = source
        self.path = path

    def __call__(self, view: ColumnView, row: int) -> Any:
        if self.source == "id":
            return view.id_at(row)
        if self.source == "int_id":
            return int(view.id_at(row))
        if self.source == "text":
            text = view.text_at(row)
            return MISSING if text is None else text
        value: Any = view.metadata_at(row)
        for step in self.path:
            value = _step(value, step)
            if value is MISSING:
                break
        return value


class _Test(RecordPredicate):
    """``test`` of one value of the record (see :class:`_Getter`)."""

    def __init__(self, get: _Getter, test: Callable[[Any], bool]) -> None:
        self.get = get
        self.test = test

    def row_matches(self, view: ColumnView, row: int) -> bool:
        return self.test(self.get(view, row))


class _Fails(RecordPredicate):
    """An error the engine raises only when it evaluates rows."""

    def __init__(self, error: MilvusFilterError) -> None:
        self.error = error

    def row_matches(self, view: ColumnView, row: int) -> bool:
        raise self.error


class _And(Predicate):
    """Milvus's conjunction: its operands are evaluated in order over the rows, and once no
    row is left true the rest are skipped (so an operand that would fail while it runs does
    not, as in the engine)."""

    def __init__(self, children: Sequence[Predicate]) -> None:
        self.children = tuple(children)

    def row_matches(self, view: ColumnView, row: int) -> bool:
        return all(child.row_matches(view, row) for child in self.children)

    def mask(self, view: ColumnView) -> BoolMask:
        live = view.live_rows()
        out = np.ones(view.n_rows, dtype=bool)
        for child in self.children:
            if not out[live].any():
                break
            out &= child.mask(view)
        return out


class _Or(Predicate):
    """Milvus's disjunction: evaluated in order, the rest skipped once every row is true."""

    def __init__(self, children: Sequence[Predicate]) -> None:
        self.children = tuple(children)

    def row_matches(self, view: ColumnView, row: int) -> bool:
        return any(child.row_matches(view, row) for child in self.children)

    def mask(self, view: ColumnView) -> BoolMask:
        live = view.live_rows()
        out = np.zeros(view.n_rows, dtype=bool)
        for child in self.children:
            if len(live) and out[live].all():
                break
            out |= child.mask(view)
        return out


# --- planner ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Typed:
    """A resolved name: where its value comes from and its type (None: JSON)."""

    getter: _Getter
    type: FieldType | None


class _Planner:
    def __init__(self, text: str, schema: Schema) -> None:
        self.text = text
        self.schema = schema

    def invalid(self) -> MilvusFilterError:
        return invalid_expr(self.text)

    def name(self, node: ex.Node) -> _Typed | None:
        if not isinstance(node, ex.Field):
            return None
        schema = self.schema
        if node.name == "$meta":
            return _Typed(_Getter("json", node.path), None)
        if node.name in (schema.id_field, schema.text_field):
            if node.path:
                raise self.invalid()
            if node.name == schema.id_field:
                source: Literal["id", "int_id"] = "int_id" if schema.id_type == "int64" else "id"
                return _Typed(_Getter(source, ()), schema.id_type)
            return _Typed(_Getter("text", ()), "varchar")
        typed = schema.fields.get(node.name)
        if typed is not None:
            if node.path:
                raise self.invalid()
            return _Typed(_Getter("json", (node.name,)), typed)
        if not schema.dynamic:
            raise self.invalid()
        return _Typed(_Getter("json", (node.name, *node.path)), None)

    def literal(self, node: ex.Node) -> Any:
        """The value of a literal (a signed number folded), or MISSING if it is not one."""
        if isinstance(node, ex.Literal):
            return node.value
        if isinstance(node, ex.Unary) and node.op in ("-", "+"):
            inner = self.literal(node.operand)
            if _numeric(inner):
                return -inner if node.op == "-" else inner
            if inner is not MISSING:
                raise self.invalid()
        return MISSING

    def typed_value(self, field: _Typed, value: Any) -> Any:
        """``value`` checked against a typed field (the planner's check); JSON takes any."""
        if field.type is None:
            return value
        kind = _kind(value)
        if kind is not _KIND_OF_TYPE[field.type] and not (field.type == "double" and kind is int):
            raise self.invalid()
        return value

    def plan(self, node: ex.Node) -> Predicate:
        if isinstance(node, ex.Binary) and node.op in ("and", "or"):
            parts = [self.plan(node.left), self.plan(node.right)]
            return _And(parts) if node.op == "and" else _Or(parts)
        if isinstance(node, ex.Unary) and node.op == "not":
            if self.is_condition(node.operand):
                self.plan(node.operand)  # its own errors come first
                raise _not_supported()
            raise self.invalid()
        if isinstance(node, ex.Binary) and node.op in ("==", "!=", "<", "<=", ">", ">="):
            return self.compare(node)
        if isinstance(node, ex.RangeNode):
            return self.range(node)
        if isinstance(node, ex.Term):
            return self.term(node)
        if isinstance(node, ex.Like):
            return self.like(node)
        if isinstance(node, ex.Call):
            return self.call(node)
        named = self.name(node)
        if named is None:
            raise self.invalid()
        if named.type == "bool":  # accepted by the planner; the filter fails once it runs
            return _Fails(
                segcore(
                    " => PhyFilterBitsNode result should be bitmap",
                    "exec/operator/FilterBitsNode.cpp:89",
                    operator=True,
                )
            )
        raise _json_type_error("JSON" if named.type is None else named.type.upper())

    @staticmethod
    def is_condition(node: ex.Node) -> bool:
        if isinstance(node, ex.Binary):
            return node.op in ("and", "or", "==", "!=", "<", "<=", ">", ">=")
        return isinstance(node, ex.RangeNode | ex.Term | ex.Like | ex.Call | ex.Unary)

    def compare(self, node: ex.Binary) -> Predicate:
        op = node.op
        left, right = node.left, node.right
        if isinstance(left, ex.Call) and left.name == "array_length":
            return self.array_length(left, op, right)
        for side in (left, right):
            if isinstance(side, ex.Binary) and side.op in _ARITHMETIC:
                operand = self.name(side.left) or self.name(side.right)
                if operand is not None and operand.type is not None:
                    return self.arithmetic(side, op if side is left else _REVERSED[op], node)
        field, other = self.name(left), right
        if field is None:
            field, other = self.name(right), left
            op = _REVERSED[op]
            if field is None:
                raise self.invalid()
        if self.name(other) is not None:
            if field.type is None or self.name(other).type is None:  # type: ignore[union-attr]
                return _Fails(_field_compare_error())
            raise NotImplementedError("comparing two typed fields is not supported")
        value = self.literal(other)
        if value is MISSING:
            raise self.invalid()
        value = self.typed_value(field, value)
        if op == "==":
            return _Test(field.getter, lambda v: json_equal(v, value))
        if op == "!=":
            return _Test(field.getter, lambda v: not json_equal(v, value))
        test = _TESTS[op]
        return _Test(field.getter, lambda v: (c := json_order(v, value)) is not None and test(c))

    def arithmetic(self, side: ex.Binary, op: str, node: ex.Binary) -> Predicate:
        """``field <arith> literal == literal`` on a typed numeric field (measured:
        ``docs/integrations/new_integrations.md#lc-milvus-typed-arithmetic``): only ``==`` and
        ``!=``; an INT64 field takes int literals only (``/`` truncates, ``%`` keeps the
        dividend's sign), a DOUBLE field any number (``%`` matches nothing); ``+`` and ``*``
        take the literal on either side (``-``, ``/``, ``%`` only on the right); a literal on
        the left of ``==`` swaps it, as in a plain comparison (``op`` arrives swapped)."""
        field = self.name(side.left)
        operand_node = side.right
        if field is None:
            if side.op not in ("+", "*"):
                raise self.invalid()  # measured: ``10 - n == 5`` is invalid
            field, operand_node = self.name(side.right), side.left
        other = node.right if side is node.left else node.left
        operand, value = self.literal(operand_node), self.literal(other)
        if (
            field is None
            or field.type not in ("int64", "double")
            or op not in ("==", "!=")
            or side.op == "**"
            or not _numeric(operand)
            or not _numeric(value)
        ):
            raise self.invalid()
        if field.type == "int64" and (not isinstance(operand, int) or not isinstance(value, int)):
            raise self.invalid()
        if side.op in ("/", "%") and operand == 0:
            raise NotImplementedError("division by zero in a Milvus expression is not supported")
        compute = _INT_ARITHMETIC if field.type == "int64" else _FLOAT_ARITHMETIC
        step = compute[side.op]

        def equal(v: Any) -> bool:
            if not _numeric(v):
                return False
            result = step(v, operand)
            return result is not None and result == value

        if op == "==":
            return _Test(field.getter, equal)
        return _Test(field.getter, lambda v: _numeric(v) and not equal(v))

    def range(self, node: ex.RangeNode) -> Predicate:
        field = self.name(node.field)
        low, high = self.literal(node.low), self.literal(node.high)
        if field is None or field.type is None or low is MISSING or high is MISSING:
            raise self.invalid()
        low, high = self.typed_value(field, low), self.typed_value(field, high)
        first, second = _TESTS[_REVERSED[node.op1]], _TESTS[node.op2]

        def inside(v: Any) -> bool:
            a, b = json_order(v, low), json_order(v, high)
            return a is not None and b is not None and first(a) and second(b)

        return _Test(field.getter, inside)

    def term(self, node: ex.Term) -> Predicate:
        field = self.name(node.operand)
        if field is None:
            raise self.invalid()
        values = [self.literal(item) for item in node.items]
        if any(value is MISSING for value in values):
            raise self.invalid()
        if not values:
            raise _empty_term()
        first = _kind(values[0])
        assert first is not None  # literals are scalars
        if field.type is not None:
            wanted = _KIND_OF_TYPE[field.type]
            if first is not wanted and not (field.type == "double" and first is int):
                return _Fails(_term_kind_error(wanted))
        if any(_kind(value) is not first for value in values):
            return _Fails(_term_kind_error(first))
        negated = node.negated
        return _Test(field.getter, lambda v: any(json_equal(v, item) for item in values) != negated)

    def like(self, node: ex.Like) -> Predicate:
        field = self.name(node.operand)
        if field is None or field.type not in (None, "varchar"):
            raise self.invalid()
        if node.pattern is None:
            return _Test(field.getter, lambda v: False)
        regex = like_regex(node.pattern)
        if regex is None:
            if field.type is None:
                return _Test(field.getter, lambda v: False)
            return _Test(field.getter, lambda v: isinstance(v, str))
        return _Test(field.getter, lambda v: isinstance(v, str) and regex.fullmatch(v) is not None)

    def call(self, node: ex.Call) -> Predicate:
        if node.name in ("exists", "array_length") or len(node.args) != 2:
            raise self.invalid()
        field = self.name(node.args[0])
        if field is None or field.type is not None:
            raise self.invalid()
        if node.name == "json_contains":
            value = self.literal(node.args[1])
            if value is MISSING:
                return (
                    _Test(field.getter, lambda v: False)
                    if isinstance(node.args[1], ex.ListLit)
                    else self._raise_invalid()
                )
            return _Test(
                field.getter,
                lambda v: isinstance(v, list) and any(json_equal(e, value) for e in v),
            )
        arg = node.args[1]
        if not isinstance(arg, ex.ListLit) or not arg.items:
            raise self.invalid()
        values = [self.literal(item) for item in arg.items]
        if any(value is MISSING for value in values):
            raise self.invalid()
        every = node.name == "json_contains_all"

        def contains(v: Any) -> bool:
            if not isinstance(v, list):
                return False
            found = (any(json_equal(e, value) for e in v) for value in values)
            return all(found) if every else any(found)

        return _Test(field.getter, contains)

    def _raise_invalid(self) -> Predicate:
        raise self.invalid()

    def array_length(self, call: ex.Call, op: str, other: ex.Node) -> Predicate:
        field = self.name(call.args[0]) if len(call.args) == 1 else None
        value = self.literal(other)
        if field is None or field.type is not None or op not in ("==", "!="):
            raise self.invalid()
        if _kind(value) is not int:
            raise self.invalid()
        equal = op == "=="
        return _Test(
            field.getter, lambda v: ((len(v) if isinstance(v, list) else 0) == value) == equal
        )


def read_expression(expr: str, schema: Schema | None = None) -> Predicate:
    """The predicate of a Milvus filter expression; ``MilvusFilterError`` as Milvus raises it.

    An empty or blank expression is no filter."""
    if not isinstance(expr, str):
        raise FilterError(f"a Milvus filter is an expression str, got {shown(expr)}")
    try:
        node = ex.parse(expr)
    except ex.ParseError:
        raise invalid_expr(expr) from None
    if node is None:
        return Everything()
    return _Planner(expr, schema or Schema()).plan(node)


# --- the core dict dialect as expressions ----------------------------------------------------

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_OPERATORS = {"$eq": "==", "$ne": "!=", "$gt": ">", "$gte": ">=", "$lt": "<", "$lte": "<="}
_KEYWORDS = frozenset(
    {"and", "or", "not", "in", "like", "LIKE", "exists", "EXISTS", "true", "false"}
    | {"True", "False", "TRUE", "FALSE"}
)


def quote(text: str) -> str:
    """A Milvus string literal for ``text``."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def literal_text(value: Any) -> str:
    """A Milvus literal for a JSON scalar (FilterError for what has none: None, NaN, lists)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float) and math.isfinite(value):
        return repr(value)
    if isinstance(value, str):
        return quote(value)
    raise FilterError(f"a Milvus filter has no literal for {shown(value)}")


def key_text(key: str) -> str:
    """A metadata key as a Milvus name: bare when it is an identifier, else ``$meta["key"]``."""
    if _NAME.fullmatch(key) and key not in _KEYWORDS and key not in _FUNCTION_NAMES:
        return key
    return f"$meta[{quote(key)}]"


_FUNCTION_NAMES = frozenset(ex._FUNCTIONS)


def expression_of(where: Mapping[str, Any]) -> str:
    """A core dict filter as the Milvus expression that means it under the milvus profile.

    ``{"k": v}``/``$eq``, ``$ne``, ``$gt``, ``$gte``, ``$lt``, ``$lte``, ``$in``, ``$nin``,
    ``$contains`` (``json_contains``), ``$and``, ``$or`` (non-empty lists, whose items may be
    expression strings too); several keys or operators in one mapping are joined with ``and``.
    Anything else raises FilterError.
    """
    if not isinstance(where, Mapping) or not where:
        raise FilterError(f"a Milvus dict filter is a non-empty mapping, got {shown(where)}")
    parts: list[str] = []
    for key, value in where.items():
        if key in ("$and", "$or"):
            if not isinstance(value, list | tuple) or not value:
                raise FilterError(f"{key} takes a non-empty list of filters, got {shown(value)}")
            joined = f" {key[1:]} ".join(
                f"({item if isinstance(item, str) else expression_of(item)})" for item in value
            )
            parts.append(f"({joined})")
            continue
        if not isinstance(key, str) or not key or key.startswith("$"):
            raise FilterError(
                f"unknown operator {shown(key)} in a Milvus dict filter (use $and, $or, or an "
                "expression string)"
            )
        name = key_text(key)
        tests = value if isinstance(value, Mapping) else {"$eq": value}
        if not tests:
            raise FilterError(f"an operator mapping must not be empty (key {shown(key)})")
        for op, operand in tests.items():
            parts.append(_field_text(name, op, operand))
    return parts[0] if len(parts) == 1 else " and ".join(parts)


def _field_text(name: str, op: Any, operand: Any) -> str:
    if op in _OPERATORS:
        return f"{name} {_OPERATORS[op]} {literal_text(operand)}"
    if op in ("$in", "$nin"):
        if not isinstance(operand, list | tuple):
            raise FilterError(f"{op} takes a list, got {shown(operand)}")
        items = ", ".join(literal_text(item) for item in operand)
        return f"{name} {'in' if op == '$in' else 'not in'} [{items}]"
    if op == "$contains":
        return f"json_contains({name}, {literal_text(operand)})"
    raise FilterError(
        f"operator {shown(op)} has no Milvus expression; the milvus profile's dict filters take "
        "$eq, $ne, $gt, $gte, $lt, $lte, $in, $nin, $contains, $and, $or (or write the "
        "expression string)"
    )


def read_where(where: Any, schema: Schema | None = None) -> Predicate:
    """A ``where=`` filter under the milvus profile: an expression str, or a core dict that
    :func:`expression_of` turns into one."""
    if isinstance(where, str):
        return read_expression(where, schema)
    if isinstance(where, Mapping):
        if not where:
            return Everything()
        return read_expression(expression_of(where), schema)
    raise FilterError(
        f"a Milvus filter is an expression str (or a dict of the core dialect), got {shown(where)}"
    )


def read_milvus_filter(expr: Any, payload: PayloadLayout) -> NativeWhere:
    """An integration's ``expr=`` string in core terms: ``payload.text_key`` names the text
    field and ``payload.id_key`` the primary key (VARCHAR)."""
    schema = Schema(
        id_field=payload.id_key or "id",
        id_type="varchar",
        text_field=payload.text_key,
    )
    predicate = read_where(expr, schema)
    return NativeWhere() if isinstance(predicate, Everything) else NativeWhere(where=predicate)


def schema_reader(schema: Schema) -> Callable[[Any], Predicate]:
    """``read_where`` bound to a schema (a dialect's ``parse``)."""
    return lambda where: read_where(where, schema)


def as_list(values: Sequence[Any]) -> str:
    """``[a, b]`` as Milvus literals."""
    return "[" + ", ".join(literal_text(v) for v in values) + "]"
