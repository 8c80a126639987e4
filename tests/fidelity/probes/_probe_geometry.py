"""The fixed geometries of the probes, where every score is known in closed form.

:data:`Q` and :data:`DOCS`: the score query and documents of the engine probes (pgvector,
Milvus, LanceDB, Chroma). :data:`UNIT` and :data:`META`: the unit-vector table of the newer
integration probes (as in ``docs/integrations/new_integrations.md``): 4-d unit vectors, the query
"q" equal to "a", cos(q, a..f) = 1, .8, .6, 0, -.6, -1; the embedders look a text's last line up
in :data:`UNIT` (LlamaIndex prefixes the metadata lines), so no model is involved. A probe may add
entries to :data:`UNIT` (its extra filter records) before it embeds them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["DOCS", "META", "UNIT", "Q", "last_line", "lc_embeddings", "li_embedding", "unit_vector"]

Q = [1.0, 0.0, 0.0]
"""The score query: every candidate formula gives each document below a different number."""

DOCS: dict[str, list[float]] = {
    "same": [1.0, 0.0, 0.0],
    "twice": [2.0, 0.0, 0.0],
    "c34": [3.0, 4.0, 0.0],
    "diag": [0.6, 0.0, 0.8],
    "ortho": [0.0, 1.0, 0.0],
    "opp": [-1.0, 0.0, 0.0],
}
"""Chosen so that L2, squared L2, 1 - cos, cos, dot and 1 - dot all differ."""

UNIT: dict[str, list[float]] = {
    "q": [1.0, 0.0, 0.0, 0.0],
    "a": [1.0, 0.0, 0.0, 0.0],
    "b": [0.8, 0.6, 0.0, 0.0],
    "c": [0.6, 0.8, 0.0, 0.0],
    "d": [0.0, 1.0, 0.0, 0.0],
    "e": [-0.6, 0.8, 0.0, 0.0],
    "f": [-1.0, 0.0, 0.0, 0.0],
    "big": [2.0, 0.0, 0.0, 0.0],
    "tie": [0.0, 0.0, 1.0, 0.0],
    "qtie": [0.0, 0.0, 0.6, 0.8],
}
"""Unit vectors with cos(q, a..f) = 1, .8, .6, 0, -.6, -1; ``big`` is 2a; every ``tie*`` text
maps to ``tie``."""

META: dict[str, dict[str, Any]] = {
    "a": {"color": "red", "n": 1, "price": 1.5},
    "b": {"color": "blue", "n": 2, "price": 2.5},
    "c": {"color": "red", "n": 3, "price": 3.5},
    "d": {"color": "green", "n": 4, "price": 4.5},
    "e": {"color": "blue", "n": 5, "price": 5.5},
    "f": {"color": "red", "n": 6, "price": 6.5},
}


def last_line(text: str) -> str:
    """The text an embedder is keyed on (LlamaIndex prefixes metadata lines to the node text)."""
    return text.strip().rsplit("\n", 1)[-1].strip()


def unit_vector(text: str) -> list[float]:
    """The :data:`UNIT` vector of a text's last line (every ``tie*`` text maps to ``tie``)."""
    key = last_line(text)
    return list(UNIT["tie" if key.startswith("tie") else key])


def lc_embeddings(vector: Callable[[str], list[float]] = unit_vector) -> Any:
    """A LangChain ``Embeddings`` embedding every text with ``vector`` (default: over
    :data:`UNIT`, keyed on the text's last line)."""
    from langchain_core.embeddings import Embeddings

    class TableEmbeddings(Embeddings):
        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            return [vector(t) for t in texts]

        def embed_query(self, text: str) -> list[float]:
            return vector(text)

    return TableEmbeddings()


def li_embedding(vector: Callable[[str], list[float]] = unit_vector) -> Any:
    """A LlamaIndex ``BaseEmbedding`` embedding every text with ``vector`` (default: over
    :data:`UNIT`, keyed on the text's last line)."""
    from llama_index.core.embeddings import BaseEmbedding

    class TableEmbedding(BaseEmbedding):
        def _get_query_embedding(self, query: str) -> list[float]:
            return vector(query)

        async def _aget_query_embedding(self, query: str) -> list[float]:
            return vector(query)

        def _get_text_embedding(self, text: str) -> list[float]:
            return vector(text)

    return TableEmbedding(model_name="table")
