"""len(store), bool(store) and repr(store): what a test reaches for, and what a failure prints."""

from __future__ import annotations

from placeborag_core import FakeEmbedder, FakeVectorStore


def test_len_counts_the_visible_records_of_the_default_namespace() -> None:
    store = FakeVectorStore(orphaned_ids=True, embedder=FakeEmbedder(dimensions=16))
    assert len(store) == 0
    store.upsert_many([("a", "alpha"), ("b", "beta"), ("c", "gamma")])
    store.upsert("t", "tenant text", namespace="tenant")
    assert len(store) == store.count() == 3
    store.delete("c")  # an orphan now: not counted
    assert len(store) == 2


def test_len_leaves_pending_writes_out() -> None:
    store = FakeVectorStore(visibility="manual", embedder=FakeEmbedder(dimensions=16))
    store.upsert("a", "alpha")
    assert len(store) == 0
    store.refresh()
    assert len(store) == 1


def test_an_empty_store_is_still_true() -> None:
    store = FakeVectorStore()
    assert len(store) == 0
    assert bool(store) is True
    assert (store or None) is store


def test_repr_shows_profile_metric_filter_mode_and_size() -> None:
    store = FakeVectorStore(profile="chroma", metric="l2", embedder=FakeEmbedder(dimensions=16))
    assert repr(store) == (
        "FakeVectorStore(profile='chroma', metric='l2', filter_mode='pre', records=0, namespaces=0)"
    )
    store.upsert_many([("a", "alpha"), ("b", "beta"), ("c", "gamma")])
    assert repr(store) == (
        "FakeVectorStore(profile='chroma', metric='l2', filter_mode='pre', records=3, namespaces=1)"
    )
    store.upsert("t", "tenant text", namespace="tenant")
    assert "records=4, namespaces=2)" in repr(store)  # the total over every namespace


def test_repr_adds_only_the_settings_that_differ_from_the_defaults() -> None:
    store = FakeVectorStore(
        filter_mode="post",
        recall=0.5,
        visibility="manual",
        orphaned_ids=True,
        embedder=FakeEmbedder(dimensions=16),
    )
    store.upsert("a", "alpha")
    assert repr(store) == (
        "FakeVectorStore(profile='default', metric='cosine', filter_mode='post', records=0, "
        "namespaces=0, recall=0.5, visibility='manual', pending=1, orphaned_ids=True)"
    )
