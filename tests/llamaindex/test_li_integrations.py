"""The integrations table and how the store reads it: node ids through the engine's id rule,
query options by the row's fields, rows that check themselves."""

from __future__ import annotations

import dataclasses

import pytest
from li_support import Q, uid
from llama_index.core.schema import TextNode
from llama_index.core.vector_stores.types import VectorStoreQuery

from placeborag_core.backends import PROFILES
from placeborag_llamaindex import INTEGRATIONS, PlaceboVectorStore
from placeborag_llamaindex.integrations import integration_for
from placeborag_llamaindex.nodes import NodeCodec, node_record_id
from placeborag_llamaindex.restrictions import Restrictions


@pytest.mark.parametrize("profile", sorted(INTEGRATIONS))
def test_every_row_belongs_to_a_core_profile(profile):
    assert integration_for(profile).profile == profile
    assert profile in PROFILES


@pytest.mark.parametrize(
    ("profile", "node_id", "message"),
    [
        ("default", "", "id must be a non-empty str, got ''"),
        ("chroma", 7, "id must be a non-empty str, got 7"),
        ("qdrant", "my-node", "Point id my-node is not a valid UUID"),
        ("qdrant", "123", "Point id 123 is not a valid UUID"),
        ("qdrant", 7, "Point id 7 is not a valid UUID"),
    ],
)
def test_a_node_id_the_engine_rejects_raises_the_engine_message(profile, node_id, message):
    store = PlaceboVectorStore(profile=profile)
    store.add([TextNode(id_=uid(1), text="a", embedding=Q)])  # Qdrant: creates the collection
    with pytest.raises(ValueError, match=f"^{message}$"):
        store.get_nodes([node_id])


def test_node_ids_are_strs_even_where_the_engine_takes_ints():
    ids = PROFILES["qdrant"].ids
    assert ids.canonical(7) == "7"
    assert node_record_id(ids, 7) is None
    assert node_record_id(ids, uid(5).upper()) == uid(5)


def test_the_native_filter_reads_has_id_as_node_ids():
    layout = INTEGRATIONS["qdrant"].native_payload
    assert layout is not None
    assert [layout.canonical_id(v) for v in (uid(3).upper(), "x", 3)] == [uid(3), None, None]


def test_unknown_options_name_the_profiles_that_take_them():
    with pytest.raises(TypeError) as caught:
        PlaceboVectorStore().query(VectorStoreQuery(query_embedding=Q), bogus=1)
    assert str(caught.value).endswith(
        "accepted: fetch_k, mmr_threshold, where, where_document "
        "(mmr_prefetch_factor, mmr_prefetch_k need profile 'chroma' or 'milvus' or 'pgvector'; "
        "qdrant_filters needs profile 'qdrant')"
    )


def test_rows_check_the_fields_that_go_together():
    chroma, qdrant = INTEGRATIONS["chroma"], INTEGRATIONS["qdrant"]
    with pytest.raises(ValueError, match="mmr_prefetch_factor is needed exactly when"):
        dataclasses.replace(chroma, mmr_prefetch_factor=None)
    with pytest.raises(ValueError, match="native_payload is needed exactly when"):
        dataclasses.replace(qdrant, native_payload=None)
    with pytest.raises(ValueError, match="native_payload is needed exactly when"):
        dataclasses.replace(INTEGRATIONS["lancedb"], native_payload=None)
    with pytest.raises(ValueError, match="native_payload is needed exactly when"):
        dataclasses.replace(chroma, native_payload=qdrant.native_payload)


def test_a_native_filter_keyword_needs_an_engine_that_reads_native_filters():
    qdrant = INTEGRATIONS["qdrant"]
    codec = NodeCodec(qdrant, PROFILES["qdrant"].ids)
    with pytest.raises(ValueError, match="reads no native filter"):
        Restrictions(qdrant, codec, native_filter=None)


def test_the_store_reads_its_row():
    store = PlaceboVectorStore(profile="chroma")
    store.add([TextNode(id_="n1", text="x", embedding=Q)])
    assert store.facts is INTEGRATIONS["chroma"]
    assert store.flat_metadata is INTEGRATIONS["chroma"].flat_metadata
