"""The methods one real class has beyond LangChain's `VectorStore`, offered under every profile.

Chroma's collection handling (`delete_collection`, `reset_collection`, `fork`,
`update_document(s)`, `get`, `similarity_search_with_vectors`,
`similarity_search_by_vector_with_relevance_scores`: `chroma_methods`), FAISS's
(`add_embeddings`, `from_embeddings`, `merge_from`, the async searches by vector with scores:
`faiss_methods`; `save_local` / `load_local`, `serialize_to_bytes` / `deserialize_from_bytes`:
`persistence_methods`), Qdrant's (`from_existing_collection`: `qdrant_methods`) and PGVector's
(MMR with scores, `create_collection`, `from_existing_index`: `pgvector_methods`), each with the
real signature, return type and errors. What needs a real client or server (`client`,
`_collection`, `index`, `docstore`, images, hybrid search) raises `NeedsRealClientError`, a
NotImplementedError (and an AttributeError, so `hasattr` is False) naming it (`real_client`).
The full table: `docs/integrations/langchain-parity.md`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from langchain_core.embeddings import Embeddings

from placeborag_langchain.chroma_methods import ChromaMethods
from placeborag_langchain.faiss_methods import FaissMethods
from placeborag_langchain.persistence import decode_state
from placeborag_langchain.pgvector_methods import PgvectorMethods
from placeborag_langchain.qdrant_methods import QdrantCollectionError, QdrantMethods
from placeborag_langchain.real_client import NeedsRealClientError, RealClientOnly

if TYPE_CHECKING:
    from placeborag_langchain.vectorstore import PlaceboVectorStore

__all__ = ["IntegrationMethods", "NeedsRealClientError", "QdrantCollectionError"]


class IntegrationMethods(
    RealClientOnly, ChromaMethods, FaissMethods, QdrantMethods, PgvectorMethods
):
    """Chroma's, FAISS's, Qdrant's and PGVector's own methods (see the module docstring), one
    group per base class."""


# Here, not in persistence_methods: a pickle names the function it calls by module and name
# (`integration_methods._unpickle`), so that pickles from earlier versions load, and back.
def _unpickle(
    data: bytes, embeddings: Embeddings, relevance: Callable[[float], float] | None
) -> PlaceboVectorStore:
    from placeborag_langchain.vectorstore import PlaceboVectorStore

    overrides = {} if relevance is None else {"relevance_score_fn": relevance}
    state = decode_state(data, "pickled PlaceboVectorStore")
    return PlaceboVectorStore._restored(state, embeddings, "pickled PlaceboVectorStore", overrides)
