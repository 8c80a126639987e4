"""Vectors at the edge of float32: a norm too small for its reciprocal, and components that
round to zero when stored."""

from __future__ import annotations

import warnings

import pytest

from placeborag_core import FakeEmbedder, FakeVectorStore

COSINE = [
    ("default", None),
    ("chroma", "cosine"),
    ("pgvector", "cosine"),
    ("milvus", "cosine"),
    ("lancedb", "cosine"),
    ("weaviate", None),
]


@pytest.mark.parametrize(("profile", "metric"), COSINE)
def test_a_stored_vector_whose_reciprocal_norm_overflows_float32_still_ranks(
    profile: str, metric: str | None
) -> None:
    # |v| = 2e-39: 1/|v| is beyond float32, so the phase-1 keys are not bounded and every
    # candidate is scored exactly (it crashed in kth_largest, or returned [])
    store = FakeVectorStore(profile=profile, metric=metric)
    store.upsert_many([("tiny", None, None, [2e-39, 0.0]), ("big", None, None, [1.0, 1.0])])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert [m.id for m in store.query([0.0, 1.0], k=1)] == ["big"]
        assert [m.id for m in store.query([1.0, 0.0], k=1)] == ["tiny"]
        assert [m.id for m in store.query([1.0, 0.0], k=2)] == ["tiny", "big"]


def test_a_vector_that_is_zero_once_stored_as_float32_is_the_zero_vector() -> None:
    store = FakeVectorStore(embedder=FakeEmbedder(dimensions=8))
    store.upsert("a", "refund policy")
    with pytest.raises(ValueError, match="zero vector once rounded to float32"):
        store.upsert("b", None, vector=[1e-46] * 8)
    with pytest.raises(ValueError, match="zero vector once rounded to float32"):
        store.upsert_many([("c", None, None, [1.0] * 8), ("b", None, None, [5e-324] * 8)])
    with pytest.raises(ValueError, match="zero vector once rounded to float32"):
        store.query([1e-46] * 8)
    assert store.ids() == ["a"]
