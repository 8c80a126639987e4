"""The write path behind the store's lock: the fixed vector width, immediate or held writes, and
batches of writes applied all at once.

Every write arrives validated (a :class:`~placeborag_core.store.partition.Batch`, or checked
ids), so applying it cannot fail half-way: the only check left here, the vector width, runs for
every write of a batch before any of them changes anything.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from typing import Any, Literal, cast

from placeborag_core.backends import Profile
from placeborag_core.store.batches import BatchBuilder
from placeborag_core.store.inputs import check_namespace, delete_ids
from placeborag_core.store.namespaces import Namespaces
from placeborag_core.store.partition import Batch
from placeborag_core.store.pending import PendingWrites

__all__ = ["WriteBatch", "Writer"]


class WriteBatch:
    """Writes collected for :meth:`Writer.apply`: upserts and deletes by id, in order, each with
    its namespace, each checked when it is added (``FakeVectorStore.batch`` hands one out)."""

    def __init__(self, builder: BatchBuilder, profile: Profile) -> None:
        self._builder = builder
        self._profile = profile
        self.writes: list[tuple[str, Batch | list[str]]] = []
        self.closed = False

    def _check_open(self) -> None:
        if self.closed:
            raise RuntimeError(
                "this batch's `with store.batch()` block has ended: its writes were applied (or "
                "dropped, if the block raised), and a write added now would never be applied; "
                "open a new batch"
            )

    def upsert(
        self,
        id: str,
        text: str | None,
        metadata: Mapping[str, Any] | None = None,
        *,
        vector: Any = None,
        namespace: str = "",
    ) -> None:
        """Add an upsert of one record (as ``FakeVectorStore.upsert`` takes it)."""
        self.upsert_many([(id, text, metadata, vector)], namespace=namespace)

    def upsert_many(self, records: Iterable[Any], *, namespace: str = "") -> None:
        """Add an upsert of ``records`` (as ``FakeVectorStore.upsert_many`` takes them)."""
        self._check_open()
        check_namespace(namespace)
        batch = self._builder.build(records)
        if batch is not None:
            self.writes.append((namespace, batch))

    def append_many(
        self, records: Iterable[Any], *, namespace: str = "", replace: bool = False
    ) -> None:
        """Add an append of ``records``: each becomes a new row, ids may repeat (profiles whose
        engine has no primary key: ``Profile.append_writes``); ``replace``: the records replace
        the namespace's rows and its table schema instead."""
        self._check_open()
        if not self._profile.append_writes:
            raise ValueError(
                f"the {self._profile.name} profile's engine keys records by id: it has no "
                "append write; use upsert_many"
            )
        check_namespace(namespace)
        batch = self._builder.build(records, append=True, replace=replace)
        if batch is not None:
            self.writes.append((namespace, batch))

    def delete(self, ids: str | Iterable[str], *, namespace: str = "") -> None:
        """Add a delete of ``ids`` (missing ids are ignored when it is applied)."""
        self._check_open()
        check_namespace(namespace)
        unique = [self._profile.ids.lookup(i) for i in delete_ids(ids)]
        self.writes.append((namespace, unique))


class Writer:
    """Applies validated writes to the namespaces, or holds them under manual visibility."""

    def __init__(
        self, profile: Profile, visibility: Literal["immediate", "manual"], *, orphaned_ids: bool
    ) -> None:
        self._profile = profile
        self._manual = visibility == "manual"
        self.spaces = Namespaces(profile, orphaned_ids=orphaned_ids)
        self.pending = PendingWrites()
        self.dimension: int | None = None

    def apply(self, batch: WriteBatch) -> list[int]:
        """Apply every write of ``batch`` in order (or hold them); for each delete, how many of
        its ids existed (counted against the latest state, held writes included)."""
        widths = {items.vectors.shape[1] for _, items in batch.writes if isinstance(items, Batch)}
        fixed = self.dimension
        for width in sorted(widths):
            if fixed is not None and width != fixed:
                raise self._profile.dimension_error(
                    f"vector dimension mismatch: the store holds vectors of dimension {fixed}, "
                    f"got {width}"
                )
            fixed = width
        writes = self._prepare(batch.writes)
        self.dimension = fixed
        counts = []
        for namespace, items in writes:
            if isinstance(items, Batch):
                self._upsert(namespace, items)
            else:
                counts.append(self._delete(namespace, items))
        return counts

    def _prepare(
        self, writes: list[tuple[str, Batch | list[str]]]
    ) -> list[tuple[str, Batch | list[str]]]:
        """Every write checked against what only the namespace's state can tell (a repeated id
        that is already stored; a typed table's schema), before any of them is applied."""
        rule = self._profile.columns
        keep_new = self._profile.duplicate_ids_in_batch == "keep_new"
        if rule is None and not keep_new:
            return writes
        schemas: dict[str, object] = {}
        out: list[tuple[str, Batch | list[str]]] = []
        for namespace, items in writes:
            if isinstance(items, Batch):
                if rule is not None:
                    schema = schemas.get(namespace, self.spaces.schemas.get(namespace))
                    if schema is None or items.replace:
                        schema = rule.create(items.metas)
                    metas, defaults = rule.conform(schema, items.metas, items.append)
                    schemas[namespace] = schema
                    if keep_new and not items.append:  # after the schema, as LanceDB checks
                        self._check_repeats(namespace, items)
                    typed = dataclasses.replace(
                        items,
                        metas=cast("list[dict[str, Any] | None]", metas),
                        defaults=defaults,
                        schema=schema,
                    )
                    out.append((namespace, typed))
                    continue
                if keep_new and not items.append:
                    self._check_repeats(namespace, items)
            out.append((namespace, items))
        return out

    def _check_repeats(self, namespace: str, batch: Batch) -> None:
        seen: set[str] = set()
        for record_id in batch.ids:
            if record_id in seen and self._exists_latest(namespace, record_id):
                raise ValueError(self._profile.duplicate_ids_message.format(ids=record_id))
            seen.add(record_id)

    def refresh(self) -> None:
        """Apply every held write, in the order it was made."""
        for namespace, items in self.pending.drain():
            if isinstance(items, Batch):
                self._write(namespace, items)
            else:
                self.spaces.delete(namespace, items)

    def _upsert(self, namespace: str, batch: Batch) -> None:
        if self._manual:
            self.pending.upsert(namespace, batch)
        else:
            self._write(namespace, batch)

    def _write(self, namespace: str, batch: Batch) -> None:
        assert self.dimension is not None  # fixed by apply() before any upsert
        if batch.replace:
            self.spaces.drop(namespace)
        self.spaces.upsert(namespace, batch, self.dimension, batch.schema)

    @property
    def immediate(self) -> bool:
        """Whether writes are applied at once (not held for ``refresh``)."""
        return not self._manual

    def remove_rows(self, namespace: str, rows: list[int]) -> int:
        """Delete rows of a namespace now (immediate visibility only); how many went."""
        part = self.spaces.get(namespace)
        if part is None or not rows:
            return 0
        return part.remove_rows(rows, keep_orphans=self.spaces.orphaned_ids)

    def _delete(self, namespace: str, ids: list[str]) -> int:
        if not self._manual:
            return self.spaces.delete(namespace, ids)
        existed = sum(self._exists_latest(namespace, i) for i in ids)
        self.pending.delete(namespace, ids)
        return existed

    def _exists_latest(self, namespace: str, record_id: str) -> bool:
        pending = self.pending.exists(namespace, record_id)
        return self.spaces.exists(namespace, record_id) if pending is None else pending
