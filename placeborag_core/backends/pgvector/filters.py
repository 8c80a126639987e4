"""The ``pgvector`` profile's ``where=`` dialect: PostgreSQL's JSONB semantics.

pgvector has no filter language of its own: a filter is SQL on the table's metadata column. The
core dialect of this profile is what the common JSONB comparison means in PostgreSQL, SQL/JSON
path's ``jsonb_path_match`` in lax mode (the form langchain-postgres uses for its comparison
operators), combined with SQL's three-valued ``AND``/``OR``/``NOT``:

========================  ==========================================================
core clause               PostgreSQL
========================  ==========================================================
``{k: {"$eq": v}}``       ``jsonb_path_match(meta, '$.k == $v')``
``{k: {"$ne": v}}``       ``jsonb_path_match(meta, '$.k != $v')``
``$gt $gte $lt $lte``     ``'$.k > $v'`` (and so on); bounds are numbers
``{k: {"$in": [..]}}``    ``'$.k == $v'`` with ``$v`` the list (any element equal)
``{k: {"$nin": [..]}}``   ``'$.k != $v1' AND '$.k != $v2' ...`` (each ``$ne``)
``{k: {"$exists": b}}``   ``meta ? 'k'`` (``NOT`` for false)
``$and $or $not``         SQL ``AND``, ``OR``, ``NOT`` (unknown stays unknown)
========================  ==========================================================

So: a missing key matches nothing but ``$exists: false`` and ``$not`` of a clause on it;
``1 == 1.0``; ``True`` is not ``1`` and ``"1"`` is not ``1`` (different JSON types compare as
unknown: neither ``$eq`` nor ``$ne`` matches them, nor ``$not`` of them); JSON null matches
``$ne`` and ``$nin``; an array value matches ``$eq`` by any element and ``$ne`` if any element
differs. Facts: ``docs/engines/pgvector.md#filtering-jsonb-semantics``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from placeborag_core.backends.pgvector.jsonb import (
    Comparison,
    KeyExists,
    PathCompare,
    TriAll,
    TriAny,
    TriNot,
)
from placeborag_core.filters.compiler import read_core_filter
from placeborag_core.filters.dialect import CORE_LOGIC_OPERATORS, FilterDialect
from placeborag_core.filters.predicates import Predicate

__all__ = ["DIALECT", "JSONB_NODES", "read_jsonb_where"]

_COMPARISONS: dict[str, Comparison] = {
    "$eq": "==",
    "$ne": "!=",
    "$gt": ">",
    "$gte": ">=",
    "$lt": "<",
    "$lte": "<=",
}


class JsonbNodes:
    """Compiles the core clauses into :mod:`~placeborag_core.backends.pgvector.jsonb`
    predicates (the table in the module docstring)."""

    def field(self, key: str, op: str, operand: Any) -> Predicate:
        if op in _COMPARISONS:
            return PathCompare(key, _COMPARISONS[op], operand)
        if op == "$in":
            return PathCompare(key, "==", list(operand))
        if op == "$nin":
            return TriAll([PathCompare(key, "!=", item) for item in operand])
        if op == "$exists":
            exists = KeyExists(key)
            return exists if operand else TriNot(exists)
        raise ValueError(f"operator {op} has no JSONB form")  # the dialect does not offer it

    def all_of(self, children: Sequence[Predicate]) -> Predicate:
        return TriAll(children)

    def any_of(self, children: Sequence[Predicate]) -> Predicate:
        return TriAny(children)

    def negation(self, child: Predicate) -> Predicate:
        return TriNot(child)


JSONB_NODES = JsonbNodes()


def read_jsonb_where(where: Any, dialect: FilterDialect) -> Predicate:
    """The pgvector dialect's ``reader``: the core compiler's walk, building JSONB nodes."""
    return read_core_filter(where, dialect, JSONB_NODES)


DIALECT = FilterDialect(
    name="pgvector",
    field_ops=frozenset({"$eq", "$ne", "$gt", "$gte", "$lt", "$lte", "$in", "$nin", "$exists"}),
    logic_ops=frozenset(CORE_LOGIC_OPERATORS),
    reader=read_jsonb_where,
)
"""The pgvector profile's ``where=`` dialect (see the module docstring)."""
