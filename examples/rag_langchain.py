"""The worked example, LangChain flavour: the same pipeline over LangChain's interfaces.

Production code would hold a ``Chroma`` or ``FAISS`` vector store and a real ``Embeddings``; the
tests swap in ``placeborag_langchain.PlaceboVectorStore(profile="chroma" | "faiss")``, which
reports what the real integration reports (Chroma: a distance; FAISS: a squared L2 distance, and
filters applied after ``fetch_k`` candidates). Seeding goes through the adapter's core store, so
chunk ids, idempotency and drift checks are the same as in the core flavour.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from langchain_core.documents import Document as LangChainDocument
from langchain_core.retrievers import BaseRetriever
from rag_core import CHUNKER, KNOWLEDGE_BASE
from rag_prompt import FakeLLM, Model, RagPipeline, RetrievedChunk, Retriever

from placeborag_core import Document, SeedReport, seed_store
from placeborag_langchain import PlaceboEmbeddings, PlaceboVectorStore

__all__ = [
    "build_pipeline",
    "from_document",
    "index",
    "make_store",
    "retriever_of",
    "vectorstore_retriever",
]


def make_store(
    profile: str = "chroma", *, model_name: str = "placeborag-hash-v1", **options: Any
) -> PlaceboVectorStore:
    """A LangChain vector store double for ``profile``, seeded with the knowledge base."""
    store = PlaceboVectorStore(PlaceboEmbeddings(model_name=model_name), profile=profile, **options)
    index(store)
    return store


def index(
    store: PlaceboVectorStore,
    documents: tuple[Document, ...] | list[Document] = KNOWLEDGE_BASE,
    namespace: str = "",
) -> SeedReport:
    """Idempotently seed ``store`` (chunk ids derived from content; stale chunks deleted)."""
    return seed_store(store, documents, namespace=namespace, chunker=CHUNKER)


def from_document(doc: LangChainDocument, score: float | None = None) -> RetrievedChunk:
    """A LangChain ``Document`` as prompt assembly sees it.

    The score comes from ``similarity_search_with_score`` or, for canned retrievers, from
    ``metadata["score"]``; the id from ``Document.id`` (Qdrant's integration puts it in ``_id``).
    """
    metadata = dict(doc.metadata)
    value = metadata.pop("score", None) if score is None else score
    chunk_id = doc.id or str(metadata.get("_id", ""))
    return RetrievedChunk(chunk_id, doc.page_content, float(value or 0.0), metadata)


def vectorstore_retriever(
    store: PlaceboVectorStore, *, filter: Mapping[str, Any] | None = None, **search: Any
) -> Retriever:
    """Retrieve through ``similarity_search_with_score`` (scores in the integration's units)."""

    def retrieve(question: str, k: int) -> list[RetrievedChunk]:
        options = dict(search)
        if filter is not None:
            options["filter"] = dict(filter)
        pairs = store.similarity_search_with_score(question, k=k, **options)
        return [from_document(doc, float(score)) for doc, score in pairs]

    return retrieve


def retriever_of(retriever: BaseRetriever) -> Retriever:
    """Adapt any LangChain retriever whose documents carry ``metadata["score"]``."""

    def retrieve(question: str, k: int) -> list[RetrievedChunk]:
        return [from_document(doc) for doc in retriever.invoke(question, k=k)]

    return retrieve


def build_pipeline(
    store: PlaceboVectorStore | None = None,
    *,
    llm: Model | None = None,
    filter: Mapping[str, Any] | None = None,
    budget_tokens: int = 120,
    score_floor: float | None = None,
    **search: Any,
) -> RagPipeline:
    """A pipeline over a LangChain vector store; the score direction comes from its profile."""
    store = store if store is not None else make_store()
    return RagPipeline(
        retrieve=vectorstore_retriever(store, filter=filter, **search),
        llm=llm if llm is not None else FakeLLM(),
        budget_tokens=budget_tokens,
        score_floor=score_floor,
        higher_is_better=store.core_store.profile.higher_is_better,
    )
