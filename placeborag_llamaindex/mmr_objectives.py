"""The MMR objectives ``get_top_k_mmr_embeddings`` reports for its picks.

llama-index-core's MMR returns, beside the picks, the objective each was picked with:
``threshold * cos(query, first)`` for the first, then ``threshold * cos(query, pick) -
(1 - threshold) * cos(pick, previous pick)`` (only the latest pick penalises). ``PGVectorStore``
and ``MilvusVectorStore`` hand these to ``NodeWithScore.score`` instead of the engine's
similarity (``docs/integrations/new_integrations.md#li-pgvector-mmr-score-objective``,
``#li-milvus-mmr-score-objective``); the core's MMR picked with the same cosines
(``cosine_similarity``: the same number on every machine), so the numbers replay its choice.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from placeborag_core import cosine_similarity

__all__ = ["mmr_objectives"]


def mmr_objectives(
    query: Sequence[float], picks: Sequence[Sequence[float]], threshold: float
) -> list[float]:
    """The objective of each of ``picks`` (vectors, in pick order) for ``query``."""
    vectors = [np.asarray(v, dtype=np.float64) for v in picks]
    q = np.asarray(query, dtype=np.float64)
    out = []
    for i, pick in enumerate(vectors):
        objective = threshold * _cosine(q, pick)
        if i:
            objective -= (1.0 - threshold) * _cosine(pick, vectors[i - 1])
        out.append(objective)
    return out


def _cosine(a: np.ndarray, b: np.ndarray) -> float:
    """The deterministic cosine, 0 with a zero vector (as the core scores one)."""
    return cosine_similarity(a, b) if a.any() and b.any() else 0.0
