"""FakeEmbedder's vectors recognised by their values, and their cosines computed exactly.

FakeEmbedder's unit vectors are ``RN64(k / RN64(|k|))`` for an integer vector ``k`` (its
doubled bucket sums). :func:`lattice_directions` recovers the integers from the floats (from any
of the forms a stored embedding takes), and :func:`lattice_cosines` gives
``sign(D) * sqrt(RN64(D**2 / (Sa * Sq)))`` from the exact integers ``D = ka.kq``,
``Sa = |ka|**2``, ``Sq = |kq|**2``: a function of the exact cosine, so two pairs of embeddings
whose cosines are mathematically equal (a declared cluster's members, repeated texts) get equal
cosines bit for bit, and tie as they should.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from placeborag_core.arithmetic.float32_norm import norm32

__all__ = ["LATTICE_MAX", "lattice_cosines", "lattice_directions"]

F64 = npt.NDArray[np.float64]
Bools = npt.NDArray[np.bool_]

LATTICE_MAX = 2**15
"""Largest |k| of a recognised lattice vector: ``n * LATTICE_MAX**2 < 2**53`` keeps every
integer dot product exact in float64 up to ``n = 2**23`` dimensions."""

_MAX_MULTIPLIER = 8  # smallest nonzero |k| tried when recovering k (1 for every text measured)


def lattice_directions(x: F64) -> tuple[F64, Bools]:
    """The integer vector ``k`` (integer-valued float64) behind each row that is exactly a
    FakeEmbedder unit vector, and whether one was found. A pure function of the rows' values.

    A row is recognised when it is bit for bit one of the forms an embedding takes:
    ``f = RN64(k_j * 0.5 / RN64(sqrt(sum(k**2) * 0.25)))`` (the embedder's float64 vector),
    ``RN32(f)`` (``embed_many(dtype=float32)``, or the float64 vector stored as float32), or
    ``RN32(RN32(f) / RN32(|RN32(f)|))`` (that vector normalised again in float32 by
    :func:`norm32`, as the qdrant cosine profile stores it), with ``|k_j| <= LATTICE_MAX``.

    Recovery: the smallest nonzero ``|x_j|`` belongs to the smallest nonzero ``|k_j| = c``, so
    ``k = rint(x * c / min|x|)`` for ``c = 1, 2, ...``, each candidate verified by recomputing
    the forms. The screens (norm near 1, near-integer ratios) only skip rows that cannot pass the
    exact verification.
    """
    m, n = x.shape
    found = np.zeros(m, dtype=bool)
    out = np.zeros((m, n), dtype=np.float64)
    if m == 0 or n == 0:
        return out, found
    unit = np.flatnonzero(np.abs(np.einsum("ij,ij->i", x, x) - 1.0) < 2.0**-10)
    if not len(unit):
        return out, found
    ax = np.abs(x[unit])
    low = np.where(ax > 0, ax, np.inf).min(axis=1)
    hopeful = np.isfinite(low) & (ax.max(axis=1) <= low * LATTICE_MAX)
    rows, low = unit[hopeful], low[hopeful]
    probe = x[rows, : min(32, n)]
    for c in range(1, _MAX_MULTIPLIER + 1):
        if not len(rows):
            break
        scale = c / low
        t = probe * scale[:, None]
        near = (np.abs(t - np.rint(t)) < 2.0**-4).all(axis=1)
        if near.any():
            todo = rows[near]
            k = np.rint(x[todo] * scale[near][:, None])
            ok = _lattice_forms(k, x[todo])
            out[todo[ok]] = k[ok]
            found[todo[ok]] = True
            keep = np.ones(len(rows), dtype=bool)
            keep[np.flatnonzero(near)[ok]] = False
            rows, low, probe = rows[keep], low[keep], probe[keep]
    return out, found


def _lattice_forms(k: F64, x: F64) -> Bools:
    """Whether each row of ``x`` is one of the embedding forms of the integer row of ``k``."""
    squared = np.einsum("ij,ij->i", k, k)  # integers below 2**53: exact in any order
    ok = (squared > 0) & (np.abs(k).max(axis=1) <= LATTICE_MAX)
    norms = np.sqrt(np.where(ok, squared, 1.0) * 0.25)
    f64 = (k * 0.5) / norms[:, None]
    match = (f64 == x).all(axis=1)
    f32 = f64.astype(np.float32)
    match |= (f32 == x).all(axis=1)
    again = np.flatnonzero(ok & ~match)
    if len(again):
        lengths = norm32(f32[again])
        lengths[lengths == 0] = 1
        unit32 = f32[again] / lengths[:, None]
        match[again] = (unit32 == x[again]).all(axis=1)
    result: Bools = ok & match
    return result


def lattice_cosines(kv: F64, sv: F64, kq: F64, sq: float) -> F64:
    """``sign(D) * sqrt(RN64(D**2 / (Sv * Sq)))`` for integer rows ``kv`` (squared norms ``sv``)
    against the integer vector ``kq`` (squared norm ``sq``), exactly: ``D`` by float64 BLAS on
    integers below 2**53, the quotient by Python's correctly rounded integer division."""
    d = kv @ kq
    sq_int = int(sq)
    c2 = [
        (di * di) / (si * sq_int) if di else 0.0
        for di, si in zip(d.astype(np.int64).tolist(), sv.astype(np.int64).tolist(), strict=True)
    ]
    out: F64 = np.sqrt(np.array(c2, dtype=np.float64))
    return np.where(d < 0, -out, out)
