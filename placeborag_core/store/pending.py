"""Writes held back under ``visibility="manual"``: the stale reads a real engine can serve.

Upserts and deletes wait here, in the order they were made, until the store's ``refresh``
applies them. Meanwhile reads see the old state, while a delete's count (how many of its ids
exist) is taken against the latest state, pending writes included, as the engine would report it.
"""

from __future__ import annotations

from collections.abc import Iterator

from placeborag_core.store.partition import Batch

__all__ = ["PendingWrites"]

Pending = tuple[str, Batch | list[str]]
"""A held write: its namespace and either the batch to upsert or the ids to delete."""


class PendingWrites:
    """The queue of held writes, with the latest existence of every id they touch."""

    def __init__(self) -> None:
        self._queue: list[Pending] = []
        self._latest: dict[tuple[str, str], bool] = {}

    def __len__(self) -> int:
        """Upserted records plus deleted ids waiting."""
        return sum(len(items) for _, items in self._queue)

    def upsert(self, namespace: str, batch: Batch) -> None:
        """Hold an upsert."""
        self._queue.append((namespace, batch))
        for record_id in batch.ids:
            self._latest[(namespace, record_id)] = True

    def delete(self, namespace: str, ids: list[str]) -> None:
        """Hold a delete."""
        self._queue.append((namespace, ids))
        for record_id in ids:
            self._latest[(namespace, record_id)] = False

    def exists(self, namespace: str, record_id: str) -> bool | None:
        """Whether the held writes leave ``record_id`` existing (None: they do not touch it)."""
        return self._latest.get((namespace, record_id))

    def upserted_ids(self, namespace: str) -> Iterator[str]:
        """Ids of the held upserts in ``namespace``, in write order (repeats possible)."""
        for held_namespace, items in self._queue:
            if held_namespace == namespace and isinstance(items, Batch):
                yield from items.ids

    def drain(self) -> list[Pending]:
        """Every held write, oldest first; the queue is empty afterwards."""
        queue, self._queue = self._queue, []
        self._latest.clear()
        return queue
