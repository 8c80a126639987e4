"""Qdrant's filter model (``qdrant_client.models.Filter``) read as a core ``where=`` clause, and
the dialect that holds Qdrant's matching rules.

Integrations that hand the user's Qdrant filter to the engine (langchain-qdrant's ``filter=``,
LlamaIndex's ``qdrant_filters=``) differ only in where they keep a record's parts in the point
payload: a :class:`~placeborag_core.backends.profile.PayloadLayout` says that, and
:func:`read_qdrant_filter` does the rest. The filter is read by duck typing, so qdrant-client need
not be installed.

Conditions map onto :data:`DIALECT`; a condition on the record text, or a ``HasIdCondition``
anywhere but the top ``must``, becomes a compiled predicate on the record's text or id inside the
clause (the core accepts one wherever a clause can stand). ``HasIdCondition`` in the top ``must``
becomes an id restriction of the whole query. What the core cannot say (geo, ``values_count``,
``IsNull``, ``MatchTextAny``, ``MatchPhrase``) raises ``NotImplementedError`` naming it, instead of
being ignored. Facts: ``docs/engines/qdrant.md#filters``.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from placeborag_core.backends.profile import NativeWhere, PayloadLayout
from placeborag_core.backends.qdrant.paths import (
    PATH_LEAF,
    PathCondition,
    PathIsEmpty,
    is_path,
    parse_path,
)
from placeborag_core.errors import FilterError
from placeborag_core.filters.clauses import (
    ALWAYS,
    NEVER,
    Constant,
    conjunction,
    disjunction,
    negation,
)
from placeborag_core.filters.compiler import compile_filter
from placeborag_core.filters.dialect import CORE_LOGIC_OPERATORS, FilterDialect
from placeborag_core.filters.predicates import ColumnView, Predicate, RecordPredicate
from placeborag_core.limits import MAX_FILTER_DEPTH

__all__ = ["DIALECT", "read_qdrant_filter"]

DIALECT = FilterDialect(
    name="qdrant",
    field_ops=frozenset(
        {
            "$eq",
            "$ne",
            "$gt",
            "$gte",
            "$lt",
            "$lte",
            "$in",
            "$nin",
            "$text_match",
            "$text_match_insensitive",
            "$is_empty",
            "$exists",
        }
    ),
    logic_ops=frozenset(CORE_LOGIC_OPERATORS),
    numeric_equality="int_exact",
    list_values="any_element",
    text_match="tokens",
    empty_values=(),
    match_operands="str_or_int",
    bool_bounds=True,
    exists="not_empty",
)
"""Qdrant's matching rules as a core dialect: MatchValue 1 does not match 1.0, MatchExcept needs
the key, must_not matches a missing key, arrays match by element, IsEmpty is missing, null or
``[]``, MatchText is a word-token match, MatchAny/MatchExcept take all-str or all-int lists and a
bool range bound counts as 0/1 (``docs/engines/qdrant.md#filters``)."""


@dataclass(frozen=True)
class _HasId:
    ids: frozenset[str]


@dataclass(frozen=True)
class _Path:
    """A nested metadata key (``details.page``, ``details[].page``): its parsed steps."""

    steps: tuple[Any, ...]


@dataclass(frozen=True)
class _Text:
    """The target of a condition on the record text: the payload key that holds it."""

    key: str


class _TextCondition(RecordPredicate):
    """A clause on the payload field that holds the text, evaluated on ``{key: text}``, so
    Qdrant's rules for values, text tokens and absence (a record without text, i.e. an orphan)
    apply to the text exactly as to a metadata field."""

    def __init__(self, key: str, clause: Predicate) -> None:
        self.key = key
        self.clause = clause

    def row_matches(self, view: ColumnView, row: int) -> bool:
        text = view.text_at(row)
        return self.clause.matches({} if text is None else {self.key: text})


class _IdCondition(RecordPredicate):
    """The record id is one of ``ids``."""

    def __init__(self, ids: frozenset[str]) -> None:
        self.ids = ids

    def row_matches(self, view: ColumnView, row: int) -> bool:
        return view.id_at(row) in self.ids

    def mask(self, view: ColumnView) -> npt.NDArray[np.bool_]:
        return view.ids_mask(self.ids)


def read_qdrant_filter(flt: Any, payload: PayloadLayout) -> NativeWhere:
    """``flt`` (a Qdrant ``Filter``, or any object shaped like one) in core terms."""
    node = _Reader(payload).filter(flt, top=True)
    ids: frozenset[str] | None = None
    if isinstance(node, _HasId):
        return NativeWhere(ids=node.ids)
    if isinstance(node, dict) and "$and" in node:
        rest = []
        for part in node["$and"]:
            if isinstance(part, _HasId):
                ids = part.ids if ids is None else ids & part.ids
            else:
                rest.append(part)
        node = conjunction(rest)
    if node is NEVER:
        return NativeWhere(ids=frozenset())
    if node is ALWAYS:
        return NativeWhere(ids=ids)
    return NativeWhere(where=node, ids=ids)


def _as_list(value: Any) -> list[Any]:
    if value is None:
        return []
    if isinstance(value, list | tuple):
        return list(value)
    return [value]


class _Reader:
    def __init__(self, payload: PayloadLayout) -> None:
        self.payload = payload
        self.depth = 0

    def key(self, key: str) -> str | _Text | _Path | None:
        if not isinstance(key, str):
            raise FilterError(f"a Qdrant condition key must be a str, got {key!r}")
        if key == self.payload.text_key:
            return _Text(key)
        prefix = self.payload.metadata_prefix
        if not key.startswith(prefix):
            return None
        rest = key[len(prefix) :]
        return _Path(parse_path(rest)) if is_path(rest) else rest

    @staticmethod
    def on_text(text: _Text, node: Any) -> Any:
        """A clause on the text key made a condition on the record's text."""
        if isinstance(node, Constant):
            return node
        return _TextCondition(text.key, compile_filter(node, DIALECT))

    @staticmethod
    def on_id(node: Any) -> Any:
        """A HasIdCondition as a condition on the record id, where it cannot restrict the
        whole query (inside ``should``, ``must_not``, ``min_should`` or a nested filter)."""
        return _IdCondition(node.ids) if isinstance(node, _HasId) else node

    @staticmethod
    def match(key: str | None, match: Any) -> Any:
        if hasattr(match, "except_"):
            values = list(match.except_)
            if key is None:
                return NEVER
            return conjunction([{key: {"$exists": True}}, {key: {"$nin": values}}])
        if hasattr(match, "any"):
            return NEVER if key is None else {key: {"$in": list(match.any)}}
        if hasattr(match, "text"):
            return NEVER if key is None else {key: {"$text_match": match.text}}
        if hasattr(match, "value"):
            return NEVER if key is None else {key: {"$eq": match.value}}
        raise NotImplementedError(f"qdrant match {type(match).__name__} is not supported")

    @staticmethod
    def range(key: str | None, bounds_model: Any) -> Any:
        bounds = {
            op: getattr(bounds_model, name)
            for op, name in (("$gt", "gt"), ("$gte", "gte"), ("$lt", "lt"), ("$lte", "lte"))
            if getattr(bounds_model, name, None) is not None
        }
        if key is None:
            return NEVER
        # Range() without bounds: any number (qdrant-filter-range-unbounded), not any value
        return {key: bounds} if bounds else {key: {"$gte": -math.inf}}

    def field_condition(self, cond: Any) -> Any:
        target = self.key(cond.key)
        if isinstance(target, _Text):
            return self.on_text(target, self.field_parts(target.key, cond))
        if isinstance(target, _Path):
            node = self.field_parts(PATH_LEAF, cond)
            if isinstance(node, Constant):
                return node
            return PathCondition(target.steps, compile_filter(node, DIALECT))
        return self.field_parts(target, cond)

    def field_parts(self, key: str | None, cond: Any) -> Any:
        parts: list[Any] = []
        if getattr(cond, "match", None) is not None:
            parts.append(self.match(key, cond.match))
        if getattr(cond, "range", None) is not None:
            parts.append(self.range(key, cond.range))
        for unsupported in ("geo_bounding_box", "geo_radius", "geo_polygon", "values_count"):
            if getattr(cond, unsupported, None) is not None:
                raise NotImplementedError(f"FieldCondition.{unsupported} is not supported")
        if (
            getattr(cond, "is_empty", None) is not None
            or getattr(cond, "is_null", None) is not None
        ):
            raise NotImplementedError("FieldCondition.is_empty/is_null: use IsEmptyCondition")
        if not parts:
            return NEVER  # a FieldCondition without a condition matches nothing (measured)
        return conjunction(parts)

    def condition(self, cond: Any) -> Any:
        if hasattr(cond, "must") and hasattr(cond, "should"):
            return self.filter(cond)
        if hasattr(cond, "has_id"):
            ids = {self.payload.canonical_id(i) for i in cond.has_id}
            return _HasId(frozenset(i for i in ids if i is not None))
        if hasattr(cond, "is_empty") and not hasattr(cond, "key"):
            target = self.key(cond.is_empty.key)
            if isinstance(target, _Text):
                return self.on_text(target, {target.key: {"$is_empty": True}})
            if isinstance(target, _Path):
                return PathIsEmpty(target.steps)
            return ALWAYS if target is None else {target: {"$is_empty": True}}
        if hasattr(cond, "is_null") and not hasattr(cond, "key"):
            raise NotImplementedError("IsNullCondition is not supported")
        if hasattr(cond, "key"):
            return self.field_condition(cond)
        raise NotImplementedError(f"qdrant condition {type(cond).__name__} is not supported")

    def filter(self, flt: Any, *, top: bool = False) -> Any:
        self.depth += 1
        try:
            return self._filter(flt, top=top)
        finally:
            self.depth -= 1

    def _filter(self, flt: Any, *, top: bool) -> Any:
        if self.depth > MAX_FILTER_DEPTH:
            raise FilterError(
                f"the Qdrant filter nests more than {MAX_FILTER_DEPTH} filters (or contains "
                "itself); the filter depth is limited to keep evaluation bounded"
            )
        parts: list[Any] = []
        for cond in _as_list(flt.must):
            node = self.condition(cond)
            parts.append(node if top else self.on_id(node))
        should = [self.on_id(self.condition(c)) for c in _as_list(flt.should)]
        if should:
            parts.append(disjunction(should))
        must_not = [self.on_id(self.condition(c)) for c in _as_list(flt.must_not)]
        if must_not:
            parts.append(negation(disjunction(must_not)))
        min_should = getattr(flt, "min_should", None)
        if min_should is not None:
            conds = [self.on_id(self.condition(c)) for c in min_should.conditions]
            count = int(min_should.min_count)
            combos = itertools.combinations(conds, count)
            parts.append(disjunction([conjunction(list(combo)) for combo in combos]))
        return conjunction(parts)
