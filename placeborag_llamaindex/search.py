"""The reads of one ``PlaceboVectorStore``: a listing, a top-k query or an MMR query on its
namespace of the core store, with the integration's MMR rule.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from placeborag_core import FakeVectorStore, Match, Record
from placeborag_core.store import Where
from placeborag_llamaindex.integrations import IntegrationFacts
from placeborag_llamaindex.query_options import QueryOptions

__all__ = ["Search"]


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
    ) -> list[Match]:
        """The ``k`` best matches of ``vector``: by MMR if the query asks for it and the
        integration does MMR, else by score."""
        if options.mmr and self.integration.mmr != "ignored":
            return self._mmr(vector, k, where, ids, options)
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
    ) -> list[Match]:
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
        if prefetch and len(picks) < k:
            # The prefetching stores (Chroma, Milvus, PGVectorStore) answer with a plain query
            # when the prefetch yields too few (their sources; li-chroma-mmr in
            # docs/integrations/llamaindex.md).
            return self.store.query(
                vector,
                k,
                where=where,
                namespace=self.namespace,
                ids=ids,
                where_document=options.where_document,
            )
        return picks
