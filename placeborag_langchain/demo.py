"""The LangChain rows of ``placeborag demo``'s adapter section.

The demo's knowledge base, seeded into a ``PlaceboVectorStore`` per profile and searched through
LangChain's own ``similarity_search_with_score``, shows that the adapter reports what the real
integration reports for the same ranking: a distance under ``profile="chroma"`` (lower first),
a similarity under ``profile="qdrant"`` (higher first).
"""

from __future__ import annotations

from placeborag_core import seed_store
from placeborag_core.adapter_kit import KNOWLEDGE_BASE, QUERY
from placeborag_langchain.embeddings import PlaceboEmbeddings
from placeborag_langchain.vectorstore import PlaceboVectorStore

__all__ = ["demo_rows"]


def demo_rows() -> list[tuple[str, str, str]]:
    """One row per profile shown: ("LangChain", the store's constructor call, the top 2 as
    ``doc_id=score`` with three decimals), for the demo's query at ``k=2``."""
    rows = []
    for profile in ("chroma", "qdrant"):
        store = PlaceboVectorStore(PlaceboEmbeddings(), profile=profile)
        seed_store(store, KNOWLEDGE_BASE)
        pairs = store.similarity_search_with_score(QUERY, k=2)
        scores = ", ".join(f"{doc.metadata['doc_id']}={float(score):.3f}" for doc, score in pairs)
        rows.append(("LangChain", f"PlaceboVectorStore(profile={profile!r})", scores))
    return rows
