"""langchain-postgres's `filter=` dict dialect (PGVector with `use_jsonb=True`), in core terms.

`PGVector._create_filter_clause` turns the dict into SQL on the JSONB `cmetadata` column: the
comparison operators (`$eq $ne $lt $lte $gt $gte`, and a bare value) become
`jsonb_path_match(cmetadata, '$.key <op> $value')`, `$between` two of them, `$in`/`$nin` a text
comparison `cmetadata->>'key' [NOT] IN (str(v), ...)`, `$like`/`$ilike` `cmetadata->>'key'
[I]LIKE pattern`, `$exists` `jsonb_exists(cmetadata, key)`, and `$and $or $not` SQL's
three-valued `AND OR NOT`. Each becomes the core pgvector module's predicate for that SQL
(`placeborag_core.backends.pgvector.jsonb`), so `$eq` is numeric (1 == 1.0) while `$in` compares
text (1 matches "1", not 1.0), JSON null matches `$ne`, a missing key matches neither `$ne` nor
`$nin`. Malformed filters raise what langchain-postgres 0.0.19 raises, with its messages.
Facts: `docs/integrations/new_integrations.md#langchain-langchain-postgres-pgvector-lc_pgvectorpy`.
"""

from __future__ import annotations

from typing import Any

from placeborag_core.backends import Profile
from placeborag_core.backends.pgvector import (
    KeyExists,
    PathCompare,
    TextIn,
    TextLike,
    TriAll,
    TriAny,
    TriNot,
)
from placeborag_core.filters import Predicate
from placeborag_langchain.filters import TranslatedFilter

__all__ = ["PGVECTOR_JSONB", "SUPPORTED_OPERATORS", "PgvectorJsonbFilter"]

COMPARISONS_TO_NATIVE = {
    "$eq": "==",
    "$ne": "!=",
    "$lt": "<",
    "$lte": "<=",
    "$gt": ">",
    "$gte": ">=",
}
SPECIAL_CASED_OPERATORS = {"$in", "$nin", "$between", "$exists"}
TEXT_OPERATORS = {"$like", "$ilike"}
LOGICAL_OPERATORS = {"$and", "$or", "$not"}
# Built as langchain_postgres.vectorstores builds it, so that its repr (in the "Invalid
# operator" message) lists the operators in the same order in this process.
SUPPORTED_OPERATORS = (
    set(COMPARISONS_TO_NATIVE)
    .union(TEXT_OPERATORS)
    .union(LOGICAL_OPERATORS)
    .union(SPECIAL_CASED_OPERATORS)
)


def _field(field: Any, value: Any) -> Predicate:
    """`PGVector._handle_field_filter`."""
    if not isinstance(field, str):
        raise ValueError(f"field should be a string but got: {type(field)} with value: {field}")
    if field.startswith("$"):
        raise ValueError(f"Invalid filter condition. Expected a field but got an operator: {field}")
    if not field.isidentifier():
        raise ValueError(f"Invalid field name: {field}. Expected a valid identifier.")
    if isinstance(value, dict):
        if len(value) != 1:
            raise ValueError(
                "Invalid filter condition. Expected a value which "
                "is a dictionary with a single key that corresponds to an operator "
                f"but got a dictionary with {len(value)} keys. The first few "
                f"keys are: {list(value.keys())[:3]}"
            )
        operator, operand = next(iter(value.items()))
        if operator not in SUPPORTED_OPERATORS:
            raise ValueError(f"Invalid operator: {operator}. Expected one of {SUPPORTED_OPERATORS}")
    else:
        operator, operand = "$eq", value
    if operator in COMPARISONS_TO_NATIVE:
        native: Any = COMPARISONS_TO_NATIVE[operator]
        return PathCompare(field, native, operand)
    if operator == "$between":
        low, high = operand
        return TriAll([PathCompare(field, ">=", low), PathCompare(field, "<=", high)])
    if operator in ("$in", "$nin"):
        for item in operand:
            if not isinstance(item, str | int | float) or isinstance(item, bool):
                raise NotImplementedError(f"Unsupported type: {type(item)} for value: {item}")
        return TextIn(field, [str(item) for item in operand], negate=operator == "$nin")
    if operator in ("$like", "$ilike"):
        if not isinstance(operand, str):
            raise NotImplementedError(f"{operator} takes a str pattern, got {operand!r}")
        return TextLike(field, operand, insensitive=operator == "$ilike")
    if operator == "$exists":
        if not isinstance(operand, bool):
            raise ValueError(f"Expected a boolean value for $exists operator, but got: {operand}")
        return KeyExists(field) if operand else TriNot(KeyExists(field))
    raise NotImplementedError  # $and/$or/$not given as a field operator


def _clauses(key: str, value: Any) -> list[Predicate]:
    if not isinstance(value, list):
        raise ValueError(f"Expected a list, but got {type(value)} for value: {value}")
    parts = [_clause(item) for item in value]
    if not parts:
        raise ValueError(
            "Invalid filter condition. Expected a dictionary but got an empty dictionary"
        )
    return parts


def _clause(filters: Any) -> Predicate:
    """`PGVector._create_filter_clause`."""
    if not isinstance(filters, dict):
        raise ValueError(f"Invalid type: Expected a dictionary but got type: {type(filters)}")
    if not filters:
        raise ValueError("Got an empty dictionary for filters.")
    if len(filters) > 1:
        for key in filters:
            if key.startswith("$"):
                raise ValueError(f"Invalid filter condition. Expected a field but got: {key}")
        return TriAll([_field(k, v) for k, v in filters.items()])
    key, value = next(iter(filters.items()))
    if not key.startswith("$"):
        return _field(key, value)
    logic = key.lower()
    if logic not in ("$and", "$or", "$not"):
        raise ValueError(f"Invalid filter condition. Expected $and, $or or $not but got: {key}")
    if logic in ("$and", "$or"):
        parts = _clauses(key, value)
        if len(parts) == 1:
            return parts[0]
        return TriAll(parts) if logic == "$and" else TriAny(parts)
    if isinstance(value, list):
        return TriAll([TriNot(_clause(item)) for item in value])
    if isinstance(value, dict):
        return TriNot(_clause(value))
    raise ValueError(
        f"Invalid filter condition. Expected a dictionary or a list but got: {type(value)}"
    )


class PgvectorJsonbFilter:
    """`filter=` as langchain-postgres's PGVector reads it (a falsy filter is no filter)."""

    def read(self, flt: Any, profile: Profile) -> TranslatedFilter:
        """`flt` as a core predicate; the integration's errors for a malformed one."""
        if not flt:
            return TranslatedFilter()
        return TranslatedFilter(where=_clause(flt))


PGVECTOR_JSONB = PgvectorJsonbFilter()
