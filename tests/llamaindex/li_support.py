"""Shared geometry and helpers for the LlamaIndex adapter tests.

Six nodes ``a``..``f`` with hand-picked 4-d unit vectors whose cosine with the query ``Q`` is
1.0, 0.8, 0.6, 0.0, -0.6 and -1.0, so every ranking below is computed by hand (a before b before
... f), and ids that are UUIDs so that the qdrant profile accepts them.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from llama_index.core import StorageContext, VectorStoreIndex
from llama_index.core.schema import NodeWithScore, QueryBundle, TextNode
from llama_index.core.vector_stores.types import MetadataFilters

from placeborag_llamaindex import PlaceboEmbedding, PlaceboVectorStore

Q = [1.0, 0.0, 0.0, 0.0]
VECTORS: dict[str, list[float]] = {
    "a": [1.0, 0.0, 0.0, 0.0],
    "b": [0.8, 0.6, 0.0, 0.0],
    "c": [0.6, 0.8, 0.0, 0.0],
    "d": [0.0, 1.0, 0.0, 0.0],
    "e": [-0.6, 0.8, 0.0, 0.0],
    "f": [-1.0, 0.0, 0.0, 0.0],
}
# The metadata of the integration probes (META of tests/fidelity/probes/_table.py).
PROBE_METADATA: dict[str, dict[str, Any]] = {
    "a": {"color": "red", "n": 1, "price": 1.5},
    "b": {"color": "blue", "n": 2, "price": 2.5},
    "c": {"color": "red", "n": 3, "price": 3.5},
    "d": {"color": "green", "n": 4, "price": 4.5},
    "e": {"color": "blue", "n": 5, "price": 5.5},
    "f": {"color": "red", "n": 6, "price": 6.5},
}


def uid(n: int) -> str:
    return str(uuid.UUID(int=n))


ID = {letter: uid(i + 1) for i, letter in enumerate(VECTORS)}
LETTER = {node_id: letter for letter, node_id in ID.items()}


def make_nodes(metadata: Mapping[str, Mapping[str, Any]] | None = None) -> list[TextNode]:
    """The six nodes, with embeddings already set (the index does not re-embed them)."""
    meta = PROBE_METADATA if metadata is None else metadata
    return [
        TextNode(id_=ID[letter], text=letter, embedding=vector, metadata=dict(meta.get(letter, {})))
        for letter, vector in VECTORS.items()
    ]


def build_index(store: PlaceboVectorStore, nodes: Sequence[TextNode]) -> VectorStoreIndex:
    context = StorageContext.from_defaults(vector_store=store)
    return VectorStoreIndex(nodes, storage_context=context, embed_model=PlaceboEmbedding())


def letters(results: Sequence[NodeWithScore]) -> list[str]:
    return [LETTER[r.node.node_id] for r in results]


def retrieve_letters(
    index: VectorStoreIndex, filters: MetadataFilters | None = None, k: int = 6
) -> list[str]:
    """The letters retrieved for ``Q`` through ``as_retriever``, in order."""
    retriever = index.as_retriever(similarity_top_k=k, filters=filters)
    return letters(retriever.retrieve(QueryBundle("q", embedding=Q)))


LINE_IDS = [f"n{i}" for i in range(6)]
"""Six nodes on a line (``[1, n]``), alternating ``parity``: the non-finite query tests' store."""


def line_nodes() -> list[TextNode]:
    return [
        TextNode(
            id_=i,
            text=i,
            embedding=[1.0, float(n)],
            metadata={"parity": "odd" if n % 2 else "even"},
        )
        for n, i in enumerate(LINE_IDS)
    ]


def line_store(profile: str) -> PlaceboVectorStore:
    """A store of ``profile`` holding ``line_nodes()``."""
    store = PlaceboVectorStore(profile=profile)
    store.add(line_nodes())
    return store
