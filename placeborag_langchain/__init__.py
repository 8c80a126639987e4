"""placeborag_langchain: drop-in LangChain `Embeddings`, `VectorStore` and retriever doubles.

`PlaceboVectorStore(profile="chroma" | "qdrant" | "faiss")` reproduces what the real LangChain
integration of that backend returns (scores and their types, relevance functions, filter format,
Document shape, id, delete, get_by_ids and MMR conventions) over the deterministic core store;
`profile="default"` has clean, documented conventions.
"""

from placeborag_langchain.embeddings import PlaceboEmbeddings
from placeborag_langchain.integrations import INTEGRATIONS, IntegrationFacts
from placeborag_langchain.retriever import CannedRetriever
from placeborag_langchain.vectorstore import PlaceboVectorStore

__all__ = [
    "INTEGRATIONS",
    "CannedRetriever",
    "IntegrationFacts",
    "PlaceboEmbeddings",
    "PlaceboVectorStore",
]
