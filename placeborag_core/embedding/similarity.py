"""Cosine similarity of two vectors, for tests to compare embeddings with."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from placeborag_core.arithmetic import cosine
from placeborag_core.numbers import real_array

__all__ = ["cosine_similarity"]

FloatArray = npt.NDArray[np.float64]


def cosine_similarity(a: Sequence[float] | FloatArray, b: Sequence[float] | FloatArray) -> float:
    """Cosine of the angle between two vectors of the same length (lists or numpy arrays).

    Raises ``ValueError`` for vectors of different lengths, non-finite components, or a zero
    vector (whose direction, and so cosine, is undefined).

    The same number on every machine (``placeborag_core.arithmetic.cosine``): for two
    FakeEmbedder vectors the cosine of their exact integer sums, so texts whose exact cosines are
    equal get equal values; otherwise computed from the correctly rounded dot product and squared
    norms. For two FakeEmbedder vectors it is the store's ``Match.similarity`` before that is
    rounded to float32.
    """
    x = real_array(a, "cosine_similarity's first vector").astype(np.float64)
    y = real_array(b, "cosine_similarity's second vector").astype(np.float64)
    if x.ndim != 1 or x.shape != y.shape:
        raise ValueError(
            f"cosine_similarity needs two 1-d vectors of the same length, "
            f"got shapes {x.shape} and {y.shape}"
        )
    if not (np.isfinite(x).all() and np.isfinite(y).all()):
        raise ValueError("cosine_similarity needs finite components (no NaN or infinity)")
    if not (x.any() and y.any()):
        raise ValueError("cosine similarity is undefined for a zero vector")
    return cosine(x, y)
