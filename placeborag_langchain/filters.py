"""Translate each integration's filter dialect into the core filter dialect.

LangChain passes `filter=` through untouched, so its format is whatever the real integration
takes: Chroma's `where` dict (which is the core dialect, interpreted by the core's chroma
profile), Qdrant's `models.Filter` (read here by duck typing, so qdrant-client need not be
installed), FAISS's own dict dialect (`$neq`, bare lists, `$and`/`$or`/`$not` that shadow
sibling keys), and, everywhere, a Python callable. Nothing here evaluates a filter against
records: dialects become a core `where`, an id restriction, or a predicate that the store hands
to the core wrapped as a `Record` callable (so it runs at the core's filter step).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from placeborag_core import PROFILES, Record
from placeborag_core.filters import compile_filter
from placeborag_langchain.ids import canonical_qdrant_id

__all__ = ["TranslatedFilter", "translate_filter"]

Clause = dict[str, Any]


class _Const:
    """A clause known to be always true or always false (simplified away before the core)."""

    def __init__(self, value: bool) -> None:
        self.value = value


_TRUE = _Const(True)
_FALSE = _Const(False)

Node = Any  # Clause | _Const | _HasId


@dataclass(frozen=True)
class _HasId:
    ids: frozenset[str]


@dataclass(frozen=True)
class TranslatedFilter:
    """A filter in core terms.

    `where`: the core dialect clause, possibly holding callables of the core `Record` for
    conditions the dialect cannot say, or one such callable (None: no filter); `ids`: an id
    restriction (None: none, empty: nothing matches); `predicate`: the caller's callable the
    store must evaluate, with `predicate_arg` saying whether it receives the `Document` or its
    metadata.
    """

    where: Mapping[str, Any] | Callable[[Record], bool] | None = None
    ids: frozenset[str] | None = None
    predicate: Callable[[Any], bool] | None = None
    predicate_arg: Literal["document", "metadata"] = "document"


def _and(nodes: Sequence[Node]) -> Node:
    parts: list[Node] = []
    for node in nodes:
        if node is _FALSE:
            return _FALSE
        if node is not _TRUE:
            parts.append(node)
    if not parts:
        return _TRUE
    return parts[0] if len(parts) == 1 else {"$and": parts}


def _or(nodes: Sequence[Node]) -> Node:
    parts: list[Node] = []
    for node in nodes:
        if node is _TRUE:
            return _TRUE
        if node is not _FALSE:
            parts.append(node)
    if not parts:
        return _FALSE
    return parts[0] if len(parts) == 1 else {"$or": parts}


def _not(node: Node) -> Node:
    if isinstance(node, _Const):
        return _FALSE if node.value else _TRUE
    return {"$not": node}


def _finish(node: Node, ids: frozenset[str] | None = None) -> TranslatedFilter:
    if node is _FALSE:
        return TranslatedFilter(ids=frozenset())
    if node is _TRUE:
        return TranslatedFilter(ids=ids)
    return TranslatedFilter(where=node, ids=ids)


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
    return _or(parts)


def _faiss_not_in(field: str, values: Sequence[Any]) -> Node:
    present = [v for v in values if v is not None]
    if len(present) != len(values):
        return _and([{field: {"$exists": True}}, {field: {"$nin": present}}])
    return _or([_missing(field), {field: {"$nin": present}}])


def _faiss_condition(field: str, condition: Any) -> Node:
    if isinstance(condition, Mapping):
        parts: list[Node] = []
        for op, operand in condition.items():
            if op not in _FAISS_FIELD_OPS:
                raise _faiss_unsupported(op)
            if op == "$eq":
                parts.append(_faiss_equals(field, operand))
            elif op == "$neq":
                parts.append(_not(_faiss_equals(field, operand)))
            elif op == "$in":
                parts.append(_faiss_in(field, list(operand)))
            elif op == "$nin":
                parts.append(_faiss_not_in(field, list(operand)))
            else:
                parts.append({field: {op: operand}})
        return _and(parts)
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
        return _and([_faiss_node(sub) for sub in spec["$and"]])
    if "$or" in spec:
        return _or([_faiss_node(sub) for sub in spec["$or"]])
    if "$not" in spec:
        return _not(_faiss_node(spec["$not"]))
    return _and([_faiss_condition(field, cond) for field, cond in spec.items()])


# --- Qdrant --------------------------------------------------------------------------------
# langchain-qdrant stores a document as the payload {"page_content": text, "metadata": {...}}, so
# a metadata field is addressed as "metadata.<key>" and the text as "page_content"; any other key
# names nothing and matches nothing. A condition on the text, or a HasIdCondition below the top
# `must`, becomes a callable of the core Record inside the core clause.

_METADATA_PREFIX = "metadata."
_PAGE_CONTENT = "page_content"


class _Text:
    """The key of a condition on the page content (see :func:`_on_text`)."""


_TEXT = _Text()


def _as_list(value: Any) -> list[Any]:
    if value is None:
        return []
    if isinstance(value, (list, tuple)):
        return list(value)
    return [value]


def _qdrant_key(key: str) -> str | _Text | None:
    if key == _PAGE_CONTENT:
        return _TEXT
    if key.startswith(_METADATA_PREFIX):
        return key[len(_METADATA_PREFIX) :]
    return None


def _on_text(node: Node) -> Node:
    """A clause on the key "page_content" made a condition on the record's text.

    The clause is compiled under the qdrant profile's dialect and evaluated on the payload
    field the real store has, ``{"page_content": text}``, so Qdrant's rules for values, text
    tokens and absence (a record without text, i.e. an orphan) apply to the text exactly as to
    a metadata field.
    """
    if isinstance(node, _Const):
        return node
    predicate = compile_filter(node, PROFILES["qdrant"].filters)

    def on_text(record: Record) -> bool:
        return predicate.matches({} if record.text is None else {_PAGE_CONTENT: record.text})

    return on_text


def _on_id(node: Node) -> Node:
    """A HasIdCondition as a condition on the record id, for positions where it cannot be an
    id restriction of the whole query (inside `should`, `must_not`, `min_should` or a nested
    filter)."""
    if not isinstance(node, _HasId):
        return node
    ids = node.ids

    def has_id(record: Record) -> bool:
        return record.id in ids

    return has_id


def _qdrant_match(key: str | None, match: Any) -> Node:
    if hasattr(match, "except_"):
        values = list(match.except_)
        return _FALSE if key is None else _and([{key: {"$exists": True}}, {key: {"$nin": values}}])
    if hasattr(match, "any"):
        return _FALSE if key is None else {key: {"$in": list(match.any)}}
    if hasattr(match, "text"):
        return _FALSE if key is None else {key: {"$text_match": match.text}}
    if hasattr(match, "value"):
        return _FALSE if key is None else {key: {"$eq": match.value}}
    raise NotImplementedError(f"qdrant match {type(match).__name__} is not supported")


def _qdrant_range(key: str | None, rng: Any) -> Node:
    bounds = {
        op: getattr(rng, name)
        for op, name in (("$gt", "gt"), ("$gte", "gte"), ("$lt", "lt"), ("$lte", "lte"))
        if getattr(rng, name, None) is not None
    }
    if key is None:
        return _FALSE
    return {key: bounds} if bounds else {key: {"$exists": True}}


def _qdrant_field_condition(cond: Any) -> Node:
    target = _qdrant_key(cond.key)
    if isinstance(target, _Text):
        return _on_text(_qdrant_field_parts(_PAGE_CONTENT, cond))
    return _qdrant_field_parts(target, cond)


def _qdrant_field_parts(key: str | None, cond: Any) -> Node:
    parts: list[Node] = []
    if getattr(cond, "match", None) is not None:
        parts.append(_qdrant_match(key, cond.match))
    if getattr(cond, "range", None) is not None:
        parts.append(_qdrant_range(key, cond.range))
    for unsupported in ("geo_bounding_box", "geo_radius", "geo_polygon", "values_count"):
        if getattr(cond, unsupported, None) is not None:
            raise NotImplementedError(f"FieldCondition.{unsupported} is not supported")
    if getattr(cond, "is_empty", None) is not None or getattr(cond, "is_null", None) is not None:
        raise NotImplementedError("FieldCondition.is_empty/is_null: use IsEmptyCondition")
    if not parts:
        return _FALSE  # a FieldCondition without a condition matches nothing (measured)
    return _and(parts)


def _qdrant_condition(cond: Any) -> Node:
    if hasattr(cond, "must") and hasattr(cond, "should"):
        return _qdrant_filter(cond)
    if hasattr(cond, "has_id"):
        ids = {canonical_qdrant_id(i) for i in cond.has_id}
        return _HasId(frozenset(i for i in ids if i is not None))
    if hasattr(cond, "is_empty") and not hasattr(cond, "key"):
        target = _qdrant_key(cond.is_empty.key)
        if isinstance(target, _Text):
            return _on_text({_PAGE_CONTENT: {"$is_empty": True}})
        return _TRUE if target is None else {target: {"$is_empty": True}}
    if hasattr(cond, "is_null") and not hasattr(cond, "key"):
        raise NotImplementedError("IsNullCondition is not supported")
    if hasattr(cond, "key"):
        return _qdrant_field_condition(cond)
    raise NotImplementedError(f"qdrant condition {type(cond).__name__} is not supported")


def _qdrant_filter(flt: Any, *, top: bool = False) -> Node:
    parts: list[Node] = []
    for cond in _as_list(flt.must):
        node = _qdrant_condition(cond)
        parts.append(node if top else _on_id(node))
    should = [_on_id(_qdrant_condition(c)) for c in _as_list(flt.should)]
    if should:
        parts.append(_or(should))
    must_not = [_on_id(_qdrant_condition(c)) for c in _as_list(flt.must_not)]
    if must_not:
        parts.append(_not(_or(must_not)))
    min_should = getattr(flt, "min_should", None)
    if min_should is not None:
        conds = [_on_id(_qdrant_condition(c)) for c in min_should.conditions]
        count = int(min_should.min_count)
        parts.append(_or([_and(list(combo)) for combo in itertools.combinations(conds, count)]))
    return _and(parts)


def _translate_qdrant(flt: Any) -> TranslatedFilter:
    if not (hasattr(flt, "must") and hasattr(flt, "should") and hasattr(flt, "must_not")):
        raise AttributeError(
            f"'{type(flt).__name__}' object has no attribute 'must' (profile 'qdrant' takes "
            "a qdrant_client.models.Filter, or any object shaped like one, or a callable)"
        )
    node = _qdrant_filter(flt, top=True)
    ids: frozenset[str] | None = None
    if isinstance(node, _HasId):
        return TranslatedFilter(ids=node.ids)
    if isinstance(node, dict) and "$and" in node:
        rest = []
        for part in node["$and"]:
            if isinstance(part, _HasId):
                ids = part.ids if ids is None else ids & part.ids
            else:
                rest.append(part)
        node = _and(rest)
    return _finish(node, ids)


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
