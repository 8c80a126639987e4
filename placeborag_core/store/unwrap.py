"""The core store behind a store object: what seeding, manifests and isolation checks act on."""

from __future__ import annotations

from placeborag_core.store.vector_store import FakeVectorStore

__all__ = ["core_store_of"]


def core_store_of(store: object) -> FakeVectorStore:
    """Return the core store behind ``store``: itself, or an adapter's ``.core_store``."""
    if isinstance(store, FakeVectorStore):
        return store
    inner = getattr(store, "core_store", None)
    if isinstance(inner, FakeVectorStore):
        return inner
    raise TypeError(
        "expected a placeborag FakeVectorStore or an adapter store exposing it as .core_store, "
        f"got {type(store).__name__}"
    )
