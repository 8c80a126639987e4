"""placeborag_langchain: drop-in LangChain `Embeddings`, `VectorStore` and retriever doubles.

`PlaceboVectorStore(profile="chroma" | "qdrant" | "faiss")` reproduces what the real LangChain
integration of that backend returns (scores and their types, relevance functions, filter format,
Document shape, id, delete, get_by_ids and MMR conventions) over the deterministic core store;
`profile="default"` has clean, documented conventions.

Importing this package without LangChain raises an `ImportError` naming the extra to install.
With LangChain installed, the names below are imported on first use, so the pytest plugin beside
them loads without importing LangChain.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from placeborag_core.adapter_kit import lazy_exports, require_framework

require_framework(
    "langchain_core", package=__name__, framework="LangChain (langchain-core)", extra="langchain"
)

if TYPE_CHECKING:
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

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "INTEGRATIONS": "integrations",
        "CannedRetriever": "retriever",
        "IntegrationFacts": "integrations",
        "PlaceboEmbeddings": "embeddings",
        "PlaceboVectorStore": "vectorstore",
    },
)
