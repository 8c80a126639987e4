"""The embedding layer: ``FakeEmbedder``, a hashing-trick embedder whose vectors are a pure
function of (normalised text, model name, dimensions, cluster declaration).

Modules: ``text`` (normalisation and tokens), ``hashing`` (keyed 64-bit hashes), ``features``
(words and n-grams hashed to buckets and signs), ``clusters`` (declared clusters and their exact
geometry), ``embedder`` (the public class), ``batch`` (its batch route) and ``similarity``. The
speed machinery of the batch and single-text routes is private, in ``_speed``.
"""

from placeborag_core.embedding.embedder import (
    ALGORITHM,
    DEFAULT_DIMENSIONS,
    DEFAULT_MODEL_NAME,
    MIN_DIMENSIONS,
    FakeEmbedder,
)
from placeborag_core.embedding.similarity import cosine_similarity

__all__ = [
    "ALGORITHM",
    "DEFAULT_DIMENSIONS",
    "DEFAULT_MODEL_NAME",
    "MIN_DIMENSIONS",
    "FakeEmbedder",
    "cosine_similarity",
]
