"""``PlaceboVectorStore(stores_text=False)`` under the default profile: ``VectorStoreIndex`` takes
the same paths as over llama-index-core's ``SimpleVectorStore``, whose ``stores_text`` is False
(``docs/integrations/llamaindex.md#li-simple-stores-text``)."""

from __future__ import annotations

import asyncio
import copy
import datetime
import pickle

import pytest
from li_support import Q, make_nodes
from llama_index.core import Document, StorageContext, VectorStoreIndex, load_index_from_storage
from llama_index.core.schema import QueryBundle
from llama_index.core.vector_stores import SimpleVectorStore
from llama_index.core.vector_stores.types import VectorStoreQuery

from placeborag_llamaindex import PlaceboEmbedding, PlaceboVectorStore

EMBED = PlaceboEmbedding(dimensions=16)


def _documents():
    return [
        Document(
            id_="doc-1",
            text="refund policy allows returns",
            metadata={"when": datetime.date(2024, 1, 2), "t": (1, 2)},
        ),
        Document(id_="doc-2", text="shipping times international"),
    ]


def _outcome(call):
    try:
        return "ok", call()
    except Exception as error:  # the point is to compare errors too
        return type(error), str(error)


def _index(store):
    context = StorageContext.from_defaults(vector_store=store)
    return VectorStoreIndex.from_documents(_documents(), storage_context=context, embed_model=EMBED)


def _retrieved(retriever, text):
    return [
        (r.node.ref_doc_id, type(r.node).__name__, r.node.metadata, r.score)
        for r in retriever.retrieve(QueryBundle(text, embedding=EMBED.get_query_embedding(text)))
    ]


def _what_the_index_does(store):
    index = _index(store)
    before_insert = index.as_retriever(similarity_top_k=5)
    seen = {
        "stores_text": store.stores_text,
        "docstore": len(index.docstore.docs),
        "nodes_dict": len(index.index_struct.nodes_dict),
        "ref_doc_info": _outcome(lambda: sorted(index.ref_doc_info)),
        "first": _retrieved(index.as_retriever(similarity_top_k=1), "refund policy"),
        "from_vector_store": _outcome(
            lambda: type(VectorStoreIndex.from_vector_store(store, embed_model=EMBED)).__name__
        ),
    }
    index.insert(Document(id_="doc-3", text="refund for gift cards"))
    seen["old retriever"] = _retrieved(before_insert, "refund")
    seen["new retriever"] = _retrieved(index.as_retriever(similarity_top_k=5), "refund")
    index.delete_ref_doc("doc-1", delete_from_docstore=True)
    seen["after delete"] = _retrieved(index.as_retriever(similarity_top_k=5), "refund")
    alone = VectorStoreIndex(
        [Document(id_="d", text="refund doc")],
        storage_context=StorageContext.from_defaults(vector_store=type(store)(**_kwargs(store))),
        embed_model=EMBED,
    )
    seen["document as node"] = _retrieved(alone.as_retriever(), "refund")
    return seen


def _kwargs(store):
    return {"stores_text": False} if isinstance(store, PlaceboVectorStore) else {}


def test_stores_text_false_takes_simple_vector_store_paths_through_the_index():
    real = _what_the_index_does(SimpleVectorStore())
    ours = _what_the_index_does(PlaceboVectorStore(stores_text=False))
    assert real["from_vector_store"] == (
        ValueError,
        "Cannot initialize from a vector store that does not store text.",
    )
    assert (real["docstore"], real["ref_doc_info"]) == (2, ("ok", ["doc-1", "doc-2"]))
    for key, value in real.items():
        if key in ("first", "old retriever", "new retriever", "after delete", "document as node"):
            assert [row[:3] for row in ours[key]] == [row[:3] for row in value], key
            assert [row[3] for row in ours[key]] == pytest.approx([row[3] for row in value])
        else:
            assert ours[key] == value, key


def test_the_default_profile_stores_text_unless_told_otherwise():
    store = PlaceboVectorStore()
    assert store.stores_text is True
    index = _index(store)
    assert len(index.docstore.docs) == 0
    assert type(VectorStoreIndex.from_vector_store(store, embed_model=EMBED)) is VectorStoreIndex


def test_a_query_returns_ids_without_nodes_as_simple_vector_store():
    store, simple = PlaceboVectorStore(stores_text=False), SimpleVectorStore()
    store.add(make_nodes())
    simple.add(make_nodes())
    query = VectorStoreQuery(query_embedding=Q, similarity_top_k=3)
    ours, theirs = store.query(query), simple.query(query)
    assert ours.nodes is None
    assert theirs.nodes is None
    assert ours.ids == theirs.ids
    assert ours.similarities == pytest.approx(theirs.similarities)
    assert store.facts.stores_text is False
    assert PlaceboVectorStore().facts.stores_text is True  # the shared row is untouched


def _query_outcome(call):
    try:
        result = call()
    except Exception as error:  # the outcome compared with SimpleVectorStore's
        return type(error), str(error)
    return result.nodes, result.ids, result.similarities


@pytest.mark.parametrize("written", [True, False], ids=["nodes", "empty"])
def test_a_query_without_embedding_does_what_simple_vector_store_does(written):
    # SimpleVectorStore scores the nodes against None: TypeError once a node passes
    store, simple = PlaceboVectorStore(stores_text=False), SimpleVectorStore()
    if written:
        store.add(make_nodes())
        simple.add(make_nodes())
    query = VectorStoreQuery(similarity_top_k=2)
    ours = _query_outcome(lambda: store.query(query))
    assert ours == _query_outcome(lambda: simple.query(query))
    assert _query_outcome(lambda: asyncio.run(store.aquery(query))) == ours
    if written:
        assert ours[0] is TypeError
    else:
        assert ours == (None, [], [])
    # the text-storing default lists the nodes, with their text
    listed = PlaceboVectorStore()
    listed.add(make_nodes())
    assert [n.get_content() for n in listed.query(query).nodes] == ["a", "b"]


def test_get_nodes_raises_as_simple_vector_store_does():
    store, simple = PlaceboVectorStore(stores_text=False), SimpleVectorStore()
    store.add(make_nodes())
    simple.add(make_nodes())
    ids = [n.node_id for n in make_nodes()[:1]]
    message = "^SimpleVectorStore does not store nodes directly\\.$"
    with pytest.raises(NotImplementedError, match=message):
        simple.get_nodes(ids)
    with pytest.raises(NotImplementedError, match=message):
        store.get_nodes(ids)
    with pytest.raises(NotImplementedError, match=message):
        asyncio.run(store.aget_nodes(filters=None))
    assert len(PlaceboVectorStore.from_core_store(store.core_store).get_nodes(ids)) == 1


@pytest.mark.parametrize(
    ("profile", "value"), [("chroma", False), ("qdrant", False), ("faiss", True)]
)
def test_other_profiles_keep_their_integrations_stores_text(profile, value):
    with pytest.raises(ValueError, match=f"stores_text must be {not value}"):
        PlaceboVectorStore(profile=profile, stores_text=value)


def _copies(store, tmp_path):
    path = str(tmp_path / "store.json")
    store.persist(path)
    return {
        "pickle": pickle.loads(pickle.dumps(store)),
        "deepcopy": copy.deepcopy(store),
        "to_dict": PlaceboVectorStore.from_dict(store.to_dict()),
        "persist": PlaceboVectorStore.from_persist_path(path),
    }


def test_pickling_to_dict_and_persist_keep_stores_text_false(tmp_path):
    store = PlaceboVectorStore(stores_text=False)
    store.add(make_nodes())
    assert store.to_dict()["store"]["stores_text"] is False
    assert "stores_text" not in PlaceboVectorStore().to_dict()["store"]  # files as before
    query = VectorStoreQuery(query_embedding=Q, similarity_top_k=3)
    for how, copied in _copies(store, tmp_path).items():
        assert copied.stores_text is False, how
        result = copied.query(query)
        assert (result.nodes, result.ids) == (None, store.query(query).ids), how


def test_an_index_over_it_persists_and_reloads(tmp_path):
    context = StorageContext.from_defaults(vector_store=PlaceboVectorStore(stores_text=False))
    documents = [
        Document(id_=f"doc-{i}", text=d.text, metadata={"t": [i]})
        for i, d in enumerate(_documents(), start=1)
    ]  # the docstore's JSON has no dates
    index = VectorStoreIndex.from_documents(documents, storage_context=context, embed_model=EMBED)
    index.storage_context.persist(persist_dir=str(tmp_path))
    store = PlaceboVectorStore.from_persist_dir(str(tmp_path))
    assert store.stores_text is False
    context = StorageContext.from_defaults(persist_dir=str(tmp_path), vector_store=store)
    reloaded = load_index_from_storage(context, embed_model=EMBED)
    assert sorted(reloaded.ref_doc_info) == ["doc-1", "doc-2"]
    found = _retrieved(reloaded.as_retriever(similarity_top_k=1), "refund policy")
    assert found[0][:3] == ("doc-1", "TextNode", {"t": [1]})
