"""The reads of one ``PlaceboVectorStore``: a listing, a top-k query or an MMR query on its
namespace of the core store, with the integration's MMR rule (which candidates, the fallback to a
plain query, and whether the picks are reported with their MMR objectives).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, replace
from typing import Any

from placeborag_core import FakeVectorStore, Match, Record
from placeborag_core.store import Where
from placeborag_llamaindex.integrations import IntegrationFacts
from placeborag_llamaindex.mmr_objectives import mmr_objectives
from placeborag_llamaindex.query_options import QueryOptions

__all__ = ["Ranked", "Search"]


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
