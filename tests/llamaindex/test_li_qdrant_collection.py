"""``QdrantVectorStore`` has no collection until its first non-empty ``add`` creates it, and none
again after ``clear()`` drops it: every call but ``clear()`` then raises qdrant-client's
``ValueError: Collection <name> not found`` (``li-qdrant-no-collection-before-add``,
``li-qdrant-clear``); the name is the store's namespace."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from li_support import Q, make_nodes, uid
from llama_index.core import StorageContext, VectorStoreIndex
from llama_index.core.schema import TextNode
from llama_index.core.vector_stores.types import (
    FilterOperator,
    MetadataFilter,
    MetadataFilters,
    VectorStoreQuery,
)

from placeborag_core import FakeVectorStore
from placeborag_llamaindex import PlaceboEmbedding, PlaceboVectorStore

RED = MetadataFilters(filters=[MetadataFilter(key="color", value="red")])


def search(store: PlaceboVectorStore, embedding: list[float] | None, **kwargs: Any) -> Any:
    return store.query(VectorStoreQuery(query_embedding=embedding, similarity_top_k=2, **kwargs))


CALLS = [
    lambda s: search(s, Q),
    lambda s: search(s, None),
    lambda s: search(s, Q, mode="mmr", filters=RED),
    lambda s: s.get_nodes([uid(1)]),
    lambda s: s.get_nodes(["not-a-uuid"]),  # the engine checks ids after it finds the collection
    lambda s: s.get_nodes([]),
    lambda s: s.get_nodes(filters=RED),
    lambda s: s.get_nodes(),
    lambda s: s.delete_nodes([uid(1)]),
    lambda s: s.delete("doc"),
    lambda s: s.add([]),
]
CALL_IDS = [
    "query", "query-no-embedding", "query-mmr-filters", "get-nodes-ids", "get-nodes-bad-id",
    "get-nodes-empty-ids", "get-nodes-filters", "get-nodes-nothing", "delete-nodes-ids",
    "delete", "add-nothing",
]  # fmt: skip


@pytest.mark.parametrize("call", CALLS, ids=CALL_IDS)
def test_every_call_on_a_store_never_written_raises_collection_not_found(call: Any) -> None:
    store = PlaceboVectorStore(profile="qdrant", namespace="kb")
    with pytest.raises(ValueError, match=r"^Collection kb not found$"):
        call(store)


@pytest.mark.parametrize("call", CALLS, ids=CALL_IDS)
def test_every_call_after_clear_raises_collection_not_found(call: Any) -> None:
    store = PlaceboVectorStore(profile="qdrant")
    store.add(make_nodes())
    store.clear()
    with pytest.raises(ValueError, match=r"^Collection  not found$"):
        call(store)


def test_a_retriever_over_an_empty_index_raises_sync_and_async() -> None:
    context = StorageContext.from_defaults(vector_store=PlaceboVectorStore(profile="qdrant"))
    index = VectorStoreIndex([], storage_context=context, embed_model=PlaceboEmbedding())
    with pytest.raises(ValueError, match="Collection  not found"):
        index.as_retriever().retrieve("refund")
    with pytest.raises(ValueError, match="Collection  not found"):
        asyncio.run(index.as_retriever().aretrieve("refund"))


def test_the_first_add_creates_the_collection_and_deleting_every_node_keeps_it() -> None:
    store = PlaceboVectorStore(profile="qdrant")
    store.clear()  # no collection: silent, as qdrant-client's delete_collection
    store.add([TextNode(id_=uid(1), text="a", embedding=Q)])
    store.delete_nodes([uid(1)])
    assert search(store, Q).ids == []
    assert store.get_nodes([uid(1)]) == []
    assert store.add([]) == []


def test_an_add_after_clear_creates_the_collection_again() -> None:
    store = PlaceboVectorStore(profile="qdrant")
    store.add(make_nodes())
    store.clear()
    store.clear()  # again: silent
    assert store.add([TextNode(id_=uid(9), text="z", embedding=Q)]) == [uid(9)]
    assert search(store, Q).ids == [uid(9)]


def test_the_clients_own_checks_still_come_first() -> None:
    store = PlaceboVectorStore(profile="qdrant")
    with pytest.raises(ValueError, match="limit value 0 is invalid"):
        store.query(VectorStoreQuery(query_embedding=Q, similarity_top_k=0))
    unsupported = MetadataFilters(
        filters=[MetadataFilter(key="tags", value="x", operator=FilterOperator.CONTAINS)]
    )
    with pytest.raises(NotImplementedError, match="not supported by Qdrant"):
        search(store, Q, filters=unsupported)
    with pytest.raises(ValueError, match="Use clear"):  # our refusal to delete every node
        store.delete_nodes()


def test_a_store_over_records_seeded_into_the_core_has_its_collection() -> None:
    core = FakeVectorStore(profile="qdrant")
    core.upsert_many([(uid(1), "a", {}, Q)])
    store = PlaceboVectorStore.from_core_store(core)
    assert search(store, Q).ids == [uid(1)]


@pytest.mark.parametrize("profile", ["default", "chroma", "pgvector", "milvus"])
def test_the_other_profiles_answer_on_a_store_never_written(profile: str) -> None:
    assert search(PlaceboVectorStore(profile=profile), Q).ids == []


def test_qdrant_search_params_are_accepted_and_change_nothing() -> None:
    # QdrantVectorStore.query reads search_params (a SearchParams or its dict: HNSW tuning such
    # as exact=True or hnsw_ef); the double's search is exact, so it changes nothing
    store = PlaceboVectorStore(profile="qdrant")
    store.add(make_nodes())
    plain = search(store, Q).ids
    for params in ({"exact": True}, {"hnsw_ef": 128}):
        query = VectorStoreQuery(query_embedding=Q, similarity_top_k=2)
        assert store.query(query, search_params=params).ids == plain
