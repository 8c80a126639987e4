"""The scoring step of the query pipeline: a profile's numbers, the same on every machine.

Every reported score is a function of the stored vector and the query alone: the same bit for
bit at any row, with any store size or filter, under any BLAS kernel or CPU. It is computed in
two phases.

**Phase 1, the floor.** One float32 matrix-vector product (numpy's ``einsum``) over the
candidate rows (a pre-filter gathers the rows that pass it) and an O(n) *key* per row, higher
being better: the dot product itself, the dot times the stored reciprocal norm (cosines), or
``2 v.q - |v|**2`` with the stored ``|v|**2`` (L2; it is ``|q|**2 - |v - q|**2``). Its error against
the exact key is at most ``B`` (:func:`_bound`) for every row, whatever order and blocking the
kernel adds in and whether it fuses multiply-adds: ``|fl(v.q) - v.q| <= gamma_n sum|v_j q_j|``
holds for any summation tree (Higham, *Accuracy and Stability of Numerical Algorithms*, 3.1).

**The band.** With ``t`` the k-th best key, the k best rows have exact keys of at least
``t - B``; a row whose *reported* score can equal or beat theirs has an exact key of at least
``t - B - Delta``, where ``Delta`` covers the rounding of the reported number; so its key is at
least ``t - 2B - Delta``. Those rows are the band: it contains every row the profile's tie rule
needs (FAISS's heap included). It may differ between machines; the answer does not.
(``store/scan.py`` selects it, and for PostgreSQL's sort, which reads every row, the rows that
can enter its heap.)

**Phase 2, exact.** Each band row gets its reported number from exact quantities
(:mod:`placeborag_core.arithmetic`), then the tie rule orders the band. Which quantity, which
final IEEE steps and which reported type is the profile's
:class:`~placeborag_core.backends.formulas.Formula`:

* *lattice pairs* (both the stored row and the query are exactly FakeEmbedder vectors, in any of
  the forms a store keeps them): the exact cosine ``c`` of their integer vectors; these are unit
  vectors, so their dot product is ``c`` and their squared distance ``RN64(2 - 2c)``;
* *other pairs*: the stored float32 vector and the query as the engine sees it (rounded to
  float32, or float64 for Qdrant): ``RN64(v.q)``, ``RN64(|v - q|**2)``, or the cosine
  ``RN64(D / RN64(sqrt(RN64(Sv * Sq))))`` of the correctly rounded dot and squared norms.

Equal stored rows in a band are scored once.
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from placeborag_core import arithmetic
from placeborag_core.backends.formulas import COSINE_F32, Formula

if TYPE_CHECKING:
    from placeborag_core.store.partition import Partition

__all__ = [
    "ScoringQuery",
    "bounded_keys",
    "cosines",
    "exact_scores",
    "reciprocal_norms",
    "refined_keys",
]

F64 = npt.NDArray[np.float64]
Rows = npt.NDArray[np.intp]

U32 = 2.0**-24
_GATHER_BLOCK = 256  # rows gathered and multiplied at a time (temporaries stay in L2)
_GATHER_FRACTION = 0.3  # above this share of the rows, one product over all rows is cheaper
_DEDUPE_FROM = 32  # bands at least this large score each distinct stored row once
_COSINE = dataclasses.replace(COSINE_F32, steps=())
_EXACT_BLOCK = 4096  # rows scored exactly at a time (float64 temporaries of a few MB)


def reciprocal_norms(squared: F64) -> npt.NDArray[np.float32]:
    """``RN32(1 / sqrt(|v|**2))`` of approximate squared norms; 0 for a zero row (its cosine with
    anything is 0)."""
    with np.errstate(divide="ignore", over="ignore"):
        inv = np.where(squared > 0, 1.0 / np.sqrt(squared), 0.0)
        # a norm below 1 / FLT_MAX (float32 subnormal components) gives inf: see bounded_keys
        return inv.astype(np.float32)


@dataclass
class ScoringQuery:
    """One query's pieces under one formula, computed once."""

    formula: Formula
    values: F64  # the query as the engine sees it (float32 values, or float64 for Qdrant)
    q32: npt.NDArray[np.float32]  # what the phase-1 product uses
    operand: arithmetic.Operand
    norm_bound: float  # >= |values|
    zero: bool
    lattice: F64 | None  # the integer vector of a lattice query
    lattice_squared: float

    @classmethod
    def build(cls, formula: Formula, vector: F64) -> ScoringQuery:
        q32 = vector.astype(np.float32)
        values = q32.astype(np.float64) if formula.query == "float32" else vector
        operand = arithmetic.Operand(values)
        k, found = arithmetic.lattice_directions(values[None, :])  # as the engine sees it
        lattice = k[0].astype(np.float64) if found[0] else None
        return cls(
            formula,
            values,
            q32,
            operand,
            float(np.sqrt(operand.squared)) * (1 + 2.0**-20),
            not values.any(),
            lattice,
            float(lattice @ lattice) if lattice is not None else 0.0,
        )


# ---------------------------------------------------------------------------- phase 1


def _products(part: Partition, q32: npt.NDArray[np.float32], rows: Rows | None) -> Any:
    """``M[rows] @ q32`` in float32: one product over every row, or over gathered blocks when
    few rows are candidates.

    Over every row, numpy's ``einsum`` rather than BLAS: on the row-major matrix its SIMD loop
    runs about twice as fast as OpenBLAS's single-threaded ``sgemv`` (as fast as ``sgemv`` on a
    column-major copy, ``python -m benchmarks.store``). Over a gathered block, which sits in
    cache, ``sgemv`` is the faster of the two (about 1 ms less over 10% of 200,000 rows), and
    ``np.take`` gathers about a fifth faster than indexing with the row array. The bound of
    :func:`_bound` holds for any summation order, so which kernel adds does not matter."""
    n = part.n_rows
    if rows is None:
        return _matvec(part.matrix[:n], q32)
    if len(rows) > _GATHER_FRACTION * n:
        return _matvec(part.matrix[:n], q32)[rows]
    out = np.empty(len(rows), dtype=np.float32)
    for start in range(0, len(rows), _GATHER_BLOCK):
        block = rows[start : start + _GATHER_BLOCK]
        np.dot(np.take(part.matrix, block, axis=0), q32, out=out[start : start + len(block)])
    return out


def _matvec(matrix: npt.NDArray[np.float32], q32: npt.NDArray[np.float32]) -> Any:
    return np.einsum("ij,j->i", matrix, q32)


def _keys(part: Partition, query: ScoringQuery, rows: Rows | None) -> Any:
    """Approximate keys, higher is better (see the module docstring)."""
    a = _products(part, query.q32, rows)
    kind = query.formula.kind
    if kind == "dot":
        return a
    select = slice(0, part.n_rows) if rows is None else rows
    if kind == "cos":
        np.multiply(a, part.inv_norms[select], out=a)
        return a
    return 2.0 * a.astype(np.float64) - part.sq_norms[select]


def _bound(part: Partition, query: ScoringQuery) -> tuple[float, float]:
    """``(B, Delta)``: ``|approximate key - exact key| <= B`` for every row under any BLAS kernel
    (with or without FMA, gradual underflow or flush-to-zero), and ``Delta`` covers the
    rounding of the reported number, in key units."""
    n = part.dimension
    gamma = n * U32 / (1 - n * U32)
    qn, vn = query.norm_bound, max(part.norm_max, 2.0**-126)
    eta = n * 2.0**-100 * (1.0 + float(np.abs(query.q32).max()) + vn)
    q_err = U32 * qn if query.formula.query == "float64" else 0.0  # |q - RN32(q)|
    lattice = 32 * U32 if query.lattice is not None else 0.0  # integer cosines vs the floats
    kind = query.formula.kind
    if kind == "dot":
        b = (gamma + 2 * U32) * vn * qn + vn * q_err + eta + lattice
        scale = vn * qn
    elif kind == "cos":
        b = (gamma + 7 * U32) * qn + 2 * q_err + eta * part.inv_max + lattice * qn
        scale = qn
    else:
        b = 2 * (gamma * vn * qn + eta + vn * q_err) + vn * vn * n * 2.0**-51
        b += 2.0**-52 * (2 * vn * qn + vn * vn) + lattice
        scale = (vn + qn) ** 2
    return b, (2.0**-20 + 16 * U32) * max(scale, 1.0)


def bounded_keys(
    part: Partition, query: ScoringQuery, rows: Rows | None
) -> tuple[Any, float] | None:
    """The phase-1 keys of the candidate rows (``rows``, or every row if None) and a margin
    ``m``: a row whose key is below ``key[r] - m`` reports a score strictly worse than row
    ``r``'s. None when no such bound holds and every candidate must be scored exactly."""
    everything = np.arange(part.n_rows) if rows is None else rows
    if query.zero and query.formula.kind != "l2":
        return None
    if query.formula.zero_vectors == "nan" and not part.inv_norms[everything].all():
        return None  # a zero row reports NaN (worst), although its phase-1 key is 0
    if part.norm_max * query.norm_bound >= 2.0**100 or query.norm_bound >= 2.0**100:
        return None  # the float32 product could overflow
    if query.formula.kind == "cos" and not np.isfinite(part.inv_max):
        return None  # a row's float32 reciprocal norm overflowed: its phase-1 key is not bounded
    b, delta = _bound(part, query)
    return _keys(part, query, rows), (2 * b + delta) * (1 + 2.0**-20)


def refined_keys(part: Partition, query: ScoringQuery, rows: Rows) -> tuple[F64, float]:
    """Keys of ``rows`` computed in float64 from the stored float32 vectors and the query as
    the engine sees it, and their margin (as :func:`bounded_keys`'s: a key below another's less
    the margin means a strictly worse reported score), much narrower than phase 1's: float64
    rounding instead of float32, so that only rows whose scores nearly tie need exact scores to
    be ordered.

    Their error against the exact key is at most ``gamma * |v| |q|`` for a product (any
    summation order; ``gamma = n u / (1 - n u)``, ``u = 2**-53``), so ``(2 gamma + 4u) |q|`` for a
    cosine key ``d / sqrt(|v|**2)`` and ``2 gamma |v||q| + gamma |v|**2`` plus the last rounding for
    an L2 key ``2 d - |v|**2``; with the lattice's allowance and ``Delta`` as in :func:`_bound`."""
    n = part.dimension
    u = 2.0**-53
    gamma = n * u / (1 - n * u)
    v = part.matrix[rows].astype(np.float64)
    d = v @ query.values
    qn, vn = query.norm_bound, max(part.norm_max, 2.0**-126)
    lattice = 32 * U32 if query.lattice is not None else 0.0
    kind = query.formula.kind
    if kind == "dot":
        keys, b = d, gamma * vn * qn + lattice
    elif kind == "cos":
        norms = np.sqrt(np.einsum("ij,ij->i", v, v))
        keys = np.divide(d, norms, out=np.zeros(len(d)), where=norms > 0)
        b = (2 * gamma + 4 * u) * qn + lattice * qn
    else:
        keys = 2 * d - np.einsum("ij,ij->i", v, v)
        b = 2 * gamma * vn * qn + gamma * vn * vn + 2 * u * (2 * vn * qn + vn * vn) + lattice
    _, delta = _bound(part, query)
    return keys, (2 * b * (1 + 2.0**-20) + delta) * (1 + 2.0**-20)


# ---------------------------------------------------------------------------- phase 2


def exact_scores(
    part: Partition, query: ScoringQuery, rows: Rows, *, with_cosines: bool = False
) -> tuple[npt.NDArray[Any], F64 | None]:
    """The formula's reported numbers for ``rows``, exactly (see the module docstring), and if
    asked the exact cosines too (computed from the same sums)."""
    formula = query.formula
    nan_for_zero = formula.zero_vectors == "nan"
    if query.zero and formula.kind != "l2":  # every dot product and cosine is 0
        quantity = np.full(len(rows), np.nan) if nan_for_zero else np.zeros(len(rows))
        return formula.finish(quantity), np.zeros(len(rows)) if with_cosines else None
    width = 2 if with_cosines else 1
    both = _by_blocks(part, rows, lambda v: _quantity(query, v, with_cosines), width)
    if nan_for_zero:
        both[~part.matrix[rows].any(axis=1), 0] = np.nan
    return formula.finish(both[:, 0]), both[:, 1] if with_cosines else None


def cosines(part: Partition, query: ScoringQuery, rows: Rows) -> F64:
    """The exact cosine of each row with the query (lattice pairs: of their integer vectors)."""
    if query.zero:
        return np.zeros(len(rows))
    cosine = dataclasses.replace(query, formula=_COSINE)
    return _by_blocks(part, rows, lambda v: _quantity(cosine, v, False), 1)[:, 0]


def _by_blocks(part: Partition, rows: Rows, score: Any, width: int) -> F64:
    """``score`` of the stored vectors of ``rows``, gathered a block at a time."""
    out = np.empty((len(rows), width), dtype=np.float64)
    for start in range(0, len(rows), _EXACT_BLOCK):
        block = part.matrix[rows[start : start + _EXACT_BLOCK]]
        out[start : start + len(block)] = _per_distinct_row(block, score)
    return out


def _quantity(query: ScoringQuery, v32: npt.NDArray[np.float32], with_cosines: bool) -> F64:
    """Rows of (the formula's exact quantity[, the cosine]), correctly rounded to float64."""
    quantity = query.formula.quantity
    out = np.empty((len(v32), 2 if with_cosines else 1), dtype=np.float64)
    v = v32.astype(np.float64)
    floats = np.ones(len(v), dtype=bool)
    if query.lattice is not None:
        k, found = arithmetic.lattice_directions(v)
        if found.any():
            kv = k[found]
            c = arithmetic.lattice_cosines(
                kv, np.einsum("ij,ij->i", kv, kv), query.lattice, query.lattice_squared
            )
            out[found, 0] = 2.0 - 2.0 * c if quantity == "squared_l2" else c
            if with_cosines:
                out[found, 1] = c
            floats = ~found
            v = v[floats]
    if not len(v):
        return out
    operand = query.operand
    found_pieces = arithmetic.pieces(
        v,
        operand,
        norms=with_cosines or quantity in ("cosine", "squared_l2"),
        distances=quantity == "squared_l2",
    )
    d = found_pieces[0]
    if with_cosines or quantity == "cosine":
        c = arithmetic.cosine_of_pieces(d, found_pieces[1], operand.squared)
        if with_cosines:
            out[floats, 1] = c
    if quantity == "dot":
        out[floats, 0] = d
    elif quantity == "unit_dot":  # Qdrant: rows stored as unit vectors, the query divided by |q|
        out[floats, 0] = arithmetic.cosine_of_pieces(d, np.ones(len(d)), operand.squared)
    elif quantity == "cosine":
        out[floats, 0] = c
    else:
        out[floats, 0] = found_pieces[2]
    return out


@functools.lru_cache(maxsize=8)
def _probe(width: int) -> npt.NDArray[np.float32]:
    return np.random.default_rng(width).standard_normal(width).astype(np.float32)


def _per_distinct_row(v32: npt.NDArray[np.float32], score: Any) -> npt.NDArray[Any]:
    """``score(v32)``, computed once per distinct row when there are many rows: equal rows
    score equally by definition. Rows are grouped by a float32 product with a fixed vector
    (equal rows almost always get equal keys; a row that does not is merely scored on its own)
    and each group is verified bit for bit."""
    if len(v32) < _DEDUPE_FROM:
        result: npt.NDArray[Any] = score(v32)
        return result
    keys = (v32 @ _probe(v32.shape[1])).view(np.uint32)
    _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    if len(first) == len(v32):
        everyone: npt.NDArray[Any] = score(v32)
        return everyone
    representative = first[inverse.reshape(-1)]
    same = (v32.view(np.uint32) == v32[representative].view(np.uint32)).all(axis=1)
    todo = np.union1d(first, np.flatnonzero(~same))
    scored = score(v32[todo])
    out: npt.NDArray[Any] = scored[np.searchsorted(todo, representative)]
    if not same.all():
        odd = np.flatnonzero(~same)
        out[odd] = scored[np.searchsorted(todo, odd)]
    return out
