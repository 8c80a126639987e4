"""Build an index and query it; print one digest of every vector, id, text and score.

One digest per profile. Run by test_li_determinism.py in fresh interpreters with
different PYTHONHASHSEED values.
"""

from __future__ import annotations

import hashlib
import json

from llama_index.core import Document, StorageContext, VectorStoreIndex
from llama_index.core.node_parser import SentenceSplitter
from llama_index.core.schema import TextNode

from placeborag_llamaindex import PlaceboEmbedding, PlaceboVectorStore

texts = [
    f"document {i}: refund policy {i % 7} shipping {i % 5} warranty {i % 3}" for i in range(60)
]
documents = [
    Document(text=t, id_=f"doc-{i:03d}", metadata={"n": i % 4}) for i, t in enumerate(texts)
]
nodes = SentenceSplitter(chunk_size=64, chunk_overlap=0).get_nodes_from_documents(documents)
ids = [f"{i + 1:08x}-0000-0000-0000-000000000000" for i in range(len(nodes))]
nodes = [TextNode(id_=i, text=n.text, metadata=n.metadata) for i, n in zip(ids, nodes, strict=True)]


def digest_of(profile: str) -> str:
    """Build the index under ``profile``, query it, and hash everything observable."""
    store = PlaceboVectorStore(profile=profile)
    index = VectorStoreIndex(
        nodes,
        storage_context=StorageContext.from_defaults(vector_store=store),
        embed_model=PlaceboEmbedding(dimensions=128),
    )
    digest = hashlib.sha256()
    for record_id in store.core_store.ids():
        record = store.core_store.get(record_id)
        digest.update(json.dumps([record.id, record.text, list(record.vector)]).encode())
    for query in ["refund policy 3", "shipping 4 warranty", "document 17"]:
        for result in index.as_retriever(similarity_top_k=10).retrieve(query):
            digest.update(
                json.dumps([result.node.node_id, result.node.text, result.score]).encode()
            )
    return digest.hexdigest()


print(" ".join(digest_of(p) for p in ("default", "chroma", "qdrant")))
