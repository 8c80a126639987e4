"""A lookup-table geometry for the integration probes: every score is known in closed form.

All vectors have 4 dimensions and unit length (except ``big``). The query ``q`` is e1, so
``cos(q, v)`` is the first coordinate: a 1.0, b 0.8, c 0.6, d 0.0, e -0.6, f -1.0. Every text
starting with ``tie`` embeds to e3, and the query ``qtie`` scores 0.6 against each of them.
``dummy_text`` is what langchain-qdrant embeds to learn the width. ``r0`` .. ``r11`` and the
query ``qr`` are fixed pseudo-random unit vectors (for MMR, where the table would tie). Texts
after a ``#`` are
ignored (``a#2`` embeds like ``a``), and a LlamaIndex text may carry its metadata header: the
last line is the key.
"""

from __future__ import annotations

import numpy as np
from _probe_geometry import META, UNIT, li_embedding

__all__ = [
    "DOCS",
    "META",
    "RANDOM_TEXTS",
    "TABLE",
    "langchain_embeddings",
    "llamaindex_embedding",
    "vector",
]

TABLE = {**UNIT, "dummy_text": [0.0, 0.0, 0.0, 1.0]}
_RNG = np.random.default_rng(3)
_RANDOM = _RNG.normal(size=(13, 4))
_RANDOM /= np.linalg.norm(_RANDOM, axis=1, keepdims=True)
TABLE.update({f"r{i}": row.tolist() for i, row in enumerate(_RANDOM[:12])})
TABLE["qr"] = _RANDOM[12].tolist()
RANDOM_TEXTS = [f"r{i}" for i in range(12)]
DOCS = ["a", "b", "c", "d", "e", "f"]


def vector(text: str) -> list[float]:
    """The table's vector for a text (``tie*`` -> e3; ``x#n`` -> the vector of ``x``)."""
    key = text.strip().splitlines()[-1].split("#")[0] if text.strip() else text
    if key.startswith("tie"):
        return [0.0, 0.0, 1.0, 0.0]
    return list(TABLE[key])


def langchain_embeddings():
    """A LangChain ``Embeddings`` that reads the table and counts its calls."""
    from langchain_core.embeddings import Embeddings

    class TableEmbeddings(Embeddings):
        def __init__(self) -> None:
            self.calls: list[tuple[str, list[str]]] = []

        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            self.calls.append(("documents", list(texts)))
            return [vector(t) for t in texts]

        def embed_query(self, text: str) -> list[float]:
            self.calls.append(("query", [text]))
            return vector(text)

    return TableEmbeddings()


def llamaindex_embedding():
    """A LlamaIndex ``BaseEmbedding`` that reads the table."""
    return li_embedding(vector)
