"""CannedRetriever: fixed nodes per query, returned as fresh copies."""

from __future__ import annotations

import pytest
from llama_index.core.llms import MockLLM
from llama_index.core.query_engine import RetrieverQueryEngine
from llama_index.core.schema import NodeWithScore, QueryBundle, TextNode

from placeborag_core import Match
from placeborag_llamaindex import CannedRetriever

A = NodeWithScore(node=TextNode(id_="a", text="alpha", metadata={"k": 1}), score=0.9)
B = TextNode(id_="b", text="beta")


def ids(results):
    return [r.node.node_id for r in results]


def test_returns_the_canned_nodes_in_order_with_scores():
    retriever = CannedRetriever({"q": [A, B]})
    results = retriever.retrieve("q")
    assert ids(results) == ["a", "b"]
    assert [r.score for r in results] == [0.9, None]
    assert results[0].node.metadata == {"k": 1}


def test_returns_copies_so_mutations_do_not_leak():
    retriever = CannedRetriever({"q": [A]})
    first = retriever.retrieve("q")
    first[0].score = -1.0
    first[0].node.metadata["k"] = "changed"
    second = retriever.retrieve("q")
    assert second[0].score == 0.9
    assert second[0].node.metadata == {"k": 1}
    assert A.node.metadata == {"k": 1}


def test_records_the_queries():
    retriever = CannedRetriever({"q": [A]}, default=[])
    retriever.retrieve("q")
    retriever.retrieve(QueryBundle("other"))
    assert retriever.queries == ["q", "other"]


def test_unknown_query_raises_unless_a_default_is_given():
    with pytest.raises(KeyError, match="no nodes for query 'typo'; known queries: 'q'"):
        CannedRetriever({"q": [A]}).retrieve("typo")
    assert CannedRetriever({"q": [A]}, default=[]).retrieve("typo") == []
    assert ids(CannedRetriever({}, default=[B]).retrieve("anything")) == ["b"]


def test_accepts_core_matches_and_chunk_like_objects():
    match = Match(
        id="m1", text="from the store", metadata={"lang": "en"}, score=0.5, similarity=0.5
    )
    (result,) = CannedRetriever({"q": [match]}).retrieve("q")
    assert (result.node.node_id, result.node.get_content(), result.node.metadata, result.score) == (
        "m1",
        "from the store",
        {"lang": "en"},
        0.5,
    )


def test_rejects_other_objects_naming_where():
    with pytest.raises(TypeError, match=r"responses\['q'\]\[1\]: expected a NodeWithScore"):
        CannedRetriever({"q": [A, "not a node"]})
    with pytest.raises(TypeError, match="expected a sequence of nodes"):
        CannedRetriever({"q": "abc"})


async def test_async_and_query_engine():
    retriever = CannedRetriever({"q": [A, B]})
    assert ids(await retriever.aretrieve("q")) == ["a", "b"]
    engine = RetrieverQueryEngine.from_args(retriever, llm=MockLLM())
    assert ids(engine.query("q").source_nodes) == ["a", "b"]
