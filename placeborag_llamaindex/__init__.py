"""placeborag_llamaindex: drop-in LlamaIndex embedding, vector store and retriever test doubles.

- ``PlaceboEmbedding``: a ``BaseEmbedding`` whose vectors are a pure function of the text.
- ``PlaceboVectorStore``: a ``BasePydanticVectorStore`` that behaves like the real Chroma or Qdrant
  integration (``profile=``), or like a strict, clean store (the default profile).
- ``CannedRetriever``: a ``BaseRetriever`` returning fixed nodes per query.

The names are imported on first use, so importing this package (as pytest does for the plugin
entry point) works even where LlamaIndex is not installed.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from placeborag_llamaindex.embedding import PlaceboEmbedding
    from placeborag_llamaindex.integrations import FACTS, IntegrationFacts
    from placeborag_llamaindex.retriever import CannedRetriever
    from placeborag_llamaindex.vector_store import PlaceboVectorStore

__all__ = [
    "FACTS",
    "CannedRetriever",
    "IntegrationFacts",
    "PlaceboEmbedding",
    "PlaceboVectorStore",
]

_HOMES = {
    "FACTS": "placeborag_llamaindex.integrations",
    "CannedRetriever": "placeborag_llamaindex.retriever",
    "IntegrationFacts": "placeborag_llamaindex.integrations",
    "PlaceboEmbedding": "placeborag_llamaindex.embedding",
    "PlaceboVectorStore": "placeborag_llamaindex.vector_store",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'placeborag_llamaindex' has no attribute {name!r}")
    return getattr(importlib.import_module(home), name)
