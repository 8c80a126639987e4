"""The store layer: ``FakeVectorStore`` and its query pipeline (validation, partitions, scoring,
ranking, faults, MMR).

``FakeVectorStore`` is imported on first use, so that the storage modules (partitions, the column
index) can be imported by lower layers without importing the pipeline.
"""

from typing import TYPE_CHECKING

from placeborag_core.lazy_imports import lazy_exports

if TYPE_CHECKING:
    from placeborag_core.store.vector_store import FakeVectorStore

__all__ = ["FakeVectorStore"]

__getattr__, __dir__ = lazy_exports(__name__, {"FakeVectorStore": "vector_store"})
