"""Deterministic arithmetic: numbers that are the same bit for bit on every machine.

Every function here returns a fixed function of its inputs' values, whatever the CPU, the SIMD
level numpy dispatches to, or the BLAS kernel. Only these operations are used:

* element-wise ``+ - * / sqrt rint`` and comparisons on float64 or float32 arrays, which IEEE 754
  rounds correctly (numpy applies each ufunc on its own: no fused multiply-add);
* ``math.fsum``, the correctly rounded sum of a list of floats (Shewchuk's exact partials);
* ``int / int`` on Python integers, which CPython rounds correctly;
* sums and BLAS products of *integer-valued* float64 arrays whose partial sums all stay below
  2**53: every intermediate is then an exact integer, so the summation order cannot matter.

``np.dot``, ``@``, ``einsum`` and ``np.linalg.norm`` on other data are used only for
approximations whose error is bounded and then certified or corrected exactly.

What is computed:

* :func:`dot`, :func:`squared_norms`, :func:`squared_distances`: the exact dot product, squared
  norm and squared distance of float vectors, correctly rounded to float64 (RN64). Products of
  two float32 values are exact in float64; a float64 query is split into its float32 rounding
  and the exact rest (:class:`Operand`), so its products are exact too; ``fsum`` then rounds the
  exact sum once.
* :func:`cosine_of_pieces`: ``RN64(D / RN64(sqrt(RN64(Sv * Sq))))`` from those correctly rounded
  pieces: deterministic, but two different pairs with mathematically equal cosines are equal
  only when their pieces are (equal dot and squared norms, or pieces scaled by powers of two).
* *lattice* vectors (:func:`lattice_directions`): FakeEmbedder's unit vectors are
  ``RN64(k / RN64(|k|))`` for an integer vector ``k`` (its doubled bucket sums). The integers
  are recovered from the floats, and :func:`lattice_cosines` gives
  ``sign(D) * sqrt(RN64(D**2 / (Sa * Sq)))`` from the exact integers ``D = ka.kq``,
  ``Sa = |ka|**2``, ``Sq = |kq|**2``: a function of the exact cosine, so mathematically equal
  cosines of lattice pairs are equal bit for bit.
* :func:`norm32`: ``RN32(|v|)``, the correctly rounded float32 norm (Qdrant's normalisation).
* :func:`dot64` and :func:`cosine`: the same for two arbitrary float64 vectors (exact products
  by Dekker's TwoProduct), for the embedding helpers.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = [
    "LATTICE_MAX",
    "Operand",
    "cosine",
    "cosine_of_pieces",
    "cosine_table",
    "dot",
    "dot64",
    "exact_dots",
    "expansion",
    "lattice_cosines",
    "lattice_directions",
    "norm32",
    "pieces",
    "row_parts",
    "squared_distances",
    "squared_norms",
]

F64 = npt.NDArray[np.float64]
Bools = npt.NDArray[np.bool_]

LATTICE_MAX = 2**15
"""Largest |k| of a recognised lattice vector: ``n * LATTICE_MAX**2 < 2**53`` keeps every
integer dot product exact in float64 up to ``n = 2**23`` dimensions."""

_MAX_MULTIPLIER = 8  # smallest nonzero |k| tried when recovering k (1 for every text measured)
_F32_NORMAL_MIN = 2.0**-126


def _fsum_rows(terms: F64) -> F64:
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


def _float32_parts(values: F64) -> list[F64] | None:
    """``values`` as parts whose products with float32 values are exact in float64 (see
    :class:`Operand`), or None if a component is too small for that."""
    q32 = values.astype(np.float32).astype(np.float64)
    if np.array_equal(q32, values):
        return [values]
    if ((values != 0) & (np.abs(values) < _F32_NORMAL_MIN)).any():
        return None
    return [q32, values - q32]


class Operand:
    """One vector split so that its products with float32 values are exact in float64.

    A float32-valued vector is its own split. A float64 vector ``q`` whose nonzero components
    lie in float32's normal range is ``q32 + rest`` with ``q32 = RN32(q)`` and
    ``rest = q - q32`` (exact, at most 29 significant bits): a float32 value (24 bits) times
    either part fits in float64's 53 bits. Otherwise (components below 2**-126) ``exotic`` is
    True and callers use rational arithmetic.
    """

    def __init__(self, values: F64) -> None:
        self.values = np.ascontiguousarray(values, dtype=np.float64)
        parts = _float32_parts(self.values)
        self.exotic = parts is None
        self.parts = parts or []
        self.squared = _exact_squared64(self.values)
        self.squared_parts = expansion(_squared_terms64(self.values)) if not self.exotic else []

    def products(self, rows: F64) -> F64:
        """The exact products of float32-valued ``rows`` with this vector, side by side."""
        return _products(rows, self.parts)


def _products(rows: F64, parts: list[F64]) -> F64:
    if len(parts) == 1:
        return rows * parts[0]
    return np.concatenate([rows * part for part in parts], axis=1)


def dot(rows: F64, operand: Operand) -> F64:
    """RN64 of the exact dot product of each float32-valued row with ``operand``."""
    if operand.exotic:
        q = operand.values.tolist()
        return np.array([_fraction_dot(r, q) for r in rows.tolist()])
    return _fsum_rows(operand.products(rows))


def squared_norms(rows: F64) -> F64:
    """RN64 of the exact squared norm of each float32-valued row."""
    return _fsum_rows(rows * rows)


def pieces(rows: F64, operand: Operand, *, norms: bool, distances: bool) -> tuple[F64, ...]:
    """``dot(rows, operand)``, and if asked ``squared_norms(rows)`` and
    ``squared_distances(rows, operand)``, from one exact reduction of each sum: the squared
    distance is ``fsum`` of the parts of ``|v|**2``, ``-2`` times those of ``v.q``, and the
    parts of ``|q|**2``."""
    if operand.exotic:
        dots = dot(rows, operand)
        if not (norms or distances):
            return (dots,)
        return dots, squared_norms(rows), squared_distances(rows, operand)
    dot_parts = row_parts(operand.products(rows))
    dots = np.array([math.fsum(row) for row in dot_parts.tolist()], dtype=np.float64)
    if not (norms or distances):
        return (dots,)
    norm_parts = row_parts(rows * rows)
    squares = np.array([math.fsum(row) for row in norm_parts.tolist()], dtype=np.float64)
    if not distances:
        return dots, squares
    extra = operand.squared_parts
    both = np.concatenate([norm_parts, -2.0 * dot_parts], axis=1).tolist()
    return dots, squares, np.array([math.fsum(row + extra) for row in both], dtype=np.float64)


def squared_distances(rows: F64, operand: Operand) -> F64:
    """RN64 of the exact ``|v - q|**2`` of each float32-valued row: one ``fsum`` over the exact
    terms of ``|v|**2 - 2 v.q + |q|**2``."""
    if operand.exotic:
        q = [Fraction(x) for x in operand.values.tolist()]
        return np.array(
            [
                float(sum((Fraction(a) - b) ** 2 for a, b in zip(r, q, strict=True)))
                for r in rows.tolist()
            ]
        )
    parts = np.concatenate(
        [row_parts(rows * rows), -2.0 * row_parts(operand.products(rows))], axis=1
    )
    extra = operand.squared_parts
    return np.array([math.fsum(row + extra) for row in parts.tolist()], dtype=np.float64)


def cosine_of_pieces(d: F64, sv: F64, sq: float) -> F64:
    """``RN64(d / RN64(sqrt(RN64(sv * sq))))``, 0 where a vector is zero."""
    with np.errstate(divide="ignore", invalid="ignore"):
        out: F64 = d / np.sqrt(sv * sq)
    out[(sv == 0) | (sq == 0)] = 0.0
    return out


# ---------------------------------------------------------------------------- float32 norms


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


# ---------------------------------------------------------------------------- lattice vectors


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


# ---------------------------------------------------------------------------- float64 vectors


def _split(a: F64) -> tuple[F64, F64]:
    t = a * 134217729.0  # 2**27 + 1 (Veltkamp)
    hi = t - (t - a)
    return hi, a - hi


def _two_products(a: F64, b: F64) -> F64:
    """``a * b`` and its exact rounding error side by side (Dekker's TwoProduct): valid when
    every nonzero component lies in [2**-450, 2**500] (no overflow, no underflow)."""
    p = a * b
    ah, al = _split(a)
    bh, bl = _split(b)
    e = ((ah * bh - p) + ah * bl + al * bh) + al * bl
    return np.concatenate([p, e], axis=-1)


def _safe64(values: F64) -> bool:
    mags = np.abs(values[values != 0])
    return bool(mags.size == 0 or (mags.min() >= 2.0**-450 and mags.max() <= 2.0**500))


def _squared_terms64(values: F64) -> list[float]:
    if np.array_equal(values.astype(np.float32), values):
        terms: list[float] = (values * values).tolist()
        return terms
    return list(_two_products(values, values).tolist())


def _exact_squared64(values: F64) -> float:
    if not _safe64(values):
        return _fraction_dot(values.tolist(), values.tolist())
    return math.fsum(_squared_terms64(values))


def dot64(a: Any, b: Any) -> float:
    """RN64 of the exact dot product of two float64 vectors."""
    x = np.asarray(a, dtype=np.float64)
    y = np.asarray(b, dtype=np.float64)
    if not (_safe64(x) and _safe64(y)):
        return _fraction_dot(x.tolist(), y.tolist())
    return math.fsum(_two_products(x, y).tolist())


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
        parts = _float32_parts(vector)
        if parts is not None:
            return _fsum_rows(_products(rows, parts))
    if _safe64(rows) and _safe64(vector):
        return _fsum_rows(_two_products(rows, np.broadcast_to(vector, rows.shape)))
    return np.array([_fraction_dot(r, vector.tolist()) for r in rows.tolist()])


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


def _fraction_dot(a: list[float], b: list[float]) -> float:
    """The slow exact path (extreme exponents): rational arithmetic, correctly rounded."""
    return float(sum((Fraction(x) * Fraction(y) for x, y in zip(a, b, strict=True)), Fraction(0)))
