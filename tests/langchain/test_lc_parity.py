# ruff: noqa: E501 - the tables of malformed calls read best one call per line
"""The real classes' own methods on PlaceboVectorStore, without the real classes installed:
persistence (round trips, refused and foreign files, pickling), the collection methods, the
real constructor options, the retriever's reported class, and malformed input (Issue B: every
bad argument raises a documented error before anything changes, generated ids included).

The same behaviour is compared with langchain-chroma, langchain-qdrant and FAISS in
tests/fidelity/test_langchain_parity.py.
"""

from __future__ import annotations

import asyncio
import copy
import json
import math
import pickle
from pathlib import Path
from typing import Any

import pytest
from langchain_core.documents import Document
from langchain_core.runnables import RunnableLambda
from langchain_core.vectorstores import VectorStoreRetriever

from placeborag_core import FakeVectorStore, FilterError, RetrievalTimeout
from placeborag_langchain import (
    INTEGRATIONS,
    CannedRetriever,
    PlaceboEmbeddings,
    PlaceboVectorStore,
)
from placeborag_langchain.integration_methods import NeedsRealClientError
from placeborag_langchain.persistence import StoreFileError

pytestmark = pytest.mark.filterwarnings("ignore:Relevance scores must be between 0 and 1")

PROFILES = ["default", "chroma", "qdrant", "faiss"]
TEXTS = ["refund policy", "shipping times", "refund window", "privacy notice"]
DOC = Document(page_content="canned")


def emb() -> PlaceboEmbeddings:
    return PlaceboEmbeddings(dimensions=16)


def filled(profile: str, **options: Any) -> PlaceboVectorStore:
    store = PlaceboVectorStore(emb(), profile=profile, **options)
    metas = [{"n": i, "tags": ["a", "b"] if profile != "chroma" else "a"} for i in range(4)]
    store.add_texts(TEXTS, metas)
    return store


def scored(store: PlaceboVectorStore, query: str = "refund") -> list[tuple[Any, ...]]:
    return [
        (d.id, d.page_content, d.metadata, float(s))
        for d, s in store.similarity_search_with_score(query, k=10)
    ]


# --- persistence --------------------------------------------------------------------------------


@pytest.mark.parametrize("profile", PROFILES)
def test_save_and_load_keep_records_ids_vectors_scores_and_future_ids(
    profile: str, tmp_path: Path
) -> None:
    store = filled(profile)
    store.save_local(tmp_path)
    loaded = PlaceboVectorStore.load_local(tmp_path, emb())
    assert scored(loaded) == scored(store)
    assert loaded.core_store.snapshot()[3].tolist() == store.core_store.snapshot()[3].tolist()
    assert type(loaded.similarity_search_with_score("x")[0][1]) is type(
        store.similarity_search_with_score("x")[0][1]
    )
    # the generated-id sequence goes on where it was
    assert loaded.add_texts(["next"]) == store.add_texts(["next"])
    again = PlaceboVectorStore.deserialize_from_bytes(store.serialize_to_bytes(), emb())
    assert scored(again) == scored(store)


@pytest.mark.parametrize("profile", PROFILES)
def test_pickle_and_deepcopy_go_through_the_same_format(profile: str) -> None:
    store = filled(profile, relevance_score_fn=abs)
    for copied in (pickle.loads(pickle.dumps(store)), copy.deepcopy(store)):
        assert scored(copied) == scored(store)
        assert copied.similarity_search_with_relevance_scores("refund") == (
            store.similarity_search_with_relevance_scores("refund")
        )
        copied.add_texts(["only in the copy"])
        assert len(copied.core_store) == len(store.core_store) + 1


def test_fault_settings_and_armed_failures_survive_a_round_trip() -> None:
    store = PlaceboVectorStore(
        emb(), profile="faiss", recall=0.5, visibility="manual", orphaned_ids=True
    )
    store.add_texts(TEXTS, ids=["a", "b", "c", "d"])
    store.refresh()
    store.fail_next_query(times=2)
    store.fail_next_query(TimeoutError("slow", 3))
    loaded = PlaceboVectorStore.deserialize_from_bytes(store.serialize_to_bytes(), emb())
    core = loaded.core_store
    assert (core.recall, core.visibility, core.orphaned_ids, core.filter_mode) == (
        0.5,
        "manual",
        True,
        "post",
    )
    for _ in range(2):
        with pytest.raises(RetrievalTimeout):
            loaded.similarity_search("refund")
    with pytest.raises(TimeoutError) as raised:
        loaded.similarity_search("refund")
    assert raised.value.args == ("slow", 3)
    store.core_store.armed_failures()  # the original still has its own
    for _ in range(3):
        with pytest.raises(TimeoutError):
            store.similarity_search("refund")
    assert scored(loaded) == scored(store)  # recall drops the same records


def test_options_survive_a_round_trip() -> None:
    with pytest.warns(UserWarning, match="Normalizing L2"):
        store = PlaceboVectorStore(
            emb(), profile="faiss", distance_strategy="COSINE", normalize_L2=True
        )
    store.add_texts(TEXTS)
    loaded = PlaceboVectorStore.deserialize_from_bytes(store.serialize_to_bytes(), emb())
    assert (loaded.distance_strategy, loaded._distance.normalize) == ("COSINE", True)
    assert loaded.similarity_search_with_relevance_scores("refund") == (
        store.similarity_search_with_relevance_scores("refund")
    )
    qdrant = PlaceboVectorStore(
        emb(), profile="qdrant", namespace="t1", collection_name="kb", metadata_payload_key="m"
    )
    qdrant.add_texts(TEXTS, [{"n": i} for i in range(4)])
    back = PlaceboVectorStore.deserialize_from_bytes(qdrant.serialize_to_bytes(), emb())
    assert (back.namespace, back.collection_name, back.metadata_payload_key) == ("t1", "kb", "m")
    overridden = PlaceboVectorStore.deserialize_from_bytes(
        qdrant.serialize_to_bytes(), emb(), collection_name="other"
    )
    assert overridden.collection_name == "other"
    with pytest.raises(TypeError, match=r"unexpected keyword argument.*bogus"):
        PlaceboVectorStore.deserialize_from_bytes(qdrant.serialize_to_bytes(), emb(), bogus=1)


def test_every_namespace_and_unusual_values_round_trip() -> None:
    core = FakeVectorStore(profile="qdrant")
    store = PlaceboVectorStore.from_core_store(core, embedding=emb())
    meta = {"t": (1, (2, "x")), "nan": math.nan, "inf": -math.inf, "tag": {"$tuple": 1}}
    store.add_texts(["a"], [meta])
    store.add_texts(["b"], [{"n": 1}], namespace="other")
    back = PlaceboVectorStore.deserialize_from_bytes(store.serialize_to_bytes(), emb())
    (doc,) = back.similarity_search("a", k=1)
    (original,) = store.similarity_search("a", k=1)
    got = dict(doc.metadata)
    assert math.isnan(got.pop("nan"))
    assert math.isnan(original.metadata.pop("nan"))
    assert got == original.metadata  # tuples stay tuples, -inf stays -inf
    assert got["tag"] == {"$tuple": 1}  # a dict shaped like a tag stays a dict
    assert back.core_store.namespaces() == ["", "other"]


def test_what_cannot_be_saved_raises_before_anything_is_written(tmp_path: Path) -> None:
    manual = PlaceboVectorStore(emb(), profile="chroma", visibility="manual")
    manual.add_texts(["a"])
    with pytest.raises(ValueError, match=r"1 pending writes.*refresh"):
        manual.serialize_to_bytes()
    orphans = PlaceboVectorStore(emb(), orphaned_ids=True)
    orphans.add_texts(["a", "b"], ids=["a", "b"])
    orphans.delete(["a"])
    with pytest.raises(ValueError, match=r"1 orphaned ids.*compact"):
        orphans.serialize_to_bytes()
    orphans.core_store.compact()
    assert orphans.serialize_to_bytes()

    class CustomError(Exception):
        pass

    armed = PlaceboVectorStore(emb())
    armed.fail_next_query(CustomError)
    with pytest.raises(TypeError, match="CustomError cannot be saved"):
        armed.save_local(tmp_path)
    assert list(tmp_path.iterdir()) == []


def _saved(tmp_path: Path) -> Path:
    filled("faiss").save_local(tmp_path)
    return tmp_path / "index.placeborag.json"


def _rewrite(path: Path, change: Any) -> None:
    document = json.loads(path.read_text(encoding="utf-8"))
    change(document)
    path.write_text(json.dumps(document), encoding="utf-8")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(format="other"), "not a placeborag store file"),
        (lambda d: d.update(version=99), "version 99"),
        (lambda d: d.pop("namespaces"), "missing field 'namespaces'"),
        (lambda d: d.update(recall="high"), "field 'recall' must be float"),
        (lambda d: d.update(extra=1), "unknown fields \\['extra'\\]"),
        (lambda d: d["namespaces"][0]["records"][0].update(id=3), r"records\[0\]\.id must be str"),
        (lambda d: d["namespaces"][0]["records"][0].update(vector=["x"]), "must hold numbers"),
        (lambda d: d["namespaces"][0]["records"][0].update(vector=[1.0]), "invalid.*dimension"),
        (lambda d: d.update(profile="weaviate"), "the saved store is invalid"),
        (
            lambda d: d.update(failures=[{"type": "system", "times": 1, "instance": False}]),
            "'system' is not a built-in exception",
        ),
        (lambda d: d.update(generated=-1), "'generated' must be >= 0"),
    ],
)
def test_a_corrupt_file_raises_store_file_error_naming_it(
    tmp_path: Path, change: Any, message: str
) -> None:
    path = _saved(tmp_path)
    _rewrite(path, change)
    with pytest.raises(StoreFileError, match=message) as raised:
        PlaceboVectorStore.load_local(tmp_path, emb())
    assert str(path) in str(raised.value)


def test_foreign_and_broken_files_raise_store_file_error(tmp_path: Path) -> None:
    path = _saved(tmp_path)
    path.write_bytes(b"\xff\xfe not utf-8")
    with pytest.raises(StoreFileError, match=r"index.placeborag.json: not a placeborag.*UTF-8"):
        PlaceboVectorStore.load_local(tmp_path, emb())
    path.write_text('{"format": ', encoding="utf-8")
    with pytest.raises(StoreFileError, match=r"index.placeborag.json:1: .*invalid JSON"):
        PlaceboVectorStore.load_local(tmp_path, emb())
    path.write_text("[" * 100_000, encoding="utf-8")
    with pytest.raises(StoreFileError, match="cannot read the JSON"):
        PlaceboVectorStore.load_local(tmp_path, emb())
    path.unlink()
    with pytest.raises(FileNotFoundError, match="no saved PlaceboVectorStore"):
        PlaceboVectorStore.load_local(tmp_path, emb())
    (tmp_path / "index.pkl").write_bytes(pickle.dumps({"x": 1}))
    with pytest.raises(StoreFileError, match=r"index\.pkl: written by LangChain FAISS"):
        PlaceboVectorStore.load_local(tmp_path, emb())
    with pytest.raises(StoreFileError, match="serialized bytes: this is a pickle"):
        PlaceboVectorStore.deserialize_from_bytes(pickle.dumps(object()), emb())
    with pytest.raises(TypeError, match="serialized must be bytes"):
        PlaceboVectorStore.deserialize_from_bytes("text", emb())  # type: ignore[arg-type]


def test_loading_never_runs_code_named_in_a_file(tmp_path: Path) -> None:
    path = _saved(tmp_path)
    evil = {"type": "os.system", "times": 1, "instance": True, "args": ["echo pwned"]}
    _rewrite(path, lambda d: d.update(failures=[evil]))
    with pytest.raises(StoreFileError, match=r"'os.system' is not a built-in exception"):
        PlaceboVectorStore.load_local(tmp_path, emb())


# --- the collection methods ----------------------------------------------------------------------


@pytest.mark.parametrize("profile", PROFILES)
def test_delete_collection_then_reset_collection(profile: str) -> None:
    store = filled(profile)
    store.delete_collection()
    assert len(store.core_store) == 0
    for call in (
        lambda: store.similarity_search("refund"),
        lambda: store.add_texts(["x"]),
        lambda: store.get_by_ids(["x"]),
        lambda: store.delete(["x"]),
        store.delete_collection,
        store.reset_collection,  # deletes first, as Chroma's does
    ):
        with pytest.raises(ValueError, match="collection"):
            call()


def test_reset_collection_leaves_an_empty_usable_collection() -> None:
    store = filled("chroma")
    store.reset_collection()
    assert store.get()["ids"] == []
    store.add_texts(["fresh"], ids=["f"])
    assert [d.id for d in store.similarity_search("fresh", k=5)] == ["f"]


def test_fork_copies_and_then_diverges() -> None:
    store = filled("chroma")
    fork = store.fork("copy")
    assert fork.collection_name == "copy"
    assert scored(fork) == scored(store)
    fork.add_texts(["only in the fork"])
    assert len(fork.core_store) == len(store.core_store) + 1


def test_update_documents_replaces_existing_documents_only() -> None:
    store = PlaceboVectorStore(emb(), profile="faiss")
    store.add_texts(["old text"], [{"a": 1}], ids=["x"])
    store.update_documents(["x", "nope"], [Document(page_content="new", metadata={"b": 2})] * 2)
    assert store.get_by_ids(["x", "nope"]) == [
        Document(id="x", page_content="new", metadata={"b": 2})
    ]
    with pytest.raises(ValueError, match="Expected metadata to be a non-empty dict"):
        store.update_document("x", Document(page_content="no metadata"))
    with pytest.raises(ValueError, match="Unequal lengths for fields: ids: 2"):
        store.update_documents(["x", "y"], [Document(page_content="a", metadata={"a": 1})])


# --- the real constructor options -------------------------------------------------------------


@pytest.mark.parametrize(
    ("profile", "option", "value"),
    [
        ("chroma", "client", object()),
        ("chroma", "persist_directory", "/tmp/db"),
        ("chroma", "host", "localhost"),
        ("chroma", "chroma_cloud_api_key", "key"),
        ("chroma", "create_collection_if_not_exists", False),
        ("qdrant", "client", object()),
        ("qdrant", "url", "http://localhost:6333"),
        ("qdrant", "api_key", "key"),
        ("qdrant", "path", "/tmp/q"),
        ("qdrant", "location", "http://localhost:6333"),
        ("qdrant", "retrieval_mode", "sparse"),
        ("qdrant", "sparse_embedding", object()),
        ("faiss", "index", object()),
        ("faiss", "docstore", object()),
    ],
)
def test_options_that_need_a_real_client_raise_not_implemented(
    profile: str, option: str, value: Any
) -> None:
    with pytest.raises(NotImplementedError, match=option):
        PlaceboVectorStore(emb(), profile=profile, **{option: value})


def test_real_options_are_read_or_refused_by_profile() -> None:
    chroma = PlaceboVectorStore(
        profile="chroma",
        embedding_function=emb(),
        collection_configuration={"hnsw": {"space": "ip"}},
    )
    assert chroma.core_store.profile.metric == "ip"
    qdrant = PlaceboVectorStore(emb(), profile="qdrant", distance="Euclid", location=":memory:")
    assert qdrant.core_store.profile.metric == "euclid"
    with pytest.raises(TypeError, match=r"unexpected keyword argument.*distance.*'chroma'"):
        PlaceboVectorStore(emb(), profile="chroma", distance="Dot")
    with pytest.raises(TypeError, match="give the embedding once"):
        PlaceboVectorStore(emb(), profile="chroma", embedding_function=emb())
    with pytest.raises(ValueError, match="contradicts"):
        PlaceboVectorStore(emb(), profile="qdrant", metric="dot", distance="Cosine")
    with pytest.raises(TypeError, match="payload"):
        PlaceboVectorStore.from_core_store(FakeVectorStore(), content_payload_key="x")


def test_what_needs_a_client_is_not_an_attribute() -> None:
    store = filled("chroma")
    for name in ("client", "_collection", "index", "docstore", "index_to_docstore_id"):
        assert not hasattr(store, name)
        with pytest.raises(NeedsRealClientError, match=name):
            getattr(store, name)
    assert store.embedding_function is store.embeddings
    with pytest.raises(NotImplementedError, match="hybrid_search"):
        store.hybrid_search(object())


def test_qdrant_offset_skips_results_after_the_threshold() -> None:
    store = filled("qdrant")
    ranked = [d.page_content for d in store.similarity_search("refund", k=4)]
    assert [d.page_content for d in store.similarity_search("refund", k=2, offset=1)] == ranked[1:3]
    assert store.similarity_search("refund", k=2, offset=9) == []
    assert store.similarity_search("refund", k=2, search_params=object(), consistency=1)


def test_encode_image_is_base64_of_the_file(tmp_path: Path) -> None:
    image = tmp_path / "pixel.png"
    image.write_bytes(b"\x89PNG")
    assert PlaceboVectorStore.encode_image(str(image)) == "iVBORw=="


class CountingEmbeddings(PlaceboEmbeddings):
    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.calls: list[list[str]] = []

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.calls.append(list(texts))
        return super().embed_documents(texts)


def test_from_existing_collection_shares_the_records() -> None:
    first = PlaceboVectorStore.from_texts(
        TEXTS, emb(), profile="qdrant", collection_name="parity-shared"
    )
    counted = CountingEmbeddings(dimensions=16)
    second = PlaceboVectorStore.from_existing_collection("parity-shared", counted)
    assert counted.calls == [["dummy_text"]]  # one width check, as langchain-qdrant makes
    unchecked = CountingEmbeddings(dimensions=16)
    PlaceboVectorStore.from_existing_collection(
        "parity-shared", unchecked, validate_collection_config=False
    )
    assert unchecked.calls == []
    assert second.core_store is first.core_store
    new = second.add_texts(["added"])
    assert first.get_by_ids(new)[0].page_content == "added"
    with pytest.raises(ValueError, match="Collection parity-missing not found"):
        PlaceboVectorStore.from_existing_collection("parity-missing", emb())
    with pytest.raises(Exception, match="configured for dense vectors with 16 dimensions"):
        PlaceboVectorStore.from_existing_collection(
            "parity-shared", PlaceboEmbeddings(dimensions=8)
        )


def test_only_an_integration_with_named_collections_registers_its_collection() -> None:
    named = [p for p, facts in INTEGRATIONS.items() if facts.named_collections]
    assert named == ["qdrant", "pgvector"]
    pgvector = PlaceboVectorStore.from_texts(
        TEXTS, emb(), profile="pgvector", collection_name="parity-pgvector-only"
    )
    with pytest.raises(ValueError, match="Collection parity-pgvector-only not found"):
        PlaceboVectorStore.from_existing_collection("parity-pgvector-only", emb())
    assert len(pgvector.core_store) == len(TEXTS)  # a qdrant lookup does not find it
    chroma = PlaceboVectorStore.from_texts(
        TEXTS, emb(), profile="chroma", collection_name="parity-chroma-only"
    )
    with pytest.raises(ValueError, match="Collection parity-chroma-only not found"):
        PlaceboVectorStore.from_existing_collection("parity-chroma-only", emb())
    assert len(chroma.core_store) == len(TEXTS)  # alive all along: not found by its name


@pytest.mark.parametrize(
    ("profile", "name"), [("default", "PlaceboVectorStore"), ("faiss", "FAISS")]
)
def test_the_retriever_reports_the_imitated_class(profile: str, name: str) -> None:
    retriever = filled(profile).as_retriever(search_kwargs={"k": 2})
    assert retriever.tags == [name, "PlaceboEmbeddings"]
    params = retriever._get_ls_params()
    assert params["ls_vector_store_provider"] == name
    assert params["ls_retriever_name"] == "vectorstore"
    assert len(retriever.invoke("refund")) == 2


@pytest.mark.parametrize("profile", PROFILES)
def test_the_retriever_is_named_like_langchains_vectorstoreretriever(profile: str) -> None:
    # A real store's as_retriever() is a plain VectorStoreRetriever: run names, event names,
    # graph nodes, to_json ids and pydantic error titles say so (FINDINGS LC1).
    retriever = filled(profile).as_retriever(search_kwargs={"k": 1})
    chain = retriever | RunnableLambda(len)

    async def retriever_events(**kwargs: Any) -> list[tuple[str, str]]:
        stream = chain.astream_events("refund", version="v2", **kwargs)
        return [(e["event"], e["name"]) async for e in stream if "retriever" in e["event"]]

    name = "VectorStoreRetriever"
    assert retriever.get_name() == name
    assert asyncio.run(retriever_events(include_names=[name])) == [
        ("on_retriever_start", name),
        ("on_retriever_end", name),
    ]
    nodes = [node.name for node in chain.get_graph().nodes.values()]
    assert nodes[:2] == [f"{name}Input", name]
    assert retriever.to_json()["id"] == ["langchain_core", "vectorstores", "base", name]
    assert type(retriever).lc_id() == VectorStoreRetriever.lc_id()
    assert repr(retriever).startswith(f"{name}(")
    with pytest.raises(ValueError, match=f"validation error for {name}"):
        filled(profile).as_retriever(search_type="bogus")


def test_a_retriever_name_given_by_the_user_wins() -> None:
    retriever = filled("chroma").as_retriever(name="kb")
    assert retriever.get_name() == "kb"
    assert retriever.get_name("Input") == "kb_input"  # LangChain's suffix rule, unchanged


# --- malformed input (Issue B) ------------------------------------------------------------------


def _state(store: PlaceboVectorStore) -> tuple[Any, ...]:
    return (store.core_store.ids(), store._writes.ordinals.value)


@pytest.mark.parametrize("profile", PROFILES)
def test_a_failed_add_does_not_advance_the_generated_ids(profile: str) -> None:
    clean, failing = (
        PlaceboVectorStore(emb(), profile=profile),
        PlaceboVectorStore(emb(), profile=profile),
    )
    clean.add_texts(["a"])
    failing.add_texts(["a"])
    before = _state(failing)
    with pytest.raises((TypeError, ValueError)):
        failing.add_texts(["b", "c"], [{"ok": 1}, {"bad": object()}])
    with pytest.raises((TypeError, ValueError)):
        # a tuple key: every profile refuses it (Qdrant's client keeps a set, as a list)
        asyncio.run(failing.aadd_texts(["b"], [{"bad": {(1, 2): 0}}]))
    with pytest.raises((TypeError, ValueError)):
        failing.add_documents([Document(page_content="b"), "not a document"])  # type: ignore[list-item]
    assert _state(failing) == before
    assert failing.add_texts(["b", "c"]) == clean.add_texts(["b", "c"])


def test_two_wrappers_of_one_core_never_generate_the_same_id() -> None:
    core = FakeVectorStore()
    one = PlaceboVectorStore.from_core_store(core, embedding=emb())
    two = PlaceboVectorStore.from_core_store(core, embedding=emb())
    assert one.add_texts(["same"]) != two.add_texts(["same"])
    assert len(core) == 2


DEEP: dict[str, Any] = {}
_cursor = DEEP
for _ in range(150):
    _cursor["$and"] = [{}]
    _cursor = _cursor["$and"][0]


@pytest.mark.parametrize(
    ("profile", "call", "error", "message"),
    [
        ("default", lambda s: s.delete(b"x"), TypeError, "single bytes"),
        ("default", lambda s: s.delete({"a": 1}), TypeError, "ids must be a list of ids or None"),
        ("default", lambda s: s.delete([None]), TypeError, "ids must be str, got NoneType"),
        ("chroma", lambda s: s.delete([1]), ValueError, "Expected ID to be a str, got 1 in delete"),
        ("chroma", lambda s: s.get_by_ids([1]), ValueError, "got 1 in get"),
        ("qdrant", lambda s: s.delete([1.5]), TypeError, "Incompatible point id type"),
        ("qdrant", lambda s: s.get_by_ids([None]), TypeError, "Incompatible point id type"),
        ("faiss", lambda s: s.delete([1]), ValueError, "Ids not found: {1}"),
        ("default", lambda s: s.get_by_ids({"a": 1}), TypeError, "ids must be a list"),
        ("default", lambda s: s.similarity_search("a", namespace="\ud800"), ValueError, "namespace"),
        ("default", lambda s: s.add_texts(["a"], namespace="\ud800"), ValueError, "namespace"),
        ("default", lambda s: s.delete(["a"], namespace=3), TypeError, "namespace must be a str"),
        ("default", lambda s: s.add_texts("abc"), TypeError, "texts must be an iterable of str"),
        ("default", lambda s: s.add_texts([1]), TypeError, r"texts\[0\] must be a str"),
        ("default", lambda s: s.add_texts(["a"], {"k": 1}), TypeError, "metadatas must be a list"),
        ("default", lambda s: s.add_texts(["a"], ["m"]), TypeError, r"metadatas\[0\] must be a dict"),
        ("default", lambda s: s.add_texts(["a"], ids={"a": 1}), TypeError, "ids must be a list"),
        ("default", lambda s: s.add_documents(Document(page_content="a")), TypeError, "list of Document"),
        ("faiss", lambda s: s.add_embeddings([("t", None)]), TypeError, "embedding must be a sequence"),
        ("faiss", lambda s: s.add_embeddings([("t",)]), ValueError, "got 1 items"),
        ("faiss", lambda s: s.add_embeddings("tv"), TypeError, "iterable of"),
        ("faiss", lambda s: s.add_embeddings([]), ValueError, "text_embeddings is empty"),
        ("faiss", lambda s: s.similarity_search("a", filter=DEEP), FilterError, "nests more than"),
        ("faiss", lambda s: s.similarity_search("a", filter={"$and": 3}), TypeError, "list of filters"),
        ("faiss", lambda s: s.similarity_search("a", filter={"$and": ["x"]}), TypeError, "must be a dict"),
        ("qdrant", lambda s: s.max_marginal_relevance_search("a", lambda_mult=True), TypeError, "lambda_mult"),
        ("faiss", lambda s: s.similarity_search_with_score("a", score_threshold="0.5"), TypeError, "score_threshold"),
        ("default", lambda s: s.similarity_search_with_relevance_scores("a", score_threshold=math.nan), ValueError, "NaN"),
        ("default", lambda s: s.update_documents({"a": 1}, []), TypeError, "ids must be a list of str"),
        ("default", lambda s: s.merge_from(object()), TypeError, "target must be a PlaceboVectorStore"),
        ("faiss", lambda s: s.merge_from(filled("chroma")), ValueError, "same type"),
        ("default", lambda s: s.save_local("/tmp", index_name=""), TypeError, "index_name"),
        ("default", lambda s: s.fork(""), TypeError, "new_name"),
        ("qdrant", lambda s: s.similarity_search("a", offset=-1), ValueError, "offset must be an int >= 0"),
        ("qdrant", lambda s: s.similarity_search("a", offset="1"), TypeError, "offset must be an int"),
        ("qdrant", lambda s: s.max_marginal_relevance_search("a", score_threshold=[1]), TypeError, "score_threshold"),
        ("chroma", lambda s: s.similarity_search("a", offset=1), TypeError, "unexpected keyword argument"),
    ],
)  # fmt: skip
def test_malformed_input_raises_before_anything_changes(
    profile: str, call: Any, error: type[Exception], message: str
) -> None:
    store = filled(profile)
    before = (_state(store), scored(store))
    with pytest.raises(error, match=message):
        call(store)
    assert (_state(store), scored(store)) == before


@pytest.mark.parametrize(
    ("options", "error", "message"),
    [
        ({"profile": 3}, TypeError, "profile must be a profile name"),
        ({"namespace": "\ud800"}, ValueError, "namespace is not valid Unicode"),
        ({"collection_name": 3}, TypeError, "collection_name must be a str"),
        ({"collection_name": "\udc00"}, ValueError, "collection_name is not valid Unicode"),
        ({"profile": "faiss", "distance_strategy": 3}, TypeError, "distance_strategy must be"),
        ({"profile": "faiss", "distance_strategy": "\ud800"}, ValueError, "not valid Unicode"),
        ({"profile": "qdrant", "content_payload_key": 3}, TypeError, "content_payload_key"),
        ({"profile": "qdrant", "distance": 3}, TypeError, "distance must be"),
        ({"profile": "qdrant", "retrieval_mode": "bogus"}, ValueError, "retrieval_mode must be"),
        ({"profile": "chroma", "collection_metadata": "l2"}, TypeError, "collection_metadata"),
        ({"bogus": 1}, TypeError, "unexpected keyword argument.*bogus"),
    ],
)
def test_malformed_constructor_options_raise(
    options: dict[str, Any], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        PlaceboVectorStore(emb(), **options)


def test_from_texts_refuses_before_building_anything() -> None:
    with pytest.raises(TypeError, match=r"from_texts\(\) texts\[1\] must be a str"):
        PlaceboVectorStore.from_texts(["a", None], emb(), profile="qdrant", collection_name="x9")  # type: ignore[list-item]
    with pytest.raises(ValueError, match="Collection x9 not found"):
        PlaceboVectorStore.from_existing_collection("x9", emb())


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: emb().embed_documents(None), TypeError, "expects a list of str, got NoneType"),  # type: ignore[arg-type]
        (lambda: emb().embed_documents({"a": 1}), TypeError, "got dict"),  # type: ignore[arg-type]
        (lambda: emb().embed_documents(b"ab"), TypeError, "single bytes"),  # type: ignore[arg-type]
        (
            lambda: CannedRetriever(responses={1: []}),
            TypeError,
            "responses keys must be query texts",
        ),
        (lambda: CannedRetriever(responses=[DOC]), TypeError, "responses must be a dict"),
        (lambda: CannedRetriever(responses={"q": DOC}), TypeError, "got Document"),
        (lambda: CannedRetriever(responses={"\ud800": [DOC]}), ValueError, "not valid Unicode"),
        (lambda: CannedRetriever([DOC], score_key=3), TypeError, "score_key must be a str"),  # type: ignore[arg-type]
        (lambda: CannedRetriever([DOC], bogus=1), TypeError, "unexpected keyword argument.*bogus"),
        (lambda: CannedRetriever([DOC]).invoke(None), TypeError, "query must be a str"),  # type: ignore[arg-type]
        (lambda: CannedRetriever.from_context_state(3), TypeError, "state must be a context state"),
    ],
)
def test_embeddings_and_canned_retriever_refuse_malformed_input(
    call: Any, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        call()
