"""Translate LlamaIndex ``MetadataFilters`` into the core ``where=`` dialect, one way per profile.

Each translator mirrors what the real LlamaIndex integration of its profile builds, so the filter
the core evaluates is the one the real engine would have received, and a filter the integration
refuses is refused here with the same exception type and message:

- ``default`` (no real integration): every ``FilterOperator``, AND/OR/NOT and nesting, with the
  core's strict semantics. NOT means "none of the sub-filters match", as everywhere in LlamaIndex.
  An empty nested group has no agreed meaning (Chroma rejects it, Qdrant drops it), so it raises.
- ``chroma`` (``ChromaVectorStore._to_chroma_filter``): ``== != > >= < <= in nin``, AND and OR;
  a lone filter is emitted bare; anything else raises ``ValueError`` "Filter operator ... not
  supported" / "Filter condition ... not supported", even when nested (``li-chroma-filters``,
  ``li-chroma-filter-unsupported``, ``li-chroma-filter-not``).
- ``milvus`` (``MilvusVectorStore``'s ``_to_milvus_filter``): the same Milvus expression string
  the integration builds, text for text, which the core's milvus profile then reads with the
  engine's rules: ``str()`` of the values (single-quoted strings, Python lists), TEXT_MATCH as a
  ``like 'value%'`` prefix, IS_EMPTY as ``array_length(key) == 0`` (true for every record without
  a non-empty list), filters whose value is None skipped, groups in parentheses, and the
  condition's *value* between the parts: ``"not"`` there makes the engine ignore everything
  after the first part (``li-milvus-filter-not-ignored``), and ``condition=None`` raises the
  integration's ``AttributeError``. TEXT_MATCH_INSENSITIVE raises its ``ValueError``.
- ``qdrant`` (``QdrantVectorStore._build_subfilter``): everything but ANY, ALL and CONTAINS
  (``NotImplementedError``, ``li-qdrant-filter-unsupported``); a float ``==`` is a closed range;
  ``in``/``nin`` split a string operand on commas; both text matches are the same case-insensitive
  word match, on a str value or any str element of a list (``li-qdrant-filter-text-match-list``);
  a range with value None has no bound and matches every number (``li-qdrant-filter-range-none``);
  NOT is must-not (none match); empty nested groups are dropped (``li-qdrant-filters``,
  ``li-qdrant-filter-nested``). Values are validated with the qdrant-client model shapes, so a
  float ``!=`` raises pydantic's ``ValidationError`` as the integration does
  (``li-qdrant-filter-ne-float``).

The fact IDs are those of ``docs/integrations/llamaindex.md``. Not reproduced: Qdrant silently
drops the whole filter when ``condition=None`` (``li-qdrant-filters``); every profile treats
``None`` as AND, like Chroma and ``SimpleVectorStore`` do.

No filter is evaluated here: the core does that, with the profile's own semantics (for example
Chroma's ``!=`` matching a record that lacks the key).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from llama_index.core.vector_stores.types import (
    FilterCondition,
    FilterOperator,
    MetadataFilter,
    MetadataFilters,
)

from placeborag_core import FilterError
from placeborag_llamaindex import _qdrant_values as qv

__all__ = [
    "SqlFilters",
    "Translator",
    "Where",
    "chroma_where",
    "default_where",
    "lancedb_sql",
    "milvus_where",
    "no_filters",
    "qdrant_where",
]

Where = dict[str, Any]
Translator = Callable[[MetadataFilters], "Where | str | None"]
SqlFilters = Callable[[MetadataFilters, "list[str] | None"], str]
"""Builds the SQL text an integration sends for ``MetadataFilters`` (given the metadata keys
of the first node the store added)."""

_CORE_OPERATORS: dict[FilterOperator, str] = {
    FilterOperator.EQ: "$eq",
    FilterOperator.NE: "$ne",
    FilterOperator.GT: "$gt",
    FilterOperator.GTE: "$gte",
    FilterOperator.LT: "$lt",
    FilterOperator.LTE: "$lte",
    FilterOperator.IN: "$in",
    FilterOperator.NIN: "$nin",
    FilterOperator.ANY: "$any",
    FilterOperator.ALL: "$all",
    FilterOperator.CONTAINS: "$contains",
    FilterOperator.TEXT_MATCH: "$text_match",
    FilterOperator.TEXT_MATCH_INSENSITIVE: "$text_match_insensitive",
}


def _combine(condition: FilterCondition | None, clauses: Sequence[Where]) -> Where:
    """AND/OR/NOT over clauses; NOT is "none of them", LlamaIndex's meaning everywhere."""
    if condition is None or condition == FilterCondition.AND:
        return clauses[0] if len(clauses) == 1 else {"$and": list(clauses)}
    if condition == FilterCondition.OR:
        return clauses[0] if len(clauses) == 1 else {"$or": list(clauses)}
    if condition == FilterCondition.NOT:
        inner = clauses[0] if len(clauses) == 1 else {"$or": list(clauses)}
        return {"$not": inner}
    raise FilterError(f"unknown filter condition {condition!r}; allowed: and, or, not")


# --------------------------------------------------------------------------------- default


def _default_leaf(node: MetadataFilter, path: str) -> Where:
    if node.operator == FilterOperator.IS_EMPTY:
        return {node.key: {"$is_empty": True}}
    op = _CORE_OPERATORS.get(node.operator)
    if op is None:
        allowed = ", ".join(o.name for o in FilterOperator)
        raise FilterError(f"{path}: unknown operator {node.operator!r}; allowed: {allowed}")
    return {node.key: {op: node.value}}


def _default_group(filters: MetadataFilters, path: str) -> Where:
    clauses: list[Where] = []
    for index, node in enumerate(filters.filters):
        child = f"{path}.filters[{index}]"
        if isinstance(node, MetadataFilters):
            if not node.filters:
                raise FilterError(
                    f"{child}: empty nested MetadataFilters; an empty group has no agreed "
                    "meaning (Chroma rejects it, Qdrant drops it): remove it"
                )
            clauses.append(_default_group(node, child))
        else:
            clauses.append(_default_leaf(node, child))
    return _combine(filters.condition, clauses)


def default_where(filters: MetadataFilters) -> Where | None:
    """The default profile: every operator and condition; ``None`` for an empty filter list."""
    if not filters.filters:
        return None
    return _default_group(filters, "filters")


# ---------------------------------------------------------------------------------- chroma

_CHROMA_OPERATORS: dict[str, str] = {
    "!=": "$ne",
    "==": "$eq",
    ">": "$gt",
    "<": "$lt",
    ">=": "$gte",
    "<=": "$lte",
    "in": "$in",
    "nin": "$nin",
}


def _chroma_group(filters: MetadataFilters) -> Where:
    # Same order of checks as llama_index.vector_stores.chroma.base._to_chroma_filter: the
    # condition first, then each filter in turn; a lone clause is bare; no clause is {}.
    condition = filters.condition or "and"
    if condition == "and":
        logic = "$and"
    elif condition == "or":
        logic = "$or"
    else:
        raise ValueError(f"Filter condition {condition} not supported")
    clauses: list[Where] = []
    for node in filters.filters:
        if isinstance(node, MetadataFilters):
            clauses.append(_chroma_group(node))
            continue
        op = _CHROMA_OPERATORS.get(node.operator.value)
        if op is None:
            raise ValueError(f"Filter operator {node.operator} not supported")
        clauses.append({node.key: {op: node.value}})
    if len(clauses) == 1:
        return clauses[0]
    if clauses:
        return {logic: clauses}
    return {}


def chroma_where(filters: MetadataFilters) -> Where | None:
    """The chroma profile: ``ChromaVectorStore``'s translation, rejections and all."""
    where = _chroma_group(filters)
    return where or None  # the integration passes no where at all for {}


# ---------------------------------------------------------------------------------- qdrant

_QDRANT_UNSUPPORTED = (
    "is not supported by Qdrant vector store. Supported operators: EQ, NE, GT, GTE, LT, LTE, "
    "IN, NIN, TEXT_MATCH, TEXT_MATCH_INSENSITIVE, IS_EMPTY"
)
_RANGE_OPERATORS = {
    FilterOperator.LT: "lt",
    FilterOperator.GT: "gt",
    FilterOperator.GTE: "gte",
    FilterOperator.LTE: "lte",
}


def _split_values(value: Any) -> Any:
    return value if isinstance(value, list) else str(value).split(",")


def _qdrant_range(key: str, bound: str, number: float | None) -> Where:
    """``Range(<bound>=number)``; without a number (a filter value of None) the range has no
    bound and matches every numeric value, bools and strings not (``li-qdrant-filter-range-none``,
    ``qdrant-filter-range-unbounded``): a bound of minus infinity says that in core terms."""
    if number is None:
        return {key: {"$gte": -math.inf}}
    return {key: {f"${bound}": number}}


def _qdrant_leaf(node: MetadataFilter) -> Where:
    key, value, operator = node.key, node.value, node.operator
    if not operator or operator == FilterOperator.EQ:
        if isinstance(value, float):
            return {key: {"$gte": value, "$lte": value}}
        return {key: {"$eq": qv.MatchValue.model_validate({"value": value}).value}}
    if operator in _RANGE_OPERATORS:
        bound = _RANGE_OPERATORS[operator]
        return _qdrant_range(key, bound, getattr(qv.Range.model_validate({bound: value}), bound))
    if operator in (FilterOperator.TEXT_MATCH, FilterOperator.TEXT_MATCH_INSENSITIVE):
        # a word match on a str value or any str element of a list, as the core's qdrant
        # dialect reads it (li-qdrant-filter-text-match-list, qdrant-filter-text-array)
        return {key: {"$text_match": qv.MatchText.model_validate({"text": value}).text}}
    if operator == FilterOperator.NE:
        return {key: {"$nin": qv.validated_except([value])}}
    if operator == FilterOperator.IN:
        return {key: {"$in": list(qv.MatchAny.model_validate({"any": _split_values(value)}).any)}}
    if operator == FilterOperator.NIN:
        return {key: {"$nin": qv.validated_except(_split_values(value))}}
    if operator == FilterOperator.IS_EMPTY:
        return {key: {"$is_empty": True}}
    raise NotImplementedError(f"Filter operator {operator} {_QDRANT_UNSUPPORTED}")


def _qdrant_group(filters: MetadataFilters) -> Where | None:
    """One Qdrant ``Filter``; ``None`` when it has no condition (an empty filter matches all)."""
    clauses: list[Where] = []
    for node in filters.filters:
        if isinstance(node, MetadataFilters):
            if node.filters:  # the integration skips empty nested groups
                child = _qdrant_group(node)
                if child is not None:
                    clauses.append(child)
            continue
        clauses.append(_qdrant_leaf(node))
    if not clauses:
        return None
    return _combine(filters.condition, clauses)


def qdrant_where(filters: MetadataFilters) -> Where | None:
    """The qdrant profile: ``QdrantVectorStore``'s translation, rejections and all."""
    if not filters.filters:
        return None
    return _qdrant_group(filters)


# --------------------------------------------------------------------------------- milvus


def _milvus_value(value: Any, is_text_match: bool = False) -> str | None:
    # llama_index/vector_stores/milvus/utils.py parse_filter_value, verbatim in effect.
    if value is None:
        return None
    if is_text_match:
        return f"'{value!s}%'"
    if isinstance(value, str):
        escaped = value.replace("'", "\\'")
        return f"'{escaped!s}'"
    return str(value)


_MILVUS_FUNCTIONS = {
    FilterOperator.CONTAINS: "array_contains",
    FilterOperator.ANY: "array_contains_any",
    FilterOperator.ALL: "array_contains_all",
}
_MILVUS_INFIX = (
    FilterOperator.EQ,
    FilterOperator.GT,
    FilterOperator.LT,
    FilterOperator.NE,
    FilterOperator.GTE,
    FilterOperator.LTE,
    FilterOperator.IN,
)


def _milvus_parts(filters: MetadataFilters) -> tuple[list[str], str]:
    # parse_standard_filters: the parts, and the parts joined by the condition's value.
    parts: list[str] = []
    for node in filters.filters:
        if isinstance(node, MetadataFilters):
            parts.append(f"({_milvus_parts(node)[1]})")
            continue
        value = _milvus_value(node.value)
        if value is None and node.operator != FilterOperator.IS_EMPTY:
            continue
        key = str(node.key)
        if node.operator == FilterOperator.NIN:
            parts.append(f"{key} not in {value}")
        elif node.operator in _MILVUS_FUNCTIONS:
            parts.append(f"{_MILVUS_FUNCTIONS[node.operator]}({key}, {value})")
        elif node.operator == FilterOperator.TEXT_MATCH:
            parts.append(f"{key} like {_milvus_value(node.value, True)}")
        elif node.operator == FilterOperator.IS_EMPTY:
            parts.append(f"array_length({key}) == 0")
        elif node.operator in _MILVUS_INFIX:
            parts.append(f"{key} {node.operator.value} {value}")
        else:
            raise ValueError(
                f'Operator {node.operator} ("{node.operator.value}") is not supported by Milvus.'
            )
    condition: Any = filters.condition  # None raises AttributeError, as the integration does
    return parts, f" {condition.value} ".join(parts)


def milvus_where(filters: MetadataFilters) -> str | None:
    """The milvus profile: ``MilvusVectorStore``'s expression string (None: no filter)."""
    parts, joined = _milvus_parts(filters)
    if not parts:
        return None
    return f"({joined})" if len(parts) > 1 else joined


# --------------------------------------------------------------------------------- faiss


def no_filters(filters: MetadataFilters) -> Where | None:
    """``FaissVectorStore.query``: any ``filters`` raise (``li-faiss-filters``)."""
    raise ValueError("Metadata filters not implemented for Faiss yet.")


# --------------------------------------------------------------------------------- lancedb

_LANCEDB_OPERATORS: dict[FilterOperator, str] = {
    FilterOperator.EQ: " = ",
    FilterOperator.GT: " > ",
    FilterOperator.GTE: " >= ",
    FilterOperator.LT: " < ",
    FilterOperator.LTE: " <= ",
    FilterOperator.TEXT_MATCH: " LIKE ",
    FilterOperator.NE: " NOT LIKE ",
    FilterOperator.IN: " IN ",
}
"""``llama_index.vector_stores.lancedb.util.sql_operator_mapper``: any other operator raises
``KeyError`` (``li-lancedb-filter-unsupported-*``)."""


def lancedb_sql(filters: MetadataFilters, metadata_keys: list[str] | None) -> str:
    """The SQL ``LanceDBVectorStore._to_lance_filter`` builds, quirks included (read from its
    source and measured, ``li-lancedb-filter-*``): a key of the first node's metadata becomes
    ``metadata.<key>`` (any other is a bare column name); ``!=`` is ``NOT LIKE '%value%'`` and
    ``text_match`` ``LIKE '%value%'``; strings are quoted unescaped (lists escape ``'``);
    numbers as Python prints them; OR joins with ``OR``, any other condition (NOT and None
    included) with ``AND``; a nested ``MetadataFilters`` raises ``AttributeError``."""
    parts: list[str] = []
    for leaf in filters.filters:
        item: Any = leaf  # a nested MetadataFilters has no key: AttributeError, as in the real
        name = item.key
        key = f"metadata.{name}" if metadata_keys is None or name in metadata_keys else name
        operator = _LANCEDB_OPERATORS[item.operator]
        value = item.value
        if item.operator in (FilterOperator.TEXT_MATCH, FilterOperator.NE):
            parts.append(f"{key}{operator}'%{value}%'")
        elif isinstance(value, list):
            shown = [
                "'" + v.replace("'", "''") + "'" if isinstance(v, str) else str(v) for v in value
            ]
            parts.append(f"{key}{operator}({','.join(shown)})")
        elif isinstance(value, int | float):
            parts.append(f"{key}{operator}{value}")
        else:
            parts.append(f"{key}{operator}'{value!s}'")
    joiner = " OR " if filters.condition == FilterCondition.OR else " AND "
    return joiner.join(parts)
