"""The worked example, core flavour: chunk, index, retrieve with placeborag_core alone.

The pipeline is ``rag_prompt.RagPipeline`` with a retriever built here over a
``FakeVectorStore``. In production the store would be Chroma, Qdrant or FAISS; in tests it is the
fake with the matching profile, seeded idempotently from the same documents every run.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rag_prompt import FakeLLM, Model, RagPipeline, RetrievedChunk, Retriever

from placeborag_core import (
    Document,
    FakeEmbedder,
    FakeVectorStore,
    Match,
    SeedReport,
    WordChunker,
    seed_store,
)

__all__ = ["CHUNKER", "KNOWLEDGE_BASE", "build_pipeline", "index", "store_retriever", "to_chunk"]

# Small enough to read in the test file's failure messages; chunked into 12-word windows.
CHUNKER = WordChunker(size=12)
KNOWLEDGE_BASE = (
    Document(
        "refund-policy",
        "Our refund policy allows returns within 30 days of delivery. Refunds are paid back "
        "to the original card within 5 business days of receiving the return.",
        {"lang": "en", "title": "Refund policy", "updated": "2025-01-15"},
    ),
    Document(
        "refund-exceptions",
        "Refund policy exceptions: sale items and gift cards cannot be refunded.",
        {"lang": "en", "title": "Refund exceptions", "updated": "2024-09-01"},
    ),
    Document(
        "digital-refunds",
        "The refund policy for digital purchases allows a refund before the first download.",
        {"lang": "en", "title": "Digital purchases", "updated": "2024-03-12"},
    ),
    Document(
        "visszaterites",
        "Visszatérítési szabályzat: a pénzt harminc napon belül visszautaljuk.",
        {"lang": "hu", "title": "Visszatérítés", "updated": "2024-11-20"},
    ),
)


def index(
    store: FakeVectorStore, documents: Sequence[Document] = KNOWLEDGE_BASE, namespace: str = ""
) -> SeedReport:
    """Chunk and upsert ``documents`` into ``namespace`` (idempotent; stale chunks deleted)."""
    return seed_store(store, documents, namespace=namespace, chunker=CHUNKER)


def to_chunk(match: Match) -> RetrievedChunk:
    """A store match as prompt assembly sees it (the store's own score, unconverted)."""
    return RetrievedChunk(match.id, match.text or "", match.score, dict(match.metadata))


def store_retriever(
    store: FakeVectorStore, *, where: Mapping[str, Any] | None = None, namespace: str = ""
) -> Retriever:
    """Retrieve the ``k`` nearest chunks (optionally filtered) from ``store``."""

    def retrieve(question: str, k: int) -> list[RetrievedChunk]:
        matches = store.query(question, k=k, where=where, namespace=namespace)
        return [to_chunk(match) for match in matches]

    return retrieve


def build_pipeline(
    store: FakeVectorStore | None = None,
    *,
    llm: Model | None = None,
    where: Mapping[str, Any] | None = None,
    budget_tokens: int = 120,
    score_floor: float | None = None,
) -> RagPipeline:
    """A pipeline over ``store`` (default: a fresh fake seeded with the knowledge base).

    The score direction comes from the store's profile, so the same pipeline ranks correctly
    whether the backend reports similarities or distances.
    """
    if store is None:
        store = FakeVectorStore(embedder=FakeEmbedder())
        index(store)
    return RagPipeline(
        retrieve=store_retriever(store, where=where),
        llm=llm if llm is not None else FakeLLM(),
        budget_tokens=budget_tokens,
        score_floor=score_floor,
        higher_is_better=store.profile.higher_is_better,
    )


if __name__ == "__main__":
    answer = build_pipeline().answer("How long do refunds take?")
    print(answer.text)
    print("used:", answer.prompt.used, "dropped:", answer.prompt.dropped)
