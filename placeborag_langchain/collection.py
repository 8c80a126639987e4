"""State one store's collection shares with its collaborators: whether it was deleted, and the
ordinal counter of generated ids (shared by every wrapper of one core store).

After `delete_collection()` every call that touches the collection raises the integration's
ValueError (Chroma: "Chroma collection not initialized. Use `reset_collection` ...") until
`reset_collection()`; `reset_collection()` itself calls `delete_collection()` first, so after a
delete it raises too, exactly as `langchain_chroma.Chroma` does
(`docs/integrations/langchain.md#lc-chroma-delete-collection`).
"""

from __future__ import annotations

import threading
import weakref

from placeborag_core import FakeVectorStore

__all__ = ["CollectionGuard", "IdOrdinals", "ordinals_of"]


class CollectionGuard:
    """Whether the store's collection exists; `check()` raises `message` when it does not."""

    def __init__(self, message: str) -> None:
        self.deleted = False
        self._message = message

    def check(self) -> None:
        """ValueError (the integration's message) after `delete_collection()`."""
        if self.deleted:
            raise ValueError(self._message)


class IdOrdinals:
    """How many ids have been generated for one core store: the next ordinal."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.value = 0


_ORDINALS: weakref.WeakKeyDictionary[FakeVectorStore, IdOrdinals] = weakref.WeakKeyDictionary()
_ORDINALS_LOCK = threading.Lock()


def ordinals_of(core: FakeVectorStore) -> IdOrdinals:
    """The ordinal counter of `core`, shared by every `PlaceboVectorStore` over it (two wrappers
    of one store must not generate the same id for the same content)."""
    with _ORDINALS_LOCK:
        counter = _ORDINALS.get(core)
        if counter is None:
            counter = _ORDINALS[core] = IdOrdinals()
        return counter
