"""LangChain FAISS's own filter dialect, evaluated the way FAISS evaluates it.

``langchain_community`` FAISS filters in Python after the search: ``FAISS._create_filter_func``
turns a dict into a function of a document's metadata, and that function is what decides. So
this module builds the same function, with the same rules, and hands it to the core as a
callable of the metadata (the path a callable ``filter=`` takes):

* operators ``$eq $neq $gt $gte $lt $lte $in $nin`` on a field, ``$and $or $not`` on filters; a
  bare value means ``==`` and a bare list means ``in``; Mongo's ``$ne`` (or any other
  ``$``-key at the top of a filter, or any unknown operator on a field) raises
  ``ValueError: filter contains unsupported operator: $ne`` when the filter is read;
* a field's value is ``metadata.get(field)``: a missing key is ``None``, exactly like a stored
  ``None`` (``{"page": None}``, ``{"$eq": None}`` and ``{"$in": [None]}`` match both;
  ``$neq``/``$nin`` with None match neither);
* the comparisons are Python's: ``1 == 1.0 == True``, ``$in`` is list membership, and an
  ordering between values Python cannot order (a str bound and an int, or None: a missing key
  under ``$gt``) raises ``TypeError`` when a candidate reaches it;
* ``$and``/``$or``/``$not``, when present, make every sibling key ignored (checked in that
  order); ``{"$and": []}`` and ``{}`` are true and ``{"$or": []}`` false.

Facts: ``docs/integrations/langchain.md#lc-faiss-filter-dialect``, ``#lc-faiss-filter-errors``,
``#lc-faiss-filter-none``. A filter nested more than ``MAX_FILTER_DEPTH`` levels (or containing
itself) raises ``FilterError`` before anything is read (FAISS would hit Python's recursion
limit).
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping
from typing import Any

from placeborag_core import FilterError
from placeborag_core.adapter_kit import MAX_FILTER_DEPTH, nesting_depth_exceeds
from placeborag_core.backends import Profile
from placeborag_langchain.filters import TranslatedFilter

__all__ = ["FAISS_DICT", "FaissDict", "faiss_filter_function"]

Condition = Callable[[Mapping[str, Any]], bool]

_COMPARISONS: dict[str, Callable[[Any, Any], Any]] = {
    "$eq": operator.eq,
    "$neq": operator.ne,
    "$gt": operator.gt,
    "$lt": operator.lt,
    "$gte": operator.ge,
    "$lte": operator.le,
}
_SEQUENCES: dict[str, Callable[[Any, Any], Any]] = {
    "$in": lambda a, b: a in b,
    "$nin": lambda a, b: a not in b,
}
_OPERATIONS = _COMPARISONS | _SEQUENCES
_VALID = frozenset((*_OPERATIONS, "$and", "$or", "$not"))
_SET_THRESHOLD = 10  # FAISS turns a bare list longer than this into a frozenset


class FaissDict:
    """The ``filter=`` format of LangChain FAISS: its dict dialect (see the module docstring)."""

    def read(self, flt: Any, profile: Profile) -> TranslatedFilter:
        """``flt`` as FAISS's filter function of the metadata; ValueError (FAISS's) for a
        non-dict or an unsupported operator."""
        del profile
        if isinstance(flt, dict) and (not flt or flt == {"$and": []}):
            return TranslatedFilter()
        if isinstance(flt, dict) and flt == {"$or": []}:
            return TranslatedFilter(ids=frozenset())
        return TranslatedFilter(predicate=faiss_filter_function(flt), predicate_arg="metadata")


FAISS_DICT = FaissDict()


def _unsupported(op: str) -> ValueError:
    return ValueError(f"filter contains unsupported operator: {op}")


def faiss_filter_function(flt: Any) -> Condition:
    """FAISS's ``_create_filter_func`` for a dict filter: a function of the metadata."""
    if not isinstance(flt, dict):
        raise ValueError(f"filter must be a dict of metadata or a callable, not {type(flt)}")
    if nesting_depth_exceeds(flt, MAX_FILTER_DEPTH):
        raise FilterError(
            f"filter nests more than {MAX_FILTER_DEPTH} levels (or contains itself); the "
            "filter depth is limited to keep evaluation bounded"
        )
    for op in flt:
        if isinstance(op, str) and op.startswith("$") and op not in _VALID:
            raise _unsupported(op)
    return _filter(flt)


def _field_condition(field: Any, condition: Any) -> Condition:
    if isinstance(condition, dict):
        checks = []
        for op, value in condition.items():
            if op not in _OPERATIONS:
                raise _unsupported(op)
            checks.append((_OPERATIONS[op], value))

        def all_checks(metadata: Mapping[str, Any]) -> bool:
            value = metadata.get(field)
            return all(check(value, operand) for check, operand in checks)

        return all_checks
    if isinstance(condition, list):
        if len(condition) > _SET_THRESHOLD:
            members = frozenset(condition)  # TypeError for an unhashable member, as FAISS
            return lambda metadata: metadata.get(field) in members
        return lambda metadata: metadata.get(field) in condition
    return lambda metadata: bool(metadata.get(field) == condition)


def _filter(flt: Any) -> Condition:
    if not isinstance(flt, dict):
        # FAISS calls ``"$and" in sub_filter`` on whatever the list holds.
        raise TypeError(
            f"each filter inside $and/$or/$not must be a dict, got {type(flt).__name__}"
        )
    if "$and" in flt:
        parts = [_filter(sub) for sub in _sub_filters(flt["$and"], "$and")]
        return lambda metadata: all(part(metadata) for part in parts)
    if "$or" in flt:
        parts = [_filter(sub) for sub in _sub_filters(flt["$or"], "$or")]
        return lambda metadata: any(part(metadata) for part in parts)
    if "$not" in flt:
        inner = _filter(flt["$not"])
        return lambda metadata: not inner(metadata)
    conditions = [_field_condition(field, cond) for field, cond in flt.items()]
    return lambda metadata: all(condition(metadata) for condition in conditions)


def _sub_filters(value: Any, op: str) -> list[Any]:
    if isinstance(value, dict | str | bytes) or not hasattr(value, "__iter__"):
        raise TypeError(f"{op} takes a list of filters, got {type(value).__name__}")
    return list(value)
