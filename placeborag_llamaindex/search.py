"""The reads of one ``PlaceboVectorStore``: a listing, a top-k query or an MMR query on its
namespace of the core store, with the integration's MMR rule (which candidates, the fallback to a
plain query, and whether the picks are reported with their MMR objectives).
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

import numpy as np

from placeborag_core import FakeVectorStore, Match, Record
from placeborag_core.store import Where
from placeborag_llamaindex.integrations import IntegrationFacts
from placeborag_llamaindex.mmr_objectives import mmr_objectives
from placeborag_llamaindex.query_options import QueryOptions

__all__ = ["Ranked", "Search", "nan_scored_ids"]


class _NanScored:
    """A heap entry scored NaN: ``SimpleVectorStore`` pushes ``(nan, node_id)`` tuples, and a
    NaN is neither equal to nor less than another, so no entry is less than another."""

    __slots__ = ("id",)

    def __init__(self, record_id: str) -> None:
        self.id = record_id

    def __lt__(self, other: _NanScored) -> bool:
        return False


def nan_scored_ids(
    ids: Sequence[str], k: int, order: Literal["heap_order", "listing_order"]
) -> list[str]:
    """The ``k`` of ``ids`` (listing order) a query answers when every score is NaN, in the
    order it answers them.

    ``"heap_order"``: ``get_top_k_embeddings`` of ``SimpleVectorStore`` pushes each node on a
    heap, pops one whenever it holds more than ``k``, then sorts by score (stable, so the heap's
    order stays); with no entry less than another, what stays is a function of the listing order
    and ``k`` alone, and this replays it (li-simple-nan-query). ``"listing_order"``: the first
    ``k``."""
    if order == "listing_order":
        return list(ids[:k])
    heap: list[_NanScored] = []
    for record_id in ids:
        heapq.heappush(heap, _NanScored(record_id))
        if len(heap) > k:
            heapq.heappop(heap)
    return [entry.id for entry in heap]


@dataclass(frozen=True)
class Ranked:
    """A query's matches, and the scores to report instead of the integration's mapping of the
    engine's (None: map each match's score; the MMR objectives where the integration reports
    them)."""

    matches: list[Match]
    reported: list[float] | None = None


@dataclass(frozen=True)
class Search:
    """Reads ``namespace`` of ``store`` the way ``integration`` reads its engine."""

    store: FakeVectorStore
    namespace: str
    integration: IntegrationFacts

    def select(
        self,
        where: Where | None,
        ids: Collection[str] | None,
        limit: int | None = None,
        where_document: Any = None,
    ) -> list[Record]:
        """Filter-only read (Chroma's ``get``, Qdrant's ``scroll``): listing order, no ranking."""
        return self.store.select(
            where, ids=ids, namespace=self.namespace, limit=limit, where_document=where_document
        )

    def nan_scored(
        self,
        k: int,
        where: Where | None,
        ids: Collection[str] | None,
        options: QueryOptions,
        order: Literal["heap_order", "listing_order"],
    ) -> Ranked:
        """The answer to a query vector with a NaN component where the integration scores every
        node NaN (``IntegrationFacts.nan_query``): the records that pass, picked and ordered
        by ``nan_scored_ids``, each reported with a NaN score. The core is not asked to rank:
        it refuses a non-finite query vector."""
        records = self._with_vectors(where, ids, options)
        by_id = {r.id: r for r in records}
        picked = [by_id[i] for i in nan_scored_ids([r.id for r in records], k, order)]
        return _scored_alike(picked, math.nan)

    def infinite_products(
        self,
        vector: Sequence[float],
        k: int,
        where: Where | None,
        ids: Collection[str] | None,
        options: QueryOptions,
    ) -> Ranked:
        """The answer of Milvus to a query vector with an infinite component
        (``IntegrationFacts.inf_query`` ``"infinite_products"``, li-milvus-inf-query): under
        ``ip``, the records that pass whose float32 inner product with ``vector`` is ``+inf``
        (a NaN or ``-inf`` one is dropped), the first ``k`` in listing order, answered in
        reverse and scored ``inf``; under any other metric nothing."""
        if self.store.profile.metric != "ip":
            return Ranked([])
        records = self._with_vectors(where, ids, options)
        if not records:
            return Ranked([])
        rows = np.asarray([r.vector for r in records], dtype=np.float32)
        with np.errstate(all="ignore"):
            products = (rows * np.asarray(vector, dtype=np.float32)).sum(axis=1)
        infinite = [
            r for r, product in zip(records, products.tolist(), strict=True) if product == math.inf
        ]
        return _scored_alike(infinite[:k][::-1], math.inf)

    def _with_vectors(
        self, where: Where | None, ids: Collection[str] | None, options: QueryOptions
    ) -> list[Record]:
        """The records that pass, in listing order, that hold a vector (orphans do not)."""
        selected = self.select(where, ids, where_document=options.where_document)
        return [r for r in selected if r.vector is not None]

    def nearest(
        self,
        vector: list[float],
        k: int,
        where: Where | None,
        ids: Collection[str] | None,
        options: QueryOptions,
    ) -> Ranked:
        """The ``k`` best matches of ``vector``: by MMR if the query asks for it and the
        integration does MMR, else by score."""
        if options.mmr and self.integration.mmr != "ignored":
            return self._mmr(vector, k, where, ids, options)
        return Ranked(self._plain(vector, k, where, ids, options))

    def _plain(
        self,
        vector: list[float],
        k: int,
        where: Where | None,
        ids: Collection[str] | None,
        options: QueryOptions,
    ) -> list[Match]:
        return self.store.query(
            vector,
            k,
            where=where,
            namespace=self.namespace,
            ids=ids,
            fetch_k=options.fetch_k,
            where_document=options.where_document,
        )

    def _mmr(
        self,
        vector: list[float],
        k: int,
        where: Where | None,
        ids: Collection[str] | None,
        options: QueryOptions,
    ) -> Ranked:
        prefetch = self.integration.mmr == "prefetch"
        fetch_k = options.prefetch_k(k) if prefetch else max(k, self.store.count(self.namespace))
        picks = self.store.max_marginal_relevance(
            vector,
            k,
            fetch_k=fetch_k,
            lambda_mult=options.mmr_threshold,
            where=where,
            namespace=self.namespace,
            ids=ids,
            redundancy="last",  # get_top_k_mmr_embeddings: only the latest pick counts
            where_document=options.where_document,
        )
        if prefetch and len(picks) < k and self.integration.mmr_fallback:
            # Chroma and PGVectorStore answer with a plain query when the prefetch yields too
            # few (their sources; li-chroma-mmr in docs/integrations/llamaindex.md); Milvus runs
            # MMR over the few (li-milvus-mmr-fewer-than-top-k-no-fallback).
            return Ranked(self._plain(vector, k, where, ids, replace(options, fetch_k=None)))
        if self.integration.mmr_scores == "objective":
            return Ranked(picks, self._objectives(vector, picks, options.mmr_threshold))
        return Ranked(picks)

    def _objectives(
        self, vector: list[float], picks: list[Match], threshold: float
    ) -> list[float] | None:
        """The MMR objectives of ``picks``; None if one has no stored vector (an orphaned id
        of the fault model), whose picks then keep the engine's scores."""
        records = [self.store.get(m.id, namespace=self.namespace) for m in picks]
        vectors = [r.vector for r in records if r is not None and r.vector is not None]
        if len(vectors) != len(picks):
            return None
        return mmr_objectives(vector, vectors, threshold)


def _scored_alike(records: Sequence[Record], score: float) -> Ranked:
    """``records`` as matches that all report ``score`` (as score and similarity)."""
    matches = [Match(r.id, r.text, dict(r.metadata), score, score) for r in records]
    return Ranked(matches, [score] * len(matches))
