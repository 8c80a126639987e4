"""`QdrantVectorStore`'s own methods: `from_existing_collection`, offered under every profile.

A store whose integration finds collections by name (`IntegrationFacts.named_collections`, set
for Qdrant) registers its collection name when it is built, as a server holds its collections:
`from_existing_collection(name)` is then another client of the same records, and raises
langchain-qdrant's own errors when the collection does not fit the request.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any

from langchain_core.embeddings import Embeddings

from placeborag_langchain.store_parts import StoreParts

if TYPE_CHECKING:
    from placeborag_langchain.vectorstore import PlaceboVectorStore

__all__ = ["QdrantCollectionError", "QdrantMethods", "live_collection"]

try:  # the real class's own error type, when langchain-qdrant is installed
    from langchain_qdrant.qdrant import QdrantVectorStoreError as QdrantCollectionError
except ImportError:  # pragma: no cover - depends on the environment

    class QdrantCollectionError(Exception):  # type: ignore[no-redef]
        """langchain-qdrant's `QdrantVectorStoreError`, when it is not installed."""


# Collections by profile and name, as a server would hold them: what Qdrant's
# from_existing_collection and PGVector's from_existing_index find. Each keeps its live clients,
# newest last: a collection lives while any client does.
_COLLECTIONS: dict[tuple[str, str], list[weakref.ref[Any]]] = {}


def live_collection(profile: str, name: str) -> Any:
    """The newest live store of `profile` over the collection `name` (None: no such
    collection)."""
    for ref in reversed(_COLLECTIONS.get((profile, name), [])):
        store = ref()
        if store is not None:
            return store
    return None


class QdrantMethods(StoreParts):
    """Qdrant's collections by name, and a store over an existing one."""

    def _register_collection(self) -> None:
        """Register this store's collection by name when the integration finds collections by
        name (`IntegrationFacts.named_collections`: Qdrant's, PGVector's)."""
        if self._facts.named_collections:
            key = (self._facts.profile, self.collection_name)
            # Another client of a live collection (from_existing_collection) joins its clients:
            # the collection lives while any of them does (a short-lived client no longer takes
            # it along when the GC collects it). A store over other records replaces it.
            live = live_collection(*key)
            clients = _COLLECTIONS.get(key, [])
            if live is None or live._store is not self._store:
                clients = []
            alive = [ref for ref in clients if ref() is not None]
            _COLLECTIONS[key] = [*alive, weakref.ref(self)]

    @classmethod
    def from_existing_collection(
        cls,
        collection_name: str,
        embedding: Embeddings | None = None,
        **kwargs: Any,
    ) -> PlaceboVectorStore:
        """A store over the records of the live qdrant-profile store named `collection_name`
        in this process (Qdrant's `from_existing_collection`: another client of the same
        collection; writes through either are seen by both). The options are
        `QdrantVectorStore.from_existing_collection`'s (see `options.py`); with
        `validate_collection_config` (default True) the embedding width and `distance` are
        checked against the collection with langchain-qdrant's errors. Raises ValueError when
        no such collection exists."""
        from placeborag_langchain.options import read_options
        from placeborag_langchain.vectorstore import PlaceboVectorStore

        if not isinstance(collection_name, str) or not collection_name:
            raise TypeError(f"collection_name must be a non-empty str, got {collection_name!r}")
        options = read_options("qdrant", kwargs, "from_existing_collection()")
        existing = live_collection("qdrant", collection_name)
        if existing is None or existing._guard.deleted:
            raise ValueError(f"Collection {collection_name} not found")
        embedding = options.embedding if embedding is None else embedding
        if embedding is None:
            raise ValueError("'embedding' cannot be None when retrieval mode is 'dense'")
        core = existing.core_store
        metric = options.metric or "cosine"
        if kwargs.get("validate_collection_config", True):
            width = len(embedding.embed_documents(["dummy_text"])[0])
            if core.dimension is not None and core.dimension != width:
                raise QdrantCollectionError(
                    "Existing Qdrant collection is configured for dense vectors with "
                    f"{core.dimension} dimensions. Selected embeddings are {width}-dimensional. "
                    "If you want to recreate the collection, set `force_recreate` parameter to "
                    "`True`."
                )
            if core.profile.metric != metric:
                have = core.profile.metric.upper()
                raise QdrantCollectionError(
                    f"Existing Qdrant collection is configured for {have} similarity, but "
                    f"requested {metric.upper()}. Please set `distance` parameter to `{have}` if "
                    "you want to reuse it. If you want to recreate the collection, set "
                    "`force_recreate` parameter to `True`."
                )
        # langchain-qdrant embeds ["dummy_text"] once, to validate the width, or not at all.
        store: PlaceboVectorStore = PlaceboVectorStore.__new__(PlaceboVectorStore)
        store._wrap(
            core,
            namespace=existing.namespace,
            embedding=embedding,
            collection_name=collection_name,
            content_payload_key=options.content_payload_key,
            metadata_payload_key=options.metadata_payload_key,
            probe=False,
        )
        return store
