"""Checks of what callers hand ``PlaceboVectorStore``, made before any state changes.

Each check raises ``TypeError`` (wrong kind of value) or ``ValueError`` (right kind, wrong value;
``FilterError``, a ``ValueError``, for filters) naming the parameter, what was wrong and what is
allowed, so nothing reaches the core store half-checked and nothing is coerced: a str where a
list of node ids is expected would otherwise be read as its characters.
"""

from __future__ import annotations

import dataclasses
import difflib
import os
from collections.abc import Callable, Collection, Sequence

from llama_index.core.schema import BaseNode
from llama_index.core.vector_stores.types import (
    MetadataFilter,
    MetadataFilters,
    VectorStoreQuery,
)

from placeborag_core import FilterError
from placeborag_core.adapter_kit import MAX_FILTER_DEPTH, require_unicode, shown

__all__ = ["filters", "keyword_arguments", "node_ids", "nodes", "path", "query", "text"]


def keyword_arguments(call: str, given: Collection[str], accepted: Sequence[str]) -> None:
    """``TypeError`` for the first of ``given`` not in ``accepted``, naming it, the closest
    accepted name and every accepted one (a misspelt option must not be dropped or ignored)."""
    for name in given:
        if name not in accepted:
            close = difflib.get_close_matches(name, list(accepted), n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise TypeError(
                f"{call} got an unexpected keyword argument {shown(name)}{hint}; "
                f"accepted: {', '.join(accepted)}"
            )


def text(value: object, name: str) -> str:
    """A str argument, valid Unicode."""
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a str, got {type(value).__name__}: {shown(value)}")
    require_unicode(value, name)
    return value


def path(value: object, name: str) -> str:
    """A path argument: a str or ``os.PathLike`` of str, as a str."""
    if isinstance(value, os.PathLike):
        value = os.fspath(value)
    if not isinstance(value, str) or not value:
        raise TypeError(
            f"{name} must be a non-empty str or os.PathLike, got {type(value).__name__}: "
            f"{shown(value)}"
        )
    require_unicode(value, name)
    return value


def _is_list(value: object) -> bool:
    return isinstance(value, Sequence) and not isinstance(value, str | bytes | bytearray)


def node_ids(value: object, name: str) -> list[str] | None:
    """``None`` or a list of node ids (a lone str is refused, not read as characters). An id
    that is not a str is left to the engine's id rule, which rejects it with the engine's
    message (``NodeCodec.record_id``); a str must be valid Unicode."""
    if value is None:
        return None
    if not _is_list(value):
        raise TypeError(
            f"{name} must be a list of node id strings or None, got {type(value).__name__}: "
            f"{shown(value)}"
        )
    assert isinstance(value, Sequence)
    for index, item in enumerate(value):
        if isinstance(item, str):
            require_unicode(item, f"{name}[{index}]")
    return list(value)


def nodes(value: object) -> list[BaseNode]:
    """The ``nodes`` of ``add``: a list of LlamaIndex nodes."""
    if not _is_list(value):
        raise TypeError(
            f"nodes must be a list of LlamaIndex nodes (BaseNode), got {type(value).__name__}"
        )
    assert isinstance(value, Sequence)
    for index, node in enumerate(value):
        if not isinstance(node, BaseNode):
            raise TypeError(
                f"nodes[{index}] must be a LlamaIndex node (BaseNode), got "
                f"{type(node).__name__}: {shown(node)}"
            )
    return list(value)


def filters(value: object, name: str = "filters") -> MetadataFilters | None:
    """``None`` or a ``MetadataFilters`` of ``MetadataFilter`` and ``MetadataFilters`` nested at
    most ``MAX_FILTER_DEPTH`` levels (checked without recursion, so a filter that contains
    itself raises too)."""
    if value is None:
        return None
    if not isinstance(value, MetadataFilters):
        raise TypeError(
            f"{name} must be a MetadataFilters or None, got {type(value).__name__}: {shown(value)}"
        )
    deepest: dict[int, int] = {}
    stack: list[tuple[MetadataFilters, int, str]] = [(value, 1, name)]
    while stack:
        group, depth, where = stack.pop()
        if depth > MAX_FILTER_DEPTH:
            raise FilterError(
                f"{name}: MetadataFilters nested more than {MAX_FILTER_DEPTH} levels deep (or "
                f"containing itself) at {where}; the limit is "
                "placeborag_core.limits.MAX_FILTER_DEPTH"
            )
        if deepest.get(id(group), 0) >= depth:
            continue
        deepest[id(group)] = depth
        children = group.filters
        if not isinstance(children, list):
            raise TypeError(f"{where}.filters must be a list, got {type(children).__name__}")
        for index, child in enumerate(children):
            child_where = f"{where}.filters[{index}]"
            if isinstance(child, MetadataFilters):
                stack.append((child, depth + 1, child_where))
            elif not isinstance(child, MetadataFilter):
                raise TypeError(
                    f"{child_where} must be a MetadataFilter or MetadataFilters, got "
                    f"{type(child).__name__}: {shown(child)}"
                )
            else:
                _unicode_leaf(child, child_where)
    return value


def _unicode_leaf(leaf: MetadataFilter, where: str) -> None:
    """A filter's key and str values must be valid Unicode, like the metadata they match."""
    if isinstance(leaf.key, str):
        require_unicode(leaf.key, f"{where}.key")
    values = leaf.value if isinstance(leaf.value, list) else [leaf.value]
    for value in values:
        if isinstance(value, str):
            require_unicode(value, f"{where}.value")


def query(
    value: object, top_k_not_int: Callable[[object], int | None] | None = None
) -> VectorStoreQuery:
    """The ``query`` of ``query``: a ``VectorStoreQuery`` whose fields the store reads are of the
    declared types (it is a dataclass, so nothing checked them when it was built).

    A ``similarity_top_k`` that is not an int goes, for a query with embedding, to
    ``top_k_not_int`` (the integration's rule, ``IntegrationFacts.top_k_not_int``): the k it
    returns replaces it in a copy of the query; None, or no rule, refuses it with ``TypeError``.
    """
    if not isinstance(value, VectorStoreQuery):
        raise TypeError(f"query must be a VectorStoreQuery, got {type(value).__name__}")
    k = value.similarity_top_k
    embedding = value.query_embedding
    if isinstance(k, bool) or not isinstance(k, int):
        ranked = embedding is not None and _is_list(embedding) and len(embedding) > 0
        read = top_k_not_int(k) if top_k_not_int is not None and ranked else None
        if read is None:
            raise TypeError(f"query.similarity_top_k must be an int >= 1, got {shown(k)}")
        value = dataclasses.replace(value, similarity_top_k=read)
    if embedding is not None and not _is_list(embedding):
        raise TypeError(
            "query.query_embedding must be a list of floats or None, got "
            f"{type(embedding).__name__}"
        )
    node_ids(value.doc_ids, "query.doc_ids")
    node_ids(value.node_ids, "query.node_ids")
    filters(value.filters, "query.filters")
    return value
