"""``get()``: ``langchain_chroma.Chroma.get``, the raw read of a collection, over the core store.

Chroma's contract: records in storage order (``docs/engines/chroma.md#chroma-listing-order``,
``docs/integrations/langchain.md#lc-chroma-get-by-ids-order``), filtered by ``ids`` (a str or a
list), ``where`` and ``where_document``, then ``offset`` and ``limit``; the result is a dict with
the keys ``ids``, ``embeddings``, ``documents``, ``uris``, ``included``, ``data`` and
``metadatas``, where whatever ``include`` (default ``["metadatas", "documents"]``) leaves out is
None. Metadata a record does not have is None, and embeddings come back as one float64 numpy
array. Every argument is checked before anything is read, with Chroma's messages. Only the
storage order is re-measured by a probe; the result's shape, the ``include`` rules and the
``limit``/``offset`` checks were read from chromadb 1.5.9 and langchain-chroma 1.1.0.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

from placeborag_core import FakeVectorStore, Record

__all__ = ["chroma_get"]

_INCLUDABLE = ("documents", "embeddings", "metadatas", "distances", "uris", "data")
_DEFAULT_INCLUDE = ["metadatas", "documents"]


def chroma_get(
    store: FakeVectorStore,
    namespace: str,
    *,
    ids: Any,
    where: Any,
    where_document: Any,
    limit: Any,
    offset: Any,
    include: Any,
    check_ids: Callable[[list[Any]], list[str]],
) -> dict[str, Any]:
    """The records matching every criterion, shaped like Chroma's ``GetResult``.

    ``check_ids`` validates the id list (empty, repeated) the integration's way and returns the
    core ids.
    """
    included = _included(include)
    for name, value in (("limit", limit), ("offset", offset)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise TypeError(f"{name} must be an int or None, got {value!r}")
        if value is not None and value < 0:
            raise ValueError(f"{name} must be >= 0, got {value} in get.")
    core_ids = None if ids is None else check_ids(_id_list(ids))
    records = store.select(where, ids=core_ids, where_document=where_document, namespace=namespace)
    start = offset or 0
    records = records[start:] if limit is None else records[start : start + limit]
    return {
        "ids": [r.id for r in records],
        "embeddings": _embeddings(records) if "embeddings" in included else None,
        "documents": [r.text for r in records] if "documents" in included else None,
        "uris": [None] * len(records) if "uris" in included else None,
        "included": included,
        "data": None,
        "metadatas": _metadatas(records) if "metadatas" in included else None,
    }


def _embeddings(records: list[Record]) -> npt.NDArray[np.float64]:
    """One float64 row per record (Chroma hands back ``array([])`` when nothing matched)."""
    if not records:
        return np.array([], dtype=np.float64)
    return np.array([r.vector for r in records], dtype=np.float64)


def _metadatas(records: list[Record]) -> list[dict[str, Any] | None]:
    """Copies of the metadata; None for a record without any, as Chroma stores it."""
    return [dict(r.metadata) or None for r in records]


def _included(include: Any) -> list[str]:
    if include is None:
        return list(_DEFAULT_INCLUDE)
    if not isinstance(include, list):
        raise ValueError(f"Expected include to be a list, got {include} in get.")
    for item in include:
        if item not in _INCLUDABLE:
            raise ValueError(
                f"Expected include item to be one of {', '.join(_INCLUDABLE)}, got {item} in get."
            )
        if item == "distances":
            raise ValueError("Include item cannot be one of distances, got distances in get.")
        if item == "data":
            raise ValueError(
                "You must set a data loader on the collection if loading from URIs. in get."
            )
    return list(include)


def _id_list(ids: Any) -> list[Any]:
    if isinstance(ids, str):
        return [ids]
    if not isinstance(ids, list):
        raise ValueError(f"Expected ID to be a str, got {ids} in get.")
    for item in ids:
        if not isinstance(item, str):
            raise ValueError(f"Expected ID to be a str, got {item} in get.")
    return ids
