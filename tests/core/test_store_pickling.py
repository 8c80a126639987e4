"""A store of every profile survives pickling and deep copying with its records and answers,
and the copy is independent of the original."""

from __future__ import annotations

import copy
import pickle
from collections.abc import Callable
from typing import Any

import pytest

from placeborag_core import PROFILES, FakeEmbedder, FakeVectorStore

PROFILE_METRICS = [(p.name, v.name) for p in PROFILES.values() for v in p.variants]
TEXTS = ["refund policy", "refund window days", "shipping times", "gift cards", "refund a gift"]
COPIES: dict[str, Callable[[Any], Any]] = {
    "pickle": lambda store: pickle.loads(pickle.dumps(store)),
    "deepcopy": copy.deepcopy,
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
