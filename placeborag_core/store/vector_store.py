"""FakeVectorStore: a deterministic in-memory vector store whose backend behaviour is a profile.

The public face of the store layer: it checks arguments, holds the lock, and hands the work to
its collaborators (``batches`` builds writes, ``namespaces`` holds the partitions, ``pending``
the held writes, ``ranking`` and ``tracing`` the query pipeline described in the package
docstring).
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import numpy.typing as npt

from placeborag_core.backends import Profile
from placeborag_core.errors import RetrievalTimeout
from placeborag_core.messages import shown
from placeborag_core.records import Record
from placeborag_core.store.batches import BatchBuilder
from placeborag_core.store.faults import FailureQueue
from placeborag_core.store.inputs import (
    check_embedder,
    check_namespace,
    check_store_options,
    delete_ids,
    resolve_profile,
)
from placeborag_core.store.listing import Listing
from placeborag_core.store.ranking import Ranker
from placeborag_core.store.reading import ReadMethods, Where
from placeborag_core.store.writes import WriteBatch, Writer

if TYPE_CHECKING:
    from placeborag_core.embedding.embedder import FakeEmbedder

__all__ = ["FakeVectorStore", "RecordInput"]

RecordInput = Record | tuple[Any, ...] | Mapping[str, Any]


class FakeVectorStore(ReadMethods):
    """An in-memory vector store for tests; see the module docstring for the query pipeline.

    ``profile`` is a name from ``PROFILES`` or a :class:`Profile`; ``metric`` selects another of
    that engine's metrics. ``filter_mode`` is ``"pre"`` (filter, then top-k: always k results when
    k records match) or ``"post"`` (top-``fetch_k``, then filter: possibly fewer). ``recall`` in
    [0, 1] makes each record visible to a given query with that probability, deterministically.
    ``visibility="manual"`` holds writes and deletes until :meth:`refresh`. ``orphaned_ids=True``
    leaves deleted ids in the index (returned with ``text=None``) until :meth:`compact`.

    ``copy.copy`` and ``copy.deepcopy`` both give an independent store with the same records,
    held writes, orphans, armed failures and settings (``copy.copy`` shares the embedder); it
    pickles too.
    """

    def __init__(  # noqa: PLR0917 - the contract's signature
        self,
        embedder: FakeEmbedder | None = None,
        profile: str | Profile = "default",
        metric: str | None = None,
        filter_mode: Literal["pre", "post"] = "pre",
        recall: float = 1.0,
        visibility: Literal["immediate", "manual"] = "immediate",
        orphaned_ids: bool = False,
    ) -> None:
        self._profile = resolve_profile(profile, metric)
        check_store_options(filter_mode, recall, visibility, orphaned_ids)
        check_embedder(embedder)
        self._embedder = embedder
        self._filter_mode: Literal["pre", "post"] = filter_mode
        self._recall = float(recall)
        self._visibility: Literal["immediate", "manual"] = visibility
        self._orphaned_ids = orphaned_ids
        self._lock = threading.RLock()
        self._writer = Writer(self._profile, visibility, orphaned_ids=orphaned_ids)
        self._spaces = self._writer.spaces
        self._failures = FailureQueue()
        self._batches = BatchBuilder(self._profile, lambda: self.embedder, hash_ids=recall < 1.0)
        self._ranker = Ranker(self._profile, filter_mode, self._recall)
        self._listing = Listing(self._profile)

    def __getstate__(self) -> dict[str, Any]:
        """Pickle every record, held write, orphan, armed failure and setting; the lock and
        the batch builder (which holds a closure) are rebuilt by :meth:`__setstate__`."""
        with self._lock:
            state = dict(self.__dict__)
        del state["_lock"], state["_batches"]
        return state

    def __copy__(self) -> FakeVectorStore:
        """``copy.copy(store)``: an independent store, as ``copy.deepcopy`` makes one (records,
        held writes, orphans, armed failures and settings copied, so writes and queries through
        either leave the other alone), sharing only the embedder, which holds no records. A copy
        sharing the records would be a second handle on them without the original's lock."""
        with self._lock:
            embedder = self._embedder
            memo: dict[int, Any] = {} if embedder is None else {id(embedder): embedder}
            return copy.deepcopy(self, memo)

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._lock = threading.RLock()
        self._batches = BatchBuilder(
            self._profile, lambda: self.embedder, hash_ids=self._recall < 1.0
        )

    # ------------------------------------------------------------------ read-only settings

    @property
    def profile(self) -> Profile:
        """The backend profile (with the selected metric)."""
        return self._profile

    @property
    def filter_mode(self) -> Literal["pre", "post"]:
        """``"pre"`` or ``"post"``."""
        return self._filter_mode

    @property
    def recall(self) -> float:
        """Probability that a record is visible to a given query."""
        return self._recall

    @property
    def visibility(self) -> Literal["immediate", "manual"]:
        """``"immediate"`` or ``"manual"`` (writes wait for :meth:`refresh`)."""
        return self._visibility

    @property
    def orphaned_ids(self) -> bool:
        """Whether deleted ids stay in the index until :meth:`compact`."""
        return self._orphaned_ids

    @property
    def embedder(self) -> FakeEmbedder:
        """The embedder for text; a default ``FakeEmbedder`` is created on first use."""
        with self._lock:
            if self._embedder is None:
                from placeborag_core.embedding.embedder import FakeEmbedder

                self._embedder = FakeEmbedder()
            return self._embedder

    @property
    def dimension(self) -> int | None:
        """The vector width, fixed by the first vector written; None before any write."""
        return self._writer.dimension

    @property
    def pending_writes(self) -> int:
        """Upserted records and deleted ids waiting for :meth:`refresh` (manual visibility)."""
        with self._lock:
            return len(self._writer.pending)

    # ------------------------------------------------------------------ writes

    def upsert(
        self,
        id: str,
        text: str | None,
        metadata: Mapping[str, Any] | None = None,
        *,
        vector: Sequence[float] | npt.NDArray[np.floating] | None = None,
        namespace: str = "",
    ) -> None:
        """Insert or replace one record; see :meth:`upsert_many`."""
        self.upsert_many([(id, text, metadata, vector)], namespace=namespace)

    def upsert_many(self, records: Iterable[RecordInput], *, namespace: str = "") -> None:
        """Insert or replace records, all or nothing.

        Each record is a :class:`Record`, a tuple ``(id, text[, metadata[, vector]])`` or a mapping
        with keys ``id``, ``text``, ``metadata``, ``vector``. Records without a vector are embedded
        with one ``embed_many`` call; records with one never reach the embedder. The whole batch is
        validated (ids, texts, metadata, vector width, NaN/inf) before anything is written.
        Under the ``chroma`` profile an upsert merges metadata into the stored record, a None
        metadata value removes its key, and a None text keeps the stored text; other profiles
        replace the record.
        """
        with self.batch() as batch:
            batch.upsert_many(records, namespace=namespace)

    def append_many(
        self, records: Iterable[RecordInput], *, namespace: str = "", replace: bool = False
    ) -> None:
        """Append records as new rows, all or nothing, under a profile whose engine has no
        primary key (``Profile.append_writes``: LanceDB's ``table.add``): an id already stored,
        or repeated in the batch, gets another row, and queries return every row. Records are
        given as to :meth:`upsert_many`; other profiles raise ``ValueError``. ``replace=True``:
        the records replace every row of the namespace and its table schema is inferred from
        them anew (``table.add(mode="overwrite")``)."""
        with self.batch() as batch:
            batch.append_many(records, namespace=namespace, replace=replace)

    @contextmanager
    def batch(self) -> Iterator[WriteBatch]:
        """Writes applied all at once, across namespaces::

            with store.batch() as batch:
                batch.upsert_many(records, namespace="a")
                batch.delete(["old"], namespace="b")

        Each call checks its input when it is made; if one raises, or the block does, nothing is
        written. The writes are applied in order when the block ends (held until
        :meth:`refresh` under ``visibility="manual"``).
        """
        batch = WriteBatch(self._batches, self._profile)
        try:
            yield batch
            with self._lock:
                self._writer.apply(batch)
        finally:
            batch.closed = True

    def delete(
        self,
        ids: str | Iterable[str] | None = None,
        *,
        namespace: str = "",
        where: Where | None = None,
        where_document: Mapping[str, Any] | None = None,
    ) -> int:
        """Delete records by id; returns how many of them existed. Missing ids are ignored.

        With ``where`` and/or ``where_document`` (Chroma's delete by filter) the records that
        pass them, among ``ids`` if given, are deleted; the filters see what a query sees now
        (pending writes excluded). Under ``visibility="manual"`` the delete waits for
        :meth:`refresh` (the count is taken against the state including pending writes). With
        ``orphaned_ids=True`` the vectors stay in the index as orphans until :meth:`compact`.
        """
        filtered = where is not None or where_document is not None
        predicate = self._predicate(where, where_document, call="delete") if filtered else None
        check_namespace(namespace)
        if ids is None and predicate is None:
            raise ValueError("delete() needs ids, a where filter or a where_document filter")
        unique = [self._profile.ids.lookup(i) for i in delete_ids(ids)]
        with self._lock:
            if predicate is not None:
                part = self._spaces.get(namespace)
                among = None if ids is None else unique
                rows = [] if part is None else self._listing.passing_rows(part, predicate, among)
                if part is not None and self._profile.append_writes and self._writer.immediate:
                    # no primary key: the rows the filter matches go, not their ids' other rows
                    return self._writer.remove_rows(namespace, rows)
                unique = [part.row_id[r] for r in rows] if part is not None else []
            batch = WriteBatch(self._batches, self._profile)
            batch.writes.append((namespace, unique))
            return self._writer.apply(batch)[0]

    def refresh(self) -> None:
        """Make every pending write and delete visible, in the order they were made."""
        with self._lock:
            self._writer.refresh()

    def compact(self) -> None:
        """Drop orphaned ids from the index and compact tombstoned rows."""
        with self._lock:
            self._spaces.compact()

    # ------------------------------------------------------------------ faults

    def fail_next_query(
        self, error: BaseException | type[BaseException] | None = None, *, times: int = 1
    ) -> None:
        """Make the next ``times`` queries raise ``error`` (default :class:`RetrievalTimeout`).

        ``error`` is an exception instance (raised as is) or class (instantiated with a message).
        The failure fires before the query reads anything; writes are never affected.
        """
        with self._lock:
            self._failures.arm(RetrievalTimeout if error is None else error, times)

    def armed_failures(self) -> list[tuple[BaseException | type[BaseException], int]]:
        """The failures :meth:`fail_next_query` armed that have not fired yet, first to fire
        first: ``(error, times)`` as they would be armed again (for saving a store)."""
        with self._lock:
            return self._failures.armed()

    # ------------------------------------------------------------------ size and representation

    def __len__(self) -> int:
        """``len(store)``: the visible records of the default namespace ``""``, as
        :meth:`count` counts them (orphans and pending writes excluded). Other namespaces:
        ``store.count(namespace)``; the total over all of them is in ``repr(store)``."""
        return self.count()

    def __bool__(self) -> bool:
        """Always true, even when empty: a store is a handle, and ``store or default`` or
        ``if store:`` must not treat an empty one as missing (``__len__`` alone would)."""
        return True

    def __repr__(self) -> str:
        """One line for an assertion message: the profile, metric and filter mode, how many
        visible records the store holds over all namespaces and in how many namespaces, then
        only the settings that differ from the defaults (``recall``, ``visibility`` with the
        pending writes, ``orphaned_ids``). The embedder has its own repr."""
        with self._lock:
            names = self._spaces.names()
            records = sum(self.count(name) for name in names)
            pending = len(self._writer.pending)
        extras = [
            *([f"recall={self._recall}"] if self._recall < 1.0 else []),
            *([f"visibility='manual', pending={pending}"] if self._visibility == "manual" else []),
            *(["orphaned_ids=True"] if self._orphaned_ids else []),
        ]
        return (
            f"FakeVectorStore(profile={shown(self._profile.name)}, "
            f"metric={shown(self._profile.metric)}, "
            f"filter_mode={shown(self._filter_mode)}, records={records}, namespaces={len(names)}"
            + "".join(f", {extra}" for extra in extras)
            + ")"
        )
