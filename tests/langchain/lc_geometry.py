"""Shared geometry for the LangChain adapter tests.

`TableEmbeddings` maps a few texts to hand-picked unit vectors (the geometry of the integration
probes, tests/fidelity/probes/_table.py), so every score is known exactly: the query "q" is e1
and the documents a..f have cosines 1, .8, .6, 0, -.6, -1 to it. It is deliberately *not*
PlaceboEmbeddings, which also exercises the "any Embeddings" path of the store.
"""

from __future__ import annotations

from typing import Any

from langchain_core.embeddings import Embeddings

TABLE: dict[str, list[float]] = {
    "q": [1.0, 0.0, 0.0, 0.0],
    "a": [1.0, 0.0, 0.0, 0.0],
    "b": [0.8, 0.6, 0.0, 0.0],
    "c": [0.6, 0.8, 0.0, 0.0],
    "d": [0.0, 1.0, 0.0, 0.0],
    "e": [-0.6, 0.8, 0.0, 0.0],
    "f": [-1.0, 0.0, 0.0, 0.0],
    "qtie": [0.0, 0.0, 0.6, 0.8],
    "dummy_text": [0.0, 0.0, 0.0, 1.0],
}
META: dict[str, dict[str, Any]] = {
    "a": {"color": "red", "n": 1, "price": 1.5},
    "b": {"color": "blue", "n": 2, "price": 2.5},
    "c": {"color": "red", "n": 3, "price": 3.5},
    "d": {"color": "green", "n": 4, "price": 4.5},
    "e": {"color": "blue", "n": 5, "price": 5.5},
    "f": {"color": "red", "n": 6, "price": 6.5},
}
DOCS = ["a", "b", "c", "d", "e", "f"]
COS = {"a": 1.0, "b": 0.8, "c": 0.6, "d": 0.0, "e": -0.6, "f": -1.0}
# Qdrant point ids for a..f (UUIDs 1..6), used wherever a profile needs valid point ids.
QIDS = [f"00000000-0000-0000-0000-00000000000{i}" for i in range(1, 7)]


def vector_for(text: str) -> list[float]:
    """Table vector; texts starting with "tie" all share e3, others must be in the table."""
    if text.startswith("tie"):
        return [0.0, 0.0, 1.0, 0.0]
    if text.startswith("far"):
        return [-1.0, 0.0, 0.0, 0.0]
    if text.startswith("near"):
        return [0.8, 0.6, 0.0, 0.0]
    return list(TABLE[text])


class TableEmbeddings(Embeddings):
    """Embeddings by table lookup (see module docstring); counts its calls."""

    def __init__(self, extra: dict[str, list[float]] | None = None) -> None:
        self.calls: list[tuple[str, int]] = []
        self.extra = dict(extra or {})

    def _vector(self, text: str) -> list[float]:
        return list(self.extra[text]) if text in self.extra else vector_for(text)

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        self.calls.append(("embed_documents", len(texts)))
        return [self._vector(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        self.calls.append(("embed_query", 1))
        return self._vector(text)
