"""Float32 rounding in the LangChain comparisons: MMR picks whose objectives tie within
tolerance (``near_tie``) and k or fetch_k cuts that differ only by documents we tie exactly and
the engine orders by its last float32 bits (``cut_rounded``); both count as
``FLOAT_ROUNDING`` (``_divergences.py``)."""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["Scored", "cut_rounded", "near_tie"]


def cut_rounded(
    fake: Any, real: Any, query: str, k: int, kwargs: dict[str, Any] | None = None
) -> bool:
    """Whether the first ``k`` hits differ only by documents at the cut that the engine's
    float32 kernels order and our exact scores tie (or nearly): every id in one list and not
    the other lies within 1e-6 of the cut on both sides, and the engine's scores there are not
    all equal (then its tie rule would decide). RandomDraw(20051), cosine: two documents
    orthogonal to the query score exactly 0 for us and -3.7e-09 and less for the engine."""
    kw = kwargs or {}

    def scored(store: Any, n: int) -> list[tuple[str, float]]:
        hits = store.similarity_search_with_score(query, k=n, **kw)
        return [(str(doc.metadata["pk"]), float(score)) for doc, score in hits]

    mine, engine = dict(scored(fake, 100)), dict(scored(real, 100))
    ours, theirs = [i for i, _ in scored(fake, k)], [i for i, _ in scored(real, k)]
    moved = set(ours) ^ set(theirs)
    if not moved or not ours or not theirs or not moved <= set(mine) & set(engine):
        return False
    cut, my_cut = engine[theirs[-1]], mine[ours[-1]]
    return all(
        abs(engine[i] - cut) <= 1e-6 and abs(mine[i] - my_cut) <= 1e-6 for i in moved
    ) and any(engine[i] != cut for i in moved)


def near_tie(embeddings: Any, query: str, texts: list[str], k: int, lam: float) -> bool:
    """Whether replaying MMR over ``texts`` meets a step whose two best objectives tie."""
    if len(texts) < 2:
        return False
    q = np.asarray(embeddings.embed_query(query))
    vectors = np.asarray([embeddings.embed_query(t) for t in texts])
    relevance = vectors @ q
    chosen: list[int] = []
    for _ in range(min(k, len(texts))):
        if chosen:
            redundancy = (vectors @ vectors[chosen].T).max(axis=1)
            objective = lam * relevance - (1 - lam) * redundancy
        else:
            objective = relevance.copy()
        objective[chosen] = -np.inf
        best, second = np.sort(objective)[::-1][:2]
        if np.isfinite(second) and best - second <= 1e-5:
            return True
        chosen.append(int(np.argmax(objective)))
    return False


class Scored:
    """A store stub answering ``similarity_search_with_score`` from an id -> score table
    (higher first: cosine)."""

    def __init__(self, scores: dict[str, float]) -> None:
        self.scores = scores

    def similarity_search_with_score(self, query: str, k: int) -> list[tuple[Any, float]]:
        from types import SimpleNamespace

        ranked = sorted(self.scores.items(), key=lambda item: -item[1])[:k]
        return [(SimpleNamespace(metadata={"pk": pk}), s) for pk, s in ranked]
