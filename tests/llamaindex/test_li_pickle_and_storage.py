"""Pickling, to_dict/from_dict and the LlamaIndex persist-dir route keep every record or fail
loudly saying what to do (issue: drop-in parity, LlamaIndex part)."""

from __future__ import annotations

import copy
import json
import pickle

import pytest
from li_support import ID, Q, build_index, make_nodes, retrieve_letters
from llama_index.core import StorageContext, load_index_from_storage
from llama_index.core.vector_stores.types import VectorStoreQuery

from placeborag_core import FakeVectorStore, RetrievalTimeout
from placeborag_llamaindex import INTEGRATIONS, PlaceboEmbedding, PlaceboVectorStore, persist

PROFILES = sorted(INTEGRATIONS)


def _query(store: PlaceboVectorStore, k: int = 6):
    return store.query(VectorStoreQuery(query_embedding=Q, similarity_top_k=k))


@pytest.mark.parametrize("profile", PROFILES)
def test_pickled_store_keeps_records_ids_vectors_scores_and_settings(profile):
    store = PlaceboVectorStore(
        profile=profile, filter_mode="post", recall=0.75, namespace="team", orphaned_ids=True
    )
    store.add(make_nodes())
    victim = _query(store).ids[1]  # an orphan: its id stays in the index
    store.core_store.delete([victim], namespace="team")
    loaded = pickle.loads(pickle.dumps(store))
    assert loaded.model_dump() == store.model_dump()
    before, after = _query(store), _query(loaded)
    assert (after.ids, after.similarities) == (before.ids, before.similarities)
    assert [n.get_content() for n in after.nodes or []] == [
        n.get_content() for n in before.nodes or []
    ]
    for node_id in ID.values():
        assert loaded.core_store.get(node_id, namespace="team") == store.core_store.get(
            node_id, namespace="team"
        )
    assert repr(loaded.core_store) == repr(store.core_store)


@pytest.mark.parametrize("profile", PROFILES)
def test_a_deep_copy_keeps_every_record_and_is_independent(profile):
    store = PlaceboVectorStore(profile=profile, namespace="team")
    store.add(make_nodes())
    clone = copy.deepcopy(store)
    assert clone.model_dump() == store.model_dump()
    assert (_query(clone).ids, _query(clone).similarities) == (
        _query(store).ids,
        _query(store).similarities,
    )
    clone.core_store.delete([_query(clone).ids[1]], namespace="team")
    assert len(_query(clone).ids) == 5
    assert len(_query(store).ids) == 6


def test_pickled_store_keeps_held_writes_and_armed_failures():
    store = PlaceboVectorStore(visibility="manual")
    store.add(make_nodes())
    store.fail_next_query(RetrievalTimeout, times=2)
    loaded = pickle.loads(pickle.dumps(store))
    assert loaded.pending_writes == 6
    for _ in range(2):
        with pytest.raises(RetrievalTimeout):
            _query(loaded)
    assert _query(loaded).ids == []
    loaded.refresh()
    assert len(_query(loaded).ids) == 6
    assert store.pending_writes == 6  # the original is untouched


def test_pickled_store_keeps_its_embedder_space():
    embed = PlaceboEmbedding(dimensions=32, clusters={"refunds": ["refund", "money back"]})
    store = PlaceboVectorStore(embedder=embed)
    loaded = pickle.loads(pickle.dumps(store))
    assert loaded.core_store.embedder == store.core_store.embedder
    assert loaded.core_store.embedder.embed("money back") == embed.get_text_embedding("money back")


def test_wrappers_of_one_core_store_share_it_after_unpickling():
    core = FakeVectorStore()
    left = PlaceboVectorStore.from_core_store(core, namespace="left")
    right = PlaceboVectorStore.from_core_store(core, namespace="right")
    left.add(make_nodes()[:2])
    new_left, new_right = pickle.loads(pickle.dumps((left, right)))
    new_right.add(make_nodes()[2:3])
    assert new_left.core_store is new_right.core_store
    assert new_left.core_store.namespaces() == ["left", "right"]


@pytest.mark.parametrize("profile", PROFILES)
def test_pickled_index_keeps_every_record(profile):
    index = build_index(PlaceboVectorStore(profile=profile), make_nodes())
    loaded = pickle.loads(pickle.dumps(index))
    assert retrieve_letters(loaded) == retrieve_letters(index) == list("abcdef")


def test_unpickling_a_foreign_state_raises():
    store = PlaceboVectorStore()
    with pytest.raises(TypeError, match="not a pickled PlaceboVectorStore state"):
        store.__setstate__({"__dict__": {}})


def test_pickled_embedding_keeps_its_options_without_warnings(caplog):
    embed = PlaceboEmbedding(dimensions=16, model_name="m", embed_batch_size=8)
    loaded = pickle.loads(pickle.dumps(embed))
    assert loaded.model_dump() == embed.model_dump()
    assert loaded.get_text_embedding("x") == embed.get_text_embedding("x")
    assert "unpickleable" not in caplog.text


@pytest.mark.parametrize("profile", PROFILES)
def test_to_dict_and_from_dict_keep_every_record(profile):
    store = PlaceboVectorStore(profile=profile, namespace="n")
    store.add(make_nodes())
    data = store.to_dict()
    json.dumps(data)  # JSON-ready
    loaded = PlaceboVectorStore.from_dict(data)
    assert (_query(loaded).ids, _query(loaded).similarities) == (
        _query(store).ids,
        _query(store).similarities,
    )
    assert PlaceboVectorStore.from_json(store.to_json()).core_store.count("n") == 6


def test_from_dict_refuses_what_to_dict_did_not_write():
    with pytest.raises(ValueError, match=r"from_dict\(\) data is not a PlaceboVectorStore file"):
        PlaceboVectorStore.from_dict({"profile": "chroma"})
    with pytest.raises(TypeError, match="accepts embedder="):
        PlaceboVectorStore.from_dict(PlaceboVectorStore().to_dict(), profile="x")


def _persisted_index(tmp_path, profile="default"):
    index = build_index(PlaceboVectorStore(profile=profile), make_nodes())
    index.storage_context.persist(persist_dir=str(tmp_path))
    return index


def test_storage_context_without_our_store_fails_saying_how_to_load(tmp_path):
    _persisted_index(tmp_path)
    with pytest.raises(ValueError, match=r"PlaceboVectorStore.from_persist_dir\(persist_dir\)"):
        StorageContext.from_defaults(persist_dir=str(tmp_path))


@pytest.mark.parametrize("profile", PROFILES)
def test_from_persist_dir_reloads_the_index_with_its_data(tmp_path, profile):
    _persisted_index(tmp_path, profile)
    store = PlaceboVectorStore.from_persist_dir(str(tmp_path))
    assert store.profile == profile
    context = StorageContext.from_defaults(persist_dir=str(tmp_path), vector_store=store)
    reloaded = load_index_from_storage(context, embed_model=PlaceboEmbedding())
    assert retrieve_letters(reloaded) == list("abcdef")


def test_version_1_files_are_still_read(tmp_path):
    store = PlaceboVectorStore()
    store.add(make_nodes())
    payload = store.to_dict()
    del payload["class_name"], payload["embedding_dict"]
    payload["version"] = 1
    path = tmp_path / "v1.json"
    path.write_text(json.dumps(payload), encoding="utf-8")
    assert PlaceboVectorStore.from_persist_path(str(path)).core_store.count() == 6


def test_persist_refuses_held_writes_and_writes_nothing(tmp_path):
    store = PlaceboVectorStore(visibility="manual")
    store.add(make_nodes())
    path = tmp_path / "s.json"
    with pytest.raises(ValueError, match=r"6 writes waiting for refresh\(\).*call refresh\(\)"):
        store.persist(str(path))
    assert not path.exists()


def test_persist_refuses_orphaned_ids_and_writes_nothing(tmp_path):
    store = PlaceboVectorStore(orphaned_ids=True)
    store.add(make_nodes())
    store.delete_nodes([ID["a"]])
    path = tmp_path / "s.json"
    with pytest.raises(ValueError, match=r"1 orphaned ids of namespace ''.*compact\(\)"):
        store.persist(str(path))
    assert not path.exists()
    store.core_store.compact()
    store.persist(str(path))
    assert PlaceboVectorStore.from_persist_path(str(path)).core_store.count() == 5


def _file(tmp_path, content: bytes | str):
    path = tmp_path / "bad.json"
    if isinstance(content, str):
        content = content.encode("utf-8")
    path.write_bytes(content)
    return str(path)


def _valid_payload() -> dict:
    store = PlaceboVectorStore()
    store.add(make_nodes()[:1])
    payload = store.to_dict()
    del payload["class_name"]
    return payload


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\xff\xfe{}", "not UTF-8 text"),
        ("[" * 100_000 + "]" * 100_000, "nested too deep"),
        ('{"n": ' + "9" * 5000 + "}", "cannot be read as JSON"),
        ("{\n  oops", r":2 is not a JSON file"),
    ],
)
def test_corrupt_files_raise_value_error_naming_the_file(tmp_path, content, message):
    path = _file(tmp_path, content)
    with pytest.raises(ValueError, match=message) as caught:
        PlaceboVectorStore.from_persist_path(path)
    assert path in str(caught.value)


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda p: p.update(extra=1), "unknown top-level keys"),
        (lambda p: p["store"].update(profil="chroma"), "invalid constructor fields"),
        (lambda p: p["store"].update(recall="0.5"), "invalid constructor fields"),
        (lambda p: p["namespaces"][""][0].update(vector=[1.0, "x"]), "a record cannot be loaded"),
        (lambda p: p["namespaces"][""][0].update(id=""), "a record cannot be loaded"),
    ],
)
def test_foreign_content_raises_value_error_naming_the_file(tmp_path, edit, message):
    payload = _valid_payload()
    edit(payload)
    path = _file(tmp_path, json.dumps(payload))
    with pytest.raises(ValueError, match=message) as caught:
        PlaceboVectorStore.from_persist_path(path)
    assert path in str(caught.value)


@pytest.mark.parametrize("error", [ValueError, FileNotFoundError])
def test_a_missing_file_raises_value_error_and_file_not_found_naming_it(tmp_path, error):
    missing = str(tmp_path / "nope.json")
    with pytest.raises(error, match=r"No existing PlaceboVectorStore file found.*nope\.json"):
        PlaceboVectorStore.from_persist_path(missing)


def test_persist_file_is_never_unpickled(tmp_path):
    path = _file(tmp_path, pickle.dumps({"format": persist.FORMAT}))
    with pytest.raises(ValueError, match=r"not UTF-8 text|is not a JSON file"):
        PlaceboVectorStore.from_persist_path(path)


def test_from_namespaced_persist_dir_loads_our_stores_only(tmp_path):
    _persisted_index(tmp_path, "chroma")  # also writes LlamaIndex's image__vector_store.json
    stores = PlaceboVectorStore.from_namespaced_persist_dir(str(tmp_path))
    assert list(stores) == ["default"]
    assert stores["default"].profile == "chroma"
    assert stores["default"].core_store.count() == 6


def test_from_namespaced_persist_dir_raises_for_a_damaged_file_of_ours(tmp_path):
    _persisted_index(tmp_path)
    path = tmp_path / "default__vector_store.json"
    payload = json.loads(path.read_text(encoding="utf-8"))
    payload["version"] = 99
    path.write_text(json.dumps(payload), encoding="utf-8")
    with pytest.raises(ValueError, match=r"default__vector_store\.json has format version 99"):
        PlaceboVectorStore.from_namespaced_persist_dir(str(tmp_path))
