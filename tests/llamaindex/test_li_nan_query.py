"""A NaN in the query vector, per profile: what each real store answers (probe facts
``li-simple-nan-query``, ``li-chroma-nan-query``, ``li-qdrant-nan-query``,
``li-milvus-nan-query``, ``li-pgvector-nan-query``). The core refuses a non-finite query
vector; the adapter answers such a query itself where the real store answers it."""

from __future__ import annotations

import math
import uuid

import pytest
from li_support import LINE_IDS, line_nodes, line_store
from llama_index.core import StorageContext, VectorStoreIndex
from llama_index.core.schema import QueryBundle, TextNode
from llama_index.core.vector_stores import SimpleVectorStore
from llama_index.core.vector_stores.types import (
    MetadataFilter,
    MetadataFilters,
    VectorStoreQuery,
    VectorStoreQueryMode,
)

from placeborag_llamaindex import PlaceboEmbedding, PlaceboVectorStore

NAN = float("nan")
IDS = LINE_IDS


def nan_query(k: int, **kwargs: object) -> VectorStoreQuery:
    return VectorStoreQuery(query_embedding=[NAN, 0.5], similarity_top_k=k, **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize("k", [1, 2, 3, 4, 5, 6, 7])
def test_nan_query_vector_under_default_answers_as_simple_vector_store(k: int) -> None:
    # li-simple-nan-query: every score nan, the heap's pick and order
    real = SimpleVectorStore()
    real.add(line_nodes())
    want = real.query(nan_query(k))
    got = line_store("default").query(nan_query(k))
    assert got.ids == want.ids
    assert got.similarities is not None
    assert want.similarities is not None
    assert len(got.similarities) == len(want.similarities)
    assert all(math.isnan(s) for s in [*got.similarities, *want.similarities])
    assert [n.node_id for n in got.nodes or []] == got.ids


def test_nan_query_vector_under_default_keeps_filters_and_a_partial_nan() -> None:
    even = MetadataFilters(filters=[MetadataFilter(key="parity", value="even")])
    query = VectorStoreQuery(query_embedding=[0.1, NAN], similarity_top_k=2, filters=even)
    real = SimpleVectorStore()
    real.add(line_nodes())
    got = line_store("default").query(query)
    assert got.ids == real.query(query).ids == ["n2", "n4"]


def test_nan_query_vector_through_a_retriever_under_default() -> None:
    store = PlaceboVectorStore()
    index = VectorStoreIndex(
        [TextNode(id_=i, text=i) for i in IDS],
        storage_context=StorageContext.from_defaults(vector_store=store),
        embed_model=PlaceboEmbedding(dimensions=8),
    )
    hits = index.as_retriever(similarity_top_k=2).retrieve(QueryBundle("x", embedding=[NAN] * 8))
    assert [h.node.node_id for h in hits] == ["n4", "n5"]
    assert all(h.score is not None and math.isnan(h.score) for h in hits)


def test_nan_query_vector_under_default_mmr_keeps_the_core_value_error() -> None:
    with pytest.raises(ValueError, match="NaN or infinite"):
        line_store("default").query(nan_query(2, mode=VectorStoreQueryMode.MMR))


def test_nan_query_vector_under_chroma_answers_listing_order_with_nan_scores() -> None:
    # li-chroma-nan-query: nan scores; the first top_k in listing order (Chroma: its HNSW pick,
    # the same when top_k covers every node)
    store = line_store("chroma")
    for k, want in ((2, ["n0", "n1"]), (9, IDS)):
        got = store.query(nan_query(k))
        assert got.ids == want
        assert got.similarities is not None
        assert all(math.isnan(s) for s in got.similarities)


def test_nan_query_vector_under_milvus_answers_nothing() -> None:
    # li-milvus-nan-query
    store = line_store("milvus")
    for query in (nan_query(2), nan_query(2, mode=VectorStoreQueryMode.MMR)):
        got = store.query(query)
        assert (got.ids, got.similarities, got.nodes) == ([], [], [])


def test_nan_query_vector_under_qdrant_raises_qdrant_value_error() -> None:
    # li-qdrant-nan-query
    store = PlaceboVectorStore(profile="qdrant")
    store.add([TextNode(id_=str(uuid.uuid5(uuid.NAMESPACE_DNS, i)), text=i, embedding=[1.0, 0.5])
               for i in IDS])  # fmt: skip
    with pytest.raises(ValueError, match=r"^Query vector must not contain NaN$"):
        store.query(nan_query(2))


def test_nan_query_vector_under_pgvector_keeps_the_core_value_error() -> None:
    # li-pgvector-nan-query: the real DataError is not imitated (a divergence row)
    with pytest.raises(ValueError, match="query vector contains NaN or infinite components"):
        line_store("pgvector").query(nan_query(2))


def test_nan_query_vector_of_the_wrong_width_is_still_refused() -> None:
    # the adapter answers only a query of the store's width; the core refuses the others
    with pytest.raises(ValueError, match="NaN or infinite"):
        line_store("milvus").query(VectorStoreQuery(query_embedding=[NAN] * 3, similarity_top_k=2))
