"""Error-free transformations: sums and products held exactly as a few floats.

A float sum or product rounds; these helpers keep what rounding would lose, so an exact result
can be carried into one ``math.fsum`` and rounded once at the end. :func:`row_parts` reduces each
row of exact terms to a few floats with the same exact sum (in an order numpy may choose freely),
:func:`fsum_rows` rounds each such sum once, :func:`expansion` writes an exact sum as floats that
can enter another ``fsum``, and :func:`two_products` gives a float64 product together with its
exact rounding error (Dekker's TwoProduct). Where the exponents are too extreme for those
(:func:`safe64`), :func:`fraction_dot` falls back to rational arithmetic, slow and exact.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import numpy.typing as npt

__all__ = [
    "exact_squared64",
    "expansion",
    "fraction_dot",
    "fsum_rows",
    "row_parts",
    "safe64",
    "squared_terms64",
    "two_products",
]

F64 = npt.NDArray[np.float64]


def fsum_rows(terms: F64) -> F64:
    """The correctly rounded sum of each row of exact float64 terms: :func:`row_parts` reduces
    each row to a few floats with the same exact sum, then ``math.fsum`` rounds them once."""
    return np.array([math.fsum(row) for row in row_parts(terms).tolist()], dtype=np.float64)


def row_parts(terms: F64) -> F64:
    """A few floats per row whose sum is exactly the sum of the row of ``terms``.

    Rump, Ogita and Oishi's error-free extraction ("Accurate floating-point summation part I",
    SIAM J. Sci. Comput. 31, 2008, Lemma 3.3): with ``max|p_j| < 2**e``, ``2**M >= m + 2`` and
    ``sigma = 2**(e + M)``, ``q_j = (sigma + p_j) - sigma`` and ``p_j - q_j`` are exact, every
    ``q_j`` lies on the grid of multiples of ``2**(e + M - 53)`` and ``|sum q_j| < sigma``, so
    the sum of the ``q_j`` is exact in any order (numpy's SIMD or pairwise order included). The
    rest is at most ``2**(e + M - 53)``: each pass peels at least ``52 - M`` more bits, until
    nothing is left. The terms must be far from underflow (here: products of float32 or split
    float64 values, at least ``2**-330`` when not zero).
    """
    count, m = terms.shape
    if count == 0 or m == 0:
        return np.zeros((count, 1))
    shift = max(1, math.ceil(math.log2(m + 2)))
    rest = np.array(terms, dtype=np.float64)
    parts = []
    for _ in range(64):
        top = np.abs(rest).max(axis=1)
        if not top.any():
            break
        _, exponent = np.frexp(top)  # top < 2**exponent
        sigma = np.where(top > 0, np.ldexp(1.0, exponent + shift), 0.0)[:, None]
        grid = (sigma + rest) - sigma
        rest -= grid
        parts.append(grid.sum(axis=1))
    else:  # not reached for finite terms; kept as a guard
        raise ArithmeticError("row_parts did not converge")
    return np.stack(parts, axis=1) if parts else np.zeros((count, 1))


def expansion(terms: list[float]) -> list[float]:
    """A few floats whose sum is exactly ``sum(terms)`` (nonoverlapping: each is the correctly
    rounded rest of the ones before it), so that an exact sum can enter another ``fsum``."""
    parts: list[float] = []
    rest = math.fsum(terms)
    while rest != 0.0 and math.isfinite(rest):
        parts.append(rest)
        rest = math.fsum(terms + [-p for p in parts])
    return parts


def _split(a: F64) -> tuple[F64, F64]:
    t = a * 134217729.0  # 2**27 + 1 (Veltkamp)
    hi = t - (t - a)
    return hi, a - hi


def two_products(a: F64, b: F64) -> F64:
    """``a * b`` and its exact rounding error side by side (Dekker's TwoProduct): valid when
    every nonzero component lies in [2**-450, 2**500] (no overflow, no underflow)."""
    p = a * b
    ah, al = _split(a)
    bh, bl = _split(b)
    e = ((ah * bh - p) + ah * bl + al * bh) + al * bl
    return np.concatenate([p, e], axis=-1)


def safe64(values: F64) -> bool:
    """Whether every nonzero component lies in the range :func:`two_products` is exact on."""
    mags = np.abs(values[values != 0])
    return bool(mags.size == 0 or (mags.min() >= 2.0**-450 and mags.max() <= 2.0**500))


def squared_terms64(values: F64) -> list[float]:
    """Floats whose exact sum is the exact squared norm of ``values`` (float64, in the range of
    :func:`safe64`): the squares themselves when the values are float32 (exact in float64),
    else each square and its rounding error."""
    if np.array_equal(values.astype(np.float32), values):
        terms: list[float] = (values * values).tolist()
        return terms
    return list(two_products(values, values).tolist())


def exact_squared64(values: F64) -> float:
    """RN64 of the exact squared norm of a float64 vector."""
    if not safe64(values):
        return fraction_dot(values.tolist(), values.tolist())
    return math.fsum(squared_terms64(values))


def fraction_dot(a: list[float], b: list[float]) -> float:
    """The slow exact path (extreme exponents): rational arithmetic, correctly rounded."""
    return float(sum((Fraction(x) * Fraction(y) for x, y in zip(a, b, strict=True)), Fraction(0)))
