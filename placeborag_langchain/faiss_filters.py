"""LangChain FAISS's own filter dialect, read into the core dialect.

``langchain_community`` FAISS filters in Python after the search (``FAISS._create_filter_func``),
with a dict dialect of its own: ``$eq $neq $gt $gte $lt $lte $in $nin $and $or $not``, a bare
value meaning equality and a bare list meaning ``$in``. A field's value is
``metadata.get(field)``, so a missing key compares as None (``$neq``, ``$nin`` and ``== None``
match it); ``$and``/``$or``/``$not``, when present, make every sibling key ignored;
``{"$and": []}`` and ``{}`` are true and ``{"$or": []}`` false. Mongo's ``$ne`` is rejected.
Facts: ``docs/integrations/langchain.md#lc-faiss-filter-dialect`` and
``#lc-faiss-filter-errors``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from placeborag_core.backends import Profile
from placeborag_core.filters.clauses import ALWAYS, NEVER, conjunction, disjunction, negation
from placeborag_langchain.filters import TranslatedFilter

__all__ = ["FAISS_DICT", "FaissDict"]

Node = Any  # a core clause, or ALWAYS / NEVER

_FIELD_OPS = ("$eq", "$neq", "$gt", "$lt", "$gte", "$lte", "$in", "$nin")
_VALID = frozenset((*_FIELD_OPS, "$and", "$or", "$not"))


class FaissDict:
    """The ``filter=`` format of LangChain FAISS: its dict dialect (see the module docstring)."""

    def read(self, flt: Any, profile: Profile) -> TranslatedFilter:
        """``flt`` in core terms; ValueError (FAISS's) for a non-dict or an unknown operator."""
        node = _node(flt)
        if node is NEVER:
            return TranslatedFilter(ids=frozenset())
        if node is ALWAYS:
            return TranslatedFilter()
        return TranslatedFilter(where=node)


FAISS_DICT = FaissDict()


def _unsupported(op: str) -> ValueError:
    return ValueError(f"filter contains unsupported operator: {op}")


def _missing(field: str) -> dict[str, Any]:
    return {field: {"$exists": False}}


def _equals(field: str, value: Any) -> Node:
    if value is None:
        return _missing(field)
    return {field: {"$eq": value}}


def _in(field: str, values: Sequence[Any]) -> Node:
    present = [v for v in values if v is not None]
    parts: list[Node] = [{field: {"$in": present}}] if present else []
    if len(present) != len(values):
        parts.append(_missing(field))
    return disjunction(parts)


def _not_in(field: str, values: Sequence[Any]) -> Node:
    present = [v for v in values if v is not None]
    if len(present) != len(values):
        return conjunction([{field: {"$exists": True}}, {field: {"$nin": present}}])
    return disjunction([_missing(field), {field: {"$nin": present}}])


def _condition(field: str, condition: Any) -> Node:
    if isinstance(condition, Mapping):
        parts: list[Node] = []
        for op, operand in condition.items():
            if op not in _FIELD_OPS:
                raise _unsupported(op)
            if op == "$eq":
                parts.append(_equals(field, operand))
            elif op == "$neq":
                parts.append(negation(_equals(field, operand)))
            elif op == "$in":
                parts.append(_in(field, list(operand)))
            elif op == "$nin":
                parts.append(_not_in(field, list(operand)))
            else:
                parts.append({field: {op: operand}})
        return conjunction(parts)
    if isinstance(condition, list):
        return _in(field, condition)
    return _equals(field, condition)


def _node(spec: Any) -> Node:
    if not isinstance(spec, Mapping):
        raise ValueError(f"filter must be a dict of metadata or a callable, not {type(spec)}")
    for key in spec:
        if isinstance(key, str) and key.startswith("$") and key not in _VALID:
            raise _unsupported(key)
    if "$and" in spec:
        return conjunction([_node(sub) for sub in spec["$and"]])
    if "$or" in spec:
        return disjunction([_node(sub) for sub in spec["$or"]])
    if "$not" in spec:
        return negation(_node(spec["$not"]))
    return conjunction([_condition(field, cond) for field, cond in spec.items()])
