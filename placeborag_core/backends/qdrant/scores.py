"""Qdrant's score formulas: a float32 matrix against a float64 query, float64 results.

qdrant-client's local mode multiplies the float32 matrix by the float64 query with BLAS
(``docs/engines/qdrant.md#scores-the-exact-recipe-of-local-mode``); since 1.20 it also
renormalises the stored matrix on every cosine query, so its last bits drift with the number of
queries served and with the CPU. The profile reports the same quantities exactly instead: the
correctly rounded dot product, ``v.q / |q|`` for cosine (rows are stored as unit vectors,
normalised once on upsert with the correctly rounded float32 norm) and the square root of the
correctly rounded squared distance. They agree with the engine within the fidelity tolerance.
"""

from __future__ import annotations

from placeborag_core.backends.formulas import Formula

__all__ = ["COSINE", "DOT", "EUCLID"]

COSINE = Formula("cosine_f64_query", "unit_dot", "float64")
"""Cosine similarity: ``v.q / |q|`` with ``v`` normalised on upsert, float64."""
DOT = Formula("dot_f64_query", "dot", "float64")
"""Raw dot product, float64."""
EUCLID = Formula("euclid_f64_query", "squared_l2", "float64", ("sqrt",))
"""L2 distance (not squared), float64."""
