"""The store's partitions by namespace: the walls between tenants.

Each namespace has its own :class:`~placeborag_core.store.partition.Partition` (rows, index,
orphans), created by its first write and dropped when nothing is left in it, so no read in one
namespace can reach another's rows.
"""

from __future__ import annotations

from placeborag_core.backends import Profile
from placeborag_core.store.partition import Batch, Partition

__all__ = ["Namespaces"]


class Namespaces:
    """Partitions by namespace name, written under one profile's write rules."""

    def __init__(self, profile: Profile, *, orphaned_ids: bool) -> None:
        self._profile = profile
        self._orphaned_ids = orphaned_ids
        self.orphaned_ids = orphaned_ids
        self._parts: dict[str, Partition] = {}
        self.schemas: dict[str, object] = {}
        """Each namespace's table schema, under a profile with typed columns (kept after its
        last record is deleted, as the engine keeps the table)."""

    def get(self, namespace: str) -> Partition | None:
        """The namespace's partition, or None if it holds nothing."""
        return self._parts.get(namespace)

    def names(self) -> list[str]:
        """Sorted names of the namespaces that hold visible records."""
        return sorted(name for name, part in self._parts.items() if len(part))

    def exists(self, namespace: str, record_id: str) -> bool:
        """Whether ``record_id`` is a visible record of the namespace."""
        part = self._parts.get(namespace)
        return part is not None and record_id in part.rows

    def upsert(self, namespace: str, batch: Batch, dimension: int, schema: object = None) -> None:
        """Write a validated batch (the profile decides whether an upsert merges metadata, where
        an updated record goes and whether a ``None`` value removes its key); ``schema``: the
        namespace's table schema, if typed."""
        part = self._parts.get(namespace)
        if part is None:
            part = self._parts[namespace] = Partition(dimension)
        if schema is not None:
            self.schemas[namespace] = schema
            part.schema = schema
        part.put(
            batch,
            merge=self._profile.upsert_metadata == "merge",
            position=self._profile.upsert_position,
            none_removes_key=self._profile.none_removes_key,
        )

    def drop(self, namespace: str) -> None:
        """Forget the namespace: its rows, orphans and table schema."""
        self._parts.pop(namespace, None)
        self.schemas.pop(namespace, None)

    def delete(self, namespace: str, ids: list[str]) -> int:
        """Delete ids (as orphans if the store keeps them); returns how many existed."""
        part = self._parts.get(namespace)
        if part is None:
            return 0
        removed = part.remove(ids, keep_orphans=self._orphaned_ids)
        if (
            not len(part)
            and not part.orphans
            and part.schema is None
            and not self._profile.keeps_deleted_rows
        ):
            del self._parts[namespace]
        return removed

    def compact(self) -> None:
        """Drop every orphan and tombstone; forget namespaces left empty."""
        for name, part in list(self._parts.items()):
            part.drop_orphans()
            if part.n_rows == 0 and part.schema is None:
                del self._parts[name]
