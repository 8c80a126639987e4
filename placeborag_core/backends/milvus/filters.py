"""Milvus filter expressions read as core predicates, with Milvus 2.5's meaning and errors.

``read_expression`` parses an expression (``lexer.py``, ``expressions.py``), checks it the way
Milvus's planner does (``planner.py``, over the value rules of ``semantics.py``), and returns a
:class:`~placeborag_core.filters.predicates.Predicate`. Record metadata plays
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

import dataclasses
import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

from placeborag_core.backends.milvus.lexer import FUNCTIONS
from placeborag_core.backends.milvus.planner import read_expression
from placeborag_core.backends.milvus.semantics import MISSING, Schema
from placeborag_core.backends.profile import NativeWhere, PayloadLayout
from placeborag_core.errors import FilterError
from placeborag_core.filters.dialect import FilterDialect
from placeborag_core.filters.predicates import Everything, Predicate
from placeborag_core.messages import shown

__all__ = [
    "MISSING",
    "Schema",
    "expression_of",
    "read_expression",
    "read_milvus_filter",
]

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


_FUNCTION_NAMES = frozenset(FUNCTIONS)


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


@dataclasses.dataclass(frozen=True)
class SchemaReader:
    """:func:`read_where` bound to a schema: a dialect's ``reader`` (an already compiled
    predicate passes as it is). A class rather than a closure, so that a store pickles."""

    schema: Schema

    def __call__(self, where: Any, _dialect: FilterDialect) -> Predicate:
        return where if isinstance(where, Predicate) else read_where(where, self.schema)


def as_list(values: Sequence[Any]) -> str:
    """``[a, b]`` as Milvus literals."""
    return "[" + ", ".join(literal_text(v) for v in values) + "]"
