"""End to end through LlamaIndex's own machinery: indexes, retrievers, ingestion, query engines.

Texts are embedded by PlaceboEmbedding (through ``MetadataMode.EMBED``), so the expected orders
below were computed from the embedder's cosine similarities, and are asserted by node id.
"""

from __future__ import annotations

import pytest
from llama_index.core import Document, Settings, StorageContext, VectorStoreIndex
from llama_index.core.ingestion import DocstoreStrategy, IngestionPipeline
from llama_index.core.llms import MockLLM
from llama_index.core.query_engine import RetrieverQueryEngine
from llama_index.core.schema import MetadataMode, TextNode
from llama_index.core.storage.docstore import SimpleDocumentStore
from llama_index.core.vector_stores.types import FilterOperator, MetadataFilter, MetadataFilters

from placeborag_core import cosine_similarity
from placeborag_llamaindex import PlaceboEmbedding, PlaceboVectorStore

TEXTS = {
    "z-refund": "our refund policy allows returns within thirty days",
    "refund-sale": "refund policy exceptions for sale items",
    "shipping": "shipping times for international delivery",
    "warranty": "the warranty covers manufacturing defects for two years",
    "returns": "how to print a returns label for a refund",
}
TOPIC = {
    "z-refund": "money",
    "refund-sale": "money",
    "shipping": "logistics",
    "warranty": "legal",
    "returns": "money",
}
QUERY = "refund policy"


def nodes() -> list[TextNode]:
    return [
        TextNode(id_=key, text=text, metadata={"topic": TOPIC[key]}) for key, text in TEXTS.items()
    ]


def expected_order(ids=None, embed=None) -> list[str]:
    """Rank node ids by the cosine the embedder gives the texts the index really embeds."""
    embedder = (embed or PlaceboEmbedding()).core_embedder
    query = embedder.embed(QUERY)
    pool = [n for n in nodes() if ids is None or n.node_id in ids]
    scored = [
        (cosine_similarity(query, embedder.embed(n.get_content(MetadataMode.EMBED))), n.node_id)
        for n in pool
    ]
    return [node_id for _, node_id in sorted(scored, key=lambda s: -s[0])]


def retrieved(index, k=3, **kwargs) -> list[str]:
    return [
        r.node.node_id for r in index.as_retriever(similarity_top_k=k, **kwargs).retrieve(QUERY)
    ]


@pytest.fixture
def store() -> PlaceboVectorStore:
    return PlaceboVectorStore()


@pytest.fixture
def index(store) -> VectorStoreIndex:
    context = StorageContext.from_defaults(vector_store=store)
    return VectorStoreIndex(nodes(), storage_context=context, embed_model=PlaceboEmbedding())


def test_expected_order_is_not_trivial():
    order = expected_order()
    assert order[0] in {"z-refund", "refund-sale"}
    assert order != sorted(order)


def test_index_embeds_the_metadata_header():
    node = nodes()[0]
    assert node.get_content(MetadataMode.EMBED).startswith("topic: money\n\n")
    stored = PlaceboVectorStore()
    VectorStoreIndex(
        [node],
        storage_context=StorageContext.from_defaults(vector_store=stored),
        embed_model=PlaceboEmbedding(),
    )
    vector = stored.core_store.get("z-refund").vector
    assert list(vector) == pytest.approx(
        PlaceboEmbedding().get_text_embedding(node.get_content(MetadataMode.EMBED)), abs=1e-7
    )


def test_sync_build_and_retrieve_by_id_and_order(index):
    assert retrieved(index, k=3) == expected_order()[:3]
    assert retrieved(index, k=10) == expected_order()


def test_scores_are_the_default_profile_cosines(index):
    embed = PlaceboEmbedding()
    results = index.as_retriever(similarity_top_k=2).retrieve(QUERY)
    query = embed.get_query_embedding(QUERY)
    for result in results:
        text = result.node.get_content(MetadataMode.EMBED)
        assert result.score == pytest.approx(
            cosine_similarity(query, embed.get_text_embedding(text)), abs=1e-6
        )


async def test_async_build_and_retrieve():
    store = PlaceboVectorStore()
    context = StorageContext.from_defaults(vector_store=store)
    index = VectorStoreIndex(
        nodes(), storage_context=context, embed_model=PlaceboEmbedding(), use_async=True
    )
    results = await index.as_retriever(similarity_top_k=3).aretrieve(QUERY)
    assert [r.node.node_id for r in results] == expected_order()[:3]
    await index.ainsert_nodes(
        [TextNode(id_="late", text="refund policy", metadata={"topic": "money"})]
    )
    results = await index.as_retriever(similarity_top_k=1).aretrieve(QUERY)
    assert [r.node.node_id for r in results] == ["late"]


def test_retriever_with_filters(index):
    money = MetadataFilters(filters=[MetadataFilter(key="topic", value="money")])
    assert retrieved(index, k=10, filters=money) == [
        i for i in expected_order() if TOPIC[i] == "money"
    ]
    not_money = MetadataFilters(
        filters=[MetadataFilter(key="topic", value="money", operator=FilterOperator.NE)]
    )
    assert retrieved(index, k=10, filters=not_money) == [
        i for i in expected_order() if TOPIC[i] != "money"
    ]


def test_settings_embed_model_is_used_when_no_embed_model_is_given(store):
    Settings.embed_model = PlaceboEmbedding(model_name="other-space")
    index = VectorStoreIndex(
        nodes(), storage_context=StorageContext.from_defaults(vector_store=store)
    )
    assert retrieved(index, k=5) == expected_order(embed=PlaceboEmbedding(model_name="other-space"))


def test_insert_nodes_and_delete_ref_doc():
    store = PlaceboVectorStore()
    context = StorageContext.from_defaults(vector_store=store)
    index = VectorStoreIndex([], storage_context=context, embed_model=PlaceboEmbedding())
    doc_a = Document(text=TEXTS["z-refund"], id_="doc-a")
    doc_b = Document(text=TEXTS["shipping"], id_="doc-b")
    index.insert(doc_a)
    index.insert(doc_b)
    index.insert_nodes([TextNode(id_="extra", text=TEXTS["returns"])])
    assert set(store.core_store.ids()) >= {"extra"}
    assert len(store.core_store.ids()) == 3
    index.delete_ref_doc("doc-a")
    remaining = retrieved(index, k=10)
    assert "extra" in remaining
    assert len(remaining) == 2
    assert all(
        store.core_store.get(i).metadata["ref_doc_id"] != "doc-a" for i in store.core_store.ids()
    )


def test_from_vector_store_reads_what_another_index_wrote(index, store):
    again = VectorStoreIndex.from_vector_store(store, embed_model=PlaceboEmbedding())
    assert retrieved(again, k=3) == expected_order()[:3]


def test_ingestion_pipeline_with_docstore_upserts():
    store = PlaceboVectorStore()
    docstore = SimpleDocumentStore()
    pipeline = IngestionPipeline(
        transformations=[PlaceboEmbedding()],
        vector_store=store,
        docstore=docstore,
        docstore_strategy=DocstoreStrategy.UPSERTS,
    )
    docs = [
        Document(text=TEXTS["z-refund"], id_="doc-1"),
        Document(text=TEXTS["shipping"], id_="doc-2"),
    ]
    pipeline.run(documents=docs)
    assert store.core_store.count() == 2
    index = VectorStoreIndex.from_vector_store(store, embed_model=PlaceboEmbedding())
    assert list(retrieved(index, k=1)) == ["doc-1"]
    # doc-1 changes: the pipeline deletes its old node (by ref doc id) and adds the new one
    changed = [Document(text="nothing about that topic any more", id_="doc-1"), docs[1]]
    pipeline.run(documents=changed)
    assert store.core_store.count() == 2
    texts = sorted(n.get_content() for n in store.get_nodes())
    assert texts == sorted(["nothing about that topic any more", TEXTS["shipping"]])
    # unchanged documents are skipped: running again writes nothing new
    pipeline.run(documents=changed)
    assert store.core_store.count() == 2


def test_retriever_query_engine_with_mock_llm(index):
    retriever = index.as_retriever(similarity_top_k=2)
    engine = RetrieverQueryEngine.from_args(retriever, llm=MockLLM())
    response = engine.query(QUERY)
    assert [n.node.node_id for n in response.source_nodes] == expected_order()[:2]


def test_vector_store_kwargs_are_routed_through_the_retriever(index):
    only_logistics = {"vector_store_kwargs": {"where": {"topic": {"$eq": "logistics"}}}}
    assert retrieved(index, k=3, **only_logistics) == ["shipping"]
    with pytest.raises(TypeError, match="unexpected keyword arguments \\['bogus'\\]"):
        retrieved(index, vector_store_kwargs={"bogus": 1})


def test_mmr_mode_through_the_retriever(index):
    relevance_only = retrieved(
        index, k=3, vector_store_query_mode="mmr", vector_store_kwargs={"mmr_threshold": 1.0}
    )
    assert relevance_only == expected_order()[:3]


def test_faults_reach_the_retriever(index, store):
    store.fail_next_query(ConnectionError("vector db unreachable"))
    with pytest.raises(ConnectionError, match="unreachable"):
        retrieved(index)
    assert retrieved(index, k=1) == expected_order()[:1]
