"""placeborag_llamaindex: drop-in LlamaIndex embedding, vector store and retriever test doubles.

- ``PlaceboEmbedding``: a ``BaseEmbedding`` whose vectors are a pure function of the text.
- ``PlaceboVectorStore``: a ``BasePydanticVectorStore`` that behaves like the real Chroma or Qdrant
  integration (``profile=``), or like a strict, clean store (the default profile).
- ``CannedRetriever``: a ``BaseRetriever`` returning fixed nodes per query.

Importing this package without LlamaIndex raises an ``ImportError`` naming the extra to install.
With LlamaIndex installed, the names are imported on first use, so the pytest plugin beside them
loads without importing LlamaIndex.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from placeborag_core.adapter_kit import lazy_exports, require_framework

require_framework(
    "llama_index.core",
    package=__name__,
    framework="LlamaIndex (llama-index-core)",
    extra="llamaindex",
)

if TYPE_CHECKING:
    from placeborag_llamaindex.embedding import PlaceboEmbedding
    from placeborag_llamaindex.integrations import INTEGRATIONS, IntegrationFacts
    from placeborag_llamaindex.retriever import CannedRetriever
    from placeborag_llamaindex.vector_store import PlaceboVectorStore

__all__ = [
    "INTEGRATIONS",
    "CannedRetriever",
    "IntegrationFacts",
    "PlaceboEmbedding",
    "PlaceboVectorStore",
]

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "INTEGRATIONS": "integrations",
        "CannedRetriever": "retriever",
        "IntegrationFacts": "integrations",
        "PlaceboEmbedding": "embedding",
        "PlaceboVectorStore": "vector_store",
    },
)
