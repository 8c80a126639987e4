"""langchain-postgres `PGVector`'s own methods, offered under every profile.

MMR with scores for a text query, texts added with their own vectors in PGVector's form
(`add_embeddings(texts, embeddings, ...)`, beside FAISS's pairs), the collection's life
(`create_collection`, `adelete_collection`; `delete_collection` is Chroma's, with PGVector's
repeat rule from the row) and `from_existing_index`, each with PGVector's signature and errors
(`docs/integrations/langchain-parity.md#langchain_postgrespgvector-profilepgvector`). What needs
the database itself (a SQLAlchemy session, the shared tables) raises `NeedsRealClientError`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings

from placeborag_langchain.qdrant_methods import live_collection
from placeborag_langchain.real_client import NeedsRealClientError
from placeborag_langchain.store_parts import StoreParts

if TYPE_CHECKING:
    from placeborag_langchain.vectorstore import PlaceboVectorStore

__all__ = ["PgvectorMethods"]


class PgvectorMethods(StoreParts):
    """PGVector's MMR with scores, collection life and `from_existing_index`."""

    def max_marginal_relevance_search_with_score(
        self,
        query: str,
        k: int = 4,
        fetch_k: int = 20,
        lambda_mult: float = 0.5,
        filter: Any = None,
        **kwargs: Any,
    ) -> list[tuple[Document, float]]:
        """MMR picks for a text query, each with its score in a plain search (PGVector)."""
        self._search.probe_embedding("mmr")
        vector = self._search.text_query(query)
        return self._mmr(vector, k, fetch_k, lambda_mult, filter, kwargs)

    async def amax_marginal_relevance_search_with_score(
        self,
        query: str,
        k: int = 4,
        fetch_k: int = 20,
        lambda_mult: float = 0.5,
        filter: Any = None,
        **kwargs: Any,
    ) -> list[tuple[Document, float]]:
        """Async twin of `max_marginal_relevance_search_with_score`."""
        self._search.probe_embedding("mmr")
        vector = await self._search.atext_query(query)
        return self._mmr(vector, k, fetch_k, lambda_mult, filter, kwargs)

    def create_collection(self) -> None:
        """Create the collection if it does not exist (PGVector's get-or-create): after
        `delete_collection()` the store works again, empty; otherwise nothing changes."""
        self._guard.deleted = False

    async def acreate_collection(self) -> None:
        """Async twin of `create_collection`."""
        self.create_collection()

    async def adelete_collection(self) -> None:
        """Async twin of `delete_collection`."""
        self.delete_collection()  # type: ignore[attr-defined]

    def create_tables_if_not_exists(self) -> None:
        """PGVector's table creation: the store's collection needs no table (no-op)."""

    async def acreate_tables_if_not_exists(self) -> None:
        """Async twin of `create_tables_if_not_exists` (no-op)."""

    def create_vector_extension(self) -> None:
        """PGVector's `CREATE EXTENSION vector`: nothing to create in memory (no-op)."""

    async def acreate_vector_extension(self) -> None:
        """Async twin of `create_vector_extension` (no-op)."""

    def drop_tables(self) -> None:
        """PGVector's `drop_tables`: NotImplementedError (it drops the tables every collection
        of the database shares; use `delete_collection()` for this store's)."""
        raise NeedsRealClientError(
            "drop_tables (the tables every PGVector collection of a database shares) needs a "
            "real client, server or index, which placeborag does not imitate; use "
            "delete_collection()"
        )

    async def adrop_tables(self) -> None:
        """Async twin of `drop_tables`: NotImplementedError."""
        self.drop_tables()

    def get_collection(self, session: Any) -> Any:
        """PGVector's collection row for a SQLAlchemy session: NotImplementedError."""
        raise NeedsRealClientError(
            "get_collection (PGVector's collection row, read through a SQLAlchemy session) "
            "needs a real client, server or index, which placeborag does not imitate; use "
            "get_by_ids() and the searches"
        )

    async def aget_collection(self, session: Any) -> Any:
        """Async twin of `get_collection`: NotImplementedError."""
        return self.get_collection(session)

    @classmethod
    def from_existing_index(
        cls,
        embedding: Embeddings,
        *,
        collection_name: str = "langchain",
        pre_delete_collection: bool = False,
        **kwargs: Any,
    ) -> PlaceboVectorStore:
        """A store over the collection named `collection_name` (PGVector's
        `from_existing_index`): another client of the records of the live store of the same
        profile and name in this process, or a new empty store when there is none (PGVector
        creates a missing collection). `pre_delete_collection=True` empties the collection
        first; the other options are the constructor's."""
        from placeborag_langchain.constructor import profile_name
        from placeborag_langchain.options import read_options
        from placeborag_langchain.vectorstore import PlaceboVectorStore

        options = {"pre_delete_collection": pre_delete_collection, **kwargs}
        profile = profile_name(kwargs.get("profile", "default"))
        existing = live_collection(profile, collection_name)
        if existing is None or existing._guard.deleted:
            return PlaceboVectorStore(embedding, collection_name=collection_name, **options)
        store_options = ("profile", "relevance_score_fn", "distance_strategy")
        given = {name: value for name, value in options.items() if name not in store_options}
        read = read_options(profile, given, "from_existing_index()")
        store: PlaceboVectorStore = PlaceboVectorStore.__new__(PlaceboVectorStore)
        store._wrap(
            existing.core_store,
            namespace=existing.namespace,
            embedding=read.embedding if embedding is None else embedding,
            collection_name=collection_name,
            relevance_score_fn=kwargs.get("relevance_score_fn"),
            distance_strategy=kwargs.get("distance_strategy"),
            probe=False,
        )
        if pre_delete_collection:
            store._drop_records()
        return store

    @classmethod
    async def afrom_existing_index(
        cls,
        embedding: Embeddings,
        *,
        collection_name: str = "langchain",
        pre_delete_collection: bool = False,
        **kwargs: Any,
    ) -> PlaceboVectorStore:
        """Async twin of `from_existing_index`."""
        return cls.from_existing_index(
            embedding,
            collection_name=collection_name,
            pre_delete_collection=pre_delete_collection,
            **kwargs,
        )
