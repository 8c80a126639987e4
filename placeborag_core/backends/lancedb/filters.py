"""LanceDB's SQL ``where`` as a core predicate, and the core's dict filters under the lancedb
profile.

:func:`read_lancedb_where` is the profile's native filter reader: a filter string is tokenized
and parsed when it is read (so a syntax error raises at once, with lance's message), then planned
against the table's columns the first time it meets a partition (types come from the table's
schema: ``Partition.schema``, fixed by its first write), and evaluated with SQL's three-valued
logic. A ``PayloadLayout`` says how the table holds a record: the id column, the text column, the
metadata as columns of their own or as one struct column (``metadata.<key>``).

Dict filters (``where={"color": "red"}``) have no LanceDB counterpart; under this profile they are
translated to the SQL a user would write (``color = 'red'``) and evaluated the same way, so a
missing key (NULL) never matches ``$ne`` or ``$nin``, and a value of the wrong type raises as the
engine raises.
"""

from __future__ import annotations

import math
import re
import weakref
from collections.abc import Mapping, Sequence
from typing import Any

from placeborag_core.backends.lancedb.arrow import UTF8, ArrowType, infer_column, struct_of
from placeborag_core.backends.lancedb.columns import MetadataSchema
from placeborag_core.backends.lancedb.sql.lexer import SqlTokenError, rendered, tokenize
from placeborag_core.backends.lancedb.sql.parser import SqlParseError, parse
from placeborag_core.backends.lancedb.sql.planner import Plan, Table, TableColumn, plan
from placeborag_core.backends.profile import NativeWhere, PayloadLayout
from placeborag_core.errors import FilterError
from placeborag_core.filters.compiler import read_core_filter
from placeborag_core.filters.dialect import FilterDialect
from placeborag_core.filters.predicates import (
    AllOf,
    AnyOf,
    BoolMask,
    CallablePredicate,
    ColumnView,
    Negation,
    Predicate,
    RecordPredicate,
)
from placeborag_core.limits import MAX_FILTER_DEPTH
from placeborag_core.messages import shown

__all__ = [
    "DIALECT",
    "ENGINE_LAYOUT",
    "SqlFilter",
    "read_lancedb_delete_where",
    "read_lancedb_plain_where",
    "read_lancedb_where",
    "where_to_sql",
]

ENGINE_LAYOUT = PayloadLayout(table_columns=("id", "vector", "{metadata}"))
"""A table written directly: ``id``, ``vector``, then one column per metadata key."""

VECTOR = ArrowType("vector")


class SqlFilter(RecordPredicate):
    """A parsed LanceDB filter, planned per table schema and evaluated a batch of rows at a
    time, or for every row of a partition from its column index (``Plan.mask``)."""

    def __init__(
        self, sql: str, layout: PayloadLayout = ENGINE_LAYOUT, *, statement: str = "vector"
    ) -> None:
        if not isinstance(sql, str):
            raise FilterError(f"a LanceDB filter is a SQL string, got {shown(sql)}")
        try:
            tokens = tokenize(sql)
        except SqlTokenError as error:
            raise FilterError(
                f"Invalid input, Invalid input, invalid SQL predicate: {error}"
            ) from None
        self.sql = sql
        self.text = rendered(tokens[:-1])
        try:
            self.node = parse(tokens)
        except SqlParseError as error:
            raise FilterError(
                f"Invalid input, Error parsing statement: SELECT 1 FROM t WHERE {self.text} "
                f"(sql parser error: {error})"
            ) from None
        self.layout = layout
        self.statement = statement
        self._plans: dict[Any, Plan] = {}

    def __repr__(self) -> str:
        return f"SqlFilter({self.sql!r})"

    def plan_for(self, view: ColumnView) -> Plan:
        """The filter planned against the table ``view`` belongs to (raises lance's error)."""
        schema = getattr(view, "schema", None)
        if not isinstance(schema, MetadataSchema):
            schema = _inferred_schema(view)
        found = self._plans.get(schema)
        if found is None:
            table = table_for(self.layout, schema, statement=self.statement)
            found = self._plans[schema] = plan(self.node, table, self.text)
        return found

    def row_matches(self, view: ColumnView, row: int) -> bool:
        """One row, as a post-filter sees the search's results."""
        return self.plan_for(view).passing(view, [row], prefilter=False)[0]

    def rows_matching(self, view: ColumnView, rows: Sequence[int]) -> list[bool]:
        """A search's results, filtered as one batch (LanceDB's post-filter)."""
        return self.plan_for(view).passing(view, list(rows), prefilter=False)

    def mask(self, view: ColumnView) -> BoolMask:
        """Every row, as a pre-filter scans the table."""
        return self.plan_for(view).mask(view)


_INFERRED: weakref.WeakKeyDictionary[Any, tuple[int, MetadataSchema]] = weakref.WeakKeyDictionary()
"""Each partition's inferred schema, with the ``version`` it was inferred at."""


def _inferred_schema(view: ColumnView) -> MetadataSchema:
    """For a store without typed columns: every key of the live rows, typed as a struct's
    fields would be (inferred again only after a write)."""
    cached = _INFERRED.get(view)
    if cached is not None and cached[0] == view.version:
        return cached[1]
    metas = [view.metadata_at(row) for row in view.live_rows().tolist()]
    keys: dict[str, None] = {}
    for meta in metas:
        keys.update(dict.fromkeys(meta))
    schema = MetadataSchema(tuple((k, infer_column([m.get(k) for m in metas])) for k in keys))
    _INFERRED[view] = (view.version, schema)
    return schema


def table_for(layout: PayloadLayout, schema: MetadataSchema, *, statement: str = "vector") -> Table:
    """The table a layout describes, with the metadata typed by ``schema`` (``statement``: what
    the filter belongs to, see ``Table``)."""
    names = layout.table_columns or (layout.id_key, "vector", "{metadata}")
    columns: list[TableColumn] = []
    for name in names:
        if name == "{metadata}":
            prefix = layout.metadata_prefix
            if prefix:
                struct = struct_of(schema.fields)
                columns.append(TableColumn(prefix.rstrip("."), struct, "struct"))
            else:
                columns.extend(TableColumn(k, t, "key", k) for k, t in schema.fields)
        elif name == layout.id_key:
            columns.append(TableColumn(name, UTF8, "id"))
        elif name == layout.text_key:
            columns.append(TableColumn(name, UTF8, "text"))
        elif name == "vector":
            columns.append(TableColumn(name, VECTOR, "vector"))
        else:
            columns.append(TableColumn(name, UTF8, "key", name))
    return Table(tuple(columns), statement=statement)


def read_lancedb_where(flt: Any, payload: PayloadLayout) -> NativeWhere:
    """A LanceDB filter string (what ``table.search(...).where(...)`` takes) in core terms.
    Syntax errors raise here; type errors when the filter first meets the table."""
    return NativeWhere(where=SqlFilter(flt, payload))


def read_lancedb_plain_where(flt: Any, payload: PayloadLayout) -> NativeWhere:
    """A filter of a search without a vector (``table.search().where(...)``), whose errors list
    no ``_distance`` column."""
    return NativeWhere(where=SqlFilter(flt, payload, statement="plain"))


def read_lancedb_delete_where(flt: Any, payload: PayloadLayout) -> NativeWhere:
    """The predicate of ``table.delete(...)``, whose unknown columns fail with DataFusion's own
    message (a case hint or a near name) rather than the list of a search's fields."""
    return NativeWhere(where=SqlFilter(flt, payload, statement="delete"))


# --------------------------------------------------------------------------- dict filters

_PLAIN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_RESERVED = frozenset({"AND", "OR", "NOT", "NULL", "TRUE", "FALSE", "IN", "IS", "LIKE", "ILIKE",
                       "BETWEEN", "ESCAPE", "CASE", "CAST", "EXISTS", "DISTINCT"})  # fmt: skip
_COMPARE = {"$eq": "=", "$ne": "<>", "$gt": ">", "$gte": ">=", "$lt": "<", "$lte": "<="}


def _identifier(key: str) -> str:
    if _PLAIN.fullmatch(key) and key.upper() not in _RESERVED:
        return key
    return "`" + key + "`"


def _literal(value: Any, path: str) -> str:
    if value is None:
        return "NULL"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise FilterError(f"invalid filter at {path}: {value!r} has no SQL literal")
        return repr(value)
    if isinstance(value, str):
        return "'" + value.replace("'", "''") + "'"
    raise FilterError(
        f"invalid filter at {path}: a value must be a str, int, float, bool or None, got "
        f"{shown(value)}"
    )


def _fail(path: str, problem: str) -> FilterError:
    return FilterError(
        f"invalid filter at {path}: {problem}. Allowed field operators (lancedb profile): "
        f"{', '.join(DIALECT_FIELD_OPERATORS)}; logical operators: $and, $or, $not."
    )


def where_to_sql(where: Mapping[str, Any], path: str = "where", depth: int = 0) -> str:
    """The SQL a dict filter means under the lancedb profile (``{"n": {"$gt": 2}}`` is
    ``n > 2``); raises FilterError for what it cannot mean."""
    if depth > MAX_FILTER_DEPTH:
        raise FilterError(f"{path} is nested more than {MAX_FILTER_DEPTH} levels deep")
    if not isinstance(where, Mapping) or not where:
        raise _fail(path, f"expected a non-empty mapping, got {shown(where)}")
    parts = []
    for key, value in where.items():
        here = f"{path}[{key!r}]"
        if not isinstance(key, str) or not key:
            raise _fail(here, f"a key must be a non-empty str, got {shown(key)}")
        if key in ("$and", "$or"):
            if not isinstance(value, list | tuple) or not value:
                raise _fail(here, f"{key} takes a non-empty list of clauses")
            joined = f" {key[1:].upper()} ".join(
                f"({where_to_sql(item, f'{here}[{i}]', depth + 1)})" for i, item in enumerate(value)
            )
            parts.append(joined)
        elif key == "$not":
            parts.append(f"NOT ({where_to_sql(value, here, depth + 1)})")
        elif key.startswith("$"):
            raise _fail(here, f"unknown logical operator {key!r}")
        else:
            parts.append(_field_sql(key, value, here))
    return " AND ".join(f"({p})" for p in parts) if len(parts) > 1 else parts[0]


DIALECT_FIELD_OPERATORS = (
    "$eq", "$ne", "$gt", "$gte", "$lt", "$lte", "$in", "$nin", "$contains", "$text_match",
    "$text_match_insensitive", "$exists",
)  # fmt: skip


def _field_sql(key: str, value: Any, path: str) -> str:
    column = _identifier(key)
    if not isinstance(value, Mapping):
        if value is None:
            raise _fail(path, "$eq takes a value; use $exists for absence (NULL)")
        return f"{column} = {_literal(value, path)}"
    if not value:
        raise _fail(path, "an operator mapping must not be empty")
    parts = []
    for op, operand in value.items():
        here = f"{path}[{op!r}]"
        if op in _COMPARE:
            if operand is None or isinstance(operand, list | tuple | Mapping):
                raise _fail(here, f"{op} takes a str, int, float or bool, got {shown(operand)}")
            parts.append(f"{column} {_COMPARE[op]} {_literal(operand, here)}")
        elif op in ("$in", "$nin"):
            if not isinstance(operand, list | tuple) or not operand:
                raise _fail(here, f"{op} takes a non-empty list, got {shown(operand)}")
            items = ", ".join(_literal(item, here) for item in operand)
            parts.append(f"{column} {'NOT IN' if op == '$nin' else 'IN'} ({items})")
        elif op == "$contains":
            parts.append(f"array_has({column}, {_literal(operand, here)})")
        elif op in ("$text_match", "$text_match_insensitive"):
            if not isinstance(operand, str):
                raise _fail(here, f"{op} takes a str, got {shown(operand)}")
            escaped = re.sub(r"([\\%_])", r"\\\1", operand)
            word = "ILIKE" if op == "$text_match_insensitive" else "LIKE"
            parts.append(f"{column} {word} {_literal('%' + escaped + '%', here)}")
        elif op == "$exists":
            if not isinstance(operand, bool):
                raise _fail(here, f"$exists takes true or false, got {shown(operand)}")
            parts.append(f"{column} IS {'NOT ' if operand else ''}NULL")
        else:
            raise _fail(here, f"unknown operator {op!r}")
    return " AND ".join(f"({p})" for p in parts) if len(parts) > 1 else parts[0]


def compile_where(where: Mapping[str, Any]) -> Predicate:
    """A dict filter under the lancedb profile: one SQL filter, or (when callables or compiled
    predicates stand for clauses) the core's combinators over the translated parts."""
    if _pure(where):
        return SqlFilter(where_to_sql(where))
    parts: list[Predicate] = []
    for key, value in where.items():
        if key in ("$and", "$or") and isinstance(value, list | tuple):
            children = [_clause(item) for item in value]
            parts.append(AllOf(children) if key == "$and" else AnyOf(children))
        elif key == "$not":
            parts.append(Negation(_clause(value)))
        else:
            parts.append(SqlFilter(where_to_sql({key: value})))
    return parts[0] if len(parts) == 1 else AllOf(parts)


def read_where(where: Any, dialect: FilterDialect) -> Predicate:
    """The lancedb dialect's ``reader``: a dict filter as :func:`compile_where`; anything else
    (an already compiled predicate) through the core compiler."""
    if isinstance(where, Mapping):
        return compile_where(where)
    return read_core_filter(where, dialect)


def _clause(item: Any) -> Predicate:
    if isinstance(item, Predicate):
        return item
    if callable(item) and not isinstance(item, Mapping):
        return CallablePredicate(item)
    if not isinstance(item, Mapping):
        raise _fail("where", f"expected a mapping, got {shown(item)}")
    return compile_where(item)


def _pure(where: Any, depth: int = 0) -> bool:
    if depth > MAX_FILTER_DEPTH:
        return True  # where_to_sql raises the depth error
    if isinstance(where, Mapping):
        return all(_pure(value, depth + 1) for value in where.values())
    if isinstance(where, list | tuple):
        return all(_pure(item, depth + 1) for item in where)
    return not isinstance(where, Predicate) and not callable(where)


DIALECT = FilterDialect(
    name="lancedb",
    field_ops=frozenset(DIALECT_FIELD_OPERATORS),
    logic_ops=frozenset({"$and", "$or", "$not"}),
    reader=read_where,
)
"""Dict filters under the lancedb profile: translated to SQL (:func:`where_to_sql`)."""
