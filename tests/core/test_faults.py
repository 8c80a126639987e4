"""Declared faults: recall dropout, manual visibility, injected failures, orphaned ids, trace."""

from __future__ import annotations

import numpy as np
import pytest

from placeborag_core import (
    FakeEmbedder,
    FakeVectorStore,
    Match,
    RetrievalError,
    RetrievalTimeout,
    Trace,
)


def _random_store(recall: float, n: int = 300, dim: int = 16, seed: int = 3) -> FakeVectorStore:
    rng = np.random.default_rng(seed)
    store = FakeVectorStore(recall=recall)
    store.upsert_many([(f"d{i}", None, None, v) for i, v in enumerate(rng.normal(size=(n, dim)))])
    return store


@pytest.mark.parametrize("recall", [0.3, 0.7, 0.9])
def test_measured_recall_at_10_over_1000_queries_is_within_0_03(recall: float) -> None:
    exact = _random_store(1.0)
    lossy = _random_store(recall)
    queries = np.random.default_rng(99).normal(size=(1000, 16))
    found = 0
    for q in queries:
        truth = {m.id for m in exact.query(q, k=10)}
        found += len(truth & {m.id for m in lossy.query(q, k=10)})
    assert abs(found / 10_000 - recall) <= 0.03


def test_recall_is_deterministic_per_query_and_differs_between_queries() -> None:
    first = _random_store(0.5)
    second = _random_store(0.5)
    q1, q2 = np.random.default_rng(5).normal(size=(2, 16))
    ids_1 = [m.id for m in first.query(q1, k=20)]
    assert ids_1 == [m.id for m in first.query(q1, k=20)]
    assert ids_1 == [m.id for m in second.query(q1, k=20)]
    lost_1 = {t.id for t in first.trace(q1) if t.status == "lost_to_recall"}
    lost_2 = {t.id for t in first.trace(q2) if t.status == "lost_to_recall"}
    assert lost_1 != lost_2
    assert 90 < len(lost_1) < 210  # about half of 300


def test_recall_zero_hides_everything_and_the_seed_example_loses_candidates() -> None:
    assert _random_store(0.0).query(np.ones(16), k=5) == []
    store = FakeVectorStore(recall=0.4)
    for i, text in enumerate(
        [
            "refund policy",
            "refund policy text",
            "our refund policy",
            "refund rules",
            "policy on refunds",
            "refund policy faq",
        ]
    ):
        store.upsert(f"doc{i}", text)
    assert len(store.query("refund policy", k=5)) < 5


# ---------------------------------------------------------------- visibility


def test_manual_visibility_holds_writes_until_refresh() -> None:
    store = FakeVectorStore(visibility="manual")
    store.upsert("doc", "our refund policy allows returns")
    assert store.pending_writes == 1
    assert store.query("refund policy") == []
    assert store.get("doc") is None
    assert store.count() == 0
    assert store.trace("refund policy") == [Trace("doc", "not_visible", None, None, None)]
    store.refresh()
    assert store.pending_writes == 0
    assert [m.id for m in store.query("refund policy")] == ["doc"]


def test_manual_visibility_holds_deletes_and_counts_against_the_latest_state() -> None:
    store = FakeVectorStore(visibility="manual")
    store.upsert_many([("a", None, None, [1.0, 0.0]), ("b", None, None, [0.0, 1.0])])
    assert store.delete(["a", "zzz"]) == 1  # "a" exists once pending writes land
    store.refresh()
    assert store.ids() == ["b"]
    store.upsert("c", None, vector=[1.0, 1.0])
    assert store.delete("b") == 1
    assert store.pending_writes == 2
    assert [m.id for m in store.query([0.0, 1.0], k=5)] == ["b"]  # delete not visible yet
    store.refresh()
    assert store.ids() == ["c"]


def test_pending_upsert_of_a_visible_record_keeps_the_old_version_visible() -> None:
    store = FakeVectorStore(visibility="manual")
    store.upsert("a", "old", vector=[1.0, 0.0])
    store.refresh()
    store.upsert("a", "new", vector=[1.0, 0.0])
    assert store.query([1.0, 0.0])[0].text == "old"
    assert [t.status for t in store.trace([1.0, 0.0])] == ["ranked"]
    store.refresh()
    assert store.query([1.0, 0.0])[0].text == "new"


def test_pending_writes_are_validated_at_write_time() -> None:
    store = FakeVectorStore(visibility="manual")
    store.upsert("a", None, vector=[1.0, 0.0])
    with pytest.raises(ValueError, match="dimension 2, got 3"):
        store.upsert("b", None, vector=[1.0, 0.0, 0.0])
    assert store.pending_writes == 1


# ---------------------------------------------------------------- injected failures


def _two_docs() -> FakeVectorStore:
    store = FakeVectorStore()
    store.upsert_many([("a", "alpha", None, [1.0, 0.0]), ("b", "beta", None, [0.0, 1.0])])
    return store


def test_fail_next_query_defaults_to_a_timeout_once() -> None:
    store = _two_docs()
    store.fail_next_query()
    with pytest.raises(RetrievalTimeout) as info:
        store.query([1.0, 0.0])
    assert isinstance(info.value, RetrievalError)
    assert isinstance(info.value, TimeoutError)
    assert [m.id for m in store.query([1.0, 0.0], k=1)] == ["a"]


def test_fail_next_query_instances_classes_and_times() -> None:
    class UpstreamError(Exception):
        pass

    store = _two_docs()
    slow = RetrievalTimeout("slow")
    store.fail_next_query(slow, times=2)
    store.fail_next_query(UpstreamError)
    for _ in range(2):
        with pytest.raises(RetrievalTimeout) as info:
            store.query([1.0, 0.0])
        assert info.value is slow
    with pytest.raises(UpstreamError, match="injected query failure"):
        store.query([1.0, 0.0])
    assert store.query([1.0, 0.0])


def test_an_error_class_that_cannot_take_a_message_is_refused_when_armed() -> None:
    class NeedsTwoError(Exception):
        def __init__(self, a: str, b: str) -> None:
            super().__init__(a, b)

    store = _two_docs()
    for error in (UnicodeDecodeError, NeedsTwoError):
        with pytest.raises(TypeError, match=rf"error class {error.__name__} cannot be built"):
            store.fail_next_query(error)
    assert store.armed_failures() == []
    assert store.query([1.0, 0.0])


def test_failures_fire_before_validation_leave_writes_and_state_alone() -> None:
    store = _two_docs()
    store.fail_next_query(times=3)
    store.upsert("c", "gamma", vector=[1.0, 1.0])  # writes are unaffected
    assert store.delete("b") == 1
    with pytest.raises(RetrievalTimeout):
        store.query([1.0, 0.0], where={"$bad": 1})  # fires before the filter is checked
    with pytest.raises(RetrievalTimeout):
        store.max_marginal_relevance([1.0, 0.0])
    assert [t.id for t in store.trace([1.0, 0.0])] == ["a", "c"]  # trace consumes nothing
    with pytest.raises(RetrievalTimeout):
        store.query([1.0, 0.0])
    assert store.ids() == ["a", "c"]
    assert [m.id for m in store.query([1.0, 0.0], k=5)] == ["a", "c"]


@pytest.mark.parametrize(
    ("error", "times", "exc", "message"),
    [
        ("boom", 1, TypeError, "error must be an exception instance or class"),
        (int, 1, TypeError, "error must be an exception instance or class"),
        (None, 0, ValueError, "times must be an int >= 1, got 0"),
        (None, True, ValueError, "times must be an int >= 1"),
    ],
)
def test_fail_next_query_validates(error: object, times: object, exc: type, message: str) -> None:
    with pytest.raises(exc, match=message):
        FakeVectorStore().fail_next_query(error, times=times)  # type: ignore[arg-type]


# ---------------------------------------------------------------- orphaned ids


def test_orphaned_ids_stay_in_the_index_until_compact() -> None:
    store = FakeVectorStore(orphaned_ids=True)
    store.upsert_many([("a", "alpha", {"k": 1}, [1.0, 0.0]), ("b", "beta", None, [0.0, 1.0])])
    assert store.delete("a") == 1
    assert store.get("a") is None
    assert store.ids() == ["b"]
    assert store.count() == 1
    assert store.query([1.0, 0.0], k=2) == [
        Match("a", None, {}, 1.0, 1.0),
        Match("b", "beta", {}, 0.0, 0.0),
    ]
    assert store.query([1.0, 0.0], k=2, where={"k": 1}) == []  # orphans have no metadata
    assert [(t.id, t.status, t.rank) for t in store.trace([1.0, 0.0])] == [
        ("a", "orphaned", 1),
        ("b", "ranked", 2),
    ]
    store.compact()
    assert [m.id for m in store.query([1.0, 0.0], k=2)] == ["b"]


def test_reupserting_an_orphan_replaces_it() -> None:
    store = FakeVectorStore(orphaned_ids=True)
    store.upsert("a", "alpha", vector=[1.0, 0.0])
    store.delete("a")
    store.upsert("a", "again", vector=[0.0, 1.0])
    assert [(m.id, m.text) for m in store.query([1.0, 0.0], k=5)] == [("a", "again")]


def test_without_orphans_deleted_ids_never_come_back() -> None:
    store = FakeVectorStore()
    store.upsert_many([("a", "alpha", None, [1.0, 0.0]), ("b", "beta", None, [0.0, 1.0])])
    store.delete("a")
    assert [m.id for m in store.query([1.0, 0.0], k=2)] == ["b"]


# ---------------------------------------------------------------- trace


def test_trace_explains_every_record() -> None:
    store = FakeVectorStore(embedder=FakeEmbedder(dimensions=64), visibility="manual", recall=0.5)
    rng = np.random.default_rng(1)
    store.upsert_many(
        [(f"d{i}", None, {"even": i % 2 == 0}, v) for i, v in enumerate(rng.normal(size=(40, 64)))]
    )
    store.refresh()
    store.upsert("pending", "not yet")
    q = rng.normal(size=64)
    traces = store.trace(q, where={"even": True}, ids=[f"d{i}" for i in range(30)])
    by_status: dict[str, list[Trace]] = {}
    for t in traces:
        by_status.setdefault(t.status, []).append(t)
    assert {t.id for t in by_status["excluded_by_ids"]} == {f"d{i}" for i in range(30, 40)}
    assert {t.id for t in by_status["filtered_out"]} == {f"d{i}" for i in range(1, 30, 2)}
    assert by_status["not_visible"] == [Trace("pending", "not_visible", None, None, None)]
    ranked = by_status["ranked"]
    assert [t.rank for t in ranked] == list(range(1, len(ranked) + 1))
    assert traces[: len(ranked)] == ranked  # ranked first
    returned = store.query(q, k=50, where={"even": True}, ids=[f"d{i}" for i in range(30)])
    assert [m.id for m in returned] == [t.id for t in ranked]
    assert [m.score for m in returned] == [t.score for t in ranked]
    lost = {t.id for t in by_status["lost_to_recall"]}
    assert lost
    assert lost.isdisjoint(m.id for m in returned)
    assert len(traces) == 41


def test_armed_failures_lists_what_has_not_fired() -> None:
    from placeborag_core import FakeVectorStore, RetrievalTimeout

    store = FakeVectorStore()
    store.upsert("a", "alpha")
    boom = ValueError("boom")
    store.fail_next_query(times=2)
    store.fail_next_query(boom)
    assert store.armed_failures() == [(RetrievalTimeout, 2), (boom, 1)]
    with pytest.raises(RetrievalTimeout):
        store.query("alpha")
    assert store.armed_failures() == [(RetrievalTimeout, 1), (boom, 1)]
