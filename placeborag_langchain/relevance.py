"""The relevance functions LangChain integrations apply to their scores.

`similarity_search_with_relevance_scores` (and the `similarity_score_threshold` retriever) turn a
store's score into a "relevance" with whatever function the integration picks. They are kept
exactly as the integrations define them, including where the result leaves [0, 1] or inverts the
ranking, because a test double that fixes them would not behave like the store it replaces.
Which integration uses which: `docs/integrations/langchain.md` (`lc-*-relevance-*`).
"""

from __future__ import annotations

from collections.abc import Callable

from langchain_core.vectorstores import VectorStore

__all__ = [
    "RelevanceFn",
    "cosine_distance_relevance",
    "euclidean_relevance",
    "half_shifted_cosine_relevance",
    "max_inner_product_relevance",
    "quarter_squared_l2_relevance",
]

RelevanceFn = Callable[[float], float]


# The three functions langchain-core ships, used as they are so the arithmetic is identical.
euclidean_relevance: RelevanceFn = VectorStore._euclidean_relevance_score_fn
cosine_distance_relevance: RelevanceFn = VectorStore._cosine_relevance_score_fn
# Chroma feeds `1 - dot` (an exact match gives -0.0: lc-chroma-relevance-ip); Qdrant DOT and FAISS
# IP feed the similarity itself, which inverts the ranking (lc-qdrant-relevance-dot, lc-faiss-mip).
# Reproduced as is.
max_inner_product_relevance: RelevanceFn = VectorStore._max_inner_product_relevance_score_fn


def half_shifted_cosine_relevance(similarity: float) -> float:
    """langchain-qdrant's cosine override `(s + 1) / 2`: a cosine similarity mapped onto [0, 1]
    (`docs/integrations/langchain.md#lc-qdrant-relevance-cosine`)."""
    return (similarity + 1.0) / 2.0


def quarter_squared_l2_relevance(distance: float) -> float:
    """langchain-milvus's L2 relevance `1 - d / 4`: Milvus reports the squared distance, which
    lies in [0, 4] for unit vectors (`docs/integrations/new_integrations.md`,
    `lc-milvus-relevance-l2`)."""
    return 1 - distance / 4.0
