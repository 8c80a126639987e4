"""FakeVectorStore: a deterministic in-memory vector store whose backend behaviour is a profile.

The store is one collection: its vector width is fixed by the first vector ever written (in any
namespace) and stays fixed, as Chroma, Qdrant and Pinecone fix it per collection/index. Namespaces
partition that collection and are walls: each has its own rows and index, and every read and write
names exactly one.

Query pipeline (each step a small method, in this order):

0. an injected failure fires (``fail_next_query``), before anything else;
1. ``k`` is checked and the filter compiled under the profile's dialect (raises before any read);
2. the namespace's visible rows are taken (pending writes under ``visibility="manual"`` are not);
3. the ``ids=`` restriction and, in filter mode ``pre``, the filter mask are applied;
4. recall dropout removes each row with probability ``1 - recall`` (keyed hash of query and id);
5. the profile's formula scores every row in one pass over the matrix;
6. the best rows are selected with ``argpartition`` and ordered by the profile's tie rule (which
   also decides which of the records tied at the cut survive: see ``profiles.TieRule``);
7. in filter mode ``post`` the filter runs on the ``fetch_k`` selected rows (so fewer than ``k``
   may remain) and the list is cut to ``k``;
8. ``Match`` objects are built with copies of the text and metadata.

Thread safety: one re-entrant lock serialises every state change and every query's read.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import numpy.typing as npt

from placeborag_core.backends import PROFILES, Profile
from placeborag_core.errors import RetrievalTimeout
from placeborag_core.filters.compiler import compile_filter_or_callable
from placeborag_core.filters.documents import compile_document_filter
from placeborag_core.filters.predicates import Predicate, all_of
from placeborag_core.records import Match, Record, Trace, TraceStatus
from placeborag_core.store.faults import FailureQueue, id_hash, query_hash, recall_keep_mask
from placeborag_core.store.mmr import mmr_order
from placeborag_core.store.partition import Batch, Partition, copy_metadata
from placeborag_core.store.scoring import row_cosines, score_rows

if TYPE_CHECKING:
    from placeborag_core.embedding.embedder import FakeEmbedder

__all__ = ["FakeVectorStore"]

QueryInput = str | Sequence[float] | npt.NDArray[np.floating]
Where = Mapping[str, Any] | Callable[[Record], bool] | Predicate
RecordInput = Record | tuple[Any, ...] | Mapping[str, Any]
_F32_MAX = float(np.finfo(np.float32).max)
_SCALARS = (str, int, float, bool)
_PLAIN = frozenset({str, int, float, bool, type(None)})


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
        self._profile = _resolve_profile(profile, metric)
        if filter_mode not in ("pre", "post"):
            raise ValueError(f"filter_mode must be 'pre' or 'post', got {filter_mode!r}")
        if isinstance(recall, bool) or not isinstance(recall, int | float):
            raise TypeError(f"recall must be a float in [0, 1], got {recall!r}")
        if not 0.0 <= recall <= 1.0:
            raise ValueError(f"recall must be in [0, 1], got {recall!r}")
        if visibility not in ("immediate", "manual"):
            raise ValueError(f"visibility must be 'immediate' or 'manual', got {visibility!r}")
        if not isinstance(orphaned_ids, bool):
            raise TypeError(f"orphaned_ids must be a bool, got {orphaned_ids!r}")
        self._embedder = embedder
        self._filter_mode: Literal["pre", "post"] = filter_mode
        self._recall = float(recall)
        self._visibility: Literal["immediate", "manual"] = visibility
        self._orphaned_ids = orphaned_ids
        self._lock = threading.RLock()
        self._dimension: int | None = None
        self._parts: dict[str, Partition] = {}
        self._pending: list[tuple[str, str, Batch | list[str]]] = []
        self._pending_exists: dict[tuple[str, str], bool] = {}
        self._failures = FailureQueue()

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
            return sum(len(items) for _, _, items in self._pending)

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
        _check_namespace(namespace)
        raw = [_unpack(item, index) for index, item in enumerate(records)]
        if not raw:
            return
        raw = self._dedupe(raw)
        block = self._vectors_for(raw)
        ids = [item[0] for item in raw]
        hashes = (
            np.fromiter((id_hash(i) for i in ids), dtype=np.uint64, count=len(ids))
            if self._recall < 1.0
            else np.zeros(len(ids), dtype=np.uint64)
        )
        batch = Batch(ids, [item[1] for item in raw], [item[2] for item in raw], block, hashes)
        width = block.shape[1]
        with self._lock:
            if self._dimension is not None and width != self._dimension:
                raise self._profile.dimension_error(
                    f"vector dimension mismatch: the store holds vectors of dimension "
                    f"{self._dimension}, got {width}"
                )
            self._dimension = width
            if self._visibility == "manual":
                self._pending.append(("upsert", namespace, batch))
                for record_id in ids:
                    self._pending_exists[(namespace, record_id)] = True
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
        _check_namespace(namespace)
        if ids is None and predicate is None:
            raise ValueError("delete() needs ids, a where filter or a where_document filter")
        id_list = [] if ids is None else [ids] if isinstance(ids, str) else list(ids)
        for record_id in id_list:
            if not isinstance(record_id, str):
                raise TypeError(
                    f"ids to delete must be str, got {type(record_id).__name__} {record_id!r}"
                )
        unique = list(dict.fromkeys(id_list))
        with self._lock:
            part = self._parts.get(namespace)
            if predicate is not None and part is None:
                unique = []
            elif predicate is not None and part is not None:
                among = None if ids is None else unique
                unique = [part.row_id[r] for r in self._passing_rows(part, predicate, among)]
            if self._visibility == "manual":
                existed = sum(self._exists_latest(namespace, i) for i in unique)
                self._pending.append(("delete", namespace, unique))
                for record_id in unique:
                    self._pending_exists[(namespace, record_id)] = False
                return existed
            return self._apply_delete(namespace, unique)

    def refresh(self) -> None:
        """Make every pending write and delete visible, in the order they were made."""
        with self._lock:
            pending, self._pending = self._pending, []
            self._pending_exists.clear()
            for _, namespace, items in pending:
                if isinstance(items, Batch):
                    self._apply_upsert(namespace, items)
                else:
                    self._apply_delete(namespace, items)

    def compact(self) -> None:
        """Drop orphaned ids from the index and compact tombstoned rows."""
        with self._lock:
            for name, part in list(self._parts.items()):
                part.drop_orphans()
                if part.n_rows == 0:
                    del self._parts[name]

    # ------------------------------------------------------------------ record reads

    def get(self, id: str, *, namespace: str = "") -> Record | None:
        """A copy of a visible record, or None."""
        _check_namespace(namespace)
        with self._lock:
            part = self._parts.get(namespace)
            row = None if part is None else part.rows.get(id)
            if part is None or row is None:
                return None
            return part.record_at(row)

    def ids(self, namespace: str = "") -> list[str]:
        """Visible ids in the profile's listing order (insertion order, or Qdrant's id order)."""
        _check_namespace(namespace)
        with self._lock:
            part = self._parts.get(namespace)
            if part is None:
                return []
            ordered = sorted(part.rows.items(), key=lambda item: item[1])
            listing = [record_id for record_id, _ in ordered]
        order_key = self._profile.ids.order_key
        if order_key is not None:
            listing.sort(key=order_key)
        return listing

    def count(self, namespace: str = "") -> int:
        """How many visible records the namespace holds (orphans excluded)."""
        _check_namespace(namespace)
        with self._lock:
            part = self._parts.get(namespace)
            return 0 if part is None else len(part)

    def namespaces(self) -> list[str]:
        """Sorted names of the namespaces that hold visible records."""
        with self._lock:
            return sorted(name for name, part in self._parts.items() if len(part))

    # ------------------------------------------------------------------ faults

    def fail_next_query(
        self, error: BaseException | type[BaseException] | None = None, *, times: int = 1
    ) -> None:
        """Make the next ``times`` queries raise ``error`` (default :class:`RetrievalTimeout`).

        ``error`` is an exception instance (raised as is) or class (instantiated with a message).
        The failure fires before the query reads anything; writes are never affected.
        """
        if error is None:
            error = RetrievalTimeout
        valid = isinstance(error, BaseException) or (
            isinstance(error, type) and issubclass(error, BaseException)
        )
        if not valid:
            raise TypeError(f"error must be an exception instance or class, got {error!r}")
        if isinstance(times, bool) or not isinstance(times, int) or times < 1:
            raise ValueError(f"times must be an int >= 1, got {times!r}")
        with self._lock:
            self._failures.arm(error, times)

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
        return self._query(
            query,
            k,
            where=where,
            namespace=namespace,
            ids=ids,
            fetch_k=fetch_k,
            where_document=where_document,
        )

    def _query(
        self,
        query: QueryInput,
        k: int,
        *,
        where: Where | None,
        namespace: str,
        ids: Collection[str] | None,
        fetch_k: int | None,
        where_document: Mapping[str, Any] | None = None,
    ) -> list[Match]:
        self._check_k(k)
        if fetch_k is not None:
            self._check_k(fetch_k)
        predicate = self._predicate(where, where_document)
        _check_namespace(namespace)
        vector = self._query_vector(query)
        fetch = k if fetch_k is None or self._filter_mode == "pre" else fetch_k
        with self._lock:
            part = self._parts.get(namespace)
            if part is None or vector is None:
                return []
            rows, scores = self._rank(part, vector, predicate, ids, fetch)
            if self._filter_mode == "post":
                kept = [i for i, row in enumerate(rows) if predicate.row_matches(part, row)]
                rows, scores = rows[kept], scores[kept]
            rows, scores = rows[:k], scores[:k]
            return self._matches(part, vector, rows, scores)

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
        if isinstance(lambda_mult, bool) or not isinstance(lambda_mult, int | float):
            raise TypeError(f"lambda_mult must be a float in [0, 1], got {lambda_mult!r}")
        if not 0.0 <= lambda_mult <= 1.0:
            raise ValueError(f"lambda_mult must be in [0, 1], got {lambda_mult!r}")
        if redundancy not in ("max", "last"):
            raise ValueError(f"redundancy must be 'max' or 'last', got {redundancy!r}")
        if order not in ("pick", "rank"):
            raise ValueError(f"order must be 'pick' or 'rank', got {order!r}")
        self._check_k(fetch_k)
        self._predicate(where, where_document)
        vector = self._query_vector(query)
        if vector is None:
            return []
        with self._lock:  # re-entrant: candidates and their vectors from one state
            candidates = self._query(
                vector,
                fetch_k,
                where=where,
                namespace=namespace,
                ids=ids,
                fetch_k=None,
                where_document=where_document,
            )
            if not candidates:
                return []
            part = self._parts[namespace]
            matrix = part.matrix[_rows_of(part, [m.id for m in candidates])]
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
        _check_namespace(namespace)
        if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int)):
            raise TypeError(f"limit must be an int or None, got {limit!r}")
        with self._lock:
            part = self._parts.get(namespace)
            if part is None:
                return []
            rows = self._passing_rows(part, predicate, ids)
            if limit is not None:
                rows = rows[: max(limit, 0)]
            return [part.record_at(row) for row in rows]

    def _passing_rows(
        self, part: Partition, predicate: Predicate, ids: Collection[str] | None
    ) -> list[int]:
        """The visible records' rows that pass ``predicate`` and ``ids``, in listing order."""
        mask = part.live[: part.n_rows].copy()
        mask[list(part.orphans.values())] = False
        if ids is not None:
            mask &= _ids_mask(part, ids)
        mask &= predicate.mask(part)
        rows: list[int] = np.flatnonzero(mask).tolist()
        return self._listing_order(part, rows)

    def snapshot(
        self, namespace: str = ""
    ) -> tuple[list[str], list[str | None], list[dict[str, Any]], npt.NDArray[np.float32]]:
        """A bulk read of a namespace: ids in listing order, texts, metadata copies, and a copy
        of the stored vectors (float32, one row per id)."""
        _check_namespace(namespace)
        with self._lock:
            part = self._parts.get(namespace)
            if part is None:
                return [], [], [], np.empty((0, self._dimension or 0), dtype=np.float32)
            rows = self._listing_order(part, sorted(part.rows.values()))
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
        _check_namespace(namespace)
        vector = self._query_vector(query)
        with self._lock:
            part = self._parts.get(namespace)
            traces: list[Trace] = []
            known: set[str] = set()
            if part is not None and vector is not None:
                traces = self._trace_rows(part, vector, predicate, ids)
                known = {t.id for t in traces}
            for _, ns, items in self._pending:
                if not isinstance(items, Batch) or ns != namespace:
                    continue
                for rid in items.ids:
                    if rid not in known:
                        known.add(rid)
                        traces.append(Trace(rid, "not_visible", None, None, None))
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

    def _listing_order(self, part: Partition, rows: list[int]) -> list[int]:
        """Rows (ascending: insertion order) in the profile's listing order."""
        order_key = self._profile.ids.order_key
        if order_key is not None:
            rows.sort(key=lambda r: order_key(part.row_id[r]))
        return rows

    def _query_vector(self, query: QueryInput) -> npt.NDArray[np.float64] | None:
        """The query as a float64 vector (text goes through the embedder); None while empty."""
        if isinstance(query, str):
            vector = np.asarray(self.embedder.embed_many([query])[0], dtype=np.float64)
        else:
            vector = _as_vector(query, "query vector", self._profile)
        if self._dimension is None:
            return None
        if len(vector) != self._dimension:
            raise self._profile.dimension_error(
                f"query vector dimension mismatch: the store holds vectors of dimension "
                f"{self._dimension}, got {len(vector)}"
            )
        return vector

    def _candidates(
        self,
        part: Partition,
        vector: npt.NDArray[np.float64],
        predicate: Predicate | None,
        ids: Collection[str] | None,
    ) -> npt.NDArray[np.bool_]:
        """Steps 2-4: live rows, ``ids`` restriction, pre-filter (if given), recall dropout."""
        mask: npt.NDArray[np.bool_] = part.live[: part.n_rows].copy()
        if ids is not None:
            mask &= _ids_mask(part, ids)
        if predicate is not None:
            mask &= predicate.mask(part)
        if self._recall < 1.0:
            mask &= recall_keep_mask(
                query_hash(vector), part.id_hashes[: part.n_rows], self._recall
            )
        return mask

    def _scores(self, part: Partition, vector: npt.NDArray[np.float64]) -> npt.NDArray[Any]:
        """Step 5: the profile's numbers for every row, in one pass (over whole row groups)."""
        matrix, norms = part.scoring_arrays()
        return score_rows(self._profile.variant.formula, matrix, norms, part.n_rows, vector)

    def _rank(
        self,
        part: Partition,
        vector: npt.NDArray[np.float64],
        predicate: Predicate,
        ids: Collection[str] | None,
        limit: int | None,
    ) -> tuple[npt.NDArray[np.intp], npt.NDArray[Any]]:
        """Steps 2-6: the best ``limit`` candidate rows (all if None) and their scores."""
        pre = predicate if self._filter_mode == "pre" else None
        mask = self._candidates(part, vector, pre, ids)
        if not mask.any():
            return np.empty(0, dtype=np.intp), np.empty(0)
        rows = None if mask.all() else np.flatnonzero(mask)
        scores = self._scores(part, vector)
        ordered = _select(part, rows, scores, limit, self._profile)
        return ordered, scores[ordered]

    def _matches(
        self,
        part: Partition,
        vector: npt.NDArray[np.float64],
        rows: npt.NDArray[np.intp],
        scores: npt.NDArray[Any],
    ) -> list[Match]:
        """Step 8: Match objects with copied text and metadata."""
        sims = self._similarities(part, vector, rows, scores)
        out = []
        for row, score, sim in zip(rows.tolist(), scores.tolist(), sims, strict=True):
            meta = part.metas[row]
            text = part.texts[row] if meta is not None else None
            out.append(Match(part.row_id[row], text, copy_metadata(meta), float(score), sim))
        return out

    def _similarities(
        self,
        part: Partition,
        vector: npt.NDArray[np.float64],
        rows: npt.NDArray[np.intp],
        scores: npt.NDArray[Any],
    ) -> list[float]:
        if self._profile.variant.formula.is_cosine:
            return [float(s) for s in scores.tolist()]
        if len(rows) == 0:
            return []
        sims = row_cosines(part.matrix[rows], part.norms[rows], vector)
        return [float(s) for s in sims.tolist()]

    def _trace_rows(
        self,
        part: Partition,
        vector: npt.NDArray[np.float64],
        predicate: Predicate,
        ids: Collection[str] | None,
    ) -> list[Trace]:
        n = part.n_rows
        live = part.live[:n]
        allowed = live & _ids_mask(part, ids) if ids is not None else live.copy()
        passes = allowed & predicate.mask(part)
        survives = passes & recall_keep_mask(query_hash(vector), part.id_hashes[:n], self._recall)
        scores = self._scores(part, vector)
        live_rows = np.flatnonzero(live)
        sims = dict(
            zip(
                live_rows.tolist(),
                self._similarities(part, vector, live_rows, scores[live_rows]),
                strict=True,
            )
        )
        ranked = _select(part, np.flatnonzero(survives), scores, None, self._profile).tolist()
        out = []
        for rank, row in enumerate(ranked, start=1):
            first: TraceStatus = "ranked" if part.metas[row] is not None else "orphaned"
            out.append(Trace(part.row_id[row], first, rank, float(scores[row]), sims[row]))
        in_rank = set(ranked)
        rest = _select(part, live_rows, scores, None, self._profile).tolist()
        for row in rest:
            if row in in_rank:
                continue
            status: TraceStatus
            if part.metas[row] is None:
                status = "orphaned"
            elif not allowed[row]:
                status = "excluded_by_ids"
            elif not passes[row]:
                status = "filtered_out"
            else:
                status = "lost_to_recall"
            out.append(Trace(part.row_id[row], status, None, float(scores[row]), sims[row]))
        return out

    # ------------------------------------------------------------------ write helpers

    def _dedupe(
        self, raw: list[tuple[str, str | None, dict[str, Any] | None, Any]]
    ) -> list[tuple[str, str | None, dict[str, Any] | None, Any]]:
        seen: dict[str, int] = {}
        for index, item in enumerate(raw):
            seen.setdefault(item[0], index)
        if len(seen) == len(raw):
            return raw
        if self._profile.duplicate_ids_in_batch == "error":
            counts: dict[str, int] = {}
            for item in raw:
                counts[item[0]] = counts.get(item[0], 0) + 1
            dupes = ", ".join(i for i, c in counts.items() if c > 1)
            raise ValueError(self._profile.duplicate_ids_message.format(ids=dupes))
        last = {item[0]: item for item in raw}
        return [last[record_id] for record_id in seen]

    def _vectors_for(
        self, raw: list[tuple[str, str | None, dict[str, Any] | None, Any]]
    ) -> npt.NDArray[np.float32]:
        """Validate every record and return the float32 block to store, one row per record.

        Records without a vector are embedded with one ``embed_many`` call, after every given
        vector has been checked; all rows must share one width.
        """
        given_raw: dict[int, Any] = {}
        missing: list[int] = []
        check_id = self._profile.ids.check
        nested = self._profile.nested_metadata
        for index, (record_id, text, metadata, vector) in enumerate(raw):
            check_id(record_id)
            _check_metadata(record_id, metadata, nested)
            if vector is not None:
                given_raw[index] = vector
            elif text is None:
                raise ValueError(
                    f"record {record_id!r} has neither a text nor a vector; give a text to "
                    "embed or a vector"
                )
            else:
                missing.append(index)
        given_rows = list(given_raw)
        given = _given_vectors(raw, given_raw, self._profile)
        width = given.shape[1] if given_rows and given_rows[0] == 0 else None
        embedded = None
        if missing:
            # FakeEmbedder rows are finite unit vectors by construction: no NaN check needed.
            embedded = self.embedder.embed_many([str(raw[i][1]) for i in missing], dtype=np.float32)
            if width is not None and embedded.shape[1] != width:
                raise self._profile.dimension_error(
                    f"vector dimension mismatch in one batch: the embedder gives dimension "
                    f"{embedded.shape[1]}, the batch's first vector has {width}"
                )
            width = embedded.shape[1]
        assert width is not None
        if given_rows and given.shape[1] != width:
            raise self._profile.dimension_error(
                f"vector dimension mismatch in one batch: record {raw[given_rows[0]][0]!r} has "
                f"dimension {given.shape[1]}, the embedder gives {width}"
            )
        if len(given_rows) == len(raw):
            return self._normalised(given)
        block = np.empty((len(raw), width), dtype=np.float32)
        if embedded is not None:
            if len(missing) == len(raw):
                block[:] = embedded
            else:
                block[missing] = embedded
        if given_rows:
            block[given_rows] = given
        return self._normalised(block)

    def _normalised(self, block: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        """Rows normalised per point in float32 if the profile stores unit vectors (Qdrant)."""
        if self._profile.variant.normalise_on_upsert:
            for i in range(len(block)):  # per point, in float32, as Qdrant does on upsert
                norm = np.linalg.norm(block[i])
                if norm:  # a zero vector stays zero (its cosine with anything is 0)
                    block[i] = block[i] / norm
        return block

    def _apply_upsert(self, namespace: str, batch: Batch) -> None:
        part = self._parts.get(namespace)
        if part is None:
            assert self._dimension is not None
            part = self._parts[namespace] = Partition(
                self._dimension, grouped=self._profile.variant.formula.row_groups
            )
        part.put(batch, merge=self._profile.upsert_metadata == "merge")

    def _apply_delete(self, namespace: str, ids: list[str]) -> int:
        part = self._parts.get(namespace)
        if part is None:
            return 0
        removed = part.remove(ids, keep_orphans=self._orphaned_ids)
        if not len(part) and not part.orphans:
            del self._parts[namespace]
        return removed

    def _exists_latest(self, namespace: str, record_id: str) -> bool:
        pending = self._pending_exists.get((namespace, record_id))
        if pending is not None:
            return pending
        part = self._parts.get(namespace)
        return part is not None and record_id in part.rows


# ---------------------------------------------------------------------- module helpers


def _resolve_profile(profile: str | Profile, metric: str | None) -> Profile:
    if isinstance(profile, Profile):
        chosen = profile
    elif isinstance(profile, str) and profile in PROFILES:
        chosen = PROFILES[profile]
    else:
        raise ValueError(
            f"unknown profile {profile!r}; allowed: {', '.join(repr(p) for p in PROFILES)} "
            "or a Profile instance"
        )
    return chosen if metric is None else chosen.with_metric(metric)


def _check_namespace(namespace: Any) -> None:
    if not isinstance(namespace, str):
        raise TypeError(f"namespace must be a str, got {type(namespace).__name__} {namespace!r}")


def _as_vector(value: Any, what: str, profile: Profile) -> npt.NDArray[np.float64]:
    if isinstance(value, str | bytes):
        raise TypeError(f"{what} must be a sequence of numbers, got {type(value).__name__}")
    try:
        array = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError) as error:
        raise TypeError(f"{what} must be a sequence of numbers, got {value!r}") from error
    if array.ndim != 1 or array.size == 0:
        raise ValueError(
            f"{what} must be a non-empty 1-D sequence of numbers, got shape {array.shape}"
        )
    if not np.all(np.isfinite(array)):
        raise ValueError(
            f"{what} contains NaN or infinite components; every component must be finite"
        )
    if np.max(np.abs(array)) > _F32_MAX:
        raise ValueError(f"{what} has a component too large for float32 storage")
    if not profile.accepts_zero_vectors and not np.any(array):
        accepting = ", ".join(p.name for p in PROFILES.values() if p.accepts_zero_vectors)
        raise ValueError(
            f"{what} is the zero vector, which has no direction (cosine undefined); the "
            f"{profile.name} profile rejects it, the profiles of engines that accept it "
            f"({accepting}) score it as their engine does"
        )
    return array


def _given_vectors(
    raw: list[tuple[str, str | None, dict[str, Any] | None, Any]],
    given: dict[int, Any],
    profile: Profile,
) -> npt.NDArray[np.float32]:
    """Validate caller-given vectors and stack them as float32 (one row each, in ``given`` order).

    One numpy pass when they stack cleanly; otherwise record by record, so the error names the
    record at fault.
    """
    if not given:
        return np.empty((0, 0), dtype=np.float32)
    values = list(given.values())
    if len(values) > 1:
        try:
            with np.errstate(over="ignore"):  # too-large components become inf: caught below
                if all(type(v) is np.ndarray and v.ndim == 1 for v in values):
                    stacked = np.stack(values, dtype=np.float32)
                else:
                    stacked = np.asarray(values, dtype=np.float32)
        except (TypeError, ValueError):
            stacked = None
        if (
            stacked is not None
            and stacked.ndim == 2
            and stacked.shape[1] > 0
            and np.isfinite(stacked).all()
            and (profile.accepts_zero_vectors or stacked.any(axis=1).all())
        ):
            return stacked
    checked = {
        i: _as_vector(v, f"vector of record {raw[i][0]!r}", profile) for i, v in given.items()
    }
    first, width = next(iter(checked)), len(next(iter(checked.values())))
    for index, vector in checked.items():
        if len(vector) != width:
            raise profile.dimension_error(
                f"vector dimension mismatch in one batch: record {raw[index][0]!r} has "
                f"dimension {len(vector)}, record {raw[first][0]!r} has {width}"
            )
    return np.stack(list(checked.values())).astype(np.float32)


def _unpack(item: Any, index: int) -> tuple[str, str | None, dict[str, Any] | None, Any]:
    parts: tuple[Any, ...]
    if type(item) is tuple and 2 <= len(item) <= 4:  # the common case first
        parts = (*item, None, None)[:4]
    elif isinstance(item, Record):
        parts = (item.id, item.text, item.metadata, item.vector)
    elif isinstance(item, Mapping):
        unknown = set(item) - {"id", "text", "metadata", "vector"}
        if unknown or "id" not in item:
            raise ValueError(
                f"record #{index}: a mapping needs key 'id' and may have 'text', 'metadata', "
                f"'vector'; got keys {sorted(map(str, item))}"
            )
        parts = (item["id"], item.get("text"), item.get("metadata"), item.get("vector"))
    elif isinstance(item, tuple) and 2 <= len(item) <= 4:
        parts = (*item, None, None)[:4]
    else:
        raise TypeError(
            f"record #{index}: expected a Record, a tuple (id, text[, metadata[, vector]]) or a "
            f"mapping, got {type(item).__name__}"
        )
    record_id, text, metadata, vector = parts
    if not isinstance(record_id, str):
        raise TypeError(
            f"record #{index}: id must be a str, got {type(record_id).__name__} {record_id!r}"
        )
    if not record_id:
        raise ValueError(f"record #{index}: id must be a non-empty str")
    if text is not None and not isinstance(text, str):
        raise TypeError(
            f"record {record_id!r}: text must be a str or None, got {type(text).__name__}"
        )
    if metadata is not None and not isinstance(metadata, Mapping):
        raise TypeError(
            f"record {record_id!r}: metadata must be a mapping or None, "
            f"got {type(metadata).__name__}"
        )
    return record_id, text, None if metadata is None else copy_metadata(metadata), vector


def _check_metadata(record_id: str, metadata: Mapping[str, Any] | None, nested: bool) -> None:
    """Keys: non-empty str not starting with '$'. Values: str, int, float, bool, None or a list of
    str/int/float/bool; with ``nested`` (profiles whose engine keeps JSON payloads) also any
    JSON-like nesting of dicts with str keys and lists."""
    if not metadata:
        return
    for key, value in metadata.items():
        if type(key) is str and key and key[0] != "$" and type(value) in _PLAIN:
            continue
        if not isinstance(key, str) or not key or key.startswith("$"):
            raise ValueError(
                f"record {record_id!r}: metadata keys must be non-empty str not starting with "
                f"'$', got {key!r}"
            )
        if value is None or isinstance(value, _SCALARS):
            continue
        if isinstance(value, list | tuple) and all(isinstance(v, _SCALARS) for v in value):
            continue
        if nested and _is_json(value):
            continue
        allowed = (
            "str, int, float, bool, None, or lists and str-keyed dicts of those"
            if nested
            else "str, int, float, bool, None or a list of str/int/float/bool"
        )
        raise TypeError(
            f"record {record_id!r}: metadata[{key!r}] must be {allowed}, "
            f"got {type(value).__name__} {value!r}"
        )


def _is_json(value: Any, depth: int = 0) -> bool:
    if depth > 32:
        return False
    if value is None or isinstance(value, _SCALARS):
        return not (isinstance(value, float) and math.isnan(value))  # NaN is not JSON
    if isinstance(value, list | tuple):
        return all(_is_json(item, depth + 1) for item in value)
    if isinstance(value, Mapping):
        return all(isinstance(k, str) and _is_json(v, depth + 1) for k, v in value.items())
    return False


def _ids_mask(part: Partition, ids: Collection[str]) -> npt.NDArray[np.bool_]:
    if isinstance(ids, str):
        raise TypeError("ids must be a collection of str, not a single str")
    return part.ids_mask(ids)


def _rows_of(part: Partition | None, ids: list[str]) -> npt.NDArray[np.intp]:
    if part is None:
        return np.empty(0, dtype=np.intp)
    rows = [part.rows.get(i, part.orphans.get(i)) for i in ids]
    return np.array([r for r in rows if r is not None], dtype=np.intp)


def _select(
    part: Partition,
    rows: npt.NDArray[np.intp] | None,
    scores: npt.NDArray[Any],
    limit: int | None,
    profile: Profile,
) -> npt.NDArray[np.intp]:
    """Step 6: the best ``limit`` of ``rows`` (all if None), ordered by score then tie rule.

    ``rows`` are ascending (row order is insertion position); None means every scored row."""
    badness = scores if rows is None else scores[rows]
    if profile.higher_is_better:
        badness = -badness
    return profile.tie_rule.select(badness, rows, limit, part.id_at)
