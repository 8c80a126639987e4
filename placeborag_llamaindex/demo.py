"""The LlamaIndex rows of ``placeborag demo``: the demo's knowledge base and query, retrieved
through ``VectorStoreIndex`` over a ``PlaceboVectorStore`` of each imitated integration.

Each row shows the scores as that integration reports them (Chroma and LanceDB:
``exp(-distance)``; Qdrant: the engine's cosine; FAISS: faiss's own squared L2), so the demo can
set them beside the core's and LangChain's. The core demo
imports this module only when LlamaIndex is installed.
"""

from __future__ import annotations

from llama_index.core import StorageContext, VectorStoreIndex
from llama_index.core.schema import TextNode

from placeborag_core import seed_store
from placeborag_core.adapter_kit import KNOWLEDGE_BASE, QUERY
from placeborag_llamaindex.embedding import PlaceboEmbedding
from placeborag_llamaindex.integrations import INTEGRATIONS
from placeborag_llamaindex.vector_store import PlaceboVectorStore

__all__ = ["demo_rows"]

_TOP_K = 2


def demo_rows() -> list[tuple[str, str, str]]:
    """One ``(framework, store, top 2 with reported scores)`` row per imitated integration.

    Every profile with a row in ``INTEGRATIONS`` but the clean ``default`` one (which imitates
    no real integration) is seeded with ``KNOWLEDGE_BASE`` and asked ``QUERY`` through the
    index's retriever, as an application would.
    """
    rows = []
    for profile, facts in INTEGRATIONS.items():
        if profile == "default":
            continue
        embedding = PlaceboEmbedding()
        store = PlaceboVectorStore(embedder=embedding, profile=profile)
        if facts.stores_text:
            seed_store(store, KNOWLEDGE_BASE)
            index = VectorStoreIndex.from_vector_store(store, embed_model=embedding)
        else:  # FAISS keeps vectors only: the index keeps the nodes in its docstore
            nodes = [
                TextNode(id_=doc.id, text=doc.text, metadata={**doc.metadata, "doc_id": doc.id})
                for doc in KNOWLEDGE_BASE
            ]
            context = StorageContext.from_defaults(vector_store=store)
            index = VectorStoreIndex(nodes, storage_context=context, embed_model=embedding)
        found = index.as_retriever(similarity_top_k=_TOP_K).retrieve(QUERY)
        scores = ", ".join(f"{n.node.metadata['doc_id']}={n.score:.3f}" for n in found)
        rows.append(("LlamaIndex", f"PlaceboVectorStore(profile={profile!r})", scores))
    return rows
