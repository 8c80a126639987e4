"""The options of one ``PlaceboVectorStore.query`` call: its keyword arguments
(``vector_store_kwargs``) and its query mode.

Every name is checked: a misspelt option raises ``TypeError`` listing the accepted ones instead of
being dropped, and values are validated before the store is read. Which options a store accepts
follows its integration's row: the MMR prefetch options where MMR prefetches, the native filter
keyword where the integration has one. Where the integration hands the options it does not consume
to the engine call (``forwarded_kwargs``), that call's ``TypeError`` is raised for them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from llama_index.core.vector_stores.types import VectorStoreQuery, VectorStoreQueryMode

from placeborag_llamaindex.engine_only import refuse_engine_mode
from placeborag_llamaindex.integrations import INTEGRATIONS, IntegrationFacts

__all__ = ["QueryOptions"]

_DEFAULT_MMR_THRESHOLD = 0.5  # get_top_k_mmr_embeddings' default
_ALWAYS = ("fetch_k", "mmr_threshold", "where", "where_document")
_PREFETCH = ("mmr_prefetch_factor", "mmr_prefetch_k")
_MODES = (VectorStoreQueryMode.DEFAULT, VectorStoreQueryMode.MMR)
_MMR_OPTIONS = ("mmr_threshold", *_PREFETCH)
_ENGINE_REFUSES = ("fetch_k", *_MMR_OPTIONS)  # what a ``forwarded_kwargs`` engine call refuses


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _integration_options(integration: IntegrationFacts) -> tuple[tuple[str, ...], ...]:
    """The option groups an integration adds to ``_ALWAYS``."""
    groups: list[tuple[str, ...]] = []
    if integration.mmr == "prefetch":
        groups.append(_PREFETCH)
    if integration.native_filter_kwarg is not None:
        groups.append((integration.native_filter_kwarg,))
    return tuple(groups)


def _elsewhere(integration: IntegrationFacts) -> list[str]:
    """For each option group of another integration that this one lacks, which profiles take it
    (for the message that refuses an unknown option)."""
    own = set(_integration_options(integration))
    hints: dict[tuple[str, ...], list[str]] = {}
    for row in INTEGRATIONS.values():
        for group in _integration_options(row):
            if group not in own:
                hints.setdefault(group, []).append(row.profile)
    return [
        f"{', '.join(group)} {'need' if len(group) > 1 else 'needs'} profile "
        f"{' or '.join(repr(p) for p in profiles)}"
        for group, profiles in hints.items()
    ]


def _mode(mode: Any) -> VectorStoreQueryMode:
    try:
        parsed = VectorStoreQueryMode(mode)
    except ValueError:
        parsed = None
    if parsed is not None:
        refuse_engine_mode(parsed)
    if parsed is None or parsed not in _MODES:
        raise ValueError(
            f"Invalid query mode: {mode!r}; PlaceboVectorStore supports "
            f"{', '.join(repr(m.value) for m in _MODES)}"
        )
    return parsed


@dataclass(frozen=True)
class QueryOptions:
    """A query's parsed keyword arguments, and whether it asks for MMR."""

    mmr: bool = False
    mmr_threshold: float = _DEFAULT_MMR_THRESHOLD
    prefetch_factor: float | None = None
    prefetch_k_override: int | None = None
    fetch_k: int | None = None
    where: dict[str, Any] | str | None = None  # str: the engine's SQL (``sql_filters`` rows)
    where_document: Any = None  # validated by the core store, with Chroma's messages
    native_filter: Any = None  # the engine's own filter object, read by the core profile

    @classmethod
    def parse(
        cls, kwargs: Mapping[str, Any], query: VectorStoreQuery, integration: IntegrationFacts
    ) -> QueryOptions:
        """Validate ``kwargs`` and ``query.mode`` for a store of ``integration``."""
        accepted = (
            _ALWAYS
            + tuple(name for group in _integration_options(integration) for name in group)
            + integration.ignored_query_kwargs
        )
        unknown = sorted(set(kwargs) - set(accepted))
        if unknown:
            raise TypeError(
                f"PlaceboVectorStore.query() got unexpected keyword arguments {unknown}; "
                f"accepted: {', '.join(sorted(accepted))} ({'; '.join(_elsewhere(integration))})"
            )
        native = integration.native_filter_kwarg
        native_filter = None if native is None else kwargs.get(native)
        # where= is read where the real store reads it (Chroma's native filter, LanceDB's SQL);
        # QdrantVectorStore, MilvusVectorStore, PGVectorStore and FaissVectorStore never look
        # at it (li-qdrant-where-kwarg-ignored), so their rows list it as ignored
        reads_where = "where" not in integration.ignored_query_kwargs
        if reads_where and native_filter is not None and kwargs.get("where") is not None:
            raise ValueError(
                f"{native} and where cannot be combined: each replaces the query's filters"
            )
        mmr = _mode(query.mode) == VectorStoreQueryMode.MMR
        # The MMR options are consumed (validated first) by an MMR query with embedding only (a
        # query without embedding is a listing in every mode); elsewhere they reach the engine
        # call as they are, unvalidated.
        consumed = _MMR_OPTIONS if mmr and query.query_embedding else ()
        if not consumed:
            _refuse_forwarded(kwargs, query, integration, consumed)
        clamped = integration.mmr_prefetch_clamped
        # Only a query the integration answers by MMR reads the threshold: elsewhere every real
        # store ignores it, whatever it is (li-simple-mmr-threshold-unchecked,
        # li-qdrant-mmr-threshold-ignored, li-pgvector-mmr-threshold-checked-in-mmr-only).
        runs_mmr = bool(consumed) and integration.mmr != "ignored"
        threshold = (
            _threshold(kwargs, query, integration.mmr_threshold_first)
            if runs_mmr
            else _DEFAULT_MMR_THRESHOLD
        )
        prefetch_factor = _prefetch_factor(kwargs, integration.mmr_prefetch_factor, clamped)
        prefetch_k = _prefetch_k(kwargs, clamped)
        if consumed:
            _refuse_forwarded(kwargs, query, integration, consumed)
        fetch_k = _fetch_k(kwargs)
        where = _where(kwargs, query, integration) if reads_where else None
        return cls(
            mmr=mmr,
            mmr_threshold=threshold,
            prefetch_factor=prefetch_factor,
            prefetch_k_override=prefetch_k,
            fetch_k=fetch_k,
            where=where,
            where_document=kwargs.get("where_document"),
            native_filter=native_filter,
        )

    def prefetch_k(self, k: int) -> int:
        """How many candidates a prefetching MMR fetches for ``k`` results."""
        if self.prefetch_k_override is not None:
            return max(self.prefetch_k_override, k)
        assert self.prefetch_factor is not None  # parsed for an integration that prefetches
        return max(int(k * self.prefetch_factor), k)


def _refuse_forwarded(
    kwargs: Mapping[str, Any],
    query: VectorStoreQuery,
    integration: IntegrationFacts,
    consumed: tuple[str, ...],
) -> None:
    """Raise what the engine call of ``integration.forwarded_kwargs`` raises for the first
    option of ``kwargs`` it does not take (Python's ``TypeError`` for an unexpected keyword)."""
    if integration.forwarded_kwargs is None:
        return
    ranked, listing = integration.forwarded_kwargs
    for name in kwargs:
        if name in _ENGINE_REFUSES and name not in consumed:
            call = ranked if query.query_embedding else listing
            raise TypeError(f"{call}() got an unexpected keyword argument '{name}'")


def _threshold(kwargs: Mapping[str, Any], query: VectorStoreQuery, first: str) -> float:
    raw: Any
    if first == "query" and query.mmr_threshold is not None:
        raw = query.mmr_threshold  # PGVectorStore._prepare_mmr_query: the query's first
    else:
        # Only the keyword counts: SimpleVectorStore, ChromaVectorStore and MilvusVectorStore
        # read ``kwargs.get("mmr_threshold")`` and never ``VectorStoreQuery.mmr_threshold``.
        raw = kwargs.get("mmr_threshold")
    if raw is None:
        return _DEFAULT_MMR_THRESHOLD
    if not _is_number(raw) or not 0 <= raw <= 1:
        # SimpleVectorStore and MilvusVectorStore run MMR with any number (a named divergence:
        # the core's MMR takes a weight in [0, 1]); Chroma and PGVectorStore raise ValueError.
        raise ValueError(f"mmr_threshold must be a float between 0 and 1, got {raw!r}")
    return float(raw)


def _prefetch_factor(
    kwargs: Mapping[str, Any], default: float | None, clamped: bool
) -> float | None:
    if kwargs.get("mmr_prefetch_factor") is not None and kwargs.get("mmr_prefetch_k") is not None:
        raise ValueError(
            "'mmr_prefetch_factor' and 'mmr_prefetch_k' cannot coexist in a call to query()"
        )
    raw = kwargs.get("mmr_prefetch_factor")
    if raw is None:
        return default
    if clamped and _is_number(raw) and math.isfinite(raw):
        return float(raw)  # int(top_k * factor), raised to top_k by prefetch_k
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


def _prefetch_k(kwargs: Mapping[str, Any], clamped: bool) -> int | None:
    raw: Any = kwargs.get("mmr_prefetch_k")
    if clamped and _is_number(raw) and math.isfinite(raw):
        return int(raw)  # raised to top_k by prefetch_k
    return _positive_int(kwargs, "mmr_prefetch_k")


def _fetch_k(kwargs: Mapping[str, Any]) -> int | None:
    return _positive_int(kwargs, "fetch_k")


def _where(
    kwargs: Mapping[str, Any], query: VectorStoreQuery, integration: IntegrationFacts
) -> dict[str, Any] | str | None:
    raw = kwargs.get("where")
    if raw is None:
        return None
    if isinstance(raw, str) and integration.sql_filters is not None:
        # LanceDBVectorStore takes where= as its SQL, refused beside query.filters
        if query.filters is not None:
            raise ValueError(
                "Cannot specify filter via both query and kwargs. Use kwargs only for lancedb "
                "specific items that are not supported via the generic query interface."
            )
        return raw
    if query.filters is not None:
        raise ValueError(
            "Cannot specify metadata filters via both query and kwargs. Use kwargs only for "
            "native core-dialect filters that the generic query interface cannot express."
        )
    if not isinstance(raw, Mapping):
        raise TypeError(f"where must be a mapping in the core filter dialect, got {raw!r}")
    return dict(raw)
