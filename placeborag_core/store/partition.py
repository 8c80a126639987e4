"""One namespace's records: a contiguous float32 matrix plus the tables beside it.

Rows are appended in write order, so row order *is* insertion order: an upsert of an existing id
rewrites its row in place (it keeps its slot), a delete tombstones the row, and a re-added id gets a
fresh row at the end. Tombstones are compacted in bulk, keeping the relative order of the rows.
The matrix is row-major and grows geometrically; beside each row the partition keeps what the
scoring keys read (``store/scoring.py``): the reciprocal norm (float32) and an approximate squared
norm (float64), plus upper bounds of the norms and reciprocal norms for the error bound. Metadata
is indexed per key the first time a filter uses the key (which rows carry it, and which rows hold
each scalar value or list element), then kept current on every write, so equality filters become
set lookups.

An *orphan* is a row whose id was deleted while the store models index drift
(``orphaned_ids=True``): its vector stays searchable, its text and metadata are gone. An engine
without a primary key (LanceDB's ``table.add``) can hold an id in several rows; which rows hold
each id is ``store/id_rows.py``'s job, the per-key indexes ``store/column_index.py``'s, and the
metadata copies ``store/stored_metadata.py``'s.

Not thread-safe by itself: the store serialises every call with its lock.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from placeborag_core.backends.profile import UpsertPosition
from placeborag_core.records import Record
from placeborag_core.store.column_index import ColumnIndexes, KeyIndex
from placeborag_core.store.id_rows import IdRows
from placeborag_core.store.scoring import reciprocal_norms
from placeborag_core.store.stored_metadata import copy_metadata, without_none
from placeborag_core.store.write_batch import Batch

__all__ = ["Batch", "Partition", "copy_metadata"]

_MIN_CAPACITY = 16
_WRITE_ROWS = 2048  # rows copied into the matrix at a time
_EMPTY: Mapping[str, Any] = {}


class Partition:
    """The rows of one namespace."""

    def __init__(self, dimension: int) -> None:
        self.dimension = dimension
        self.matrix = np.empty((0, dimension), dtype=np.float32)
        self.inv_norms = np.empty(0, dtype=np.float32)
        self.sq_norms = np.empty(0, dtype=np.float64)
        self.norm_max = 0.0  # >= the norm of every row written since the last compaction
        self.inv_max = 0.0  # >= every reciprocal norm, likewise
        self.live = np.zeros(0, dtype=bool)
        self.id_hashes = np.zeros(0, dtype=np.uint64)
        self.n_rows = 0
        self.row_id: list[str] = []
        self.texts: list[str | None] = []
        self.metas: list[dict[str, Any] | None] = []
        self.rows = IdRows()
        self.orphans: dict[str, int] = {}
        self.schema: Any = None
        self._indexes = ColumnIndexes()
        self._dead = 0
        self.version = 0  # bumped by every write: what is derived from the rows is current

    # ------------------------------------------------------------------ reads

    def __len__(self) -> int:
        """Visible records (rows), duplicated ids counted once per row."""
        return len(self.rows)

    def live_rows(self) -> npt.NDArray[np.intp]:
        """Rows holding a vector in the index (records and orphans), ascending."""
        return np.flatnonzero(self.live[: self.n_rows])

    def metadata_at(self, row: int) -> Mapping[str, Any]:
        """The stored metadata of a row (empty for orphans and dead rows); not a copy."""
        return self.metas[row] or _EMPTY

    def id_at(self, row: int) -> str:
        """The id of the record in ``row``."""
        return self.row_id[row]

    def rows_of(self, ids: Iterable[str]) -> npt.NDArray[np.intp]:
        """The rows holding ``ids`` (live records and orphans), in order; unknown ids skipped;
        a duplicated id gives all its rows."""
        return self.rows.rows_of(ids, self.orphans)

    def ids_mask(self, ids: Iterable[str]) -> npt.NDArray[np.bool_]:
        """Rows holding one of ``ids`` (live records and orphans); unknown ids are skipped."""
        mask = np.zeros(self.n_rows, dtype=bool)
        mask[self.rows_of(ids)] = True
        return mask

    def text_at(self, row: int) -> str | None:
        """The stored text of a row (None for a record stored without text and for orphans)."""
        return self.texts[row] if self.metas[row] is not None else None

    def record_at(self, row: int, *, vector: bool = True) -> Record:
        """A copy of the record in ``row`` (text None and empty metadata for an orphan); with
        ``vector=False`` its vector is None (copying it is most of the cost)."""
        meta = self.metas[row]
        text = self.texts[row] if meta is not None else None
        stored = tuple(self.matrix[row].tolist()) if vector else None
        return Record(self.row_id[row], text, copy_metadata(meta), stored)

    def key_mask(self, key: str) -> npt.NDArray[np.bool_]:
        """Rows whose metadata carries ``key``."""
        out = np.zeros(self.n_rows, dtype=bool)
        out[self._index_for(key).present()] = True
        return out

    def value_mask(
        self, key: str, lookups: Iterable[tuple[str, Any]], elements: bool
    ) -> npt.NDArray[np.bool_]:
        """Rows whose scalar value (or, with ``elements``, a list element) has an index key in
        ``lookups``."""
        index = self._index_for(key)
        out = np.zeros(self.n_rows, dtype=bool)
        for lookup in lookups:
            for element in (False, True) if elements else (False,):
                out[index.rows_of(lookup, element)] = True
        return out

    def value_groups(self, key: str) -> list[tuple[Any, npt.NDArray[np.intp]]]:
        """Each scalar value of ``key`` with the rows holding it (``KeyIndex.groups``)."""
        return self._index_for(key).groups()

    def value_count(self, key: str) -> int:
        """How many distinct scalar values ``key`` holds, at most (``KeyIndex.distinct``)."""
        return self._index_for(key).distinct()

    def unindexed_rows(self, key: str) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
        """The rows whose ``key`` holds a list, and those holding another unindexed value."""
        return self._index_for(key).unindexed_rows()

    # ------------------------------------------------------------------ writes

    def put(
        self,
        batch: Batch,
        merge: bool,
        position: UpsertPosition = "keep",
        none_removes_key: bool = False,
    ) -> None:
        """Write a batch. New ids are appended in one block, in batch order. An existing id (every
        row of it, when duplicated) is updated in place (``position="keep"``), or deleted and
        re-appended: before the new ids (``"end"``: LanceDB's merge_insert), or with every
        record of the batch in batch order (``"end_in_order"``: PostgreSQL writes an updated
        row's new version at the end of the heap, Milvus deletes and inserts the batch). An
        ``append`` batch makes every record a new row. ``merge``: metadata is merged into the
        record's (else replaces it); ``none_removes_key``: a ``None`` value removes its key
        (merged or not) instead of being stored."""
        self.version += 1
        if batch.append:
            self._append(batch, list(range(len(batch))), none_removes_key)
            return
        new: list[int] = []
        moved: list[tuple[int, dict[str, Any] | None, str | None]] = []  # (index, meta, text)
        for i, record_id in enumerate(batch.ids):
            targets = self.rows.of(record_id)
            if not targets:
                orphan = self.orphans.pop(record_id, None)
                if orphan is not None:
                    self._kill(orphan)
                new.append(i)
                continue
            for row in targets:
                meta, text = self._updated(row, batch, i, merge, none_removes_key)
                if position != "keep":
                    moved.append((i, meta, text))
                    continue
                self.matrix[row] = batch.vectors[i]
                self._measure(row, row + 1)
                self.id_hashes[row] = batch.id_hashes[i]
                self.texts[row] = text
                self.metas[row] = meta
                self._indexes.add(row, meta)
            if position != "keep":
                self._drop_id(record_id)
        if position == "end_in_order" and moved:
            moved += [(i, batch.metas[i], batch.texts[i]) for i in new]
            moved.sort(key=lambda entry: entry[0])
            new = []
        if moved:
            picks = [i for i, _, _ in moved]
            rewritten = Batch(
                [batch.ids[i] for i in picks],
                [text for _, _, text in moved],
                [meta for _, meta, _ in moved],
                batch.vectors[picks],
                batch.id_hashes[picks],
            )
            self._append(rewritten, list(range(len(picks))), none_removes_key)
        if new:
            self._append(batch, new, none_removes_key)
        if moved:
            self._maybe_compact()

    def _updated(
        self, row: int, batch: Batch, i: int, merge: bool, none_removes_key: bool
    ) -> tuple[dict[str, Any], Any]:
        """The metadata and text ``row`` gets from record ``i`` of ``batch`` (unindexed)."""
        old_meta = self.metas[row] or {}
        self._indexes.discard(row, old_meta)
        given_meta, given_text = batch.metas[i], batch.texts[i]
        if merge:
            meta = {**old_meta, **(given_meta or {})}
            text = self.texts[row] if given_text is None else given_text
        else:
            meta, text = {**(batch.defaults or {}), **(given_meta or {})}, given_text
        if none_removes_key:
            meta = without_none(meta)
        return meta, text

    def _drop_id(self, record_id: str) -> None:
        """Forget every row of a visible id (already unindexed)."""
        for row in self.rows.of(record_id):
            self.texts[row] = None
            self.metas[row] = None
            self._kill(row)
        self.rows.forget(record_id)

    def _append(self, batch: Batch, picks: list[int], none_removes_key: bool) -> None:
        start, count = self.n_rows, len(picks)
        everything = count == len(batch)
        block = batch.vectors if everything else batch.vectors[picks]
        self._reserve(start + count)
        stop = start + count
        self.matrix[start:stop] = block
        self._measure(start, stop)
        self.live[start:stop] = True
        self.id_hashes[start:stop] = batch.id_hashes if everything else batch.id_hashes[picks]
        ids = batch.ids if everything else [batch.ids[i] for i in picks]
        texts = batch.texts if everything else [batch.texts[i] for i in picks]
        metas = (
            [m or {} for m in batch.metas] if everything else [batch.metas[i] or {} for i in picks]
        )
        if batch.defaults:
            metas = [{**batch.defaults, **m} for m in metas]
        if none_removes_key:
            metas = [without_none(m) for m in metas]
        self.row_id.extend(ids)
        self.texts.extend(texts)
        self.metas.extend(metas)
        self.rows.add_block(ids, start, batch.append)
        self.n_rows = stop
        if self._indexes:
            for row, meta in zip(range(start, stop), metas, strict=True):
                self._indexes.add(row, meta)

    def _measure(self, start: int, stop: int) -> None:
        """The norms of rows ``start:stop`` (float64 sums of the exact float32 squares, in
        cache-sized blocks), and the bounds over them."""
        for first in range(start, stop, _WRITE_ROWS):
            last = min(first + _WRITE_ROWS, stop)
            block = self.matrix[first:last]
            squared = np.einsum("ij,ij->i", block, block, dtype=np.float64)
            self.sq_norms[first:last] = squared
            self.inv_norms[first:last] = reciprocal_norms(squared)
            if last > first:
                # relative error of the sum <= n * 2**-53, far below the 2**-20 margin
                top = float(np.sqrt(squared.max())) * (1 + 2.0**-20)
                self.norm_max = max(self.norm_max, top)
                inv = float(self.inv_norms[first:last].max()) * (1 + 2.0**-20)
                self.inv_max = max(self.inv_max, inv)

    def _reserve(self, needed: int) -> None:
        capacity = self.matrix.shape[0]
        if needed > capacity:
            self._resize(max(capacity * 2, needed))

    def _resize(self, wanted: int) -> None:
        """Reallocate every per-row array to hold ``wanted`` rows (at least the rows in use and
        the minimum capacity), if that changes its size."""
        capacity = max(_MIN_CAPACITY, wanted, self.n_rows)
        if capacity == self.matrix.shape[0]:
            return
        matrix = np.empty((capacity, self.dimension), dtype=np.float32)
        matrix[: self.n_rows] = self.matrix[: self.n_rows]
        self.matrix = matrix
        self.inv_norms = _grow(self.inv_norms, capacity, self.n_rows)
        self.sq_norms = _grow(self.sq_norms, capacity, self.n_rows)
        self.live = _grow(self.live, capacity, self.n_rows)
        self.id_hashes = _grow(self.id_hashes, capacity, self.n_rows)

    def remove(self, ids: Iterable[str], keep_orphans: bool) -> int:
        """Delete ids; returns how many existed. With ``keep_orphans`` the vectors stay."""
        self.version += 1
        removed = self._remove_ids(ids, keep_orphans)
        self._maybe_compact()
        return removed

    def _remove_ids(self, ids: Iterable[str], keep_orphans: bool) -> int:
        """:meth:`remove` without the compaction (row numbers stay valid)."""
        removed = 0
        for record_id in ids:
            rows = self.rows.of(record_id)
            if not rows:
                continue
            removed += 1
            for row in rows:
                self._indexes.discard(row, self.metas[row] or {})
            if keep_orphans:
                first, *rest = rows
                self.texts[first] = None
                self.metas[first] = None
                self.orphans[record_id] = first
                self.rows.forget(record_id)
                for row in rest:
                    self.texts[row] = None
                    self.metas[row] = None
                    self._kill(row)
            else:
                self._drop_id(record_id)
        return removed

    def remove_rows(self, rows: Iterable[int], keep_orphans: bool) -> int:
        """Delete these rows (an engine without a primary key deletes the rows a filter
        matches, not every row of their ids); returns how many rows went. An id left with no
        row goes as :meth:`remove` deletes it."""
        self.version += 1
        count = 0
        for record_id, current, gone in self.rows.split(rows, self.row_id):
            left = [row for row in current if row not in gone]
            count += len(current) - len(left)
            if not left:
                self._remove_ids([record_id], keep_orphans)  # compacted once, at the end
                continue
            for row in current:
                if row in gone:
                    self._indexes.discard(row, self.metas[row] or {})
                    self.texts[row] = None
                    self.metas[row] = None
                    self._kill(row)
            self.rows.keep(record_id, current, left)
        self._maybe_compact()
        return count

    def drop_orphans(self) -> None:
        """Remove every orphan from the index, then compact and give spare capacity back: the
        arrays shrink to the rows left (what ``FakeVectorStore.compact`` promises)."""
        self.version += 1
        for row in self.orphans.values():
            self._kill(row)
        self.orphans.clear()
        if self._dead:
            self._compact()
        self._resize(self.n_rows)

    def _kill(self, row: int) -> None:
        self.live[row] = False
        self._dead += 1

    def _maybe_compact(self) -> None:
        """Compact once more than half the rows (and over 1,024) are dead; then an array more
        than four times larger than the rows left shrinks to twice their number, so memory
        follows the records down without a copy on every delete."""
        if self._dead > max(1024, self.n_rows // 2):
            self._compact()
            if self.matrix.shape[0] > 4 * max(self.n_rows, _MIN_CAPACITY):
                self._resize(2 * self.n_rows)

    def _compact(self) -> None:
        keep = self.live_rows()
        count = len(keep)
        self.matrix[:count] = self.matrix[keep]
        self.norm_max = self.inv_max = 0.0  # the norms and bounds of the rows left
        self._measure(0, count)
        self.id_hashes[:count] = self.id_hashes[keep]
        self.live[:] = False
        self.live[:count] = True
        old_ids, old_texts, old_metas = self.row_id, self.texts, self.metas
        positions = keep.tolist()
        self.row_id = [old_ids[r] for r in positions]
        self.texts = [old_texts[r] for r in positions]
        self.metas = [old_metas[r] for r in positions]
        self.n_rows = count
        self._dead = 0
        self.rows = IdRows()
        self.orphans = {}
        self._indexes = ColumnIndexes()
        for row, record_id in enumerate(self.row_id):
            if self.metas[row] is None:
                self.orphans[record_id] = row
            else:
                self.rows.add(record_id, row)

    def _index_for(self, key: str) -> KeyIndex:
        """The index of one metadata key, built on first use and kept current afterwards."""
        return self._indexes.of(key, self.metas, lambda: self.live_rows().tolist())


def _grow(array: npt.NDArray[Any], capacity: int, used: int) -> npt.NDArray[Any]:
    grown = np.zeros(capacity, dtype=array.dtype)
    grown[:used] = array[:used]
    return grown
