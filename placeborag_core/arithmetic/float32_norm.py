"""The correctly rounded float32 norm: ``RN32(|v|)``, the same on every machine.

Qdrant's cosine profile stores each vector divided by its float32 norm, and FakeEmbedder's
vectors stored that way must still be recognised (the lattice module), so the norm must not
depend on the summation order numpy or BLAS picks. :func:`norm32` takes a float64 approximation
whose error is bounded, keeps it wherever that bound decides the float32 rounding, and settles
the rest exactly by comparing with squared rounding midpoints.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

__all__ = ["norm32"]


def norm32(rows: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """``RN32(|v|)`` of each float32 row, correctly rounded (ties to even).

    The float64 sum of the exact squares (any order) is within relative ``n * 2**-53`` of the
    truth; its square root decides the float32 result unless it lies within that margin of a
    rounding boundary (about one row in 10**5), and those rows are settled exactly.
    """
    approx = np.sqrt(np.einsum("ij,ij->i", rows, rows, dtype=np.float64))
    with np.errstate(over="ignore", invalid="ignore"):  # a norm beyond float32 is inf
        guess: npt.NDArray[np.float32] = approx.astype(np.float32)
        up = np.nextafter(guess, np.float32(np.inf)).astype(np.float64)
        down = np.nextafter(guess, np.float32(0)).astype(np.float64)
        g64 = guess.astype(np.float64)
        margin = approx * ((rows.shape[1] + 4) * 2.0**-52)
        high = np.abs(approx - (g64 + up) / 2) > margin
        safe = high & (np.abs(approx - (g64 + down) / 2) > margin)
    safe |= np.isinf(guess)
    for i in np.flatnonzero(~safe).tolist():
        guess[i] = _exact_norm32(rows[i].astype(np.float64).tolist(), guess[i])
    return guess


def _exact_norm32(values: list[float], guess: np.float32) -> np.float32:
    """RN32(sqrt(sum of squares)) by exact comparisons with the squared rounding midpoints
    (a midpoint of two float32 values has 25 bits: its square is exact in float64)."""
    terms = [x * x for x in values]
    y = guess
    for _ in range(4):
        up = np.nextafter(y, np.float32(np.inf))
        mid = (float(y) + float(up)) / 2
        above = math.fsum([*terms, -mid * mid])
        if above > 0 or (above == 0 and _odd(y)):
            y = up
            continue
        down = np.nextafter(y, np.float32(0))
        mid = (float(y) + float(down)) / 2
        below = math.fsum([*terms, -mid * mid])
        if y > 0 and (below < 0 or (below == 0 and _odd(y))):
            y = down
            continue
        break
    return y


def _odd(value: np.float32) -> bool:
    return bool(np.array(value, dtype=np.float32).view(np.uint32) & 1)
