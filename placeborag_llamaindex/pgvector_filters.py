"""``MetadataFilters`` as llama-index's ``PGVectorStore`` turns them into SQL, in core terms.

``PGVectorStore._build_filter_clause`` (llama-index-vector-stores-postgres 0.9.0) pastes each
filter into SQL text on the ``metadata_`` column (``json`` by default):

* ``== != > >= < <=`` with a value ``float()`` accepts (``1``, ``2.5``, ``"1"``, ``" 7 "``):
  ``(metadata_->>'k')::float <op> <float(value)>``, a numeric comparison in which every row
  whose stored text is no number aborts the query (a cast error that depends on the data);
  any other value: ``metadata_->>'k' <op> 'value'``, a text comparison by code point;
* ``in``/``nin``: ``metadata_->>'k' [NOT] IN ('a', 'b')`` over ``str`` of each item of the value
  (a str value is iterated character by character, as the source does);
* ``any``/``all``: ``metadata_::jsonb->'k' ?| array['a']`` / ``?&``; ``contains``:
  ``metadata_::jsonb->'k' @> '["value"]'``;
* ``text_match``/``text_match_insensitive``: ``LIKE``/``ILIKE '%value%'`` (a substring test in
  which the value's own ``%`` and ``_`` are wildcards); ``is_empty``: ``metadata_->>'k' IS NULL``;
* conditions ``and``/``or`` only (anything else: ``ValueError`` "Invalid condition: ...").

Each becomes the core pgvector predicate for that SQL
(:mod:`placeborag_core.backends.pgvector.sqltext`), under PostgreSQL's evaluation order (the
top-level conditions cheapest first, :class:`~placeborag_core.backends.pgvector.sqltext.QualList`),
so a missing key matches nothing but ``is_empty``, ``"1"`` equals ``1`` numerically while ``in``
compares text, and a cast error is raised for the same data as on PostgreSQL.

What the real store pastes into SQL unescaped and PostgreSQL or SQLAlchemy then rejects for any
data (a quote in a key or value, a ``:name`` that SQLAlchemy takes for a bind parameter, an empty
``in`` list, a NaN or infinite number, a ``contains`` value that is no JSON string) raises
:class:`~placeborag_core.FilterError` naming the cause; the real store raises
``sqlalchemy.exc.ProgrammingError``/``DataError``/``StatementError``. Facts:
``docs/integrations/new_integrations.md#llamaindex-pgvectorstore-li_pgvectorpy``.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from typing import Any

from llama_index.core.vector_stores.types import FilterOperator, MetadataFilter, MetadataFilters

from placeborag_core import FilterError
from placeborag_core.backends.pgvector import (
    Column,
    FloatCast,
    JsonbContainsText,
    JsonbHasKeys,
    QualList,
    SqlComparison,
    TextCompare,
    TextInList,
    TextIsNull,
    TextPattern,
    TriAll,
    TriAny,
)
from placeborag_core.filters import Predicate
from placeborag_core.store import Where

__all__ = ["pgvector_where", "pgvector_where_with_ids"]

_COMPARISONS: dict[FilterOperator, SqlComparison] = {
    FilterOperator.EQ: "=",
    FilterOperator.NE: "!=",
    FilterOperator.GT: ">",
    FilterOperator.GTE: ">=",
    FilterOperator.LT: "<",
    FilterOperator.LTE: "<=",
}
_CONDITIONS = {"or": "or", "and": "and"}
# SQLAlchemy's text(): ":name" not preceded by ":", a word character or a backslash is a bind
# parameter; "\:" is an escaped colon (sqlalchemy/sql/elements.py TextClause._bind_params_regex).
_BIND = re.compile(r"(?<![:\w\x5c]):(\w+)(?!:)", re.UNICODE)
_UNSAFE = "PGVectorStore pastes filter keys and values into its SQL unescaped"
_COLUMN: Column = "json"  # PGVectorStore's default use_jsonb=False


def _pasted(sql: str, what: str) -> None:
    """Refuse a pasted fragment PostgreSQL or SQLAlchemy rejects whatever the data."""
    if "'" in what:
        raise FilterError(
            f"{_UNSAFE}: the quote in {what!r} breaks the statement "
            "(sqlalchemy.exc.ProgrammingError: syntax error) or changes it"
        )
    if "\x00" in what:
        raise FilterError(f"{_UNSAFE}: a NUL character in {what!r} cannot be sent (ValueError)")
    match = _BIND.search(sql)
    if match is not None:
        raise FilterError(
            f"{_UNSAFE}: SQLAlchemy reads {match.group(0)!r} in {what!r} as a bind parameter "
            f"(sqlalchemy.exc.StatementError: A value is required for bind parameter "
            f"'{match.group(1)}')"
        )
    if "\\:" in sql:
        raise FilterError(f"{_UNSAFE}: SQLAlchemy turns '\\:' in {what!r} into ':'")


def _items(filter_: MetadataFilter) -> list[str]:
    """``", ".join(f"'{e}'" for e in value)``'s items (a str value iterates its characters;
    a number is not iterable: TypeError, as in the source)."""
    value: Any = filter_.value
    items = [f"{e}" for e in value]
    for item in items:
        _pasted(f"'{item}'", item)
    return items


def _leaf(filter_: MetadataFilter) -> Predicate:
    """``PGVectorStore._build_filter_clause``."""
    key, op, value = filter_.key, filter_.operator, filter_.value
    _pasted(f"'{key}'", key)
    if op in (FilterOperator.IN, FilterOperator.NIN):
        items = _items(filter_)
        if not items:
            raise FilterError(f"{_UNSAFE}: an empty {op.value} list is 'IN ()' (syntax error)")
        return TextInList(key, items, negate=op == FilterOperator.NIN, column=_COLUMN)
    if op in (FilterOperator.ANY, FilterOperator.ALL):
        items = _items(filter_)
        if not items:
            raise FilterError(
                f"{_UNSAFE}: an empty {op.value} list is 'array[]' "
                "(cannot determine type of empty array)"
            )
        return JsonbHasKeys(key, items, every=op == FilterOperator.ALL, column=_COLUMN)
    if op == FilterOperator.CONTAINS:
        literal = f'["{value}"]'
        _pasted(f"'{literal}'", literal)
        try:
            element = json.loads(literal)
        except ValueError:
            raise FilterError(
                f"{_UNSAFE}: '{literal}' is no JSON array of one string "
                "(sqlalchemy.exc.DataError: invalid input syntax for type json)"
            ) from None
        if not (isinstance(element, list) and len(element) == 1 and isinstance(element[0], str)):
            raise FilterError(f"{_UNSAFE}: '{literal}' is not one string in an array")
        return JsonbContainsText(key, element[0], column=_COLUMN)
    if op in (FilterOperator.TEXT_MATCH, FilterOperator.TEXT_MATCH_INSENSITIVE):
        pattern = f"%{value}%"
        _pasted(f"'{pattern}'", pattern)
        return TextPattern(
            key,
            pattern,
            insensitive=op == FilterOperator.TEXT_MATCH_INSENSITIVE,
            column=_COLUMN,
        )
    if op == FilterOperator.IS_EMPTY:
        return TextIsNull(key)
    comparison = _COMPARISONS.get(op, "=")  # the source falls back to "=" for the unknown
    try:
        number = float(value)  # type: ignore[arg-type]  # a list raises TypeError, as there
    except ValueError:
        text = f"{value}"
        _pasted(f"'{text}'", text)
        return TextCompare(key, comparison, text, _COLUMN)
    if math.isnan(number) or math.isinf(number):
        raise FilterError(
            f"{_UNSAFE}: the number {value!r} is written {number} "
            f'(sqlalchemy.exc.ProgrammingError: column "{str(number).lstrip("-")}" does not '
            "exist)"
        )
    return FloatCast(key, comparison, number, _COLUMN)


def _group(filters: MetadataFilters) -> list[Predicate]:
    """``PGVectorStore._recursively_apply_filters``: the group's clauses, its condition checked
    first; a group of one clause is that clause, an empty group adds nothing."""
    if filters.condition not in _CONDITIONS:
        raise ValueError(
            f"Invalid condition: {filters.condition}. Must be one of {list(_CONDITIONS)}"
        )
    clauses: list[Predicate] = []
    for filter_ in filters.filters:
        if isinstance(filter_, MetadataFilters):
            children = _group(filter_)
            if not children:
                continue
            if len(children) == 1:
                clauses.append(children[0])
            elif filter_.condition == filters.condition:
                clauses.extend(children)  # PostgreSQL flattens AND in AND, OR in OR
            else:
                clauses.append(_combine(filter_.condition, children))
        else:
            clauses.append(_leaf(filter_))
    return clauses


def _combine(condition: Any, clauses: list[Predicate]) -> Predicate:
    return TriAll(clauses) if condition == "and" else TriAny(clauses)


def pgvector_where(filters: MetadataFilters) -> dict[str, Any] | None:
    """The pgvector row's translator: the WHERE clause PostgreSQL evaluates, as a core clause
    (``{"$and": [predicate]}``); None when nothing is left to filter on."""
    clauses = _group(filters)
    if not clauses:
        return None
    if len(clauses) > 1 and filters.condition != "and":
        clauses = [_combine(filters.condition, clauses)]
    elif len(clauses) == 1 and isinstance(clauses[0], TriAll):
        clauses = list(clauses[0].children)  # a lone AND group is the top level
    return {"$and": [QualList(clauses)]}


def pgvector_where_with_ids(where: Where, ids: list[str]) -> Where:
    """``get_nodes``/``delete_nodes`` with node ids and filters: the store adds
    ``node_id IN (ids)`` to the same WHERE, and PostgreSQL orders it with the filter's own
    conditions (a cast error on a row outside the ids depends on that order)."""
    assert isinstance(where, Mapping)  # what pgvector_where returned
    (clause,) = where["$and"]
    assert isinstance(clause, QualList)
    return {"$and": [clause.with_ids(ids)]}
