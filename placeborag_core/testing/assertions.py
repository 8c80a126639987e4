"""Retrieval assertions whose failure message explains the ranking: ``assert_top_k`` and friends.

``assert_top_k(store, query, expected_ids, k=...)`` passes when the expected ids are the first
results of ``store.query(query, k=k, ...)``, in that order; ``assert_top_k_unordered`` when they are
all among the top ``k`` in any order. Both return the matches, for further assertions.

When one fails, the ``AssertionError`` carries what a reader needs to fix the test or the code
without a debugger: the ranked list with scores and the profile's direction (a distance, lower is
better, or a similarity, higher is better), where each expected id actually landed or why it could
not be returned (filtered out, cut by post-filtering, lost to recall, not yet visible, orphaned,
in another namespace, absent), and ``explain()`` for the top hit versus the first missing id.
The diagnosis comes from ``FakeVectorStore.trace``, which never changes the store's state.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from placeborag_core.messages import shown
from placeborag_core.testing.explanation import explain

if TYPE_CHECKING:
    from placeborag_core.records import Match, Trace
    from placeborag_core.store.reading import Where
    from placeborag_core.store.vector_store import FakeVectorStore

__all__ = ["assert_top_k", "assert_top_k_unordered"]

_QueryLike = str | Sequence[float] | np.ndarray[Any, Any]


def assert_top_k(
    store: FakeVectorStore,
    query: _QueryLike,
    expected_ids: Sequence[str],
    k: int | None = None,
    *,
    where: Where | None = None,
    namespace: str = "",
) -> list[Match]:
    """Assert that ``expected_ids`` are the first results of the query, in this order.

    ``k`` (default ``len(expected_ids)``) is the ``k`` passed to ``store.query``; it matters under
    ``filter_mode="post"``, where the filter is applied after the nearest ``k`` are taken. Results
    after ``len(expected_ids)`` are not checked.
    """
    __tracebackhide__ = True
    return _check(store, query, expected_ids, k=k, where=where, namespace=namespace, ordered=True)


def assert_top_k_unordered(
    store: FakeVectorStore,
    query: _QueryLike,
    expected_ids: Sequence[str],
    k: int | None = None,
    *,
    where: Where | None = None,
    namespace: str = "",
) -> list[Match]:
    """Assert that every id of ``expected_ids`` is among the top ``k`` results, in any order."""
    __tracebackhide__ = True
    return _check(store, query, expected_ids, k=k, where=where, namespace=namespace, ordered=False)


def _validated(expected_ids: Sequence[str], k: int | None) -> tuple[list[str], int]:
    if isinstance(expected_ids, str) or not isinstance(expected_ids, Sequence):
        raise TypeError(
            "expected_ids must be a sequence of ids such as ['doc-1', 'doc-2'], "
            f"got {type(expected_ids).__name__} {shown(expected_ids)}"
        )
    ids = list(expected_ids)
    for index, value in enumerate(ids):
        if not isinstance(value, str):
            raise TypeError(f"expected_ids[{index}] must be a str, got {type(value).__name__}")
    if not ids:
        raise ValueError("expected_ids is empty; name at least one id the query must return")
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        raise ValueError(f"expected_ids lists {shown(duplicates)} more than once")
    if k is None:
        k = len(ids)
    if isinstance(k, bool) or not isinstance(k, int) or k < len(ids):
        raise ValueError(f"k must be an int >= len(expected_ids) = {len(ids)}, got {shown(k)}")
    return ids, k


def _check(
    store: FakeVectorStore,
    query: _QueryLike,
    expected_ids: Sequence[str],
    *,
    k: int | None,
    where: Where | None,
    namespace: str,
    ordered: bool,
) -> list[Match]:
    __tracebackhide__ = True
    ids, k = _validated(expected_ids, k)
    matches = store.query(query, k=k, where=where, namespace=namespace)
    got = [m.id for m in matches]
    passed = got[: len(ids)] == ids if ordered else set(ids) <= set(got)
    if not passed:
        raise AssertionError(
            _Report(
                store,
                query,
                ids,
                k=k,
                where=where,
                namespace=namespace,
                matches=matches,
                ordered=ordered,
            ).render()
        )
    return matches


def _direction(store: FakeVectorStore) -> str:
    if store.profile.higher_is_better:
        return "similarity, higher is better"
    return "distance, lower is better"


def _score(trace: Trace) -> str:
    return "" if trace.score is None else f" (score {trace.score:.6f})"


def _show_where(where: Where | None) -> str:
    """A ``where=`` filter in the message: a mapping or an expression as written, a callable or a
    compiled predicate by its name (its source is not at hand)."""
    if isinstance(where, Mapping):
        return shown(dict(where))
    if isinstance(where, str):
        return shown(where)
    name = getattr(where, "__qualname__", None) or type(where).__name__
    return name if name.endswith(">") else f"<{name}>"  # a lambda's name is "<lambda>" already


def _filters(where: Where | None) -> bool:
    """Whether ``where`` can exclude anything: None and an empty mapping are "no filter"."""
    return where is not None and not (isinstance(where, Mapping) and not where)


def _show_query(query: _QueryLike) -> str:
    if isinstance(query, str):
        return repr(query)
    return f"<vector of {len(query)} floats>"


class _Report:
    """Builds the failure message of one failed assertion."""

    def __init__(
        self,
        store: FakeVectorStore,
        query: _QueryLike,
        ids: list[str],
        *,
        k: int,
        where: Where | None,
        namespace: str,
        matches: list[Match],
        ordered: bool,
    ) -> None:
        self.store = store
        self.query = query
        self.ids = ids
        self.k = k
        self.where = where
        self.namespace = namespace
        self.matches = matches
        self.ordered = ordered
        self.traces = {t.id: t for t in store.trace(query, where=where, namespace=namespace)}
        self.rank_of = {m.id: rank for rank, m in enumerate(matches, start=1)}

    def render(self) -> str:
        return "\n".join(
            [
                *self._headline(),
                "",
                *self._ranking(),
                "",
                "expected ids:",
                *self._expected(),
                *self._why(),
            ]
        )

    def _headline(self) -> list[str]:
        got = [m.id for m in self.matches]
        how = "as the first results, in this order" if self.ordered else "among them, in any order"
        profile = self.store.profile
        context = [f"query {_show_query(self.query)}"]
        if self.where is not None:
            context.append(f"where={_show_where(self.where)}")
        if self.namespace:
            context.append(f"namespace={shown(self.namespace)}")
        settings = [f"profile {shown(profile.name)}", f"metric {shown(profile.metric)}"]
        settings.append(f"filter_mode {shown(self.store.filter_mode)}")
        if self.store.recall < 1.0:
            settings.append(f"recall {self.store.recall}")
        return [
            f"top-{self.k} results {shown(got)} do not include {shown(self.ids)} {how}",
            f"{', '.join(context)}; {', '.join(settings)}",
        ]

    def _ranking(self) -> list[str]:
        if not self.matches:
            return ["the query returned no results"]
        width = max(len(repr(m.id)) for m in self.matches)
        lines = [f"ranked results (score: {_direction(self.store)}):"]
        for rank, match in enumerate(self.matches, start=1):
            mark = "  (orphaned id: deleted, still indexed)" if self._orphaned(match.id) else ""
            if match.id in self.ids:
                position = self.ids.index(match.id) + 1
                mark += "  <- expected" + (f" at {position}" if self.ordered else "")
            lines.append(f"  {rank:>3}. {match.id!r:<{width}}  {match.score:.6f}{mark}")
        return lines

    def _orphaned(self, record_id: str) -> bool:
        """Whether a returned id is an orphan (deleted, still indexed), as the store's trace says;
        a record stored with a vector and no text is not one."""
        trace = self.traces.get(record_id)
        return trace is not None and trace.status == "orphaned"

    def _expected(self) -> list[str]:
        lines = []
        for position, record_id in enumerate(self.ids, start=1):
            first, *rest = self._whereabouts(position, record_id).split("\n")
            lines.append(f"  {shown(record_id)}: {first}")
            lines.extend(f"      {line}" for line in rest)
        return lines

    def _whereabouts(self, position: int, record_id: str) -> str:
        if record_id in self.rank_of:
            rank = self.rank_of[record_id]
            if self.ordered and rank != position:
                return f"rank {rank}, expected at {position}"
            return f"rank {rank}"
        trace = self.traces.get(record_id)
        if trace is None:
            return self._absent(record_id)
        return f"missing: {self._reason(trace)}"

    def _reason(self, trace: Trace) -> str:
        store = self.store
        if trace.status == "ranked":
            score = f"score {trace.score:.6f}" if trace.score is not None else "no score"
            where = f"rank {trace.rank} with an unlimited k ({score})"
            if store.filter_mode == "post" and _filters(self.where):
                overall = self._unfiltered_rank(trace.id)
                return (
                    f"cut by post-filtering: it passes the filter and would be {where},\n"
                    f"but filter_mode='post' filters only the {self.k} nearest records, "
                    f"and it is number {overall} of all records"
                )
            return f"outside the top-{self.k}: it is {where}"
        if trace.status == "filtered_out":
            record = store.get(trace.id, namespace=self.namespace)
            metadata = record.metadata if record is not None else {}
            where = _show_where(self.where)
            return f"filtered out by where={where} (its metadata: {shown(metadata)})"
        if trace.status == "lost_to_recall":
            return (
                f"lost to recall{_score(trace)}: at recall={store.recall} this query never sees "
                "it (decided by the query and the id, the same on every run)"
            )
        if trace.status == "not_visible":
            return "not yet visible: a pending write under visibility='manual'; call refresh()"
        if trace.status == "orphaned":
            return (
                f"orphaned{_score(trace)}: deleted, but its id lingers in the index "
                "(orphaned_ids=True) and did not make the cut"
            )
        return "excluded by the ids= restriction"  # the only status left: "excluded_by_ids"

    def _unfiltered_rank(self, record_id: str) -> int | None:
        for trace in self.store.trace(self.query, namespace=self.namespace):
            if trace.id == record_id:
                return trace.rank
        return None

    def _absent(self, record_id: str) -> str:
        elsewhere = [
            ns
            for ns in self.store.namespaces()
            if ns != self.namespace and self.store.get(record_id, namespace=ns) is not None
        ]
        where = f" (it is in namespace {shown(elsewhere[0])})" if elsewhere else ""
        return f"missing: no record with this id in namespace {shown(self.namespace)}{where}"

    def _culprit(self) -> str | None:
        """The first expected id that is missing or (ordered) out of place."""
        for position, record_id in enumerate(self.ids, start=1):
            rank = self.rank_of.get(record_id)
            if rank is None or (self.ordered and rank != position):
                return record_id
        return None

    def _why(self) -> list[str]:
        culprit = self._culprit()
        if culprit is None or not self.matches or not isinstance(self.query, str):
            return []
        trace = self.traces.get(culprit)
        if culprit not in self.rank_of and (trace is None or trace.status != "ranked"):
            return []  # missing for a reason other than its score: nothing ranks above it
        if self.ordered and culprit in self.rank_of:
            rival = self.matches[self.ids.index(culprit)]
        else:
            rival = self.matches[0]
        missing = self.store.get(culprit, namespace=self.namespace)
        if self._orphaned(rival.id):
            orphan = (
                f"{shown(rival.id)} is an orphaned id (deleted, still indexed): it has no text to "
                "explain, and compact() would remove it"
            )
            return ["", orphan]
        if missing is None:
            return []
        if rival.text is None or missing.text is None:
            textless = rival.id if rival.text is None else culprit
            return ["", f"{shown(textless)} was stored without text: explain() needs a text"]
        embedder = self.store.embedder
        lines = ["", f"why {shown(rival.id)} ranks above {shown(culprit)}:"]
        for record_id, text in ((rival.id, rival.text), (culprit, missing.text)):
            lines.append(f"  {shown(record_id)}:")
            explanation = str(explain(self.query, text, embedder))
            lines.extend(f"    {line}" for line in explanation.splitlines())
        return lines
