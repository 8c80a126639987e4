"""The store's reads: queries (plain, MMR, traced) and record listings.

``ReadMethods`` is the half of :class:`~placeborag_core.store.vector_store.FakeVectorStore` that
never changes state: it checks a read's arguments (step 1 of the pipeline), then hands the work to
the ranking, listing and tracing collaborators under the store's lock. The state it reads is
created by ``FakeVectorStore.__init__``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Collection, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

import numpy as np
import numpy.typing as npt

from placeborag_core.backends import Profile
from placeborag_core.filters.compiler import compile_filter_or_callable
from placeborag_core.filters.documents import compile_document_filter
from placeborag_core.filters.predicates import Predicate, all_of
from placeborag_core.messages import shown
from placeborag_core.records import Match, Record, Trace
from placeborag_core.store.faults import FailureQueue
from placeborag_core.store.inputs import as_vector, check_namespace, check_record_id, id_collection
from placeborag_core.store.listing import Listing
from placeborag_core.store.mmr import check_mmr_options, mmr_order
from placeborag_core.store.namespaces import Namespaces
from placeborag_core.store.partition import copy_metadata
from placeborag_core.store.ranking import Ranker
from placeborag_core.store.tracing import trace_rows, with_pending
from placeborag_core.store.writes import Writer

if TYPE_CHECKING:
    from placeborag_core.embedding.embedder import FakeEmbedder

__all__ = ["QueryInput", "ReadMethods", "Where"]

QueryInput = str | Sequence[float] | npt.NDArray[np.floating]
Where = Mapping[str, Any] | str | Callable[[Record], bool] | Predicate
"""A ``where=`` filter: a dict of the profile's dialect, an engine expression string (the milvus
profiles), a callable of the record, or a compiled predicate."""


@dataclass(frozen=True)
class _Plan:
    """A read's checked arguments: its compiled filter, allowed ids, and query vector (None for
    reads without one, or while the store is empty)."""

    predicate: Predicate
    ids: list[str] | None
    vector: npt.NDArray[np.float64] | None


class ReadMethods:
    """Reads of a store: see :class:`~placeborag_core.store.vector_store.FakeVectorStore`."""

    _profile: Profile
    _filter_mode: Literal["pre", "post"]
    _lock: threading.RLock
    _writer: Writer
    _spaces: Namespaces
    _failures: FailureQueue
    _ranker: Ranker
    _listing: Listing

    @property
    def embedder(self) -> FakeEmbedder:
        """The embedder for text queries."""
        raise NotImplementedError

    def get(self, id: str, *, namespace: str = "") -> Record | None:
        """A copy of a visible record, or None."""
        record_id = self._profile.ids.lookup(check_record_id(id))
        check_namespace(namespace)
        with self._lock:
            part = self._spaces.get(namespace)
            row = None if part is None else part.rows.get(record_id)
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
        filter_mode: Literal["pre", "post"] | None = None,
    ) -> list[Match]:
        """The ``k`` best records for a text or a vector, best first, by the profile's score.

        ``where`` filters on metadata (the profile's dialect) and ``where_document`` on the text
        (Chroma's dialect, ``filters/documents.py``), both at the filter step; ``ids``
        restricts candidates to those ids (an empty collection allows none); ``fetch_k`` is how
        many nearest records filter mode ``post`` fetches before filtering (default ``k``;
        ignored in ``pre``). ``filter_mode`` overrides the store's for this query (engines that
        choose per query, as LanceDB's ``prefilter=``). Fewer than ``k`` results come back when
        fewer records qualify.
        """
        self._fire_failure()
        self._check_k(k)
        if fetch_k is not None:
            self._check_k(fetch_k)
        mode = self._query_filter_mode(filter_mode)
        plan = self._plan(query, where, where_document, namespace, ids=ids)
        fetch = k if fetch_k is None or mode == "pre" else fetch_k
        with self._lock:
            return self._ranked(plan, k, fetch, namespace, mode)[1]

    def _query_filter_mode(self, filter_mode: Any) -> Literal["pre", "post"]:
        if filter_mode is None:
            return self._filter_mode
        if filter_mode not in ("pre", "post"):
            raise ValueError(f"filter_mode must be 'pre', 'post' or None, got {shown(filter_mode)}")
        chosen: Literal["pre", "post"] = filter_mode
        return chosen

    def _ranked(
        self,
        plan: _Plan,
        k: int,
        fetch: int,
        namespace: str,
        mode: Literal["pre", "post"] | None = None,
    ) -> tuple[npt.NDArray[np.intp], list[Match]]:
        """Steps 2-8 for checked arguments, under the lock: the rows and their matches."""
        part = self._spaces.get(namespace)
        if part is None or plan.vector is None or k == 0:
            return np.empty(0, dtype=np.intp), []
        mode = self._filter_mode if mode is None else mode
        rows, scores, sims = self._ranker.rank(
            part, plan.vector, plan.predicate, plan.ids, fetch, filter_mode=mode
        )
        if mode == "post":
            passing = plan.predicate.rows_matching(part, rows.tolist())
            kept = [i for i, ok in enumerate(passing) if ok]
            rows, scores, sims = rows[kept], scores[kept], None if sims is None else sims[kept]
        return rows[:k], self._ranker.matches(
            part, plan.vector, rows[:k], scores[:k], None if sims is None else sims[:k]
        )

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
        plan = self._plan(query, where, where_document, namespace, ids=ids)
        with self._lock:  # candidates and their vectors from one state
            rows, candidates = self._ranked(plan, fetch_k, fetch_k, namespace)
            part = self._spaces.get(namespace)
            if not candidates or part is None or plan.vector is None:
                return []
            matrix = part.matrix[rows]
        picks = mmr_order(plan.vector, matrix, k, lambda_mult, redundancy)
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
        plan = self._plan(None, where, where_document, namespace, ids=ids, call="get")
        if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int)):
            raise TypeError(f"limit must be an int >= 0 or None, got {shown(limit)}")
        if limit is not None and limit < 0:
            raise ValueError(f"limit must be an int >= 0 or None, got {limit}")
        with self._lock:
            part = self._spaces.get(namespace)
            if part is None:
                return []
            rows = self._listing.passing_rows(part, plan.predicate, plan.ids)
            if limit is not None:
                rows = rows[:limit]
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
                return [], [], [], np.empty((0, self._writer.dimension or 0), dtype=np.float32)
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
        plan = self._plan(query, where, where_document, namespace, ids=ids)
        with self._lock:
            part = self._spaces.get(namespace)
            traces = []
            if part is not None and plan.vector is not None:
                traces = trace_rows(self._ranker, part, plan.vector, plan.predicate, plan.ids)
            return with_pending(traces, self._writer.pending.upserted_ids(namespace))

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

    def _failures_held(self) -> AbstractContextManager[None]:
        """For checkers that query a store (``assert_tenant_isolation``): in the block, this
        thread's queries neither raise nor consume a failure armed with ``fail_next_query``."""
        return self._failures.held()

    def _fire_failure(self) -> None:
        with self._lock:
            error = self._failures.take()
        if error is not None:
            raise error

    def _plan(
        self,
        query: QueryInput | None,
        where: Any,
        where_document: Any,
        namespace: str,
        *,
        ids: Collection[str] | None,
        call: str = "query",
    ) -> _Plan:
        """Step 1 for any read: filters compiled, arguments checked, the query embedded."""
        predicate = self._predicate(where, where_document, call)
        check_namespace(namespace)
        allowed = self._allowed(ids)
        vector = None if query is None else self._query_vector(query)
        return _Plan(predicate, allowed, vector)

    def _allowed(self, ids: Collection[str] | None) -> list[str] | None:
        """An ``ids=`` argument checked and spelled as the engine stores ids (None: any id)."""
        if ids is None:
            return None
        return [self._profile.ids.lookup(i) for i in id_collection(ids)]

    def _check_k(self, k: Any) -> None:
        self._profile.k.check(k)

    def _query_vector(self, query: QueryInput) -> npt.NDArray[np.float64] | None:
        """The query as a float64 vector (text goes through the embedder); None while empty."""
        if isinstance(query, str):
            vector = np.asarray(self.embedder.embed_many([query])[0], dtype=np.float64)
        elif self._profile.nan_queries_match_nothing and _has_nan(query):
            return None
        else:
            vector = as_vector(query, "query vector", self._profile)
        if self._writer.dimension is None:
            return None
        if len(vector) != self._writer.dimension:
            raise self._profile.dimension_error(
                f"query vector dimension mismatch: the store holds vectors of dimension "
                f"{self._writer.dimension}, got {len(vector)}"
            )
        return vector


def _has_nan(query: Any) -> bool:
    """Whether a query given as numbers holds a NaN (a query that is not numbers is left to
    ``as_vector``, which names the problem)."""
    try:
        array = np.asarray(query, dtype=np.float64)
    except (TypeError, ValueError, OverflowError):
        return False
    return array.ndim == 1 and bool(np.isnan(array).any())
