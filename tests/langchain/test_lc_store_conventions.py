"""Per-profile conventions of PlaceboVectorStore, pinned to the real integrations' numbers.

Expected values are the ones measured on langchain-chroma, langchain-qdrant and LangChain FAISS
with the same geometry (docs/integrations/langchain.md); test_lc_fidelity.py checks the same
things against the live integrations when they are installed.
"""

from __future__ import annotations

import copy
import enum
import math
import re
import uuid

import numpy as np
import pytest
from langchain_core.documents import Document
from lc_geometry import COS, DOCS, META, QIDS, TableEmbeddings

from placeborag_core import RetrievalTimeout
from placeborag_langchain import INTEGRATIONS, PlaceboEmbeddings, PlaceboVectorStore

IDS = [f"id_{t}" for t in DOCS]
OUT_OF_RANGE = "Relevance scores must be between 0 and 1"


def build(
    profile: str = "default", metric: str | None = None, **kwargs: object
) -> PlaceboVectorStore:
    store = PlaceboVectorStore(TableEmbeddings(), profile=profile, metric=metric, **kwargs)  # type: ignore[arg-type]
    store.add_texts(DOCS, [META[t] for t in DOCS], ids=QIDS if profile == "qdrant" else IDS)
    return store


def texts(docs: list[Document]) -> list[str]:
    return [d.page_content for d in docs]


# --- scores and their types -------------------------------------------------------------------

SCORES = {
    ("default", None): [1.0, 0.8, 0.6, 0.0, -0.6, -1.0],
    ("chroma", None): [0.0, 0.4000000059604645, 0.800000011920929, 2.0, 3.200000286102295, 4.0],
    ("chroma", "cosine"): [
        0.0,
        0.19999998807907104,
        0.3999999761581421,
        1.0,
        1.600000023841858,
        2.0,
    ],
    ("qdrant", None): [1.0, 0.800000011920929, 0.6000000238418579, 0.0, -0.6000000238418579, -1.0],
    ("qdrant", "euclid"): [
        0.0,
        0.6324555508823199,
        0.8944271909999163,
        1.4142135623730951,
        1.7888544086558393,
        2.0,
    ],
    ("faiss", None): [0.0, 0.4, 0.8, 2.0, 3.200000286102295, 4.0],
    ("faiss", "ip"): [1.0, 0.8, 0.6, 0.0, -0.6, -1.0],
}


@pytest.mark.parametrize(("profile", "metric"), list(SCORES))
def test_scores_are_the_integrations_numbers(profile: str, metric: str | None) -> None:
    pairs = build(profile, metric).similarity_search_with_score("q", k=6)
    assert texts([d for d, _ in pairs]) == DOCS
    got = [float(s) for _, s in pairs]
    assert got == pytest.approx(SCORES[(profile, metric)], abs=2.5e-7)
    expected_type = np.float32 if profile == "faiss" else float
    assert all(type(s) is expected_type for _, s in pairs)


# --- relevance functions ----------------------------------------------------------------------

RELEVANCE = {
    ("default", None): [(c + 1) / 2 for c in COS.values()],
    ("chroma", None): [
        1.0,
        0.7171572833106962,
        0.43431456662139234,
        -0.4142135623730949,
        -1.262741902101825,
        -1.8284271247461898,
    ],
    ("chroma", "cosine"): [1.0, 0.8, 0.6, 0.0, -0.6, -1.0],
    ("chroma", "ip"): [-0.0, 0.8, 0.6, 0.0, -0.6, -1.0],
    ("qdrant", None): [1.0, 0.9000000059604645, 0.800000011920929, 0.5, 0.19999998807907104, 0.0],
    ("qdrant", "dot"): [0.0, 0.2, 0.4, -0.0, 0.6, 1.0],
    ("qdrant", "euclid"): [
        1.0,
        0.5527863911720381,
        0.3675444679663239,
        0.0,
        -0.2649110829159953,
        -0.4142135623730949,
    ],
    ("faiss", None): [1.0, 0.71715724, 0.43431455, -0.41421354, -1.262742, -1.8284271],
    ("faiss", "ip"): [0.0, 0.19999999, 0.39999998, -0.0, 0.6, 1.0],
}


@pytest.mark.parametrize(("profile", "metric"), list(RELEVANCE))
def test_relevance_scores_use_the_integrations_function(profile: str, metric: str | None) -> None:
    store = build(profile, metric)
    expected = RELEVANCE[(profile, metric)]
    out_of_range = any(r < 0 or r > 1 for r in expected)
    if out_of_range:
        with pytest.warns(UserWarning, match=OUT_OF_RANGE):
            pairs = store.similarity_search_with_relevance_scores("q", k=6)
    else:
        pairs = store.similarity_search_with_relevance_scores("q", k=6)
    got = [float(r) for _, r in pairs]
    assert got == pytest.approx(expected, abs=2.5e-7)
    # Signs matter too: Chroma ip's exact match is -0.0, Qdrant dot's orthogonal doc is -0.0.
    assert [math.copysign(1, g) for g in got] == [math.copysign(1, e) for e in expected]


def test_inner_product_relevance_inverts_the_ranking_like_qdrant_dot() -> None:
    store = build("qdrant", "dot")
    kept = store.similarity_search_with_relevance_scores("q", k=6, score_threshold=0.8)
    assert [d.metadata["_id"] for d, _ in kept] == [QIDS[5]]  # only f, the farthest doc


def test_relevance_override_wins() -> None:
    store = build("chroma", relevance_score_fn=lambda d: 42 - d)
    with pytest.warns(UserWarning, match=OUT_OF_RANGE):
        pairs = store.similarity_search_with_relevance_scores("q", k=2)
    assert [r for _, r in pairs] == pytest.approx([42.0, 41.6])


def test_score_threshold_retriever_works_for_every_profile() -> None:
    for profile in ("default", "qdrant"):
        retriever = build(profile).as_retriever(
            search_type="similarity_score_threshold",
            search_kwargs={"score_threshold": 0.85, "k": 6},
        )
        assert texts(retriever.invoke("q")) == ["a", "b"]


# --- Document shape ---------------------------------------------------------------------------


def test_qdrant_documents_carry_id_in_metadata_and_no_document_id() -> None:
    store = build("qdrant", collection_name="kb")
    doc = store.similarity_search("q", k=1)[0]
    assert doc.id is None
    assert doc.metadata == {**META["a"], "_id": QIDS[0], "_collection_name": "kb"}
    by_id = store.get_by_ids([QIDS[0]])
    assert by_id[0].metadata["_id"] == QIDS[0]


@pytest.mark.parametrize("profile", ["default", "chroma", "faiss"])
def test_other_profiles_set_document_id_and_keep_metadata_exact(profile: str) -> None:
    doc = build(profile).similarity_search("q", k=1)[0]
    assert doc == Document(id="id_a", page_content="a", metadata=META["a"])


def test_metadata_is_copied_in_and_out() -> None:
    store = PlaceboVectorStore(TableEmbeddings())
    meta = {"tags": ["x"], "n": 1}
    store.add_texts(["a"], [meta], ids=["1"])
    meta["tags"].append("mutated")
    found = store.similarity_search("q", k=1)[0]
    assert found.metadata == {"tags": ["x"], "n": 1}
    found.metadata["tags"].append("again")
    assert store.get_by_ids(["1"])[0].metadata == {"tags": ["x"], "n": 1}


# --- ids --------------------------------------------------------------------------------------


def test_generated_ids_are_deterministic_digests_not_random() -> None:
    def ids_of_run() -> list[str]:
        store = PlaceboVectorStore(PlaceboEmbeddings(dimensions=16))
        first = store.add_texts(["x", "y"], [{"k": 1}, {}])
        return first + store.add_texts(["x"], [{"k": 1}])

    run1, run2 = ids_of_run(), ids_of_run()
    assert run1 == run2
    assert len(set(run1)) == 3  # same text and metadata added twice -> two documents
    assert all(str(uuid.UUID(i)) == i for i in run1)


def test_generated_ids_depend_on_content_and_metadata() -> None:
    a = PlaceboVectorStore(PlaceboEmbeddings(dimensions=16)).add_texts(["x"], [{"k": 1}])
    b = PlaceboVectorStore(PlaceboEmbeddings(dimensions=16)).add_texts(["x"], [{"k": 2}])
    c = PlaceboVectorStore(PlaceboEmbeddings(dimensions=16)).add_texts(["z"], [{"k": 1}])
    assert len({a[0], b[0], c[0]}) == 3


def test_qdrant_generates_hex_ids_and_reports_the_dashed_form() -> None:
    store = PlaceboVectorStore(TableEmbeddings(), profile="qdrant")
    (hex_id,) = store.add_texts(["a"])
    assert len(hex_id) == 32
    assert "-" not in hex_id
    assert store.similarity_search("q", k=1)[0].metadata["_id"] == str(uuid.UUID(hex_id))


def test_id_precedence_argument_then_document_id_then_generated() -> None:
    store = PlaceboVectorStore(TableEmbeddings())
    docs = [Document("a", id="doc-a"), Document("b")]
    assert store.add_documents(docs, ids=["x", "y"]) == ["x", "y"]
    ids = store.add_documents(docs)
    assert ids[0] == "doc-a"
    assert ids[1] not in ("x", "y", "doc-a")
    assert docs[1].id is None  # inputs are not mutated


def test_qdrant_ids_must_be_uuids_or_unsigned_ints() -> None:
    store = PlaceboVectorStore(TableEmbeddings(), profile="qdrant")
    with pytest.raises(ValueError, match="Point id id_c is not a valid UUID"):
        store.add_texts(["c"], ids=["id_c"])
    assert store.add_texts(["a"], ids=[7]) == [7]
    assert store.similarity_search("q", k=1)[0].metadata["_id"] == 7
    assert store.core_store.count() == 1


def test_duplicate_ids_in_one_call_follow_the_integration() -> None:
    with pytest.raises(ValueError, match="Expected IDs to be unique, found duplicates of: dup"):
        PlaceboVectorStore(TableEmbeddings(), profile="chroma").add_texts(
            ["a", "b"], ids=["dup"] * 2
        )
    with pytest.raises(ValueError, match=r"Duplicate ids found in the ids list\."):
        PlaceboVectorStore(TableEmbeddings(), profile="faiss").add_texts(
            ["a", "b"], ids=["dup"] * 2
        )
    with pytest.raises(ValueError, match="duplicate ids in one call: dup"):
        PlaceboVectorStore(TableEmbeddings()).add_texts(["a", "b"], ids=["dup"] * 2)
    qdrant = PlaceboVectorStore(TableEmbeddings(), profile="qdrant")
    assert qdrant.add_texts(["a", "b"], ids=[QIDS[0]] * 2) == [QIDS[0]] * 2
    assert [d.page_content for d in qdrant.get_by_ids([QIDS[0]])] == ["b"]  # the last one wins


def test_faiss_refuses_existing_ids_without_corrupting_anything() -> None:
    store = build("faiss")
    with pytest.raises(ValueError, match=r"Tried to add ids that already exist: \{'id_a'\}"):
        store.add_texts(["b", "c"], ids=["new", "id_a"])
    assert store.core_store.count() == 6
    assert texts(store.similarity_search("q", k=6)) == DOCS


@pytest.mark.parametrize(
    ("profile", "message"),
    [
        ("chroma", "Expected Embeddings to be non-empty list or numpy array, got [] in upsert."),
        ("lancedb", "Cannot create table from empty list without a schema"),
    ],
)
def test_an_empty_add_raises_where_the_real_store_does(profile: str, message: str) -> None:
    # Measured: langchain-chroma 1.1.0 (chromadb 1.5.9) and langchain-community 0.4.2 LanceDB
    # (lancedb 0.40.0) raise ValueError for add_texts([]), add_documents([]), from_texts([]).
    store = build(profile)
    for call in (
        lambda: store.add_texts([]),
        lambda: store.add_documents([]),
        lambda: PlaceboVectorStore.from_texts([], TableEmbeddings(), profile=profile),
    ):
        with pytest.raises(ValueError, match=re.escape(message)):
            call()
    for other in ("default", "qdrant"):  # langchain-qdrant returns [] (measured)
        assert build(other).add_documents([]) == []


def test_length_mismatch_is_refused_before_writing() -> None:
    store = PlaceboVectorStore(TableEmbeddings())
    with pytest.raises(ValueError, match="got 1 ids for 2 documents"):
        store.add_texts(["a", "b"], ids=["1"])
    with pytest.raises(ValueError, match="got 1 metadatas for 2 texts"):
        store.add_texts(["a", "b"], [{}])
    assert store.core_store.count() == 0


# --- delete and get_by_ids --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("profile", "returns", "none_error", "empty_error"),
    [
        ("default", True, "delete\\(ids=None\\) is refused", None),
        ("chroma", None, "At least one of ids, where, or where_document", "non-empty list"),
        ("qdrant", True, "Unsupported selector type", "Empty update request"),
        ("faiss", True, "No ids provided to delete.", "Tried to delete ids that does not"),
    ],
)
def test_delete_conventions(
    profile: str, returns: bool | None, none_error: str, empty_error: str | None
) -> None:
    store = build(profile)
    first = QIDS[0] if profile == "qdrant" else "id_a"
    assert store.delete([first]) is returns
    assert store.core_store.count() == 5
    with pytest.raises(ValueError, match=none_error):
        store.delete()
    if empty_error is None:
        assert store.delete([]) is returns
    else:
        with pytest.raises(ValueError, match=empty_error):
            store.delete([])
    assert store.core_store.count() == 5


def test_missing_ids_are_fine_except_under_faiss() -> None:
    assert build("default").delete(["nope"]) is True
    assert build("chroma").delete(["nope"]) is None
    assert build("qdrant").delete([str(uuid.UUID(int=999)), "not-a-uuid"]) is True
    faiss = build("faiss")
    with pytest.raises(ValueError, match=r"Ids not found: \{'nope'\}"):
        faiss.delete(["id_a", "nope"])
    assert faiss.core_store.count() == 6  # nothing deleted, not even id_a


def test_get_by_ids_order_and_duplicates() -> None:
    for profile in ("default", "faiss"):
        got = build(profile).get_by_ids(["id_e", "id_a", "nope", "id_c", "id_e"])
        assert [d.id for d in got] == ["id_e", "id_a", "id_c", "id_e"]
    chroma = build("chroma")
    assert [d.id for d in chroma.get_by_ids(["id_e", "id_a", "nope", "id_c"])] == [
        "id_a",
        "id_c",
        "id_e",
    ]
    with pytest.raises(ValueError, match="found duplicates of: id_e in get"):
        chroma.get_by_ids(["id_e", "id_e"])
    with pytest.raises(ValueError, match="non-empty list, got 0 IDs in get"):
        chroma.get_by_ids([])
    qdrant = build("qdrant")
    got = qdrant.get_by_ids([QIDS[4], QIDS[0], "not-a-uuid", QIDS[4]])
    assert [d.metadata["_id"] for d in got] == [QIDS[4], QIDS[0], QIDS[4]]
    assert qdrant.get_by_ids([]) == []


# --- MMR --------------------------------------------------------------------------------------


def test_mmr_order_and_lambda_conventions() -> None:
    # core MMR with lambda 0 over a..f picks a, f, d (in that order).
    assert texts(build("default").max_marginal_relevance_search("q", 3, 6, 0.0)) == ["a", "f", "d"]
    assert texts(build("faiss").max_marginal_relevance_search("q", 3, 6, 0.0)) == ["a", "f", "d"]
    # Chroma returns the same picks in distance order.
    assert texts(build("chroma").max_marginal_relevance_search("q", 3, 6, 0.0)) == ["a", "d", "f"]
    # Qdrant's engine reads lambda_mult as diversity: lambda 0 is pure relevance there.
    assert texts(build("qdrant").max_marginal_relevance_search("q", 3, 6, 0.0)) == ["a", "b", "c"]
    assert texts(build("qdrant").max_marginal_relevance_search("q", 3, 6, 1.0)) == ["a", "f", "d"]


def test_mmr_with_scores_reports_plain_search_scores() -> None:
    pairs = build("faiss").max_marginal_relevance_search_with_score_by_vector(
        [1.0, 0, 0, 0], k=2, fetch_k=6, lambda_mult=1.0
    )
    assert [(d.page_content, float(s)) for d, s in pairs] == [("a", 0.0), ("b", pytest.approx(0.4))]
    assert all(type(s) is np.float32 for _, s in pairs)


# --- kwargs, namespaces and faults ------------------------------------------------------------


def test_unknown_search_kwargs_raise_where_the_real_client_would() -> None:
    # docs/integrations/langchain.md: lc-chroma-unknown-kwargs (TypeError),
    # lc-faiss-unknown-kwargs (ignored). langchain-qdrant's local mode raises AssertionError
    # instead (lc-qdrant-unknown-kwargs); the qdrant profile raises TypeError like the others.
    with pytest.raises(TypeError, match=r"unexpected keyword argument.*bogus"):
        build("chroma").similarity_search("q", bogus=1)
    with pytest.raises(TypeError, match="bogus"):
        build("default").similarity_search("q", bogus=1)
    assert texts(build("faiss").similarity_search("q", k=1, bogus=1)) == ["a"]  # FAISS ignores


def test_fetch_k_in_a_similarity_search_follows_each_integration() -> None:
    # lc-chroma-search-fetch-k (TypeError), lc-qdrant-search-fetch-k (AssertionError there,
    # TypeError here); FAISS's similarity search takes fetch_k; langchain-postgres, LanceDB and
    # langchain-milvus ignore it, so it must not widen a post-filter's candidates either.
    skw = {"k": 2, "fetch_k": 10}
    for profile in ("chroma", "qdrant"):
        with pytest.raises(TypeError, match="fetch_k"):
            build(profile).as_retriever(search_kwargs=skw).invoke("q")
    assert texts(build("faiss").as_retriever(search_kwargs=skw).invoke("q")) == ["a", "b"]
    assert texts(build("pgvector").as_retriever(search_kwargs=skw).invoke("q")) == ["a", "b"]
    lance = build("lancedb", mode="append")  # post-filter over the top k only
    red = "metadata.color = 'red'"
    assert texts(lance.similarity_search("q", k=2, filter=red, fetch_k=6)) == ["a"]


def test_pgvector_ignores_unknown_search_kwargs_like_langchain_postgres() -> None:
    # langchain_postgres.PGVector 0.0.19: similarity_search(..., **kwargs) and
    # max_marginal_relevance_search(..., **kwargs) drop what they do not know, so a retriever
    # whose search_kwargs carry score_threshold or lambda_mult for "similarity" still works.
    store = build("pgvector")
    assert texts(store.similarity_search("q", k=1, score_threshold=0.5)) == ["a"]
    retriever = store.as_retriever(search_kwargs={"k": 2, "lambda_mult": 0.5, "bogus": 1})
    assert texts(retriever.invoke("q")) == ["a", "b"]
    assert texts(store.max_marginal_relevance_search("q", k=1, bogus=1)) == ["a"]


def test_a_per_search_metric_lancedb_honours_is_refused_not_ignored() -> None:
    # langchain-community LanceDB: metrics="cosine" on a search changes the engine's metric
    # (lc-lancedb-community-metrics-kwarg-sets-engine-metric); the profile has one metric.
    store = build("lancedb")
    for call in (
        lambda: store.similarity_search("q", k=1, metrics="cosine"),
        lambda: store.similarity_search_with_score("q", k=1, metrics="dot"),
        lambda: store.max_marginal_relevance_search("q", k=1, metrics="cosine"),
    ):
        with pytest.raises(NotImplementedError, match=r"metrics= is not imitated"):
            call()
    assert texts(store.similarity_search("q", k=1, prefilter=True)) == ["a"]


def test_score_threshold_in_search_follows_the_integration() -> None:
    # Qdrant: strict, in the engine. c's vector is an integer direction (3, 4, 0)/5: the
    # profile scores it exactly 0.6 (the engine's float32 row gives 0.6000000238418579).
    qdrant = build("qdrant")
    kept = qdrant.similarity_search_with_score("q", k=6, score_threshold=0.6)
    assert len(kept) == 2
    assert len(qdrant.similarity_search_with_score("q", k=6, score_threshold=0.5999999)) == 3
    # FAISS L2: inclusive, lower is better.
    assert texts(build("faiss").similarity_search("q", k=6, score_threshold=0.8)) == ["a", "b", "c"]


def test_namespaces_are_separate_collections() -> None:
    store = PlaceboVectorStore(TableEmbeddings(), namespace="tenant-a")
    store.add_texts(["a"], ids=["1"])
    store.add_texts(["b"], ids=["2"], namespace="tenant-b")
    assert texts(store.similarity_search("q", k=5)) == ["a"]
    assert texts(store.similarity_search("q", k=5, namespace="tenant-b")) == ["b"]
    assert store.get_by_ids(["2"]) == []
    assert [d.id for d in store.get_by_ids(["2"], namespace="tenant-b")] == ["2"]
    retriever = store.as_retriever(search_kwargs={"namespace": "tenant-b"})
    assert texts(retriever.invoke("q")) == ["b"]


def test_injected_failure_fires_on_the_next_search_only() -> None:
    store = build("default")
    store.fail_next_query()
    with pytest.raises(RetrievalTimeout):
        store.similarity_search("q")
    assert texts(store.similarity_search("q", k=1)) == ["a"]
    store.fail_next_query(ConnectionError("refused"), times=2)
    store.add_texts(["b"], ids=["writes-still-work"])
    for _ in range(2):
        with pytest.raises(ConnectionError, match="refused"):
            store.max_marginal_relevance_search("q")
    assert store.similarity_search("q", k=1)


def test_manual_visibility_needs_refresh() -> None:
    store = PlaceboVectorStore(TableEmbeddings(), visibility="manual")
    store.add_texts(["a"], ids=["1"])
    assert store.similarity_search("q") == []
    store.refresh()
    assert texts(store.similarity_search("q")) == ["a"]


def test_recall_loses_the_same_documents_every_time() -> None:
    def run() -> list[str]:
        store = PlaceboVectorStore(PlaceboEmbeddings(dimensions=32), recall=0.5)
        store.add_texts([f"refund policy {i}" for i in range(40)], ids=[f"r{i}" for i in range(40)])
        return [d.id or "" for d in store.similarity_search("refund policy", k=40)]

    first = run()
    assert 0 < len(first) < 40
    assert run() == first


def test_orphans_surface_per_integration() -> None:
    default = PlaceboVectorStore(TableEmbeddings(), orphaned_ids=True)
    default.add_texts(["a", "b"], ids=["1", "2"])
    default.delete(["1"])
    assert [(d.id, d.page_content) for d in default.similarity_search("q", k=2)] == [
        ("1", ""),
        ("2", "b"),
    ]
    faiss = PlaceboVectorStore(TableEmbeddings(), profile="faiss", orphaned_ids=True)
    faiss.add_texts(["a"], ids=["1"])
    faiss.delete(["1"])
    with pytest.raises(ValueError, match="Could not find document for id 1"):
        faiss.similarity_search("q", k=1)


def test_unsupported_profile_is_named() -> None:
    with pytest.raises(
        ValueError, match="no LangChain integration is modelled for profile 'weaviate'"
    ):
        PlaceboVectorStore(TableEmbeddings(), profile="weaviate")


def test_every_table_row_names_a_core_profile() -> None:
    from placeborag_core import PROFILES

    assert set(INTEGRATIONS) <= set(PROFILES)
    for name, facts in INTEGRATIONS.items():
        assert facts.profile == name
        metrics = {v.name for v in PROFILES[name].variants}
        assert set(facts.relevance) <= (set(facts.distance_settings) or metrics)
        assert set(facts.distance_settings.values()) <= metrics


def test_profile_objects_and_wrapped_core_stores() -> None:
    from placeborag_core import PROFILES, FakeVectorStore

    store = PlaceboVectorStore(TableEmbeddings(), profile=PROFILES["qdrant"])
    assert store.facts.profile == "qdrant"
    core = FakeVectorStore(profile="faiss", metric="ip")
    wrapped = PlaceboVectorStore.from_core_store(core, embedding=TableEmbeddings())
    assert wrapped.core_store is core
    assert wrapped.facts.profile == "faiss"
    with pytest.raises(TypeError, match="store must be a FakeVectorStore"):
        PlaceboVectorStore.from_core_store("nope")  # type: ignore[arg-type]


def test_from_core_store_shares_the_records_and_keeps_the_core_configuration() -> None:
    from placeborag_core import FakeVectorStore

    core = FakeVectorStore(profile="qdrant", filter_mode="post")
    left = PlaceboVectorStore.from_core_store(core, namespace="left", collection_name="kb")
    right = PlaceboVectorStore.from_core_store(core, namespace="right")
    left.add_texts(["refund policy"], ids=[1])
    assert core.ids("left") == ["1"]
    assert right.get_by_ids([1]) == []
    (doc,) = left.similarity_search("refund policy", k=1)
    assert doc.metadata == {"_id": 1, "_collection_name": "kb"}
    assert left.core_store.filter_mode == "post"
    with pytest.raises(TypeError, match=r"unexpected option\(s\) metric, recall; the core store"):
        PlaceboVectorStore.from_core_store(core, metric="cosine", recall=0.5)
    with pytest.raises(TypeError, match="namespace must be a str"):
        PlaceboVectorStore.from_core_store(core, namespace=3)  # type: ignore[arg-type]


def test_overridden_embedding_methods_are_honoured() -> None:
    class Shifted(PlaceboEmbeddings):
        def embed_query(self, text: str) -> list[float]:
            return super().embed_query("delivery times")

    plain = PlaceboVectorStore(PlaceboEmbeddings(dimensions=32))
    shifted = PlaceboVectorStore(Shifted(dimensions=32))
    for store in (plain, shifted):
        store.add_texts(["refund policy", "delivery times"], ids=["r", "d"])
    assert plain.similarity_search("refund policy", k=1)[0].id == "r"
    assert shifted.similarity_search("refund policy", k=1)[0].id == "d"


def test_delete_rejects_unknown_kwargs_where_the_real_client_would() -> None:
    with pytest.raises(TypeError, match="anything"):
        build("chroma").delete(["id_a"], anything=1)
    with pytest.raises(TypeError, match="where"):
        build("qdrant").delete([QIDS[0]], where={"color": "red"})
    assert build("faiss").delete(["id_a"], anything=1) is True


@pytest.mark.parametrize("profile", ["chroma", "default"])
def test_delete_by_chroma_filters(profile: str) -> None:
    store = build(profile)
    store.delete(where={"color": "red"})
    assert [d.page_content for d in store.similarity_search("q", k=6)] == ["b", "d", "e"]
    store.delete(["id_b", "id_d"], where_document={"$regex": "[de]"})
    assert [d.page_content for d in store.similarity_search("q", k=6)] == ["b", "e"]
    with pytest.raises(ValueError, match=r"provided in delete|refused"):
        store.delete()


def test_repr_shows_profile_and_count() -> None:
    assert repr(build("chroma", "cosine")) == (
        "PlaceboVectorStore(profile='chroma', metric='cosine', namespace='', count=6)"
    )


def test_concurrent_adds_of_the_same_content_get_distinct_ids() -> None:
    from concurrent.futures import ThreadPoolExecutor

    store = PlaceboVectorStore(PlaceboEmbeddings(dimensions=16))
    with ThreadPoolExecutor(max_workers=4) as pool:
        batches = list(pool.map(lambda _: store.add_texts(["same"] * 5), range(8)))
    ids = [i for batch in batches for i in batch]
    assert len(set(ids)) == 40
    assert store.core_store.count() == 40


# --- FAISS's distance strategies --------------------------------------------------------------


def test_faiss_distance_strategy_sets_relevance_and_threshold_like_faiss() -> None:
    # Each strategy but MAX_INNER_PRODUCT builds an L2 index (squared L2 scores); they differ
    # in the relevance function and in how score_threshold compares
    # (docs/integrations/langchain.md: lc-faiss-cosine-strategy, lc-faiss-dot-jaccard,
    # lc-faiss-threshold).
    cosine = build("faiss", distance_strategy="COSINE")
    assert cosine.core_store.profile.metric == "l2"
    assert cosine.distance_strategy == "COSINE"
    with pytest.warns(UserWarning, match=OUT_OF_RANGE):
        relevance = cosine.similarity_search_with_relevance_scores("q", k=6)
    assert [round(float(s), 6) for _, s in relevance] == [1.0, 0.6, 0.2, -1.0, -2.2, -3.0]
    for name in ("DOT_PRODUCT", "JACCARD"):
        with pytest.raises(ValueError, match="Unknown distance strategy"):
            build("faiss", distance_strategy=name).similarity_search_with_relevance_scores("q")
    kept = build("faiss", distance_strategy="JACCARD").similarity_search_with_score(
        "q", k=6, score_threshold=0.5
    )
    assert texts([d for d, _ in kept]) == ["c", "d", "e", "f"]  # JACCARD keeps scores >= t
    assert build("faiss", distance_strategy="MAX_INNER_PRODUCT").core_store.profile.metric == "ip"
    assert build("faiss", "ip").distance_strategy == "MAX_INNER_PRODUCT"
    assert build("faiss").distance_strategy == "EUCLIDEAN_DISTANCE"
    assert build("chroma", "cosine").distance_strategy == "cosine"


def test_faiss_takes_any_distance_strategy_and_fails_only_for_relevance() -> None:
    # FAISS builds an L2 index for anything but MAX_INNER_PRODUCT (lc-faiss-strategy-unknown).
    store = build("faiss", distance_strategy="fake")
    assert store.core_store.profile.metric == "l2"
    assert store.distance_strategy == "fake"
    assert texts(store.similarity_search("q", k=2)) == ["a", "b"]
    with pytest.raises(ValueError, match="Unknown distance strategy, must be cosine"):
        store.similarity_search_with_relevance_scores("q", k=2)
    with pytest.warns(UserWarning, match="metric type: fake$"):
        PlaceboVectorStore(profile="faiss", distance_strategy="fake", normalize_L2=True)
    with pytest.raises(TypeError, match="distance_strategy must be a DistanceStrategy or its"):
        PlaceboVectorStore(profile="faiss", distance_strategy=3)


def test_faiss_distance_strategy_is_checked_before_anything_is_built() -> None:
    with pytest.raises(ValueError, match="COSINE runs on metric 'l2'; got metric='ip'"):
        PlaceboVectorStore(profile="faiss", metric="ip", distance_strategy="COSINE")
    with pytest.raises(ValueError, match="FAISS's option; under profile 'qdrant'"):
        PlaceboVectorStore(profile="qdrant", distance_strategy="COSINE")
    from placeborag_core import FakeVectorStore

    with pytest.raises(ValueError, match="the given store has 'ip'"):
        PlaceboVectorStore.from_core_store(
            FakeVectorStore(profile="faiss", metric="ip"), distance_strategy="COSINE"
        )
    wrapped = PlaceboVectorStore.from_core_store(
        FakeVectorStore(profile="faiss"), distance_strategy="JACCARD"
    )
    assert wrapped.distance_strategy == "JACCARD"
    assert "distance_strategy='JACCARD'" in repr(wrapped)


def test_faiss_normalize_l2_scales_stored_and_query_vectors() -> None:
    emb = TableEmbeddings({"long": [3.0, 4.0, 0.0, 0.0], "probe": [0.0, 2.0, 0.0, 0.0]})
    store = PlaceboVectorStore(emb, profile="faiss", normalize_L2=True)
    store.add_texts(["long"], ids=["x"])
    assert store.core_store.get("x").vector == pytest.approx((0.6, 0.8, 0.0, 0.0))  # type: ignore[union-attr]
    # the query is scaled too: |(0, 1) - (0.6, 0.8)|^2 = 0.4, not |(0, 2) - (0.6, 0.8)|^2 = 1.8
    ((_, score),) = store.similarity_search_with_score("probe", k=1)
    assert float(score) == pytest.approx(0.4, abs=1e-6)

    class DistanceStrategy(str, enum.Enum):  # shaped like langchain_community's
        COSINE = "COSINE"

    # FAISS formats the value it was given: the enum member, or the plain str.
    with pytest.warns(
        UserWarning,
        match=r"^Normalizing L2 is not applicable for metric type: DistanceStrategy\.COSINE$",
    ):
        PlaceboVectorStore(
            emb, profile="faiss", distance_strategy=DistanceStrategy.COSINE, normalize_L2=True
        )
    with pytest.warns(UserWarning, match=r"^Normalizing L2 .* metric type: COSINE$"):
        PlaceboVectorStore(emb, profile="faiss", distance_strategy="COSINE", normalize_L2=True)
    with pytest.raises(ValueError, match="normalize_L2 is FAISS's option"):
        PlaceboVectorStore(emb, profile="chroma", normalize_L2=True)
    with pytest.raises(TypeError, match="normalize_L2 must be a bool"):
        PlaceboVectorStore(emb, profile="faiss", normalize_L2="yes")  # type: ignore[arg-type]


def test_faiss_normalize_l2_leaves_malformed_vectors_to_the_core_checks() -> None:
    emb = TableEmbeddings({"short": [1.0, 0.0], "nan": [float("nan"), 0.0, 0.0, 0.0]})
    store = PlaceboVectorStore(emb, profile="faiss", normalize_L2=True)
    store.add_texts(["a"], ids=["a"])
    with pytest.raises(ValueError, match="dimension"):
        store.add_texts(["b", "short"], ids=["b", "s"])
    with pytest.raises(ValueError, match="NaN"):
        store.add_texts(["nan"], ids=["n"])
    assert store.core_store.ids() == ["a"]


def test_chroma_refuses_the_collection_names_chromadb_refuses() -> None:
    # lc-chroma-collection-name: chromadb's three name rules, its messages, as ValueError.
    shape = (
        "Validation error: name: Expected a name containing 3-512 characters from "
        "[a-zA-Z0-9._-], starting and ending with a character in [a-zA-Z0-9]. Got: "
    )
    for bad in ("zz", "has space", "-lead", "ab.", "a" * 600):
        with pytest.raises(ValueError, match=f"^{re.escape(shape + bad)}$"):
            PlaceboVectorStore(profile="chroma", collection_name=bad)
    with pytest.raises(ValueError, match=r"two consecutive periods \(\.\.\)\. Got a\.\.b$"):
        PlaceboVectorStore(profile="chroma", collection_name="a..b")
    with pytest.raises(ValueError, match=r"not a valid ip address\. Got 127\.0\.0\.1$"):
        PlaceboVectorStore.from_texts(["a"], profile="chroma", collection_name="127.0.0.1")
    for good in ("abc", "a_b", "a" * 512, "my.docs-1"):
        assert PlaceboVectorStore(profile="chroma", collection_name=good).collection_name == good
    assert PlaceboVectorStore(profile="qdrant", collection_name="zz").collection_name == "zz"


@pytest.mark.parametrize("profile", ["chroma", "qdrant", "faiss", "pgvector", "lancedb"])
def test_length_mismatches_raise_valueerror_under_every_profile(profile: str) -> None:
    # Divergence `length-mismatch` (langchain-parity.md): the real stores pad, zip, add fewer
    # or raise IndexError/KeyError depending on the list; the double refuses before writing.
    store = PlaceboVectorStore(TableEmbeddings(), profile=profile)
    with pytest.raises(ValueError, match="1 metadatas for 2 texts"):
        store.add_texts(["a", "b"], metadatas=[{"n": 1}])
    with pytest.raises(ValueError, match="1 ids for 2 documents"):
        store.add_texts(["a", "b"], metadatas=[{"n": 1}, {"n": 2}], ids=[QIDS[0]])
    assert len(store.core_store) == 0


# --- ids given as an iterator, and None among the ids (FINDINGS LC3, LC5, LC12) ---------------


@pytest.mark.parametrize("profile", ["default", "chroma", "qdrant", "pgvector"])
def test_ids_given_as_a_generator_or_iterator_are_read_once(profile: str) -> None:
    store = PlaceboVectorStore(TableEmbeddings(), profile=profile)  # type: ignore[arg-type]
    wanted = QIDS[:2] if profile == "qdrant" else IDS[:2]
    assert store.add_texts(["a", "b"], ids=(i for i in wanted)) == wanted
    docs = [Document(page_content=t) for t in ("c", "d")]
    more = QIDS[2:4] if profile == "qdrant" else IDS[2:4]
    assert store.add_documents(docs, ids=iter(more)) == more
    assert len(store.core_store) == 4


def test_faiss_refuses_ids_without_a_length_as_python_does_there() -> None:
    # lc-faiss-ids-unsized: FAISS takes len(ids) and raises before anything is added.
    store = build("faiss")
    with pytest.raises(TypeError, match=r"^object of type 'generator' has no len\(\)$"):
        store.add_texts(["a", "b"], ids=(i for i in ["x", "y"]))
    with pytest.raises(TypeError, match=r"^object of type 'list_iterator' has no len\(\)$"):
        store.add_documents([Document(page_content="a")], ids=iter(["x"]))
    assert list(store.add_texts(["a", "b"], ids=("x", "y"))) == ["x", "y"]  # it has a length
    assert len(store.core_store) == len(DOCS) + 2


def _ids_before_after(store: PlaceboVectorStore) -> list[str]:
    return sorted(store.core_store.ids())


def test_qdrant_refuses_a_none_id_with_point_structs_validation_error() -> None:
    from pydantic import ValidationError

    # lc-qdrant-ids-none: langchain-core's add_documents passes [u, None] on.
    store = build("qdrant")
    before = _ids_before_after(store)
    mixed = [Document(page_content="a", id=str(uuid.UUID(int=99))), Document(page_content="b")]
    with pytest.raises(ValidationError, match="3 validation errors for PointStruct") as caught:
        store.add_documents(mixed)
    locations = [e["loc"] for e in caught.value.errors()]
    assert locations == [("id", "int"), ("id", "str"), ("id", "uuid")]
    with pytest.raises(ValidationError, match="for PointStruct"):
        store.add_texts(["a"], ids=[None])
    assert _ids_before_after(store) == before
    unnamed = [Document(page_content="a"), Document(page_content="b")]
    assert len(store.add_documents(unnamed)) == 2  # no id at all: generated, as qdrant does


def test_milvus_refuses_a_none_id_with_its_assertion() -> None:
    # lc-milvus-ids-none
    store = PlaceboVectorStore(TableEmbeddings(), profile="milvus")
    store.add_texts(["a"], metadatas=[{"n": 1}], ids=["a"])
    with pytest.raises(AssertionError, match=r"^All ids should be strings\.$"):
        store.add_texts(["b", "c"], metadatas=[{"n": 2}, {"n": 3}], ids=["b", None])
    with pytest.raises(NotImplementedError, match=r"add_documents ignores Document\.id"):
        store.add_documents([Document(page_content="b", metadata={"n": 2}, id="b")])
    assert list(store.core_store.ids()) == ["a"]


def test_faiss_refuses_a_none_id_rather_than_keying_its_docstore_by_none() -> None:
    # lc-faiss-ids-none, divergence faiss-none-id
    store = build("faiss")
    before = _ids_before_after(store)
    mixed = [Document(page_content="a", id="x"), Document(page_content="b")]
    with pytest.raises(ValueError, match=r"^a None id: langchain-community FAISS stores"):
        store.add_documents(mixed)
    with pytest.raises(ValueError, match=r"^a None id"):
        store.add_texts(["a"], ids=[None])
    assert _ids_before_after(store) == before
    assert len(store.add_documents([Document(page_content="a")])) == 1  # no id at all


@pytest.mark.parametrize("profile", ["chroma", "pgvector", "default"])
def test_a_none_id_gets_a_generated_id_where_the_integration_gives_one(profile: str) -> None:
    store = build(profile)
    returned = store.add_texts(["a", "b"], ids=["x", None])
    assert returned[0] == "x"
    assert uuid.UUID(returned[1]).version == 5  # a dashed, deterministic uuid


@pytest.mark.parametrize("profile", ["faiss", "qdrant"])
def test_empty_ids_give_generated_ids_where_the_integration_falls_back(profile: str) -> None:
    # FAISS and langchain-qdrant: `ids or [generated ...]` (lc-faiss-ids-empty,
    # lc-qdrant-ids-empty); add_documents(ids=[]) leaves Document.id unused.
    made = PlaceboVectorStore(PlaceboEmbeddings(), profile=profile)
    texts = made.add_texts(["a", "b"], ids=[])
    docs = made.add_documents([Document(page_content="c", id=str(uuid.UUID(int=7)))], ids=[])
    assert len(texts) == 2
    assert len(docs) == 1
    assert made.get_by_ids([str(uuid.UUID(int=7))]) == []
    assert len(made.similarity_search("a", k=10)) == 3


def test_empty_ids_are_a_length_mismatch_elsewhere() -> None:
    made = PlaceboVectorStore(PlaceboEmbeddings(), profile="default")
    with pytest.raises(ValueError, match="got 0 ids for 1 documents"):
        made.add_texts(["a"], ids=[])


@pytest.mark.parametrize("profile", ["default", "chroma", "qdrant", "faiss", "pgvector"])
def test_copy_copy_shares_the_records_as_a_real_stores_shallow_copy_does(profile: str) -> None:
    # lc-faiss-copy-shares: a shallow copy of every real store shares its records;
    # copy.deepcopy stays independent.
    made = PlaceboVectorStore(PlaceboEmbeddings(), profile=profile)
    made.add_texts(["a"], ids=[str(uuid.UUID(int=1))])
    twin = copy.copy(made)
    assert twin is not made
    assert type(twin) is type(made)
    twin.add_texts(["b"], ids=[str(uuid.UUID(int=2))])
    assert len(made.similarity_search("a", k=10)) == 2
    deep = copy.deepcopy(made)
    deep.add_texts(["c"], ids=[str(uuid.UUID(int=3))])
    assert len(made.similarity_search("a", k=10)) == 2
