"""A store of every profile survives pickling, copying and deep copying with its records and
answers, and the copy is independent of the original."""

from __future__ import annotations

import copy
import pickle
from collections.abc import Callable
from typing import Any

import pytest

from placeborag_core import PROFILES, FakeEmbedder, FakeVectorStore, RetrievalTimeout

PROFILE_METRICS = [(p.name, v.name) for p in PROFILES.values() for v in p.variants]
TEXTS = ["refund policy", "refund window days", "shipping times", "gift cards", "refund a gift"]
COPIES: dict[str, Callable[[Any], Any]] = {
    "pickle": lambda store: pickle.loads(pickle.dumps(store)),
    "deepcopy": copy.deepcopy,
    "copy": copy.copy,
}


def _contents(store: FakeVectorStore) -> tuple[Any, ...]:
    ids, texts, metadatas, vectors = store.snapshot()
    return ids, texts, metadatas, vectors.tolist()


def _answers(store: FakeVectorStore) -> list[tuple[str, float]]:
    found = [*store.query("refund", k=3), *store.query("refund", k=3, where={"n": 1})]
    return [(m.id, m.score) for m in found]


@pytest.mark.parametrize("how", sorted(COPIES))
@pytest.mark.parametrize(("profile", "metric"), PROFILE_METRICS)
def test_a_copied_store_keeps_its_records_and_answers(profile: str, metric: str, how: str) -> None:
    store = FakeVectorStore(FakeEmbedder(dimensions=64), profile=profile, metric=metric)
    store.upsert_many([(str(i), t, {"n": i % 2}) for i, t in enumerate(TEXTS)])
    clone = COPIES[how](store)
    assert _contents(clone) == _contents(store)
    assert _answers(clone) == _answers(store)
    clone.delete(["1"])
    assert len(clone) == len(TEXTS) - 1
    assert len(store) == len(TEXTS)


def test_a_shallow_copy_is_an_independent_store_sharing_only_the_embedder() -> None:
    embedder = FakeEmbedder(dimensions=64)
    store = FakeVectorStore(embedder, visibility="manual", orphaned_ids=True)
    store.upsert_many([("a", "refund policy"), ("b", "refund window")])
    store.refresh()
    store.delete(["b"])
    store.refresh()  # "b" is an orphan now
    store.upsert("c", "held write")  # pending
    store.fail_next_query(times=2)
    clone = copy.copy(store)
    assert clone.embedder is embedder
    assert (clone.ids(), clone.pending_writes, clone.armed_failures()) == (
        store.ids(),
        store.pending_writes,
        store.armed_failures(),
    )
    # writes, refreshes, compaction and fired failures of one leave the other alone
    clone.upsert("d", "written through the copy")
    clone.refresh()
    clone.compact()
    with pytest.raises(RetrievalTimeout):
        clone.query("refund")
    assert store.ids() == ["a"]
    assert store.pending_writes == 1
    assert store.armed_failures() == [(RetrievalTimeout, 2)]
    assert [t.id for t in store.trace("refund") if t.status == "orphaned"] == ["b"]
    store.upsert("e", "written through the original")
    store.refresh()
    assert clone.ids() == ["a", "c", "d"]
    assert store.ids() == ["a", "c", "e"]


def test_a_shallow_copy_of_a_store_without_an_embedder_yet_builds_its_own() -> None:
    store = FakeVectorStore()
    clone = copy.copy(store)
    clone.upsert("a", "refund")
    assert store.ids() == []
    assert clone.embedder.identity == store.embedder.identity
