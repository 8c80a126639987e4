"""LangChain's search API (similarity and MMR, sync and async) over a `searches.Search`.

The base of `PlaceboVectorStore`: every method here is a LangChain `VectorStore` search method,
reduced to one `Search` call and the shape LangChain expects back (Documents, or Documents with
the integration's scores). The async twins run inline (no executor thread), embedding with the
`Embeddings`' async methods.
"""

from __future__ import annotations

from typing import Any

from langchain_core.documents import Document
from langchain_core.vectorstores import VectorStore

from placeborag_langchain.arguments import checked_threshold
from placeborag_langchain.searches import Search

__all__ = ["SearchMethods"]


class SearchMethods(VectorStore):
    """LangChain's search methods, answered by the store's `Search` (`_search`)."""

    _search: Search

    # --- searches -------------------------------------------------------------------------

    def similarity_search_with_score(
        self, query: str, k: int = 4, filter: Any = None, **kwargs: Any
    ) -> list[tuple[Document, float]]:
        """Documents and the score the real integration reports (Chroma: distance; FAISS: a
        numpy.float32 squared L2; Qdrant: similarity; default: cosine similarity)."""
        matches = self._search.query(
            self._search.text_query(query), k, filter, kwargs, "similarity_search_with_score"
        )
        return self._search.pairs(matches)

    async def asimilarity_search_with_score(
        self, query: str, k: int = 4, filter: Any = None, **kwargs: Any
    ) -> list[tuple[Document, float]]:
        """Async twin of `similarity_search_with_score`."""
        vector = await self._search.atext_query(query)
        matches = self._search.query(vector, k, filter, kwargs, "similarity_search_with_score")
        return self._search.pairs(matches)

    def similarity_search(
        self, query: str, k: int = 4, filter: Any = None, **kwargs: Any
    ) -> list[Document]:
        """The `k` nearest documents (after the profile's filtering)."""
        return [doc for doc, _ in self.similarity_search_with_score(query, k, filter, **kwargs)]

    async def asimilarity_search(
        self, query: str, k: int = 4, filter: Any = None, **kwargs: Any
    ) -> list[Document]:
        """Async twin of `similarity_search`."""
        pairs = await self.asimilarity_search_with_score(query, k, filter, **kwargs)
        return [doc for doc, _ in pairs]

    def similarity_search_with_score_by_vector(
        self, embedding: list[float], k: int = 4, filter: Any = None, **kwargs: Any
    ) -> list[tuple[Document, float]]:
        """Like `similarity_search_with_score`, for a query vector."""
        matches = self._search.query(
            list(embedding), k, filter, kwargs, "similarity_search_with_score_by_vector"
        )
        return self._search.pairs(matches)

    def similarity_search_by_vector(
        self, embedding: list[float], k: int = 4, filter: Any = None, **kwargs: Any
    ) -> list[Document]:
        """Like `similarity_search`, for a query vector."""
        pairs = self.similarity_search_with_score_by_vector(embedding, k, filter, **kwargs)
        return [doc for doc, _ in pairs]

    async def asimilarity_search_by_vector(
        self, embedding: list[float], k: int = 4, filter: Any = None, **kwargs: Any
    ) -> list[Document]:
        """Async twin of `similarity_search_by_vector`."""
        return self.similarity_search_by_vector(embedding, k, filter, **kwargs)

    def similarity_search_with_relevance_scores(
        self, query: str, k: int = 4, **kwargs: Any
    ) -> list[tuple[Document, float]]:
        """LangChain's relevance search (the integration's relevance function over its
        scores); a malformed `score_threshold` raises instead of matching nothing."""
        checked_threshold(kwargs.get("score_threshold"))
        return super().similarity_search_with_relevance_scores(query, k, **kwargs)

    async def asimilarity_search_with_relevance_scores(
        self, query: str, k: int = 4, **kwargs: Any
    ) -> list[tuple[Document, float]]:
        """Async twin of `similarity_search_with_relevance_scores`."""
        checked_threshold(kwargs.get("score_threshold"))
        return await super().asimilarity_search_with_relevance_scores(query, k, **kwargs)

    # --- maximal marginal relevance -------------------------------------------------------

    def _mmr(  # noqa: PLR0917 - mirrors LangChain's positional MMR signature
        self,
        query: str | list[float],
        k: int,
        fetch_k: int,
        lambda_mult: float,
        flt: Any,
        kwargs: dict[str, Any],
    ) -> list[tuple[Document, float]]:
        return self._search.pairs(self._search.mmr(query, k, fetch_k, lambda_mult, flt, kwargs))

    def max_marginal_relevance_search_with_score_by_vector(
        self,
        embedding: list[float],
        k: int = 4,
        fetch_k: int = 20,
        lambda_mult: float = 0.5,
        filter: Any = None,
        **kwargs: Any,
    ) -> list[tuple[Document, float]]:
        """MMR picks with the score each pick has in a plain search (FAISS/Qdrant style)."""
        return self._mmr(list(embedding), k, fetch_k, lambda_mult, filter, kwargs)

    def max_marginal_relevance_search_by_vector(
        self,
        embedding: list[float],
        k: int = 4,
        fetch_k: int = 20,
        lambda_mult: float = 0.5,
        filter: Any = None,
        **kwargs: Any,
    ) -> list[Document]:
        """MMR over the `fetch_k` nearest (lambda 1 = pure relevance, 0 = most diverse)."""
        pairs = self.max_marginal_relevance_search_with_score_by_vector(
            embedding, k, fetch_k, lambda_mult, filter, **kwargs
        )
        return [doc for doc, _ in pairs]

    def max_marginal_relevance_search(
        self,
        query: str,
        k: int = 4,
        fetch_k: int = 20,
        lambda_mult: float = 0.5,
        filter: Any = None,
        **kwargs: Any,
    ) -> list[Document]:
        """MMR for a text query; order and lambda convention follow the integration."""
        self._search.probe_embedding("mmr")
        pairs = self._mmr(self._search.text_query(query), k, fetch_k, lambda_mult, filter, kwargs)
        return [doc for doc, _ in pairs]

    async def amax_marginal_relevance_search(
        self,
        query: str,
        k: int = 4,
        fetch_k: int = 20,
        lambda_mult: float = 0.5,
        filter: Any = None,
        **kwargs: Any,
    ) -> list[Document]:
        """Async twin of `max_marginal_relevance_search`."""
        self._search.probe_embedding("mmr")
        vector = await self._search.atext_query(query)
        return [doc for doc, _ in self._mmr(vector, k, fetch_k, lambda_mult, filter, kwargs)]

    async def amax_marginal_relevance_search_by_vector(
        self,
        embedding: list[float],
        k: int = 4,
        fetch_k: int = 20,
        lambda_mult: float = 0.5,
        filter: Any = None,
        **kwargs: Any,
    ) -> list[Document]:
        """Async twin of `max_marginal_relevance_search_by_vector`."""
        return self.max_marginal_relevance_search_by_vector(
            embedding, k, fetch_k, lambda_mult, filter, **kwargs
        )
