"""Malformed input raises a documented error naming the parameter, before any state changes;
nothing is silently coerced or dropped (issue: bad input, LlamaIndex part)."""

from __future__ import annotations

import asyncio

import pytest
from li_support import ID, Q, make_nodes
from llama_index.core.callbacks import CallbackManager
from llama_index.core.schema import TextNode
from llama_index.core.vector_stores.types import MetadataFilter, MetadataFilters, VectorStoreQuery
from pydantic import ValidationError

from placeborag_core import FilterError
from placeborag_llamaindex import CannedRetriever, PlaceboEmbedding, PlaceboVectorStore


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"profil": "chroma"}, TypeError, r"'profil' \(did you mean 'profile'\?\); accepted: "),
        ({"recall": "0.5"}, ValidationError, r"recall\n  Input should be a valid number"),
        ({"recall": True}, ValidationError, r"recall\n  Input should be a valid number"),
        ({"recall": 1.5}, ValueError, r"recall must be in \[0, 1\]"),
        ({"orphaned_ids": "yes"}, ValidationError, r"orphaned_ids\n  Input should be a valid b"),
        ({"orphaned_ids": 1}, ValidationError, r"orphaned_ids\n  Input should be a valid b"),
        ({"profile": 3}, ValidationError, r"profile\n  Input should be a valid string"),
        ({"profile": "pinecone"}, ValueError, r"PlaceboVectorStore supports: default, chroma"),
        ({"metric": "dot"}, ValueError, r"has no metric 'dot'; allowed"),
        ({"filter_mode": "both"}, ValidationError, r"filter_mode\n  Input should be 'pre' or"),
        ({"namespace": 3}, ValidationError, r"namespace\n  Input should be a valid string"),
        ({"namespace": "\ud800"}, ValueError, r"namespace is not valid Unicode"),
        ({"profile": "chroma", "stores_text": False}, ValueError, r"stores_text must be True"),
        ({"stores_text": "no"}, ValidationError, r"stores_text\n  Input should be a valid b"),
        ({"is_embedding_query": "no"}, ValidationError, r"is_embedding_query\n  Input should"),
        ({"embedder": "model"}, TypeError, r"embedder must be a PlaceboEmbedding"),
        ({"host": "localhost"}, NotImplementedError, r"argument host=: it is ChromaVectorStore"),
        ({"enable_hybrid": True}, NotImplementedError, r"argument enable_hybrid=: it is Qdrant"),
        ({"collection_name": "kb"}, NotImplementedError, r"namespace= selects a partition"),
    ],
)
def test_store_constructor_rejects_malformed_arguments(kwargs, error, message):
    with pytest.raises(error, match=message):
        PlaceboVectorStore(**kwargs)


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"dimension": 64}, TypeError, r"'dimension' \(did you mean 'dimensions'\?\)"),
        ({"dimensions": "64"}, ValidationError, r"dimensions\n  Input should be a valid integer"),
        ({"dimensions": 64.0}, ValidationError, r"dimensions\n  Input should be a valid integer"),
        ({"dimensions": 3}, ValueError, r"dimensions must be from 8 to 65536, got 3"),
        ({"model_name": 5}, ValidationError, r"model_name\n  Input should be a valid string"),
        ({"model_name": "\ud800"}, ValueError, r"model_name is not valid Unicode"),
        ({"cluster_spread": "0.2"}, ValidationError, r"cluster_spread\n  Input should be a"),
        ({"cluster_match": "fuzzy"}, ValidationError, r"cluster_match\n  Input should be 'ex"),
        ({"clusters": {"a": "xyz"}}, ValidationError, r"clusters.a\n  Input should be a valid"),
        ({"embed_batch_size": "8"}, ValidationError, r"embed_batch_size\n  Input should be a"),
        ({"embed_batch_size": 0}, ValidationError, r"embed_batch_size\n  Input should be gr"),
        ({"num_workers": "2"}, ValidationError, r"num_workers\n  Input should be a valid"),
    ],
)
def test_embedding_constructor_rejects_malformed_arguments(kwargs, error, message):
    with pytest.raises(error, match=message):
        PlaceboEmbedding(**kwargs)


def _store(profile: str = "default") -> PlaceboVectorStore:
    store = PlaceboVectorStore(profile=profile)
    store.add(make_nodes())
    return store


def _node(node_id: str, **kwargs) -> TextNode:
    return TextNode(id_=node_id, text=kwargs.get("text", "t"), embedding=kwargs.get("emb", Q),
                    metadata=kwargs.get("meta", {}))  # fmt: skip


@pytest.mark.parametrize(
    ("nodes", "error", "message"),
    [
        ("abc", TypeError, r"nodes must be a list of LlamaIndex nodes \(BaseNode\), got str"),
        (None, TypeError, r"nodes must be a list"),
        ([{"id": "x"}], TypeError, r"nodes\[0\] must be a LlamaIndex node"),
        ([_node("ok"), _node("\ud800")], ValueError, r"id is not valid Unicode"),
        ([_node("ok"), _node("x", text="\ud800")], ValueError, r"text is not valid Unicode"),
        ([_node("ok"), _node("x", meta={"\ud800": 1})], ValueError, r"metadata key of node 'x'"),
        ([_node("ok"), _node("x", meta={"k": "\ud800"})], ValueError, r"metadata\['k'\] is not"),
        ([_node("ok"), _node("x", emb=[1.0, 0.0])], ValueError, r"dimension"),
        ([_node("ok"), _node("x", emb=[float("nan")] * 4)], ValueError, r"NaN or infinite"),
        ([_node("ok"), TextNode(id_="x", text="t")], ValueError, r"embedding not set"),
    ],
)
@pytest.mark.parametrize("run", ["add", "async_add"])
def test_add_is_all_or_nothing_and_names_what_is_wrong(nodes, error, message, run):
    store = _store()
    before = store.to_dict()
    add = store.add if run == "add" else lambda n: asyncio.run(store.async_add(n))
    with pytest.raises(error, match=message):
        add(nodes)
    assert store.to_dict() == before


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda s: s.delete(5), TypeError, r"ref_doc_id must be a str, got int"),
        (lambda s: s.delete_nodes(ID["a"]), TypeError, r"node_ids must be a list of node id"),
        (lambda s: s.delete_nodes([ID["a"]], filters={"color": "red"}), TypeError,
         r"filters must be a MetadataFilters or None, got dict"),
        (lambda s: s.delete_nodes([ID["a"], "\ud800"]), ValueError,
         r"node_ids\[1\] is not valid Unicode"),
        (lambda s: asyncio.run(s.adelete_nodes(ID["a"])), TypeError, r"node_ids must be a list"),
        (lambda s: asyncio.run(s.adelete(None)), TypeError, r"ref_doc_id must be a str"),
        (lambda s: s.get_nodes(ID["a"]), TypeError, r"node_ids must be a list of node id"),
        (lambda s: s.get_nodes([ID["a"]], limit=1), TypeError,
         r"get_nodes\(\) got unexpected keyword arguments \['limit'\]"),
        (lambda s: s.query(None), TypeError, r"query must be a VectorStoreQuery, got NoneType"),
        (lambda s: s.query(VectorStoreQuery(query_embedding=Q, similarity_top_k="3")), TypeError,
         r"query.similarity_top_k must be an int >= 1, got '3'"),
        (lambda s: s.query(VectorStoreQuery(query_embedding="abcd")), TypeError,
         r"query.query_embedding must be a list of floats or None, got str"),
        (lambda s: s.query(VectorStoreQuery(query_embedding=Q, node_ids=ID["a"])), TypeError,
         r"query.node_ids must be a list of node id strings or None, got str"),
        (lambda s: s.query(VectorStoreQuery(query_embedding=Q, doc_ids="d")), TypeError,
         r"query.doc_ids must be a list"),
        (lambda s: s.query(VectorStoreQuery(query_embedding=Q, filters=[])), TypeError,
         r"query.filters must be a MetadataFilters or None, got list"),
        (lambda s: s.get("\ud800"), ValueError, r"text_id is not valid Unicode"),
        (lambda s: s.get(5), TypeError, r"text_id must be a str"),
        (lambda s: s.persist(5), TypeError, r"persist_path must be a non-empty str"),
        (lambda s: s.fail_next_query("boom"), TypeError, r"error must be an exception"),
    ],
)  # fmt: skip
def test_methods_reject_malformed_arguments_without_changing_anything(call, error, message):
    store = _store()
    before = store.to_dict()
    with pytest.raises(error, match=message):
        call(store)
    assert store.to_dict() == before
    assert len(store.query(VectorStoreQuery(query_embedding=Q, similarity_top_k=6)).ids) == 6


def _nested(levels: int) -> MetadataFilters:
    filters = MetadataFilters(filters=[MetadataFilter(key="color", value="red")])
    for _ in range(levels):
        filters = MetadataFilters(filters=[filters])
    return filters


@pytest.mark.parametrize("profile", ["default", "chroma", "qdrant"])
@pytest.mark.parametrize("levels", [150, 1000])
def test_deeply_nested_metadata_filters_raise_filter_error_not_recursion_error(profile, levels):
    store = _store(profile)
    filters = _nested(levels)
    with pytest.raises(FilterError, match=r"nested more than 100 levels deep"):
        store.query(VectorStoreQuery(query_embedding=Q, filters=filters))
    with pytest.raises(FilterError, match=r"nested more than 100 levels deep"):
        store.get_nodes(None, filters=filters)
    with pytest.raises(FilterError, match=r"nested more than 100 levels deep"):
        store.delete_nodes([ID["a"]], filters=filters)
    assert store.core_store.count() == 6


def test_metadata_filters_that_contain_themselves_raise_filter_error():
    filters = MetadataFilters(filters=[MetadataFilter(key="color", value="red")])
    filters.filters.append(filters)
    filters.filters.append(filters)  # two paths: the walk must not explode
    with pytest.raises(FilterError, match=r"containing itself"):
        _store().query(VectorStoreQuery(query_embedding=Q, filters=filters))


def test_shallow_nesting_still_works():
    assert _store().query(VectorStoreQuery(query_embedding=Q, filters=_nested(20))).ids


@pytest.mark.parametrize(
    ("leaf", "message"),
    [
        (MetadataFilter(key="\ud800", value="x"), r"filters\[0\].key is not valid Unicode"),
        (MetadataFilter(key="k", value="\ud800"), r"filters\[0\].value is not valid Unicode"),
        (MetadataFilter(key="k", value=["ok", "\ud800"], operator="in"), r"value is not valid"),
    ],
)
def test_lone_surrogates_in_filters_raise_value_error(leaf, message):
    with pytest.raises(ValueError, match=message):
        _store().query(VectorStoreQuery(query_embedding=Q, filters=MetadataFilters(filters=[leaf])))


def test_a_foreign_item_slipped_into_filters_raises_type_error():
    filters = MetadataFilters(filters=[MetadataFilter(key="color", value="red")])
    filters.filters.append({"color": "red"})  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"filters.filters\[1\] must be a MetadataFilter"):
        _store().get_nodes(None, filters=filters)


def test_embedding_methods_reject_what_is_not_text():
    embed = PlaceboEmbedding(dimensions=8)
    with pytest.raises(TypeError, match=r"text must be a str, got int"):
        embed.get_text_embedding(5)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"texts\[0\] must be a str"):
        embed.get_text_embedding_batch([5])  # type: ignore[list-item]
    with pytest.raises(ValueError, match=r"text is not valid Unicode"):
        embed.get_query_embedding("\ud800")


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"responses": {"q": "abc"}}, TypeError, r"responses\['q'\]: expected a sequence"),
        ({"responses": {"\ud800": []}}, ValueError, r"is not valid Unicode"),
        ({"responses": {}, "default": "abc"}, TypeError, r"default: expected a sequence"),
        ({"responses": {}, "callback_manager": "x"}, TypeError, r"callback_manager must be a"),
    ],
)
def test_canned_retriever_rejects_malformed_arguments(kwargs, error, message):
    with pytest.raises(error, match=message):
        CannedRetriever(**kwargs)


def test_canned_retriever_accepts_a_callback_manager():
    manager = CallbackManager([])
    assert CannedRetriever({}, default=[], callback_manager=manager).callback_manager is manager


def test_qdrant_add_with_one_bad_id_writes_nothing():
    store = PlaceboVectorStore(profile="qdrant")
    with pytest.raises(ValueError, match=r"Point id bad is not a valid UUID"):
        store.add([_node(ID["a"]), _node("bad")])
    assert store.core_store.count() == 0


def test_chroma_add_with_one_nested_metadata_writes_nothing():
    store = PlaceboVectorStore(profile="chroma")
    with pytest.raises(ValueError, match=r"Value for metadata d must be one of"):
        store.add([_node("x1"), _node("x2", meta={"d": {"a": 1}})])
    assert store.core_store.count() == 0
