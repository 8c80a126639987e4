"""An infinite (not NaN) component in the query vector, per profile: what each real store answers
(probe facts ``li-simple-inf-query``, ``li-milvus-inf-query``, ``li-chroma-inf-query``,
``li-qdrant-inf-query``). The core refuses a non-finite query vector; the adapter answers such a
query itself where the real store's answer is reproducible (``IntegrationFacts.inf_query``)."""

from __future__ import annotations

import math
import uuid

import numpy as np
import pytest
from li_support import LINE_IDS, line_nodes, line_store
from llama_index.core.schema import TextNode
from llama_index.core.vector_stores import SimpleVectorStore
from llama_index.core.vector_stores.types import (
    MetadataFilter,
    MetadataFilters,
    VectorStoreQuery,
    VectorStoreQueryMode,
    VectorStoreQueryResult,
)

from placeborag_llamaindex import PlaceboVectorStore

INF = float("inf")
IDS = LINE_IDS
# li-milvus-inf-query: the probe's nodes and the answers of milvus-lite under IP
MILVUS_NODES = {
    "a": [1.0, 0.0, 0.0, 0.0],
    "b": [0.8, 0.6, 0.0, 0.0],
    "c": [0.6, 0.8, 0.0, 0.0],
    "d": [0.0, 0.0, 0.0, 1.0],
    "e": [0.0, 0.0, 1.0, 0.0],
    "f": [0.5, 0.0, 0.0, 0.5],
    "g": [-1.0, 0.0, 0.0, 0.0],
}
MILVUS_IP = [
    ([INF, 0.0, 0.0, 0.0], 1, ["a"]),
    ([INF, 0.0, 0.0, 0.0], 2, ["b", "a"]),
    ([INF, 0.0, 0.0, 0.0], 9, ["f", "c", "b", "a"]),
    ([-INF, 0.0, 0.0, 0.0], 1, ["g"]),
    ([-INF, 0.0, 0.0, 0.0], 9, ["g"]),
    ([INF, INF, 0.0, 0.0], 1, ["b"]),
    ([INF, INF, 0.0, 0.0], 2, ["c", "b"]),
    ([INF, INF, 0.0, 0.0], 9, ["c", "b"]),
]


def inf_query(k: int, vector: list[float] | None = None, **kwargs: object) -> VectorStoreQuery:
    return VectorStoreQuery(
        query_embedding=vector or [INF, 0.5],
        similarity_top_k=k,
        **kwargs,  # type: ignore[arg-type]
    )


def real_answer(query: VectorStoreQuery) -> VectorStoreQueryResult:
    """``SimpleVectorStore``'s answer; numpy warns of inf / inf (no error)."""
    real = SimpleVectorStore()
    real.add(line_nodes())
    with np.errstate(invalid="ignore"):
        return real.query(query)


def milvus(metric: str | None = None) -> PlaceboVectorStore:
    store = PlaceboVectorStore(profile="milvus", metric=metric)
    store.add([TextNode(id_=t, text=t, embedding=e) for t, e in MILVUS_NODES.items()])
    return store


@pytest.mark.parametrize("vector", [[INF, 0.5], [-INF, 0.5], [0.1, INF], [INF, -INF]])
@pytest.mark.parametrize("k", [1, 2, 4, 7])
def test_inf_query_vector_under_default_answers_as_simple_vector_store(
    k: int, vector: list[float]
) -> None:
    # li-simple-inf-query: every score nan, the heap's pick and order, as a NaN query
    want = real_answer(inf_query(k, vector))
    got = line_store("default").query(inf_query(k, vector))
    assert got.ids == want.ids
    assert got.similarities is not None
    assert want.similarities is not None
    assert len(got.similarities) == len(want.similarities)
    assert all(math.isnan(s) for s in [*got.similarities, *want.similarities])


def test_inf_query_vector_under_default_keeps_filters() -> None:
    even = MetadataFilters(filters=[MetadataFilter(key="parity", value="even")])
    query = VectorStoreQuery(query_embedding=[INF, 0.1], similarity_top_k=2, filters=even)
    assert line_store("default").query(query).ids == real_answer(query).ids == ["n2", "n4"]


def test_inf_query_vector_under_default_mmr_keeps_the_core_value_error() -> None:
    with pytest.raises(ValueError, match="NaN or infinite"):
        line_store("default").query(inf_query(2, mode=VectorStoreQueryMode.MMR))


@pytest.mark.parametrize(("vector", "k", "want"), MILVUS_IP)
def test_inf_query_vector_under_milvus_ip_answers_the_infinite_products(
    vector: list[float], k: int, want: list[str]
) -> None:
    # li-milvus-inf-query: +inf inner products, the first top_k in listing order, reversed
    got = milvus().query(inf_query(k, vector))
    assert got.ids == want
    assert got.similarities == [INF] * len(want)
    assert [n.node_id for n in got.nodes or []] == want


def test_inf_query_vector_under_milvus_ip_keeps_filters() -> None:
    store = PlaceboVectorStore(profile="milvus")
    store.add(
        [
            TextNode(id_=t, text=t, embedding=e, metadata={"keep": "no" if t == "b" else "yes"})
            for t, e in MILVUS_NODES.items()
        ]
    )
    keep = MetadataFilters(filters=[MetadataFilter(key="keep", value="yes")])
    got = store.query(inf_query(9, [INF, 0.0, 0.0, 0.0], filters=keep))
    assert got.ids == ["f", "c", "a"]


@pytest.mark.parametrize("metric", ["cosine", "l2"])
def test_inf_query_vector_under_milvus_cosine_or_l2_answers_nothing(metric: str) -> None:
    got = milvus(metric).query(inf_query(2, [INF, 0.0, 0.0, 0.0]))
    assert (got.ids, got.similarities, got.nodes) == ([], [], [])


def test_inf_query_vector_under_milvus_mmr() -> None:
    # no +inf product: nothing, as milvus-lite; +inf ones: MilvusVectorStore's KeyError is not
    # imitated, the core refuses
    store = milvus()
    got = store.query(inf_query(2, [INF] * 4, mode=VectorStoreQueryMode.MMR))
    assert (got.ids, got.similarities, got.nodes) == ([], [], [])
    with pytest.raises(ValueError, match="NaN or infinite"):
        store.query(inf_query(2, [INF, 0.0, 0.0, 1.0], mode=VectorStoreQueryMode.MMR))


@pytest.mark.parametrize("profile", ["chroma", "pgvector"])
def test_inf_query_vector_under_chroma_and_pgvector_keeps_the_core_value_error(
    profile: str,
) -> None:
    # li-chroma-inf-query: the HNSW index's pick (a divergence); PGVectorStore: DataError
    with pytest.raises(ValueError, match="NaN or infinite"):
        line_store(profile).query(inf_query(2))


def test_inf_query_vector_under_qdrant_keeps_the_core_value_error() -> None:
    # li-qdrant-inf-query: numpy's argsort order over nan scores (a divergence)
    store = PlaceboVectorStore(profile="qdrant")
    store.add(
        [
            TextNode(id_=str(uuid.uuid5(uuid.NAMESPACE_DNS, i)), text=i, embedding=[1.0, 0.5])
            for i in IDS
        ]
    )
    with pytest.raises(ValueError, match="NaN or infinite"):
        store.query(inf_query(2))


def test_nan_beats_inf_in_one_query_vector() -> None:
    # a NaN and an infinity: the NaN rule (li-milvus-nan-query: nothing)
    got = milvus().query(inf_query(2, [INF, float("nan"), 0.0, 0.0]))
    assert got.ids == []


def test_inf_query_vector_of_the_wrong_width_is_still_refused() -> None:
    with pytest.raises(ValueError, match="NaN or infinite"):
        line_store("default").query(inf_query(2, [INF, 0.0, 0.0]))
