"""as_retriever search types (sync and async), the canned retriever, and an LCEL chain.

The chain `retriever | format_docs | prompt | FakeListChatModel` is asserted on the prompt the
model receives: which chunks reach it, in which order, under pre vs post filtering and under an
injected failure.
"""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.documents import Document
from langchain_core.language_models import FakeListChatModel
from langchain_core.prompts import ChatPromptTemplate
from langchain_core.runnables import RunnableLambda, RunnablePassthrough
from lc_geometry import DOCS, META, TableEmbeddings

from placeborag_core import CannedChunk, RetrievalTimeout, context_states
from placeborag_langchain import CannedRetriever, PlaceboEmbeddings, PlaceboVectorStore


def table_store(**kwargs: Any) -> PlaceboVectorStore:
    store = PlaceboVectorStore(TableEmbeddings(), **kwargs)
    store.add_texts(DOCS, [META[t] for t in DOCS], ids=[f"id_{t}" for t in DOCS])
    return store


def texts(docs: list[Document]) -> list[str]:
    return [d.page_content for d in docs]


# --- as_retriever: the three search types, sync and async ------------------------------------

SEARCHES = [
    ("similarity", {"k": 3}, ["a", "b", "c"]),
    ("similarity", {"k": 6, "filter": {"color": "red"}}, ["a", "c", "f"]),
    ("similarity_score_threshold", {"score_threshold": 0.75, "k": 6}, ["a", "b", "c"]),
    ("mmr", {"k": 3, "fetch_k": 6, "lambda_mult": 0.0}, ["a", "f", "d"]),
    ("mmr", {"k": 2, "fetch_k": 6, "lambda_mult": 1.0, "filter": {"color": "red"}}, ["a", "c"]),
]


@pytest.mark.parametrize(("search_type", "search_kwargs", "expected"), SEARCHES)
def test_as_retriever_sync(
    search_type: str, search_kwargs: dict[str, Any], expected: list[str]
) -> None:
    retriever = table_store().as_retriever(search_type=search_type, search_kwargs=search_kwargs)
    assert texts(retriever.invoke("q")) == expected


@pytest.mark.parametrize(("search_type", "search_kwargs", "expected"), SEARCHES)
async def test_as_retriever_async(
    search_type: str, search_kwargs: dict[str, Any], expected: list[str]
) -> None:
    retriever = table_store().as_retriever(search_type=search_type, search_kwargs=search_kwargs)
    assert texts(await retriever.ainvoke("q")) == expected


def test_invoke_kwargs_override_search_kwargs() -> None:
    retriever = table_store().as_retriever(search_kwargs={"k": 4})
    assert texts(retriever.invoke("q", k=1)) == ["a"]


async def test_async_store_methods_use_async_embeddings() -> None:
    emb = TableEmbeddings()
    store = await PlaceboVectorStore.afrom_texts(DOCS, emb, [META[t] for t in DOCS], ids=DOCS)
    assert texts(await store.asimilarity_search("q", k=2)) == ["a", "b"]
    pairs = await store.asimilarity_search_with_score("q", k=1)
    assert pairs[0][1] == 1.0
    assert texts(await store.amax_marginal_relevance_search("q", 3, 6, 0.0)) == ["a", "f", "d"]
    assert texts(await store.asimilarity_search_by_vector([1.0, 0, 0, 0], k=1)) == ["a"]
    assert await store.adelete(["a"]) is True
    assert [d.id for d in await store.aget_by_ids(["a", "b"])] == ["b"]


def test_from_documents_keeps_document_ids() -> None:
    store = PlaceboVectorStore.from_documents(
        [Document("a", id="A"), Document("b")], TableEmbeddings(), profile="chroma"
    )
    assert store.facts.profile == "chroma"
    assert store.similarity_search("q", k=1)[0].id == "A"


# --- the canned retriever ---------------------------------------------------------------------

CANNED = [Document(f"chunk {i}", id=f"c{i}", metadata={"i": i}) for i in range(4)]


def test_canned_retriever_honours_k_and_returns_copies() -> None:
    retriever = CannedRetriever(CANNED, k=2)
    first = retriever.invoke("anything")
    assert first == CANNED[:2]
    assert first[0] is not CANNED[0]
    first[0].metadata["i"] = 99
    assert retriever.invoke("anything")[0].metadata == {"i": 0}
    assert len(retriever.invoke("anything", k=3)) == 3


def test_canned_retriever_per_query_responses_and_unknown_queries() -> None:
    retriever = CannedRetriever(responses={"refunds": CANNED[:1], "nothing": []})
    assert retriever.invoke("refunds") == CANNED[:1]
    assert retriever.invoke("nothing") == []
    with pytest.raises(KeyError, match="no canned response for query 'refundz'"):
        retriever.invoke("refundz")


def test_canned_retriever_takes_chunks_and_context_states() -> None:
    chunk = CannedChunk(
        id="k1", text="Refunds take 5 days.", score=0.9, metadata={"doc": "refunds"}
    )
    (doc,) = CannedRetriever([chunk], score_key="score").invoke("q")
    assert doc == Document(
        "Refunds take 5 days.", id="k1", metadata={"doc": "refunds", "score": 0.9}
    )
    for name, state in context_states().items():
        served = CannedRetriever.from_context_state(state).invoke(state.query)
        assert [d.id for d in served] == [c.id for c in state.chunks], name


def test_canned_retriever_validates_its_input() -> None:
    with pytest.raises(ValueError, match="give documents"):
        CannedRetriever()
    with pytest.raises(ValueError, match="non-negative"):
        CannedRetriever(CANNED, k=-1)
    with pytest.raises(TypeError, match="Documents or chunks"):
        CannedRetriever([42])


# --- an LCEL chain: what reaches the prompt ---------------------------------------------------

PROMPT = ChatPromptTemplate.from_messages(
    [("system", "Answer from the context.\n{context}"), ("human", "{question}")]
)


def format_docs(docs: list[Document]) -> str:
    return "\n".join(f"[{n}] ({d.id}) {d.page_content}" for n, d in enumerate(docs, 1))


class PromptSpy:
    """Records the prompt messages each chain run hands to the model."""

    def __init__(self) -> None:
        self.prompts: list[str] = []

    def __call__(self, prompt_value: Any) -> Any:
        self.prompts.append(prompt_value.to_messages()[0].content)
        return prompt_value


def chain_for(retriever: Any, spy: PromptSpy) -> Any:
    model = FakeListChatModel(responses=["ok"] * 5)
    return (
        {"context": retriever | format_docs, "question": RunnablePassthrough()}
        | PROMPT
        | RunnableLambda(spy)
        | model
    )


KNOWLEDGE_BASE = [
    ("en-1", "our refund policy allows returns within 30 days", "en"),
    ("en-2", "refund policy exceptions for sale items", "en"),
    ("en-3", "how to request a refund under the refund policy", "en"),
    ("en-4", "refund policy for digital purchases", "en"),
    ("hu-1", "pénzvisszatérítési szabályzat harminc napon belül", "hu"),
    ("hu-2", "hogyan kérek vissza pénzt vásárlás után refund", "hu"),
]


def kb_store(filter_mode: str) -> PlaceboVectorStore:
    store = PlaceboVectorStore(PlaceboEmbeddings(dimensions=128), filter_mode=filter_mode)  # type: ignore[arg-type]
    store.add_texts(
        [t for _, t, _ in KNOWLEDGE_BASE],
        [{"lang": lang} for _, _, lang in KNOWLEDGE_BASE],
        ids=[i for i, _, _ in KNOWLEDGE_BASE],
    )
    return store


def context_ids(prompt: str) -> list[str]:
    return [
        line.split("(")[1].split(")")[0] for line in prompt.splitlines() if line.startswith("[")
    ]


def test_chain_prompt_under_pre_vs_post_filtering() -> None:
    spies = {}
    for mode in ("pre", "post"):
        spy = spies[mode] = PromptSpy()
        retriever = kb_store(mode).as_retriever(search_kwargs={"k": 5, "filter": {"lang": "hu"}})
        assert chain_for(retriever, spy).invoke("refund policy").content == "ok"
    pre, post = context_ids(spies["pre"].prompts[0]), context_ids(spies["post"].prompts[0])
    assert sorted(pre) == ["hu-1", "hu-2"]
    assert len(post) < len(pre)
    assert set(post) <= set(pre)
    unfiltered = kb_store("pre").similarity_search("refund policy", k=6)
    rank = [d.id for d in unfiltered]
    assert pre == sorted(pre, key=rank.index)  # chunks reach the prompt in rank order


def test_chain_with_canned_chunks_keeps_order_and_labels() -> None:
    spy = PromptSpy()
    chain_for(CannedRetriever(CANNED, k=3), spy).invoke("q")
    assert spy.prompts[0].splitlines()[1:] == [
        "[1] (c0) chunk 0",
        "[2] (c1) chunk 1",
        "[3] (c2) chunk 2",
    ]


def test_chain_under_injected_failures() -> None:
    store = kb_store("pre")
    spy = PromptSpy()
    chain = chain_for(store.as_retriever(search_kwargs={"k": 2}), spy)
    store.fail_next_query(times=1)
    with pytest.raises(RetrievalTimeout):
        chain.invoke("refund policy")
    assert spy.prompts == []  # the model never saw a prompt
    # A fallback retriever takes over while the store fails.
    store.fail_next_query(RetrievalTimeout("slow"), times=1)
    fallback = store.as_retriever(search_kwargs={"k": 2}).with_fallbacks(
        [CannedRetriever([Document("Sorry, search is down.", id="fallback")])],
        exceptions_to_handle=(RetrievalTimeout,),
    )
    chain_for(fallback, spy).invoke("refund policy")
    assert context_ids(spy.prompts[0]) == ["fallback"]
    chain_for(fallback, spy).invoke("refund policy")
    assert len(context_ids(spy.prompts[1])) == 2  # recovered: real results again


async def test_chain_async_path() -> None:
    spy = PromptSpy()
    retriever = kb_store("pre").as_retriever(search_kwargs={"k": 5, "filter": {"lang": "hu"}})
    await chain_for(retriever, spy).ainvoke("refund policy")
    assert sorted(context_ids(spy.prompts[0])) == ["hu-1", "hu-2"]


def test_score_key_applies_to_chunks_only() -> None:
    with pytest.raises(TypeError, match="score_key applies to chunks"):
        CannedRetriever(CANNED, score_key="score")
