"""``QdrantVectorStore`` has no collection until its first non-empty ``add`` creates it, and none
again after ``clear()`` drops it: every call but ``clear()`` then raises qdrant-client's
``ValueError: Collection <name> not found`` (``li-qdrant-no-collection-before-add``,
``li-qdrant-clear``); the name is the store's namespace. That state (and milvus's, whose
``clear()`` drops its collection too) survives copies, saved forms and held writes."""

from __future__ import annotations

import asyncio
import copy
import json
import pickle
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
from placeborag_core.backends.milvus import MilvusError
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


# -- the collection state survives every copy and every saved form ---------------------------


def _emptied_qdrant() -> PlaceboVectorStore:
    """A qdrant store whose collection exists but holds nothing: created by an add, emptied by
    deleting every node (li-qdrant-no-collection-before-add: only clear() drops it)."""
    store = PlaceboVectorStore(profile="qdrant", namespace="kb")
    store.add([TextNode(id_=uid(1), text="a", embedding=Q)])
    store.delete_nodes([uid(1)])
    return store


def _cleared_milvus() -> PlaceboVectorStore:
    """A milvus store whose clear() dropped its collection
    (li-milvus-clear-drops-the-collection)."""
    store = PlaceboVectorStore(profile="milvus")
    store.add([TextNode(id_="a", text="a", embedding=Q)])
    store.clear()
    return store


def _pickled(store: PlaceboVectorStore, tmp_path: Any) -> PlaceboVectorStore:
    return pickle.loads(pickle.dumps(store))


def _persisted(store: PlaceboVectorStore, tmp_path: Any) -> PlaceboVectorStore:
    path = str(tmp_path / "store.json")
    store.persist(path)
    return PlaceboVectorStore.from_persist_path(path)


COPIES = [
    _pickled,
    lambda s, _: copy.deepcopy(s),
    lambda s, _: copy.copy(s),
    lambda s, _: PlaceboVectorStore.from_dict(s.to_dict()),
    lambda s, _: PlaceboVectorStore.from_dict(json.loads(json.dumps(s.to_dict()))),
    _persisted,
]
COPY_IDS = ["pickle", "deepcopy", "copy", "to-dict", "to-dict-json", "persist"]


@pytest.mark.parametrize("copied", COPIES, ids=COPY_IDS)
def test_an_emptied_qdrant_collection_still_exists_in_every_copy(copied: Any, tmp_path) -> None:
    store = copied(_emptied_qdrant(), tmp_path)
    assert search(store, Q).ids == []
    assert store.get_nodes([uid(1)]) == []
    assert store.add([]) == []  # an empty add needs the collection
    store.clear()
    with pytest.raises(ValueError, match=r"^Collection kb not found$"):
        search(store, Q)


@pytest.mark.parametrize("copied", COPIES, ids=COPY_IDS)
def test_a_cleared_milvus_store_stays_without_collection_in_every_copy(
    copied: Any, tmp_path
) -> None:
    store = copied(_cleared_milvus(), tmp_path)
    with pytest.raises(MilvusError, match="collection not found"):
        search(store, Q)
    with pytest.raises(MilvusError, match="collection not found"):
        store.get_nodes(["a"])


@pytest.mark.parametrize("copied", COPIES, ids=COPY_IDS)
def test_a_qdrant_store_never_written_stays_without_collection_in_every_copy(
    copied: Any, tmp_path
) -> None:
    store = copied(PlaceboVectorStore(profile="qdrant", namespace="kb"), tmp_path)
    with pytest.raises(ValueError, match=r"^Collection kb not found$"):
        search(store, Q)


def test_the_saved_state_names_the_collection_only_where_a_fresh_store_differs() -> None:
    def saved(store: PlaceboVectorStore) -> dict[str, Any]:
        fields: dict[str, Any] = store.to_dict()["store"]
        return fields

    assert "no_collection" not in saved(PlaceboVectorStore(profile="qdrant"))
    assert "no_collection" not in saved(PlaceboVectorStore(profile="milvus"))
    written = PlaceboVectorStore(profile="qdrant")
    written.add([TextNode(id_=uid(1), text="a", embedding=Q)])
    assert "no_collection" not in saved(written)  # the records say it exists
    written.clear()
    assert "no_collection" not in saved(written)  # as a fresh qdrant store: none
    assert saved(_emptied_qdrant())["no_collection"] is False
    assert saved(_cleared_milvus())["no_collection"] is True


def test_a_saved_collection_state_that_is_not_a_bool_is_refused() -> None:
    data = _cleared_milvus().to_dict()
    data["store"]["no_collection"] = "yes"
    with pytest.raises(ValueError, match="invalid no_collection: 'yes'"):
        PlaceboVectorStore.from_dict(data)
    data["store"]["profile"] = "default"
    data["store"]["no_collection"] = True
    with pytest.raises(ValueError, match="invalid no_collection"):
        PlaceboVectorStore.from_dict(data)


# -- visibility="manual": clear() drops the collection at once -----------------------------


def test_under_manual_visibility_clear_drops_the_collection_before_refresh() -> None:
    store = PlaceboVectorStore(profile="qdrant", namespace="kb", visibility="manual")
    store.add([TextNode(id_=uid(1), text="a", embedding=Q)])
    assert search(store, Q).ids == []  # the add waits; the collection exists
    store.refresh()
    assert search(store, Q).ids == [uid(1)]
    store.clear()
    assert store.pending_writes == 1  # the delete waits ...
    with pytest.raises(ValueError, match=r"^Collection kb not found$"):
        search(store, Q)  # ... but the collection is gone already
    with pytest.raises(ValueError, match=r"^Collection kb not found$"):
        store.get_nodes([uid(1)])
    assert store.core_store.count("kb") == 1  # unchanged: the check refreshes a copy
    store.refresh()
    with pytest.raises(ValueError, match=r"^Collection kb not found$"):
        search(store, Q)


def test_under_manual_visibility_a_cleared_milvus_store_fails_before_refresh() -> None:
    store = PlaceboVectorStore(profile="milvus", visibility="manual")
    store.add([TextNode(id_="a", text="a", embedding=Q)])
    store.refresh()
    store.clear()
    with pytest.raises(MilvusError, match="collection not found"):
        search(store, Q)


def test_under_manual_visibility_records_seeded_and_waiting_keep_the_collection() -> None:
    core = FakeVectorStore(profile="qdrant", visibility="manual")
    core.upsert_many([(uid(1), "a", {}, Q)])
    store = PlaceboVectorStore.from_core_store(core)
    assert search(store, Q).ids == []  # the seeded record waits, but the collection exists
    core.refresh()
    assert search(store, Q).ids == [uid(1)]


def test_under_manual_visibility_chroma_clears_what_a_read_lists() -> None:
    # ChromaVectorStore.clear deletes the ids Collection.get() lists: a stale read lists none,
    # and Chroma refuses an empty delete (li-chroma-clear-empty-raises); the add stays
    store = PlaceboVectorStore(profile="chroma", visibility="manual")
    store.add([TextNode(id_="a", text="a", embedding=Q)])
    with pytest.raises(ValueError, match="got 0 IDs in delete"):
        store.clear()
    store.refresh()
    assert search(store, Q).ids == ["a"]
    store.clear()  # listed now: deleted, once refreshed
    store.refresh()
    assert search(store, Q).ids == []
