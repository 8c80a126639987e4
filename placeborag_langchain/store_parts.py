"""The parts `PlaceboVectorStore` sets up in `_wrap`, declared once for its method groups.

The store's methods come in groups, one per module (LangChain's searches in `search_methods`,
each real class's own methods in `chroma_methods`, `faiss_methods`, `qdrant_methods`, saving and
loading in `persistence_methods`, what needs a real client in `real_client`). Each group is a
base class of the store reading the same collaborators; this base declares them, so that every
group is type-checked against one list.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from langchain_core.embeddings import Embeddings

from placeborag_core import FakeVectorStore
from placeborag_langchain.search_methods import SearchMethods

if TYPE_CHECKING:
    from placeborag_langchain.collection import CollectionGuard
    from placeborag_langchain.deletes import Deletes
    from placeborag_langchain.distance import DistanceOptions
    from placeborag_langchain.integration_facts import IntegrationFacts
    from placeborag_langchain.reads import Reads
    from placeborag_langchain.writes import Writes

__all__ = ["StoreParts"]


class StoreParts(SearchMethods):
    """The collaborators and settings `PlaceboVectorStore._wrap` sets up, as its method groups
    read them."""

    _store: FakeVectorStore
    _facts: IntegrationFacts
    _embedding: Embeddings
    _namespace: str
    _guard: CollectionGuard
    _writes: Writes
    _deletes: Deletes
    _reads: Reads
    _distance: DistanceOptions
    _relevance_override: Callable[[float], float] | None
    collection_name: str
    content_payload_key: str
    metadata_payload_key: str
