"""Maximal marginal relevance, with LangChain's conventions.

``lambda_mult = 1`` is pure relevance and ``0`` pure diversity; the first pick is the candidate
most similar to the query, and each later pick maximises
``lambda_mult * sim(query, c) - (1 - lambda_mult) * max(sim(c, picked))`` over cosine similarities,
taking the earliest candidate on a tie
(``langchain_core.vectorstores.utils.maximal_marginal_relevance``). The cosines are
``placeborag_core.arithmetic.cosine_table``'s, so the picks are the same on every machine.
"""

from __future__ import annotations

from typing import Literal

import numpy as np
import numpy.typing as npt

from placeborag_core.arithmetic import cosine_table
from placeborag_core.messages import shown

__all__ = ["check_mmr_options", "mmr_order"]


def mmr_order(
    query: npt.NDArray[np.float64],
    candidates: npt.NDArray[np.floating],
    k: int,
    lambda_mult: float,
    redundancy: Literal["max", "last"] = "max",
) -> list[int]:
    """Indices into ``candidates`` (rows), in pick order, at most ``k`` of them.

    ``redundancy="max"`` compares each candidate with its closest pick (langchain-core);
    ``"last"`` with the most recent pick only (LlamaIndex's ``get_top_k_mmr_embeddings``).
    """
    count = min(k, len(candidates))
    if count <= 0:
        return []
    rows = np.asarray(candidates, dtype=np.float64)
    table = cosine_table(np.vstack([np.asarray(query, dtype=np.float64)[None, :], rows]))
    to_query, similar = table[0, 1:], table[1:, 1:]
    picked = [int(np.argmax(to_query))]
    penalty = similar[picked[0]].copy()
    while len(picked) < count:
        gain = lambda_mult * to_query - (1.0 - lambda_mult) * penalty
        gain[picked] = -np.inf
        best = int(np.argmax(gain))
        picked.append(best)
        latest = similar[best]
        penalty = np.maximum(penalty, latest) if redundancy == "max" else latest
    return picked


def check_mmr_options(lambda_mult: object, redundancy: object, order: object) -> None:
    """Raise for an MMR option outside what :func:`mmr_order` and the store accept."""
    if isinstance(lambda_mult, bool) or not isinstance(lambda_mult, int | float):
        raise TypeError(f"lambda_mult must be a float in [0, 1], got {shown(lambda_mult)}")
    if not 0.0 <= lambda_mult <= 1.0:
        raise ValueError(f"lambda_mult must be in [0, 1], got {shown(lambda_mult)}")
    if redundancy not in ("max", "last"):
        raise ValueError(f"redundancy must be 'max' or 'last', got {shown(redundancy)}")
    if order not in ("pick", "rank"):
        raise ValueError(f"order must be 'pick' or 'rank', got {shown(order)}")
