"""max_marginal_relevance follows langchain-core's MMR (lambda 1 = relevance), in pick order."""

from __future__ import annotations

import numpy as np
import pytest

from placeborag_core import FakeVectorStore

lc_utils = pytest.importorskip("langchain_core.vectorstores.utils")


@pytest.mark.parametrize("lambda_mult", [0.0, 0.25, 0.5, 0.75, 1.0])
def test_matches_langchain_core_mmr(lambda_mult: float) -> None:
    rng = np.random.default_rng(4)
    vectors = rng.normal(size=(30, 12))
    query = rng.normal(size=12)
    store = FakeVectorStore()
    store.upsert_many([(f"d{i}", None, None, v) for i, v in enumerate(vectors)])
    candidates = store.query(query, k=12)
    cand_vectors = [list(store.get(m.id).vector) for m in candidates]  # type: ignore[union-attr]
    picks = lc_utils.maximal_marginal_relevance(query, cand_vectors, lambda_mult=lambda_mult, k=5)
    got = store.max_marginal_relevance(query, k=5, fetch_k=12, lambda_mult=lambda_mult)
    assert [m.id for m in got] == [candidates[i].id for i in picks]
    assert {m.id: m.score for m in got} == {m.id: m.score for m in candidates if m in got}


def test_mmr_prefers_diversity_over_duplicates() -> None:
    store = FakeVectorStore()
    store.upsert_many(
        [
            ("best", None, None, [1.0, 0.0, 0.0]),
            ("dupe", None, None, [0.99, 0.01, 0.0]),
            ("other", None, None, [0.6, 0.0, 0.8]),
        ]
    )
    assert [m.id for m in store.query([1.0, 0.0, 0.1], k=2)] == ["best", "dupe"]
    got = store.max_marginal_relevance([1.0, 0.0, 0.1], k=2, fetch_k=3, lambda_mult=0.3)
    assert [m.id for m in got] == ["best", "other"]


def test_mmr_honours_filters_namespaces_and_bad_input() -> None:
    store = FakeVectorStore()
    store.upsert_many([("a", None, {"t": 1}, [1.0, 0.0]), ("b", None, {"t": 2}, [0.0, 1.0])])
    store.upsert("c", None, vector=[1.0, 0.0], namespace="x")
    assert [m.id for m in store.max_marginal_relevance([1.0, 0.0], where={"t": 2})] == ["b"]
    assert [m.id for m in store.max_marginal_relevance([1.0, 0.0], namespace="x")] == ["c"]
    assert store.max_marginal_relevance([1.0, 0.0], namespace="empty") == []
    with pytest.raises(ValueError, match=r"lambda_mult must be in \[0, 1\]"):
        store.max_marginal_relevance([1.0, 0.0], lambda_mult=2)
    with pytest.raises(ValueError, match="k must be a positive int"):
        store.max_marginal_relevance([1.0, 0.0], k=0)


def test_last_pick_redundancy_matches_llama_index_mmr() -> None:
    embedding_utils = pytest.importorskip("llama_index.core.indices.query.embedding_utils")
    rng = np.random.default_rng(8)
    vectors = rng.normal(size=(25, 10))
    query = rng.normal(size=10)
    store = FakeVectorStore()
    store.upsert_many([(f"d{i}", None, None, v) for i, v in enumerate(vectors)])
    candidates = store.query(query, k=10)
    cand_vectors = [list(store.get(m.id).vector) for m in candidates]  # type: ignore[union-attr]
    _, ids = embedding_utils.get_top_k_mmr_embeddings(
        list(query),
        cand_vectors,
        similarity_top_k=4,
        embedding_ids=list(range(10)),
        mmr_threshold=0.5,
    )
    got = store.max_marginal_relevance(query, k=4, fetch_k=10, lambda_mult=0.5, redundancy="last")
    assert [m.id for m in got] == [candidates[i].id for i in ids]


def test_rank_order_returns_the_picks_in_query_order() -> None:
    store = FakeVectorStore()
    store.upsert_many(
        [
            ("a", None, None, [1.0, 0.0, 0.0]),
            ("b", None, None, [0.9, 0.1, 0.0]),
            ("c", None, None, [0.0, 0.0, 1.0]),
        ]
    )
    picks = store.max_marginal_relevance([1.0, 0.0, 0.2], k=3, fetch_k=3, lambda_mult=0.0)
    assert [m.id for m in picks] == ["a", "c", "b"]
    ranked = store.max_marginal_relevance(
        [1.0, 0.0, 0.2], k=3, fetch_k=3, lambda_mult=0.0, order="rank"
    )
    assert [m.id for m in ranked] == ["a", "b", "c"]
    with pytest.raises(ValueError, match="order must be 'pick' or 'rank'"):
        store.max_marginal_relevance([1.0, 0.0, 0.0], order="x")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="redundancy must be 'max' or 'last'"):
        store.max_marginal_relevance([1.0, 0.0, 0.0], redundancy="x")  # type: ignore[arg-type]
