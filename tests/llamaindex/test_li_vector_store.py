"""PlaceboVectorStore's own API: writes, reads, deletes, query options and per-profile facts."""

from __future__ import annotations

import asyncio
import dataclasses
import math
import re

import numpy as np
import pytest
from li_support import ID, LETTER, PROBE_METADATA, VECTORS, Q, make_nodes, uid
from llama_index.core.schema import NodeRelationship, RelatedNodeInfo, TextNode
from llama_index.core.vector_stores.types import (
    FilterCondition,
    MetadataFilter,
    MetadataFilters,
    VectorStoreQuery,
    VectorStoreQueryMode,
)
from pydantic import ValidationError

from placeborag_core import FakeEmbedder, FakeVectorStore, RetrievalTimeout
from placeborag_llamaindex import INTEGRATIONS, PlaceboEmbedding, PlaceboVectorStore

PROFILES = ["default", "chroma", "qdrant"]
RED = MetadataFilters(filters=[MetadataFilter(key="color", value="red")])


def filled(profile: str = "default", **fields) -> PlaceboVectorStore:
    store = PlaceboVectorStore(profile=profile, **fields)
    store.add(make_nodes())
    return store


def query_letters(store, k=6, **query_fields):
    result = store.query(VectorStoreQuery(query_embedding=Q, similarity_top_k=k, **query_fields))
    return [LETTER[i] for i in result.ids]


def node(letter: str, text: str | None = None, **metadata) -> TextNode:
    return TextNode(
        id_=ID[letter], text=text or letter, embedding=VECTORS[letter], metadata=metadata
    )


# --------------------------------------------------------------------------- scores


@pytest.mark.parametrize(
    ("profile", "metric", "expected"),
    [
        # NodeWithScore.score of a..f: docs/integrations/llamaindex.md#li-chroma-score,
        # #li-chroma-score-cosine, #li-qdrant-score, #li-qdrant-score-euclid
        (
            "default",
            None,
            [1.0, 0.800000011920929, 0.6000000238418579, 0.0, -0.6000000238418579, -1.0],
        ),
        (
            "chroma",
            None,
            [
                1.0,
                0.6703200420402204,
                0.449328958760803,
                0.1353352832366127,
                0.04076219231620778,
                0.01831563888873418,
            ],
        ),
        (
            "chroma",
            "cosine",
            [
                1.0,
                0.818730762838013,
                0.6703200620173148,
                0.36787944117144233,
                0.20189651318106738,
                0.1353352832366127,
            ],
        ),
        (
            "qdrant",
            None,
            [1.0, 0.800000011920929, 0.6000000238418579, 0.0, -0.6000000238418579, -1.0],
        ),
        (
            "qdrant",
            "euclid",
            [
                0.0,
                0.6324555508823199,
                0.8944271909999163,
                1.4142135623730951,
                1.7888544086558393,
                2.0,
            ],
        ),
    ],
)
def test_similarities_are_the_real_integration_scores(profile, metric, expected):
    store = filled(profile, metric=metric)
    result = store.query(VectorStoreQuery(query_embedding=Q, similarity_top_k=6))
    assert [LETTER[i] for i in result.ids] == list("abcdef")
    # within float32 rounding: these vectors are integer directions, whose scores the core
    # computes exactly (qdrant: 0.8 where the engine's float32 rows give 0.800000011920929)
    assert result.similarities == pytest.approx(expected, rel=0, abs=3e-7)
    assert all(type(s) is float for s in result.similarities)


def test_chroma_score_is_exp_of_minus_the_core_distance():
    store = filled("chroma")
    distances = [m.score for m in store.core_store.query(Q, 6)]
    similarities = store.query(VectorStoreQuery(query_embedding=Q, similarity_top_k=6)).similarities
    assert similarities == [math.exp(-d) for d in distances]


def test_query_returns_whole_nodes_with_their_metadata():
    store = PlaceboVectorStore()
    original = node("a", "alpha", color="red")
    original.relationships[NodeRelationship.SOURCE] = RelatedNodeInfo(node_id="doc-1")
    original.excluded_embed_metadata_keys = ["color"]
    store.add([original])
    (returned,) = store.query(VectorStoreQuery(query_embedding=Q, similarity_top_k=1)).nodes
    assert returned.node_id == original.node_id
    assert returned.get_content() == "alpha"
    assert returned.metadata == {"color": "red"}
    assert returned.ref_doc_id == "doc-1"
    assert returned.excluded_embed_metadata_keys == ["color"]
    assert returned.embedding is None


# --------------------------------------------------------------------------- add


@pytest.mark.parametrize("profile", PROFILES)
def test_add_returns_the_node_ids(profile):
    store = PlaceboVectorStore(profile=profile)
    assert store.add(make_nodes()) == [ID[x] for x in "abcdef"]
    assert store.core_store.count() == 6


def test_add_without_embedding_raises_and_writes_nothing():
    store = PlaceboVectorStore()
    with pytest.raises(ValueError, match="embedding not set"):
        store.add([node("a"), TextNode(id_="x", text="no vector")])
    assert store.core_store.count() == 0


@pytest.mark.parametrize(
    ("profile", "kept"), [("default", "new"), ("qdrant", "new"), ("chroma", "old")]
)
def test_re_adding_an_existing_id(profile, kept):
    store = PlaceboVectorStore(profile=profile)
    store.add([node("a", "old", color="red")])
    assert store.add([node("a", "new", color="green")]) == [ID["a"]]
    (stored,) = store.get_nodes([ID["a"]])
    assert stored.get_content() == kept
    assert stored.metadata == {"color": "red" if kept == "old" else "green"}


def test_chroma_rejects_duplicate_ids_in_one_add():
    store = PlaceboVectorStore(profile="chroma")
    with pytest.raises(ValueError, match="Expected IDs to be unique, found duplicates of: "):
        store.add([node("a"), node("a", "again")])
    assert store.core_store.count() == 0


@pytest.mark.parametrize("profile", ["default", "qdrant"])
def test_duplicate_ids_in_one_add_last_wins(profile):
    store = PlaceboVectorStore(profile=profile)
    store.add([node("a", "first"), node("a", "second")])
    assert [n.get_content() for n in store.get_nodes()] == ["second"]


def test_qdrant_accepts_only_uuid_node_ids():
    store = PlaceboVectorStore(profile="qdrant")
    with pytest.raises(ValueError, match="Point id my-node is not a valid UUID"):
        store.add([TextNode(id_="my-node", text="x", embedding=Q)])
    assert store.core_store.count() == 0


def test_qdrant_matches_uuids_in_any_spelling():
    store = PlaceboVectorStore(profile="qdrant")
    upper = uid(11).upper()
    store.add([TextNode(id_=upper, text="x", embedding=Q)])
    assert [n.node_id for n in store.get_nodes([uid(11)])] == [upper]
    store.delete_nodes([uid(11)])
    assert store.get_nodes() == []


@pytest.mark.parametrize("profile", ["default", "chroma"])
def test_other_profiles_accept_any_node_id(profile):
    store = PlaceboVectorStore(profile=profile)
    store.add([TextNode(id_="my-node", text="x", embedding=Q)])
    assert [n.node_id for n in store.get_nodes(["my-node"])] == ["my-node"]


def test_chroma_rejects_nested_metadata_like_the_integration():
    store = PlaceboVectorStore(profile="chroma")
    with pytest.raises(
        ValueError, match=r"Value for metadata d must be one of \(str, int, float, None\)"
    ):
        store.add([node("a", d={"x": 1})])
    assert store.flat_metadata is True


@pytest.mark.parametrize("profile", ["default", "qdrant"])
def test_nested_metadata_round_trips(profile):
    store = PlaceboVectorStore(profile=profile)
    store.add([node("a", d={"x": 1}, tags=["p", "q"])])
    assert store.get_nodes()[0].metadata == {"d": {"x": 1}, "tags": ["p", "q"]}
    assert store.flat_metadata is False


def test_chroma_stores_none_metadata_as_empty_string_but_returns_the_node_as_given():
    store = PlaceboVectorStore(profile="chroma")
    store.add([node("a", k=None), node("b", k="v")])
    empty = MetadataFilters(filters=[MetadataFilter(key="k", value="")])
    (match,) = store.get_nodes(filters=empty)
    assert match.node_id == ID["a"]
    assert match.metadata == {"k": None}


def test_add_rejects_unknown_keyword_arguments():
    with pytest.raises(TypeError, match="add\\(\\) got unexpected keyword arguments \\['bogus'\\]"):
        PlaceboVectorStore().add([node("a")], bogus=1)


# --------------------------------------------------------------------------- get_nodes


@pytest.mark.parametrize(
    ("profile", "expected"),
    [("default", "cab"), ("chroma", "cab"), ("qdrant", "abc")],
)
def test_get_nodes_order_is_the_profile_listing_order(profile, expected):
    store = PlaceboVectorStore(profile=profile)
    store.add([node("c"), node("a"), node("b")])
    got = store.get_nodes([ID["b"], ID["a"], ID["c"], uid(99)])
    assert [LETTER[n.node_id] for n in got] == list(expected)


@pytest.mark.parametrize(
    ("profile", "expected"), [("default", ""), ("qdrant", ""), ("chroma", "abcdef")]
)
def test_get_nodes_with_an_empty_id_list(profile, expected):
    assert [LETTER[n.node_id] for n in filled(profile).get_nodes([])] == list(expected)


@pytest.mark.parametrize("profile", PROFILES)
def test_get_nodes_honours_filters_and_ids_together(profile):
    store = filled(profile)
    assert [LETTER[n.node_id] for n in store.get_nodes(filters=RED)] == list("acf")
    got = store.get_nodes([ID["a"], ID["b"], ID["f"]], filters=RED)
    assert [LETTER[n.node_id] for n in got] == list("af")


@pytest.mark.parametrize(
    ("profile", "with_vector"), [("default", False), ("chroma", False), ("qdrant", True)]
)
def test_get_nodes_carries_the_embedding_only_where_the_integration_does(profile, with_vector):
    (got,) = filled(profile).get_nodes([ID["b"]])
    assert (got.embedding is not None) is with_vector
    if with_vector:
        assert got.embedding == pytest.approx(VECTORS["b"], abs=1e-7)


# --------------------------------------------------------------------------- deletes


@pytest.mark.parametrize("profile", PROFILES)
def test_delete_by_ref_doc_id(profile):
    store = PlaceboVectorStore(profile=profile)
    nodes = make_nodes()
    for letter, n in zip("abcdef", nodes, strict=False):
        source = "doc-1" if letter in "ab" else "doc-2"
        n.relationships[NodeRelationship.SOURCE] = RelatedNodeInfo(node_id=source)
    store.add(nodes)
    store.delete("doc-1")
    store.delete("unknown")
    assert [LETTER[n.node_id] for n in store.get_nodes()] == list("cdef")


@pytest.mark.parametrize("profile", PROFILES)
def test_delete_nodes_by_ids_and_filters(profile):
    store = filled(profile)
    store.delete_nodes([ID["a"], ID["b"], uid(99)], filters=RED)
    assert [LETTER[n.node_id] for n in store.get_nodes()] == list("bcdef")
    store.delete_nodes([ID["b"]])
    assert [LETTER[n.node_id] for n in store.get_nodes()] == list("cdef")


@pytest.mark.parametrize("profile", ["default", "qdrant"])
def test_delete_nodes_by_filters_alone(profile):
    store = filled(profile)
    store.delete_nodes(filters=RED)
    assert [LETTER[n.node_id] for n in store.get_nodes()] == list("bde")


@pytest.mark.parametrize("profile", ["default", "qdrant"])
def test_delete_nodes_with_nothing_refuses_to_wipe_the_store(profile):
    store = filled(profile)
    with pytest.raises(ValueError, match="needs node_ids or non-empty filters"):
        store.delete_nodes()
    with pytest.raises(ValueError, match="needs node_ids or non-empty filters"):
        store.delete_nodes(None, MetadataFilters(filters=[]))
    assert store.core_store.count() == 6


@pytest.mark.parametrize("profile", ["default", "qdrant"])
def test_delete_nodes_with_an_empty_id_list_deletes_nothing(profile):
    store = filled(profile)
    store.delete_nodes([])
    assert store.core_store.count() == 6


@pytest.mark.parametrize("ids", [None, []])
def test_chroma_delete_nodes_needs_ids_even_with_filters(ids):
    store = filled("chroma")
    with pytest.raises(
        ValueError, match=r"Expected IDs to be a non-empty list, got 0 IDs in delete\."
    ):
        store.delete_nodes(ids, filters=RED)
    assert store.core_store.count() == 6


@pytest.mark.parametrize("profile", PROFILES)
async def test_clear_and_async_twins(profile):
    store = PlaceboVectorStore(profile=profile)
    assert await store.async_add(make_nodes()) == [ID[x] for x in "abcdef"]
    assert [LETTER[n.node_id] for n in await store.aget_nodes(filters=RED)] == list("acf")
    await store.adelete_nodes([ID["a"]])
    result = await store.aquery(VectorStoreQuery(query_embedding=Q, similarity_top_k=2))
    assert [LETTER[i] for i in result.ids] == ["b", "c"]
    await store.adelete("None")  # nodes without a source document have ref_doc_id "None"
    assert store.core_store.count() == 0
    store.add(make_nodes())
    await store.aclear()
    assert store.core_store.count() == 0


# --------------------------------------------------------------------------- query


@pytest.mark.parametrize("profile", PROFILES)
def test_similarity_top_k_and_filters(profile):
    store = filled(profile)
    assert query_letters(store, k=2) == ["a", "b"]
    assert query_letters(store, k=2, filters=RED) == ["a", "c"]


@pytest.mark.parametrize(
    ("profile", "expected"), [("default", "bd"), ("qdrant", "bd"), ("chroma", "abcdef")]
)
def test_node_ids_restrict_where_the_integration_honours_them(profile, expected):
    store = filled(profile)
    assert query_letters(store, node_ids=[ID["d"], ID["b"]]) == list(expected)


@pytest.mark.parametrize("profile", PROFILES)
def test_an_empty_node_id_list_is_no_restriction(profile):
    assert query_letters(filled(profile), node_ids=[]) == list("abcdef")


@pytest.mark.parametrize(
    ("profile", "expected"), [("default", "ce"), ("qdrant", "ce"), ("chroma", "abcdef")]
)
def test_doc_ids_restrict_where_the_integration_honours_them(profile, expected):
    store = PlaceboVectorStore(profile=profile)
    nodes = make_nodes()
    for letter, n in zip("abcdef", nodes, strict=False):
        if letter in "ce":
            n.relationships[NodeRelationship.SOURCE] = RelatedNodeInfo(node_id=f"doc-{letter}")
    store.add(nodes)
    assert query_letters(store, doc_ids=["doc-c", "doc-e"]) == list(expected)


@pytest.mark.parametrize(
    ("profile", "score"), [("default", None), ("chroma", None), ("qdrant", 1.0)]
)
def test_query_without_embedding_lists_filtered_nodes(profile, score):
    store = filled(profile)
    result = store.query(VectorStoreQuery(query_embedding=None, similarity_top_k=2, filters=RED))
    assert [LETTER[i] for i in result.ids] == ["a", "c"]
    assert [LETTER[n.node_id] for n in result.nodes] == ["a", "c"]
    assert result.similarities == (None if score is None else [score, score])


@pytest.mark.parametrize(
    "mode",
    [
        "hybrid",
        "sparse",
        "text_search",
        "semantic_hybrid",
        "svm",
        "logistic_regression",
        "linear_regression",
    ],
)
def test_modes_that_need_an_engine_raise_not_implemented_naming_them(mode):
    with pytest.raises(NotImplementedError, match=rf"query mode '{mode}': it is a"):
        filled().query(VectorStoreQuery(query_embedding=Q, mode=VectorStoreQueryMode(mode)))


def test_a_value_that_is_no_query_mode_raises_value_error():
    with pytest.raises(ValueError, match=r"Invalid query mode: 'bogus'.*supports 'default', 'mmr'"):
        filled().query(VectorStoreQuery(query_embedding=Q, mode="bogus"))  # type: ignore[arg-type]


def test_unknown_query_kwargs_raise_listing_the_accepted_ones():
    with pytest.raises(
        TypeError, match=r"\['mmr_treshold'\]; accepted: fetch_k, mmr_threshold, where"
    ):
        filled().query(VectorStoreQuery(query_embedding=Q), mmr_treshold=0.5)


def test_prefetch_options_belong_to_the_chroma_profile():
    with pytest.raises(TypeError, match="need profile 'chroma'"):
        filled("qdrant").query(VectorStoreQuery(query_embedding=Q), mmr_prefetch_k=10)


def test_qdrant_filters_kwarg_replaces_the_query_filters_under_the_qdrant_profile():
    from types import SimpleNamespace

    def condition(key, value):
        return SimpleNamespace(key=key, match=SimpleNamespace(value=value), range=None)

    red = SimpleNamespace(must=[condition("color", "red")], should=None, must_not=None)
    store = filled("qdrant")
    query = VectorStoreQuery(
        query_embedding=Q,
        similarity_top_k=6,
        filters=MetadataFilters(filters=[MetadataFilter(key="color", value="blue")]),
        node_ids=[ID["b"]],
    )
    result = store.query(query, qdrant_filters=red)  # filters and node_ids are replaced
    assert [LETTER[i] for i in result.ids] == ["a", "c", "f"]
    only = SimpleNamespace(
        must=[SimpleNamespace(has_id=[ID["c"], "not-a-uuid", 7])], should=None, must_not=None
    )
    assert store.query(VectorStoreQuery(query_embedding=Q), qdrant_filters=only).ids == [ID["c"]]
    # li-qdrant-where-kwarg-ignored: QdrantVectorStore never reads where, so it cannot conflict
    six = VectorStoreQuery(query_embedding=Q, similarity_top_k=6)
    beside = store.query(six, qdrant_filters=red, where={"n": 1})
    assert [LETTER[i] for i in beside.ids] == ["a", "c", "f"]
    for profile in ("default", "chroma"):
        with pytest.raises(TypeError, match="qdrant_filters needs profile 'qdrant'"):
            filled(profile).query(VectorStoreQuery(query_embedding=Q), qdrant_filters=red)


def test_native_where_kwarg_and_its_conflict_with_filters():
    store = filled()
    result = store.query(
        VectorStoreQuery(query_embedding=Q, similarity_top_k=6), where={"n": {"$gt": 4}}
    )
    assert [LETTER[i] for i in result.ids] == ["e", "f"]
    with pytest.raises(
        ValueError, match="Cannot specify metadata filters via both query and kwargs"
    ):
        store.query(VectorStoreQuery(query_embedding=Q, filters=RED), where={"n": 1})


def test_chroma_where_must_be_a_mapping():
    with pytest.raises(TypeError, match="where must be a mapping"):
        filled("chroma").query(VectorStoreQuery(query_embedding=Q), where="color == red")


@pytest.mark.parametrize("profile", ["qdrant", "milvus", "pgvector", "faiss"])
def test_where_kwarg_is_ignored_where_the_real_query_never_reads_it(profile):
    # li-qdrant-where-kwarg-ignored: QdrantVectorStore, MilvusVectorStore, PGVectorStore and
    # FaissVectorStore never read vector_store_kwargs["where"]: any value, even beside filters
    store = filled(profile)
    query = VectorStoreQuery(query_embedding=Q, similarity_top_k=6)
    plain = store.query(query).ids
    assert len(plain) == 6
    for where in ({"n": {"$gt": 4}}, "color == red", 7):
        assert store.query(query, where=where).ids == plain
    if profile != "faiss":  # FaissVectorStore refuses every filter
        filtered = VectorStoreQuery(query_embedding=Q, similarity_top_k=6, filters=RED)
        assert store.query(filtered, where={"n": 1}).ids == store.query(filtered).ids


CHROMA_TOP_K = "Expected requested number of results to be a int, got {} in query."


@pytest.mark.parametrize("k", [None, 2.0, 2.5])
def test_chroma_raises_chromas_value_error_for_a_top_k_that_is_no_int(k):
    # li-chroma-top-k-not-int: Collection.query refuses any n_results that is not an int
    store = filled("chroma")
    with pytest.raises(ValueError, match=re.escape(CHROMA_TOP_K.format(k))):
        store.query(VectorStoreQuery(query_embedding=Q, similarity_top_k=k))


@pytest.mark.parametrize("profile", ["qdrant", "pgvector"])
def test_qdrant_and_pgvector_search_with_an_integral_float_top_k(profile):
    # li-qdrant-top-k-integral-float (PGVectorStore's LIMIT 2.0 likewise: the same two nodes)
    store = filled(profile)
    two = store.query(VectorStoreQuery(query_embedding=Q, similarity_top_k=2))
    assert store.query(VectorStoreQuery(query_embedding=Q, similarity_top_k=2.0)).ids == two.ids
    mmr = VectorStoreQueryMode.MMR
    assert (
        len(store.query(VectorStoreQuery(query_embedding=Q, similarity_top_k=2.0, mode=mmr)).ids)
        == 2
    )
    for k in (2.5, None, True):  # not measured further: still refused
        with pytest.raises(TypeError, match="similarity_top_k must be an int >= 1"):
            store.query(VectorStoreQuery(query_embedding=Q, similarity_top_k=k))


@pytest.mark.parametrize("profile", ["default", "chroma", "qdrant", "milvus", "pgvector"])
def test_other_top_k_that_is_no_int_stays_refused(profile):
    # without embedding (a listing) every profile refuses it; default and milvus refuse it always
    store = filled(profile)
    with pytest.raises(TypeError, match=r"similarity_top_k must be an int >= 1, got 2\.0"):
        store.query(VectorStoreQuery(similarity_top_k=2.0))
    if profile in ("default", "milvus"):
        with pytest.raises(TypeError, match=r"similarity_top_k must be an int >= 1, got 2\.0"):
            store.query(VectorStoreQuery(query_embedding=Q, similarity_top_k=2.0))


def test_post_filter_mode_and_fetch_k_go_to_the_core():
    store = filled(filter_mode="post")
    # post-filtering the 2 nearest (a, b) for "red" leaves only a; fetch_k=3 also reaches c
    assert query_letters(store, k=2, filters=RED) == ["a"]
    result = store.query(
        VectorStoreQuery(query_embedding=Q, similarity_top_k=2, filters=RED), fetch_k=3
    )
    assert [LETTER[i] for i in result.ids] == ["a", "c"]


# --------------------------------------------------------------------------- MMR


def mmr_letters(store, k=3, **kwargs):
    query = VectorStoreQuery(query_embedding=Q, similarity_top_k=k, mode=VectorStoreQueryMode.MMR)
    result = store.query(query, **kwargs)
    return [LETTER[i] for i in result.ids], result.similarities


def test_chroma_mmr_matches_the_measured_picks_and_scores():
    # a, b, f at the default threshold, with exp(-d) scores: li-chroma-mmr
    # (docs/integrations/llamaindex.md); a, f, b at 0.1 is not re-measured by the probe.
    store = filled("chroma")
    picks, scores = mmr_letters(store)
    assert picks == ["a", "b", "f"]
    assert scores == [1.0, 0.6703200420402204, 0.01831563888873418]
    assert mmr_letters(store, mmr_threshold=0.1)[0] == ["a", "f", "b"]


def test_chroma_mmr_prefetch_limits_the_candidates():
    # with only top_k candidates prefetched MMR can only reorder the nearest three
    assert mmr_letters(filled("chroma"), mmr_prefetch_k=3)[0] == ["a", "b", "c"]
    with pytest.raises(ValueError, match="cannot coexist"):
        mmr_letters(filled("chroma"), mmr_prefetch_k=3, mmr_prefetch_factor=2.0)


def test_chroma_mmr_falls_back_to_a_plain_query_with_fewer_candidates_than_top_k():
    store = filled("chroma")
    assert mmr_letters(store, k=3, mmr_threshold=0.0)[0] != ["a", "b", "c"]
    picks, _ = mmr_letters(store, k=3, mmr_threshold=0.0, mmr_prefetch_k=3)
    assert len(picks) == 3
    few = PlaceboVectorStore(profile="chroma")
    few.add(make_nodes()[:2])
    assert mmr_letters(few, k=3, mmr_threshold=0.0)[0] == ["a", "b"]


def test_qdrant_ignores_mmr_mode_like_the_integration():
    assert mmr_letters(filled("qdrant"), mmr_threshold=0.1)[0] == ["a", "b", "c"]


def test_default_mmr_over_all_candidates_with_the_threshold_from_kwargs_only():
    store = filled()
    assert mmr_letters(store, mmr_threshold=1.0)[0] == ["a", "b", "c"]
    assert mmr_letters(store, mmr_threshold=0.1)[0] == ["a", "f", "b"]
    query = VectorStoreQuery(
        query_embedding=Q, similarity_top_k=3, mode=VectorStoreQueryMode.MMR, mmr_threshold=0.1
    )
    # SimpleVectorStore.query reads kwargs.get("mmr_threshold") only: the query's 0.1 is
    # ignored and the default 0.5 applies (li-simple-mmr-threshold-keyword-only)
    assert [LETTER[i] for i in store.query(query).ids] == mmr_letters(store)[0]
    assert [LETTER[i] for i in store.query(query, mmr_threshold=1.0).ids] == ["a", "b", "c"]


@pytest.mark.parametrize("profile", ["default", "chroma", "milvus"])
def test_the_query_mmr_threshold_is_ignored_as_the_real_stores_ignore_it(profile):
    # SimpleVectorStore, ChromaVectorStore and MilvusVectorStore pass only the mmr_threshold
    # keyword to get_top_k_mmr_embeddings (li-simple-, li-chroma-, li-milvus-mmr-threshold-
    # keyword-only: the same picks with and without VectorStoreQuery(mmr_threshold=0.1))
    store = filled(profile)
    with_query_threshold = VectorStoreQuery(
        query_embedding=Q, similarity_top_k=3, mode=VectorStoreQueryMode.MMR, mmr_threshold=0.1
    )
    assert (
        store.query(with_query_threshold).ids
        == store.query(
            VectorStoreQuery(query_embedding=Q, similarity_top_k=3, mode=VectorStoreQueryMode.MMR)
        ).ids
    )


@pytest.mark.parametrize("bad", [-0.1, 1.5, "0.5", True])
def test_mmr_threshold_is_validated(bad):
    with pytest.raises(ValueError, match="mmr_threshold must be a float between 0 and 1"):
        mmr_letters(filled(), mmr_threshold=bad)


# --------------------------------------------------------------------------- faults and core


def test_faults_pass_through_to_the_core():
    store = filled()
    store.fail_next_query(RuntimeError("down"), times=1)
    with pytest.raises(RuntimeError, match="down"):
        query_letters(store)
    assert query_letters(store, k=1) == ["a"]
    store.fail_next_query()
    with pytest.raises(RetrievalTimeout):
        query_letters(store)


def test_manual_visibility_and_refresh():
    store = PlaceboVectorStore(visibility="manual")
    store.add(make_nodes())
    assert store.pending_writes == 6
    assert query_letters(store) == []
    store.refresh()
    assert query_letters(store, k=1) == ["a"]


def test_recall_is_deterministic_and_loses_records():
    runs = [query_letters(filled(recall=0.5)) for _ in range(2)]
    assert runs[0] == runs[1]
    assert len(runs[0]) < 6


def test_namespaces_are_walls():
    shared = FakeVectorStore()
    left = PlaceboVectorStore.from_core_store(shared, namespace="left")
    right = PlaceboVectorStore.from_core_store(shared, namespace="right")
    left.add(make_nodes())
    assert query_letters(right) == []
    assert query_letters(left, k=1) == ["a"]
    right.clear()
    assert shared.count("left") == 6


def test_from_core_store_copies_the_configuration_and_shares_the_records():
    core = FakeVectorStore(profile="qdrant", metric="euclid", filter_mode="post", recall=0.9)
    store = PlaceboVectorStore.from_core_store(core)
    assert (store.profile, store.metric, store.filter_mode, store.recall) == (
        "qdrant",
        "euclid",
        "post",
        0.9,
    )
    assert store.core_store is core
    with pytest.raises(NotImplementedError, match=r"client \(use core_store"):
        store.client  # noqa: B018
    store.add(make_nodes())
    assert core.count() == 6


def test_records_seeded_straight_into_the_core_come_back_as_text_nodes():
    store = PlaceboVectorStore()
    store.core_store.upsert("seeded", "plain text", {"lang": "en"}, vector=Q)
    (got,) = store.query(VectorStoreQuery(query_embedding=Q, similarity_top_k=1)).nodes
    assert (got.node_id, got.get_content(), got.metadata) == (
        "seeded",
        "plain text",
        {"lang": "en"},
    )


def test_embedder_is_shared_with_the_core_store():
    embed = PlaceboEmbedding(dimensions=32)
    store = PlaceboVectorStore(embedder=embed)
    assert store.core_store.embedder is embed.core_embedder
    plain = FakeEmbedder(dimensions=16)
    assert PlaceboVectorStore(embedder=plain).core_store.embedder is plain


def test_profile_without_llamaindex_facts_is_rejected():
    with pytest.raises(
        ValueError,
        match="profile 'weaviate' has no LlamaIndex integration facts; "
        "PlaceboVectorStore supports: default, chroma, qdrant, milvus, pgvector, lancedb, faiss",
    ):
        PlaceboVectorStore(profile="weaviate")
    assert sorted(INTEGRATIONS) == [
        "chroma",
        "default",
        "faiss",
        "lancedb",
        "milvus",
        "pgvector",
        "qdrant",
    ]


def test_stores_text_cannot_be_switched_off_where_the_real_store_stores_text():
    # the default profile's opt-out: test_li_simple_stores_text.py
    with pytest.raises(ValueError, match="stores_text must be True"):
        PlaceboVectorStore(profile="chroma", stores_text=False)


def test_class_name_and_serialisable_fields():
    store = PlaceboVectorStore(profile="chroma", namespace="t1")
    assert PlaceboVectorStore.class_name() == "PlaceboVectorStore"
    dumped = store.to_dict()
    assert dumped["class_name"] == "PlaceboVectorStore"
    assert dumped["store"]["profile"] == "chroma"
    assert dumped["store"]["namespace"] == "t1"


def test_probe_metadata_is_used_by_the_fixture_nodes():
    assert make_nodes()[0].metadata == PROBE_METADATA["a"]


def test_fields_are_frozen_after_construction():
    store = PlaceboVectorStore()
    with pytest.raises(ValidationError, match="frozen"):
        store.profile = "chroma"


@pytest.mark.parametrize("threshold", [None, 0.0, 0.1, 0.5, 0.9, 1.0])
def test_default_mmr_picks_and_scores_what_simple_vector_store_does(threshold):
    # li-simple-mmr-latest-pick: the scores are the MMR objectives of the picks
    from llama_index.core.vector_stores import SimpleVectorStore

    simple = SimpleVectorStore()
    simple.add(make_nodes())
    kwargs = {} if threshold is None else {"mmr_threshold": threshold}
    query = VectorStoreQuery(query_embedding=Q, similarity_top_k=4, mode=VectorStoreQueryMode.MMR)
    ours, theirs = filled().query(query, **kwargs), simple.query(query, **kwargs)
    assert ours.ids == theirs.ids
    assert ours.similarities == pytest.approx(theirs.similarities, abs=1e-6)


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"fetch_k": 0}, ValueError, "fetch_k must be an int >= 1"),
        ({"mmr_prefetch_factor": 0}, ValueError, "mmr_prefetch_factor must be a finite number > 0"),
        ({"mmr_prefetch_k": 2.5}, ValueError, "mmr_prefetch_k must be an int >= 1"),
    ],
)
def test_query_option_values_are_validated(kwargs, error, message):
    # pgvector: a prefetching profile that neither clamps the prefetch nor forwards the options
    with pytest.raises(error, match=message):
        filled("pgvector").query(VectorStoreQuery(query_embedding=Q), **kwargs)


@pytest.mark.parametrize("name", ["mmr_threshold", "mmr_prefetch_k", "mmr_prefetch_factor"])
def test_chroma_refuses_the_mmr_options_outside_mmr_like_collection_query(name):
    # li-chroma-mmr-options-outside-mmr-raise: ChromaVectorStore forwards them to Chroma, which
    # refuses them unvalidated (5 is no valid threshold: the TypeError comes first)
    store = filled("chroma")
    with pytest.raises(
        TypeError, match=rf"^Collection\.query\(\) got an unexpected keyword argument '{name}'$"
    ):
        store.query(VectorStoreQuery(query_embedding=Q), **{name: 5})
    with pytest.raises(TypeError, match=rf"^Collection\.get\(\) got an unexpected .* '{name}'$"):
        store.query(
            VectorStoreQuery(similarity_top_k=2, mode=VectorStoreQueryMode.MMR), **{name: 5}
        )
    # pgvector, which consumes them, takes them in every mode
    assert len(filled("pgvector").query(VectorStoreQuery(query_embedding=Q), **{name: 1}).ids) == 1


def test_chroma_refuses_fetch_k_in_every_mode():
    # li-chroma-fetch-k-raises; in MMR mode after the MMR options are validated
    store = filled("chroma")
    message = r"^Collection\.query\(\) got an unexpected keyword argument 'fetch_k'$"
    with pytest.raises(TypeError, match=message):
        store.query(VectorStoreQuery(query_embedding=Q), fetch_k=3)
    with pytest.raises(TypeError, match=message):
        mmr_letters(store, fetch_k=3)
    with pytest.raises(ValueError, match="mmr_threshold must be"):
        mmr_letters(store, fetch_k=3, mmr_threshold=5)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"mmr_prefetch_k": 0},
        {"mmr_prefetch_k": -5},
        {"mmr_prefetch_k": 3.9},
        {"mmr_prefetch_factor": 0},
        {"mmr_prefetch_factor": -1.5},
    ],
)
def test_chroma_clamps_the_mmr_prefetch_to_top_k(kwargs):
    # li-chroma-mmr-prefetch-k-clamped, li-chroma-mmr-prefetch-factor-clamped: each prefetches
    # top_k, as mmr_prefetch_k=3 does
    store = filled("chroma")
    assert mmr_letters(store, **kwargs) == mmr_letters(store, mmr_prefetch_k=3)
    assert mmr_letters(store, **kwargs)[0] == ["a", "b", "c"]


@pytest.mark.parametrize("method", ["delete", "delete_nodes"])
def test_deletes_reject_unknown_keyword_arguments(method):
    store = filled()
    args = ("None",) if method == "delete" else ([ID["a"]],)
    with pytest.raises(TypeError, match=rf"{method}\(\) got unexpected keyword arguments"):
        getattr(store, method)(*args, bogus=1)
    with pytest.raises(NotImplementedError, match=rf"{method}\(\) argument shard_identifier="):
        getattr(store, method)(*args, shard_identifier=1)
    assert store.core_store.count() == 6


def test_chroma_delete_nodes_reports_an_unsupported_filter_before_missing_ids():
    not_red = MetadataFilters(filters=[MetadataFilter(key="color", value="red")], condition="not")
    with pytest.raises(
        ValueError, match=re.escape(f"Filter condition {FilterCondition.NOT} not supported")
    ):
        filled("chroma").delete_nodes(None, filters=not_red)


def test_facts_are_the_profile_row():
    assert filled("qdrant").facts is INTEGRATIONS["qdrant"]


@pytest.mark.parametrize(
    ("call", "named"),
    [
        (lambda s: s._collection, "_collection"),
        (lambda s: PlaceboVectorStore.from_collection(object()), "from_collection()"),
        (lambda s: PlaceboVectorStore.from_params("kb", host="h", port=1), "from_params()"),
        (lambda s: s.set_query_functions(), "set_query_functions()"),
        (lambda s: s.get_default_sparse_doc_encoder("c"), "get_default_sparse_doc_encoder()"),
        (lambda s: s.get_default_sparse_query_encoder("c"), "get_default_sparse_query_encoder()"),
        (lambda s: s.use_old_sparse_encoder("c"), "use_old_sparse_encoder()"),
        (lambda s: asyncio.run(s.ause_old_sparse_encoder("c")), "ause_old_sparse_encoder()"),
        (lambda s: s.parse_to_query_result([]), "parse_to_query_result()"),
        (lambda s: s.add(make_nodes(), shard_identifier=1), "add() argument shard_identifier="),
        (lambda s: s.get_nodes(None, shard_identifier=1), "get_nodes() argument shard_identifier="),
    ],
)
def test_what_needs_a_real_engine_raises_not_implemented_naming_it(call, named):
    store = PlaceboVectorStore(profile="qdrant")
    with pytest.raises(NotImplementedError, match=re.escape(f"does not provide {named}")):
        call(store)
    assert store.core_store.count() == 0


def test_qdrant_get_nodes_takes_a_limit():
    store = filled("qdrant")
    assert [LETTER[n.node_id] for n in store.get_nodes(limit=2)] == ["a", "b"]
    assert [LETTER[n.node_id] for n in store.get_nodes([ID["c"], ID["a"]], limit=1)] == ["a"]
    with pytest.raises(ValueError, match=r"limit must be an int >= 1 or None, got 0"):
        store.get_nodes(limit=0)


def test_get_returns_the_stored_embedding_as_simple_vector_store_does():
    store = filled()
    # The core keeps float32 vectors, so the floats are float32 values widened
    # (SimpleVectorStore keeps the float64 list: a documented divergence).
    assert store.get(ID["b"]) == [float(x) for x in np.float32(VECTORS["b"])]
    with pytest.raises(KeyError):
        store.get("missing")


@pytest.mark.parametrize("profile", ["default", "milvus", "pgvector", "qdrant"])
@pytest.mark.parametrize("threshold", [1.5, -0.1, "x"])
def test_mmr_threshold_is_unread_outside_mmr(profile, threshold):
    # li-simple-mmr-threshold-unchecked, li-milvus-mmr-threshold-unchecked,
    # li-pgvector-mmr-threshold-checked-in-mmr-only: a plain query ignores it, whatever it is
    store = filled(profile)
    plain = store.query(VectorStoreQuery(query_embedding=Q, similarity_top_k=3))
    got = store.query(
        VectorStoreQuery(query_embedding=Q, similarity_top_k=3), mmr_threshold=threshold
    )
    assert got.ids == plain.ids


@pytest.mark.parametrize("threshold", [1.5, -0.1, "x"])
def test_qdrant_ignores_mmr_threshold_in_mmr_mode_too(threshold):
    # li-qdrant-mmr-threshold-ignored
    assert mmr_letters(filled("qdrant"), mmr_threshold=threshold) == mmr_letters(filled("qdrant"))


def test_pgvector_checks_mmr_threshold_in_mmr_mode():
    # li-pgvector-mmr-threshold-checked-in-mmr-only (the query's threshold before the keyword's)
    store = filled("pgvector")
    query = VectorStoreQuery(query_embedding=Q, similarity_top_k=2, mmr_threshold=1.5)
    assert len(store.query(query).ids) == 2
    with pytest.raises(ValueError, match="mmr_threshold must be"):
        store.query(dataclasses.replace(query, mode=VectorStoreQueryMode.MMR))


@pytest.mark.parametrize("cleared", [False, True], ids=["never-written", "cleared"])
async def test_chroma_clear_of_an_empty_collection_raises_chromas_error(cleared):
    # li-chroma-clear-empty-raises: ChromaVectorStore deletes the ids it lists; Chroma refuses none
    store = PlaceboVectorStore(profile="chroma")
    if cleared:
        store.add(make_nodes())
        store.clear()
    message = r"^Expected IDs to be a non-empty list, got 0 IDs in delete\.$"
    with pytest.raises(ValueError, match=message):
        store.clear()
    with pytest.raises(ValueError, match=message):
        await store.aclear()
    store.add(make_nodes()[:1])
    store.clear()
    assert store.core_store.count() == 0


@pytest.mark.parametrize("profile", ["default", "pgvector"])
def test_clear_of_an_empty_store_is_silent_elsewhere(profile):
    store = PlaceboVectorStore(profile=profile)
    store.clear()
    store.clear()
    assert store.query(VectorStoreQuery(query_embedding=Q, similarity_top_k=2)).ids == []
    assert store.get_nodes(filters=RED) == []
    store.add(make_nodes())  # the store still works: the collection was never dropped
    assert query_letters(store, k=2) == ["a", "b"]
    store.clear()
    assert store.core_store.count() == 0
    assert store.query(VectorStoreQuery(query_embedding=Q, similarity_top_k=2)).ids == []
