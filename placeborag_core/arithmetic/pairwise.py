"""Exact dot products and cosines between arbitrary float64 vectors, for the helpers around the
store.

The store's scoring compares float32-valued rows with one query (the exact-pieces module);
``cosine_similarity``, ``explain``, declared clusters and MMR compare any two float64 vectors.
:func:`dot64` rounds their exact dot product once (exact products by Dekker's TwoProduct, or
rational arithmetic at extreme exponents); :func:`cosine` and :func:`cosine_table` use the exact
lattice cosine when both vectors are FakeEmbedder outputs, otherwise the cosine of the correctly
rounded pieces; :func:`exact_dots` is one vector against many rows, taking the cheapest exact
route the values allow.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import numpy.typing as npt

from placeborag_core.arithmetic.error_free import fraction_dot, fsum_rows, safe64, two_products
from placeborag_core.arithmetic.exact_pieces import cosine_of_pieces, float32_parts, products
from placeborag_core.arithmetic.lattice import lattice_cosines, lattice_directions

__all__ = ["cosine", "cosine_table", "dot64", "exact_dots"]

F64 = npt.NDArray[np.float64]


def dot64(a: Any, b: Any) -> float:
    """RN64 of the exact dot product of two float64 vectors."""
    x = np.asarray(a, dtype=np.float64)
    y = np.asarray(b, dtype=np.float64)
    if not (safe64(x) and safe64(y)):
        return fraction_dot(x.tolist(), y.tolist())
    return math.fsum(two_products(x, y).tolist())


def cosine(a: Any, b: Any) -> float:
    """The deterministic cosine of two float vectors: for two lattice vectors (FakeEmbedder
    outputs, see :func:`lattice_directions`) the cosine of their integer vectors
    (:func:`lattice_cosines`), otherwise :func:`cosine_of_pieces` of the correctly rounded dot
    and squared norms. 0 if either vector is zero."""
    x = np.asarray(a, dtype=np.float64)
    y = np.asarray(b, dtype=np.float64)
    k, found = lattice_directions(np.stack([x, y]))
    if found.all():
        kv, kq = k
        return float(lattice_cosines(kv[None, :], np.array([kv @ kv]), kq, float(kq @ kq))[0])
    d, sx, sy = dot64(x, y), dot64(x, x), dot64(y, y)
    return float(cosine_of_pieces(np.array([d]), np.array([sx]), sy)[0])


def exact_dots(rows: F64, vector: F64) -> F64:
    """RN64 of the exact dot product of each row of ``rows`` with ``vector`` (float64 values)."""
    if np.array_equal(rows.astype(np.float32), rows):
        parts = float32_parts(vector)
        if parts is not None:
            return fsum_rows(products(rows, parts))
    if safe64(rows) and safe64(vector):
        return fsum_rows(two_products(rows, np.broadcast_to(vector, rows.shape)))
    return np.array([fraction_dot(r, vector.tolist()) for r in rows.tolist()])


def cosine_table(vectors: Any) -> F64:
    """The symmetric matrix of :func:`cosine` between every two rows of ``vectors``."""
    v = np.asarray(vectors, dtype=np.float64)
    m = len(v)
    kf, lattice = lattice_directions(v)
    k_squared = np.einsum("ij,ij->i", kf, kf)
    squared = np.array([exact_dots(v[i : i + 1], v[i])[0] for i in range(m)])
    out = np.empty((m, m), dtype=np.float64)
    for i in range(m):
        others = np.arange(i, m)
        both = lattice[others] & lattice[i]
        row = np.empty(len(others), dtype=np.float64)
        if both.any():
            j = others[both]
            row[both] = lattice_cosines(kf[j], k_squared[j], kf[i], float(k_squared[i]))
        if not both.all():
            j = others[~both]
            row[~both] = cosine_of_pieces(exact_dots(v[j], v[i]), squared[j], float(squared[i]))
        out[i, i:] = row
        out[i:, i] = row
    return out
