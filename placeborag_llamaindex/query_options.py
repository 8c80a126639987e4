"""The keyword arguments ``PlaceboVectorStore.query`` accepts (``vector_store_kwargs``).

Every name is checked: a misspelt option raises ``TypeError`` listing the accepted ones instead of
being dropped, and values are validated before the store is read.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from llama_index.core.vector_stores.types import VectorStoreQuery

__all__ = ["QueryOptions"]

_DEFAULT_MMR_THRESHOLD = 0.5  # get_top_k_mmr_embeddings' default
_DEFAULT_PREFETCH_FACTOR = 4.0  # ChromaVectorStore's DEFAULT_MMR_PREFETCH_FACTOR
_ALWAYS = ("fetch_k", "mmr_threshold", "where", "where_document")
_PREFETCH = ("mmr_prefetch_factor", "mmr_prefetch_k")
_QDRANT = ("qdrant_filters",)


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


@dataclass(frozen=True)
class QueryOptions:
    """Parsed query keyword arguments."""

    mmr_threshold: float = _DEFAULT_MMR_THRESHOLD
    prefetch_factor: float = _DEFAULT_PREFETCH_FACTOR
    prefetch_k_override: int | None = None
    fetch_k: int | None = None
    where: dict[str, Any] | None = None
    where_document: Any = None  # validated by the core store, with Chroma's messages
    qdrant_filters: Any = None  # a qdrant_client.models.Filter, read by the core

    @classmethod
    def parse(
        cls,
        kwargs: Mapping[str, Any],
        query: VectorStoreQuery,
        *,
        prefetch: bool = False,
        qdrant: bool = False,
    ) -> QueryOptions:
        """Validate ``kwargs``; ``prefetch`` allows Chroma's MMR prefetch options, ``qdrant``
        Qdrant's native ``qdrant_filters``."""
        accepted = _ALWAYS + (_PREFETCH if prefetch else ()) + (_QDRANT if qdrant else ())
        unknown = sorted(set(kwargs) - set(accepted))
        if unknown:
            needs = [] if prefetch else [f"{', '.join(_PREFETCH)} need profile 'chroma'"]
            needs += [] if qdrant else [f"{_QDRANT[0]} needs profile 'qdrant'"]
            raise TypeError(
                f"PlaceboVectorStore.query() got unexpected keyword arguments {unknown}; "
                f"accepted: {', '.join(sorted(accepted))} ({'; '.join(needs)})"
            )
        if kwargs.get("qdrant_filters") is not None and kwargs.get("where") is not None:
            raise ValueError(
                "qdrant_filters and where cannot be combined: each replaces the query's filters"
            )
        return cls(
            mmr_threshold=_threshold(kwargs, query),
            prefetch_factor=_prefetch_factor(kwargs),
            prefetch_k_override=_prefetch_k(kwargs),
            fetch_k=_fetch_k(kwargs),
            where=_where(kwargs, query),
            where_document=kwargs.get("where_document"),
            qdrant_filters=kwargs.get("qdrant_filters"),
        )

    def prefetch_k(self, k: int) -> int:
        """How many candidates Chroma's MMR prefetches for ``k`` results."""
        if self.prefetch_k_override is not None:
            return max(self.prefetch_k_override, k)
        return max(int(k * self.prefetch_factor), k)


def _threshold(kwargs: Mapping[str, Any], query: VectorStoreQuery) -> float:
    # The keyword wins, even an explicit None (SimpleVectorStore's newer rule).
    raw = kwargs.get("mmr_threshold", query.mmr_threshold)
    if raw is None:
        return _DEFAULT_MMR_THRESHOLD
    if not _is_number(raw) or not 0 <= raw <= 1:
        raise ValueError(f"mmr_threshold must be a float between 0 and 1, got {raw!r}")
    return float(raw)


def _prefetch_factor(kwargs: Mapping[str, Any]) -> float:
    if kwargs.get("mmr_prefetch_factor") is not None and kwargs.get("mmr_prefetch_k") is not None:
        raise ValueError(
            "'mmr_prefetch_factor' and 'mmr_prefetch_k' cannot coexist in a call to query()"
        )
    raw = kwargs.get("mmr_prefetch_factor")
    if raw is None:
        return _DEFAULT_PREFETCH_FACTOR
    if not _is_number(raw) or not math.isfinite(raw) or raw <= 0:
        raise ValueError(f"mmr_prefetch_factor must be a finite number > 0, got {raw!r}")
    return float(raw)


def _positive_int(kwargs: Mapping[str, Any], name: str) -> int | None:
    raw = kwargs.get(name)
    if raw is None:
        return None
    if isinstance(raw, bool) or not isinstance(raw, int) or raw < 1:
        raise ValueError(f"{name} must be an int >= 1, got {raw!r}")
    return raw


def _prefetch_k(kwargs: Mapping[str, Any]) -> int | None:
    return _positive_int(kwargs, "mmr_prefetch_k")


def _fetch_k(kwargs: Mapping[str, Any]) -> int | None:
    return _positive_int(kwargs, "fetch_k")


def _where(kwargs: Mapping[str, Any], query: VectorStoreQuery) -> dict[str, Any] | None:
    raw = kwargs.get("where")
    if raw is None:
        return None
    if query.filters is not None:
        raise ValueError(
            "Cannot specify metadata filters via both query and kwargs. Use kwargs only for "
            "native core-dialect filters that the generic query interface cannot express."
        )
    if not isinstance(raw, Mapping):
        raise TypeError(f"where must be a mapping in the core filter dialect, got {raw!r}")
    return dict(raw)
