"""The store layer: ``FakeVectorStore`` and its query pipeline (validation, partitions, scoring,
ranking, faults, MMR)."""

from placeborag_core.store.vector_store import (
    FakeVectorStore,
)

__all__ = ["FakeVectorStore"]
