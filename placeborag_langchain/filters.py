"""Translate each integration's filter dialect into the core filter dialect.

LangChain passes `filter=` through untouched, so its format is whatever the real integration
takes: Chroma's `where` dict (which is the core dialect, interpreted by the core's chroma
profile), Qdrant's `models.Filter` (read by the core's `qdrant_filters`, by duck typing, so
qdrant-client need not be installed), FAISS's own dict dialect (`$neq`, bare lists,
`$and`/`$or`/`$not` that shadow sibling keys), and, everywhere, a Python callable. Nothing here
evaluates a filter against records: dialects become a core `where`, an id restriction, or a
predicate that the store hands to the core wrapped as a `Record` callable (so it runs at the
core's filter step).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from placeborag_core.backends import PROFILES, PayloadLayout
from placeborag_core.filters import Predicate
from placeborag_core.filters.clauses import ALWAYS, NEVER, conjunction, disjunction, negation
from placeborag_langchain.ids import canonical_qdrant_id

__all__ = ["TranslatedFilter", "translate_filter"]

Clause = dict[str, Any]


Node = Any  # a core clause, a compiled core predicate, or ALWAYS / NEVER


@dataclass(frozen=True)
class TranslatedFilter:
    """A filter in core terms.

    `where`: the core dialect clause, possibly holding compiled core predicates for conditions
    the dialect cannot say (a Qdrant condition on the text or the id), or one such predicate
    (None: no filter); `ids`: an id
    restriction (None: none, empty: nothing matches); `predicate`: the caller's callable the
    store must evaluate, with `predicate_arg` saying whether it receives the `Document` or its
    metadata.
    """

    where: Mapping[str, Any] | Predicate | None = None
    ids: frozenset[str] | None = None
    predicate: Callable[[Any], bool] | None = None
    predicate_arg: Literal["document", "metadata"] = "document"


def _finish(node: Node) -> TranslatedFilter:
    if node is NEVER:
        return TranslatedFilter(ids=frozenset())
    if node is ALWAYS:
        return TranslatedFilter()
    return TranslatedFilter(where=node)


# --- FAISS ---------------------------------------------------------------------------------
# langchain_community FAISS._create_filter_func: a field's value is `metadata.get(field)`, so a
# missing key compares as None ($neq / $nin / `== None` match it); `$and`/`$or`/`$not`, when
# present, make every sibling key ignored; `{"$and": []}` is true and `{"$or": []}` false.

_FAISS_FIELD_OPS = ("$eq", "$neq", "$gt", "$lt", "$gte", "$lte", "$in", "$nin")
_FAISS_VALID = frozenset((*_FAISS_FIELD_OPS, "$and", "$or", "$not"))


def _faiss_unsupported(op: str) -> ValueError:
    return ValueError(f"filter contains unsupported operator: {op}")


def _missing(field: str) -> Clause:
    return {field: {"$exists": False}}


def _faiss_equals(field: str, value: Any) -> Node:
    if value is None:
        return _missing(field)
    return {field: {"$eq": value}}


def _faiss_in(field: str, values: Sequence[Any]) -> Node:
    present = [v for v in values if v is not None]
    parts: list[Node] = [{field: {"$in": present}}] if present else []
    if len(present) != len(values):
        parts.append(_missing(field))
    return disjunction(parts)


def _faiss_not_in(field: str, values: Sequence[Any]) -> Node:
    present = [v for v in values if v is not None]
    if len(present) != len(values):
        return conjunction([{field: {"$exists": True}}, {field: {"$nin": present}}])
    return disjunction([_missing(field), {field: {"$nin": present}}])


def _faiss_condition(field: str, condition: Any) -> Node:
    if isinstance(condition, Mapping):
        parts: list[Node] = []
        for op, operand in condition.items():
            if op not in _FAISS_FIELD_OPS:
                raise _faiss_unsupported(op)
            if op == "$eq":
                parts.append(_faiss_equals(field, operand))
            elif op == "$neq":
                parts.append(negation(_faiss_equals(field, operand)))
            elif op == "$in":
                parts.append(_faiss_in(field, list(operand)))
            elif op == "$nin":
                parts.append(_faiss_not_in(field, list(operand)))
            else:
                parts.append({field: {op: operand}})
        return conjunction(parts)
    if isinstance(condition, list):
        return _faiss_in(field, condition)
    return _faiss_equals(field, condition)


def _faiss_node(spec: Any) -> Node:
    if not isinstance(spec, Mapping):
        raise ValueError(f"filter must be a dict of metadata or a callable, not {type(spec)}")
    for key in spec:
        if isinstance(key, str) and key.startswith("$") and key not in _FAISS_VALID:
            raise _faiss_unsupported(key)
    if "$and" in spec:
        return conjunction([_faiss_node(sub) for sub in spec["$and"]])
    if "$or" in spec:
        return disjunction([_faiss_node(sub) for sub in spec["$or"]])
    if "$not" in spec:
        return negation(_faiss_node(spec["$not"]))
    return conjunction([_faiss_condition(field, cond) for field, cond in spec.items()])


# --- Qdrant --------------------------------------------------------------------------------
# langchain-qdrant stores a document as the payload {"page_content": text, "metadata": {...}}, so
# a metadata field is addressed as "metadata.<key>" and the text as "page_content"; any other key
# names nothing and matches nothing. The core reads the filter model (qdrant_filters.py).

_LANGCHAIN_PAYLOAD = PayloadLayout(
    metadata_prefix="metadata.", text_key="page_content", canonical_id=canonical_qdrant_id
)


def _translate_qdrant(flt: Any) -> TranslatedFilter:
    if not (hasattr(flt, "must") and hasattr(flt, "should") and hasattr(flt, "must_not")):
        raise AttributeError(
            f"'{type(flt).__name__}' object has no attribute 'must' (profile 'qdrant' takes "
            "a qdrant_client.models.Filter, or any object shaped like one, or a callable)"
        )
    read_native = PROFILES["qdrant"].native_filter
    assert read_native is not None
    read = read_native(flt, _LANGCHAIN_PAYLOAD)
    return TranslatedFilter(where=read.where, ids=read.ids)


def translate_filter(
    flt: Any,
    dialect: Literal["core", "qdrant", "faiss"],
    callable_arg: Literal["document", "metadata"],
) -> TranslatedFilter:
    """Turn a LangChain `filter=` value into core terms for the given dialect.

    Raises the real integration's error type for what it rejects (FAISS: ValueError for an
    unsupported operator or a non-dict; Qdrant: AttributeError for anything but a Filter), and
    NotImplementedError, naming the clause, for the few constructs the core cannot express yet.
    """
    if flt is None:
        return TranslatedFilter()
    if callable(flt) and not isinstance(flt, Mapping):
        return TranslatedFilter(predicate=flt, predicate_arg=callable_arg)
    if dialect == "faiss":
        return _finish(_faiss_node(flt))
    if dialect == "qdrant":
        return _translate_qdrant(flt)
    return TranslatedFilter(where=flt)
