"""persist / from_persist_path: a documented JSON file, never pickle."""

from __future__ import annotations

import json

import fsspec
import pytest
from li_support import ID, LETTER, build_index, make_nodes, retrieve_letters, uid
from llama_index.core import StorageContext, load_index_from_storage
from llama_index.core.schema import TextNode
from llama_index.core.vector_stores.types import VectorStoreQuery

from placeborag_core import FakeVectorStore
from placeborag_llamaindex import PlaceboEmbedding, PlaceboVectorStore, persist


@pytest.mark.parametrize(
    ("profile", "metric"), [("default", None), ("chroma", "cosine"), ("qdrant", "euclid")]
)
def test_round_trip_restores_configuration_records_and_scores(tmp_path, profile, metric):
    store = PlaceboVectorStore(profile=profile, metric=metric, namespace="team")
    embed = PlaceboEmbedding(dimensions=32)
    texts = [f"note {i} on refunds {i % 3} and shipping {i % 4}" for i in range(40)]
    vectors = embed.get_text_embedding_batch(texts)
    store.add(
        [
            TextNode(id_=uid(i + 1), text=t, embedding=v)
            for i, (t, v) in enumerate(zip(texts, vectors, strict=True))
        ]
    )
    path = tmp_path / "nested" / "store.json"
    store.persist(str(path))
    loaded = PlaceboVectorStore.from_persist_path(str(path))
    assert (loaded.profile, loaded.metric, loaded.namespace) == (profile, metric, "team")
    query = VectorStoreQuery(
        query_embedding=embed.get_query_embedding("refunds 2"), similarity_top_k=15
    )
    before, after = store.query(query), loaded.query(query)
    assert after.ids == before.ids
    assert after.similarities == before.similarities
    assert [n.get_content() for n in after.nodes] == [n.get_content() for n in before.nodes]


def test_file_is_plain_json_in_the_documented_format(tmp_path):
    store = PlaceboVectorStore()
    store.add(make_nodes()[:2])
    path = tmp_path / "store.json"
    store.persist(str(path))
    payload = json.loads(path.read_text(encoding="utf-8"))
    assert payload["format"] == "placeborag.llamaindex.vector_store"
    assert payload["version"] == 2
    assert payload["embedding_dict"] == {"placeborag": [persist.GUARD]}
    assert payload["store"] == {
        "profile": "default",
        "metric": None,
        "filter_mode": "pre",
        "recall": 1.0,
        "visibility": "immediate",
        "orphaned_ids": False,
        "namespace": "",
    }
    (record_a, record_b) = payload["namespaces"][""]
    assert record_a["id"] == ID["a"]
    assert record_b["id"] == ID["b"]
    assert record_a["text"] == "a"
    assert record_a["vector"] == [1.0, 0.0, 0.0, 0.0]
    assert record_a["metadata"]["color"] == "red"
    assert "_node_content" in record_a["metadata"]


def test_every_namespace_of_the_core_store_is_kept(tmp_path):
    core = FakeVectorStore()
    PlaceboVectorStore.from_core_store(core, namespace="x").add(make_nodes()[:1])
    PlaceboVectorStore.from_core_store(core, namespace="y").add(make_nodes()[1:3])
    path = str(tmp_path / "s.json")
    PlaceboVectorStore.from_core_store(core, namespace="x").persist(path)
    loaded = PlaceboVectorStore.from_persist_path(path)
    assert loaded.core_store.namespaces() == ["x", "y"]
    assert loaded.core_store.count("y") == 2


def test_manual_visibility_store_reloads_with_its_records_visible(tmp_path):
    store = PlaceboVectorStore(visibility="manual")
    store.add(make_nodes())
    store.refresh()
    path = str(tmp_path / "s.json")
    store.persist(path)
    loaded = PlaceboVectorStore.from_persist_path(path)
    assert loaded.pending_writes == 0
    assert loaded.core_store.count() == 6


def test_storage_context_persist_and_reload(tmp_path):
    store = PlaceboVectorStore(profile="qdrant")
    index = build_index(store, make_nodes())
    index.storage_context.persist(persist_dir=str(tmp_path))
    loaded_store = PlaceboVectorStore.from_persist_path(
        str(tmp_path / "default__vector_store.json")
    )
    context = StorageContext.from_defaults(persist_dir=str(tmp_path), vector_store=loaded_store)
    reloaded = load_index_from_storage(context, embed_model=PlaceboEmbedding())
    assert retrieve_letters(reloaded, k=3) == ["a", "b", "c"]


def test_fsspec_filesystem_is_honoured():
    fs = fsspec.filesystem("memory")
    store = PlaceboVectorStore()
    store.add(make_nodes()[:1])
    store.persist("/placebo/store.json", fs=fs)
    loaded = PlaceboVectorStore.from_persist_path("/placebo/store.json", fs=fs)
    assert [LETTER[n.node_id] for n in loaded.get_nodes()] == ["a"]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("not json", "is not a JSON file"),
        ('{"format": "other"}', "is not a PlaceboVectorStore file"),
        ('{"format": "placeborag.llamaindex.vector_store", "version": 99}', "format version 99"),
        (
            (
                '{"format": "placeborag.llamaindex.vector_store", "version": 1, "store": {}, '
                '"namespaces": {"": [{"id": "x"}]}}'
            ),
            "must have exactly the keys",
        ),
    ],
)
def test_bad_files_raise_saying_what_is_wrong(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ValueError, match=message):
        PlaceboVectorStore.from_persist_path(str(path))
