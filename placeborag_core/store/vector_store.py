"""FakeVectorStore: a deterministic in-memory vector store whose backend behaviour is a profile.

The public face of the store layer: it checks arguments, holds the lock, and hands the work to
its collaborators (``batches`` builds writes, ``namespaces`` holds the partitions, ``pending``
the held writes, ``ranking`` and ``tracing`` the query pipeline described in the package
docstring).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import numpy.typing as npt

from placeborag_core.backends import Profile
from placeborag_core.errors import RetrievalTimeout
from placeborag_core.filters.compiler import compile_filter_or_callable
from placeborag_core.filters.documents import compile_document_filter
from placeborag_core.filters.predicates import Predicate, all_of
from placeborag_core.records import Match, Record, Trace
from placeborag_core.store.batches import BatchBuilder
from placeborag_core.store.faults import FailureQueue
from placeborag_core.store.inputs import (
    as_vector,
    check_namespace,
    check_store_options,
    delete_ids,
    resolve_profile,
)
from placeborag_core.store.listing import Listing
from placeborag_core.store.mmr import check_mmr_options, mmr_order
from placeborag_core.store.namespaces import Namespaces
from placeborag_core.store.partition import Batch, copy_metadata
from placeborag_core.store.pending import PendingWrites
from placeborag_core.store.ranking import Ranker
from placeborag_core.store.tracing import trace_rows

if TYPE_CHECKING:
    from placeborag_core.embedding.embedder import FakeEmbedder

__all__ = ["FakeVectorStore"]

QueryInput = str | Sequence[float] | npt.NDArray[np.floating]
Where = Mapping[str, Any] | Callable[[Record], bool] | Predicate
RecordInput = Record | tuple[Any, ...] | Mapping[str, Any]


class FakeVectorStore:
    """An in-memory vector store for tests; see the module docstring for the query pipeline.

    ``profile`` is a name from ``PROFILES`` or a :class:`Profile`; ``metric`` selects another of
    that engine's metrics. ``filter_mode`` is ``"pre"`` (filter, then top-k: always k results when
    k records match) or ``"post"`` (top-``fetch_k``, then filter: possibly fewer). ``recall`` in
    [0, 1] makes each record visible to a given query with that probability, deterministically.
    ``visibility="manual"`` holds writes and deletes until :meth:`refresh`. ``orphaned_ids=True``
    leaves deleted ids in the index (returned with ``text=None``) until :meth:`compact`.
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
        self._embedder = embedder
        self._filter_mode: Literal["pre", "post"] = filter_mode
        self._recall = float(recall)
        self._visibility: Literal["immediate", "manual"] = visibility
        self._orphaned_ids = orphaned_ids
        self._lock = threading.RLock()
        self._dimension: int | None = None
        self._spaces = Namespaces(self._profile, orphaned_ids=orphaned_ids)
        self._pending = PendingWrites()
        self._failures = FailureQueue()
        self._batches = BatchBuilder(self._profile, lambda: self.embedder, hash_ids=recall < 1.0)
        self._ranker = Ranker(self._profile, filter_mode, self._recall)
        self._listing = Listing(self._profile)

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
        return self._dimension

    @property
    def pending_writes(self) -> int:
        """Upserted records and deleted ids waiting for :meth:`refresh` (manual visibility)."""
        with self._lock:
            return len(self._pending)

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
        Under the ``chroma`` profile an upsert merges metadata into the stored record and a None
        text keeps the stored text; other profiles replace the record.
        """
        check_namespace(namespace)
        batch = self._batches.build(records)
        if batch is None:
            return
        width = batch.vectors.shape[1]
        with self._lock:
            if self._dimension is not None and width != self._dimension:
                raise self._profile.dimension_error(
                    f"vector dimension mismatch: the store holds vectors of dimension "
                    f"{self._dimension}, got {width}"
                )
            self._dimension = width
            if self._visibility == "manual":
                self._pending.upsert(namespace, batch)
            else:
                self._apply_upsert(namespace, batch)

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
        unique = delete_ids(ids)
        with self._lock:
            if predicate is not None:
                part = self._spaces.get(namespace)
                among = None if ids is None else unique
                rows = [] if part is None else self._listing.passing_rows(part, predicate, among)
                unique = [part.row_id[r] for r in rows] if part is not None else []
            if self._visibility == "manual":
                existed = sum(self._exists_latest(namespace, i) for i in unique)
                self._pending.delete(namespace, unique)
                return existed
            return self._spaces.delete(namespace, unique)

    def refresh(self) -> None:
        """Make every pending write and delete visible, in the order they were made."""
        with self._lock:
            for namespace, items in self._pending.drain():
                if isinstance(items, Batch):
                    self._apply_upsert(namespace, items)
                else:
                    self._spaces.delete(namespace, items)

    def compact(self) -> None:
        """Drop orphaned ids from the index and compact tombstoned rows."""
        with self._lock:
            self._spaces.compact()

    # ------------------------------------------------------------------ record reads

    def get(self, id: str, *, namespace: str = "") -> Record | None:
        """A copy of a visible record, or None."""
        check_namespace(namespace)
        with self._lock:
            part = self._spaces.get(namespace)
            row = None if part is None else part.rows.get(id)
            if part is None or row is None:
                return None
            return part.record_at(row)

    def ids(self, namespace: str = "") -> list[str]:
        """Visible ids in the profile's listing order (insertion order, or Qdrant's id order)."""
        check_namespace(namespace)
        with self._lock:
            part = self._spaces.get(namespace)
            if part is None:
                return []
            return [part.row_id[row] for row in self._listing.visible_rows(part)]

    def count(self, namespace: str = "") -> int:
        """How many visible records the namespace holds (orphans excluded)."""
        check_namespace(namespace)
        with self._lock:
            part = self._spaces.get(namespace)
            return 0 if part is None else len(part)

    def namespaces(self) -> list[str]:
        """Sorted names of the namespaces that hold visible records."""
        with self._lock:
            return self._spaces.names()

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

    # ------------------------------------------------------------------ queries

    def query(
        self,
        query: QueryInput,
        k: int = 4,
        *,
        where: Where | None = None,
        namespace: str = "",
        ids: Collection[str] | None = None,
        fetch_k: int | None = None,
        where_document: Mapping[str, Any] | None = None,
    ) -> list[Match]:
        """The ``k`` best records for a text or a vector, best first, by the profile's score.

        ``where`` filters on metadata (see ``filters.py``) and ``where_document`` on the text
        (Chroma's dialect, see ``document_filters.py``), both at the filter step; ``ids``
        restricts candidates to those ids (an empty collection allows none); ``fetch_k`` is how
        many nearest records filter mode ``post`` fetches before filtering (default ``k``;
        ignored in ``pre``). Fewer than ``k`` results come back when fewer records qualify.
        """
        self._fire_failure()
        self._check_k(k)
        if fetch_k is not None:
            self._check_k(fetch_k)
        predicate = self._predicate(where, where_document)
        check_namespace(namespace)
        vector = self._query_vector(query)
        fetch = k if fetch_k is None or self._filter_mode == "pre" else fetch_k
        with self._lock:
            return self._ranked(vector, k, fetch, predicate, namespace=namespace, ids=ids)

    def _ranked(
        self,
        vector: npt.NDArray[np.float64] | None,
        k: int,
        fetch: int,
        predicate: Predicate,
        *,
        namespace: str,
        ids: Collection[str] | None,
    ) -> list[Match]:
        """Steps 2-8 for checked arguments, under the lock."""
        part = self._spaces.get(namespace)
        if part is None or vector is None:
            return []
        rows, scores = self._ranker.rank(part, vector, predicate, ids, fetch)
        if self._filter_mode == "post":
            kept = [i for i, row in enumerate(rows) if predicate.row_matches(part, row)]
            rows, scores = rows[kept], scores[kept]
        return self._ranker.matches(part, vector, rows[:k], scores[:k])

    def max_marginal_relevance(
        self,
        query: QueryInput,
        k: int = 4,
        *,
        fetch_k: int = 20,
        lambda_mult: float = 0.5,
        where: Where | None = None,
        namespace: str = "",
        ids: Collection[str] | None = None,
        redundancy: Literal["max", "last"] = "max",
        order: Literal["pick", "rank"] = "pick",
        where_document: Mapping[str, Any] | None = None,
    ) -> list[Match]:
        """MMR re-ranking of the normal query's ``fetch_k`` candidates.

        Uses LangChain's convention: ``lambda_mult=1`` is pure relevance, ``0`` pure diversity.
        ``redundancy="max"`` penalises the closest earlier pick (langchain-core); ``"last"`` only
        the most recent pick (LlamaIndex's ``get_top_k_mmr_embeddings``). ``order="pick"`` returns
        the picks in pick order (langchain-core, FAISS); ``"rank"`` in the query's ranking order
        (langchain-chroma).
        """
        self._fire_failure()
        self._check_k(k)
        check_mmr_options(lambda_mult, redundancy, order)
        self._check_k(fetch_k)
        predicate = self._predicate(where, where_document)
        check_namespace(namespace)
        vector = self._query_vector(query)
        if vector is None:
            return []
        with self._lock:  # candidates and their vectors from one state
            candidates = self._ranked(
                vector, fetch_k, fetch_k, predicate, namespace=namespace, ids=ids
            )
            part = self._spaces.get(namespace)
            if not candidates or part is None:
                return []
            matrix = part.matrix[part.rows_of([m.id for m in candidates])]
        picks = mmr_order(vector, matrix, k, lambda_mult, redundancy)
        if order == "rank":
            picks.sort()
        return [candidates[i] for i in picks]

    def select(
        self,
        where: Where | None = None,
        *,
        ids: Collection[str] | None = None,
        namespace: str = "",
        limit: int | None = None,
        where_document: Mapping[str, Any] | None = None,
    ) -> list[Record]:
        """Copies of the visible records that pass ``where``, ``where_document`` and ``ids``, in
        listing order.

        A read without a query vector (Chroma's ``get``, Qdrant's ``scroll``): the same filter
        validation and semantics as :meth:`query`, no recall dropout, no injected failures.
        """
        predicate = self._predicate(where, where_document, call="get")
        check_namespace(namespace)
        if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int)):
            raise TypeError(f"limit must be an int or None, got {limit!r}")
        with self._lock:
            part = self._spaces.get(namespace)
            if part is None:
                return []
            rows = self._listing.passing_rows(part, predicate, ids)
            if limit is not None:
                rows = rows[: max(limit, 0)]
            return [part.record_at(row) for row in rows]

    def snapshot(
        self, namespace: str = ""
    ) -> tuple[list[str], list[str | None], list[dict[str, Any]], npt.NDArray[np.float32]]:
        """A bulk read of a namespace: ids in listing order, texts, metadata copies, and a copy
        of the stored vectors (float32, one row per id)."""
        check_namespace(namespace)
        with self._lock:
            part = self._spaces.get(namespace)
            if part is None:
                return [], [], [], np.empty((0, self._dimension or 0), dtype=np.float32)
            rows = self._listing.visible_rows(part)
            return (
                [part.row_id[r] for r in rows],
                [part.texts[r] for r in rows],
                [copy_metadata(part.metas[r]) for r in rows],
                part.matrix[rows].copy(),
            )

    def trace(
        self,
        query: QueryInput,
        *,
        where: Where | None = None,
        namespace: str = "",
        ids: Collection[str] | None = None,
        where_document: Mapping[str, Any] | None = None,
    ) -> list[Trace]:
        """Why each record the namespace knows is, or is not, returned for this query.

        One :class:`Trace` per visible record, orphan and pending write, ranked ones first in the
        order an unbounded ``k`` would return them. Never consumes an injected failure and never
        changes state.
        """
        predicate = self._predicate(where, where_document)
        check_namespace(namespace)
        vector = self._query_vector(query)
        with self._lock:
            part = self._spaces.get(namespace)
            traces: list[Trace] = []
            known: set[str] = set()
            if part is not None and vector is not None:
                traces = trace_rows(self._ranker, part, vector, predicate, ids)
                known = {t.id for t in traces}
            for record_id in self._pending.upserted_ids(namespace):
                if record_id not in known:
                    known.add(record_id)
                    traces.append(Trace(record_id, "not_visible", None, None, None))
            return traces

    # ------------------------------------------------------------------ pipeline steps

    def _predicate(self, where: Any, where_document: Any, call: str = "query") -> Predicate:
        """Step 0: both filters validated and compiled, before anything is read; ``call`` names
        the operation in the profile's error messages (Chroma: "... in get.")."""
        dialect = self._profile.filters
        return all_of(
            [
                compile_filter_or_callable(where, dialect, call),
                compile_document_filter(where_document, dialect.error_suffix.format(call=call)),
            ]
        )

    def _fire_failure(self) -> None:
        with self._lock:
            error = self._failures.take()
        if error is not None:
            raise error

    def _check_k(self, k: Any) -> None:
        self._profile.k.check(k)

    def _query_vector(self, query: QueryInput) -> npt.NDArray[np.float64] | None:
        """The query as a float64 vector (text goes through the embedder); None while empty."""
        if isinstance(query, str):
            vector = np.asarray(self.embedder.embed_many([query])[0], dtype=np.float64)
        else:
            vector = as_vector(query, "query vector", self._profile)
        if self._dimension is None:
            return None
        if len(vector) != self._dimension:
            raise self._profile.dimension_error(
                f"query vector dimension mismatch: the store holds vectors of dimension "
                f"{self._dimension}, got {len(vector)}"
            )
        return vector

    def _apply_upsert(self, namespace: str, batch: Batch) -> None:
        assert self._dimension is not None  # fixed by the write that made the batch
        self._spaces.upsert(namespace, batch, self._dimension)

    def _exists_latest(self, namespace: str, record_id: str) -> bool:
        pending = self._pending.exists(namespace, record_id)
        return self._spaces.exists(namespace, record_id) if pending is None else pending

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
            pending = len(self._pending)
        extras = [
            *([f"recall={self._recall}"] if self._recall < 1.0 else []),
            *([f"visibility='manual', pending={pending}"] if self._visibility == "manual" else []),
            *(["orphaned_ids=True"] if self._orphaned_ids else []),
        ]
        return (
            f"FakeVectorStore(profile={self._profile.name!r}, metric={self._profile.metric!r}, "
            f"filter_mode={self._filter_mode!r}, records={records}, namespaces={len(names)}"
            + "".join(f", {extra}" for extra in extras)
            + ")"
        )
