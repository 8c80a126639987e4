"""The worked example, LlamaIndex flavour: the same pipeline over a ``VectorStoreIndex``.

Production code would build the index over ``ChromaVectorStore`` or ``QdrantVectorStore`` with a
real embedding model; the tests use ``placeborag_llamaindex.PlaceboVectorStore(profile=...)`` and
``PlaceboEmbedding``. LlamaIndex hands every retriever a ``NodeWithScore`` whose score is a
similarity (its Chroma integration converts distances), so unlike LangChain the direction does not
depend on the backend -- a test pins that too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from llama_index.core import VectorStoreIndex
from llama_index.core.base.base_retriever import BaseRetriever
from llama_index.core.schema import NodeWithScore
from llama_index.core.vector_stores import MetadataFilter, MetadataFilters
from rag_core import CHUNKER, KNOWLEDGE_BASE
from rag_prompt import FakeLLM, Model, RagPipeline, RetrievedChunk, Retriever

from placeborag_core import Document, SeedReport, seed_store
from placeborag_llamaindex import PlaceboEmbedding, PlaceboVectorStore

__all__ = ["build_pipeline", "from_node", "index", "index_retriever", "make_store", "retriever_of"]


def make_store(
    profile: str = "default", *, model_name: str = "placeborag-hash-v1", **options: Any
) -> PlaceboVectorStore:
    """A LlamaIndex vector store double for ``profile``, seeded with the knowledge base."""
    embedding = PlaceboEmbedding(model_name=model_name)
    store = PlaceboVectorStore(embedder=embedding, profile=profile, **options)
    index(store)
    return store


def index(
    store: PlaceboVectorStore, documents: Sequence[Document] = KNOWLEDGE_BASE, namespace: str = ""
) -> SeedReport:
    """Idempotently seed ``store`` (chunk ids derived from content; stale chunks deleted)."""
    return seed_store(store, documents, namespace=namespace, chunker=CHUNKER)


def from_node(item: NodeWithScore) -> RetrievedChunk:
    """A ``NodeWithScore`` as prompt assembly sees it."""
    node = item.node
    score = 0.0 if item.score is None else float(item.score)
    return RetrievedChunk(node.node_id, node.get_content(), score, dict(node.metadata))


def retriever_of(retriever: BaseRetriever) -> Retriever:
    """Adapt any LlamaIndex retriever (a fixed top-k is set on the retriever itself)."""

    def retrieve(question: str, k: int) -> list[RetrievedChunk]:
        return [from_node(item) for item in retriever.retrieve(question)[:k]]

    return retrieve


def index_retriever(store: PlaceboVectorStore, *, lang: str | None = None, k: int = 4) -> Retriever:
    """Retrieve via ``VectorStoreIndex.from_vector_store(store)``, optionally filtered by lang."""
    embedding = PlaceboEmbedding(model_name=store.core_store.embedder.model_name)
    vector_index = VectorStoreIndex.from_vector_store(store, embed_model=embedding)
    filters = None
    if lang is not None:
        filters = MetadataFilters(filters=[MetadataFilter(key="lang", value=lang)])
    return retriever_of(vector_index.as_retriever(similarity_top_k=k, filters=filters))


def build_pipeline(
    store: PlaceboVectorStore | None = None,
    *,
    llm: Model | None = None,
    lang: str | None = None,
    k: int = 4,
    budget_tokens: int = 120,
    score_floor: float | None = None,
) -> RagPipeline:
    """A pipeline over :func:`index_retriever` (default store: a seeded default profile)."""
    store = store if store is not None else make_store()
    return RagPipeline(
        retrieve=index_retriever(store, lang=lang, k=k),
        llm=llm if llm is not None else FakeLLM(),
        k=k,
        budget_tokens=budget_tokens,
        score_floor=score_floor,
        higher_is_better=True,  # NodeWithScore.score is a similarity for every integration
    )
