"""Exact pieces of a score: dot products, squared norms and squared distances of stored rows.

The store keeps float32-valued rows; a query may be any float64 vector. Products of two float32
values are exact in float64, and a float64 query is split into its float32 rounding and the
exact rest (:class:`Operand`), so its products with a row are exact too; one ``fsum`` over the
exact terms then rounds each dot product, squared norm (:func:`squared_norms`) and squared
distance (:func:`squared_distances`) once, to float64 (RN64). :func:`pieces` computes the three
from one reduction of each sum, and :func:`cosine_of_pieces` divides them into a cosine:
deterministic, but two pairs with mathematically equal cosines get equal cosines only when their
pieces are equal (or scaled by powers of two); the lattice module covers the equal cosines that
FakeEmbedder's vectors have.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import numpy.typing as npt

from placeborag_core.arithmetic.error_free import (
    exact_squared64,
    expansion,
    fraction_dot,
    fsum_rows,
    row_parts,
    squared_terms64,
)

__all__ = [
    "Operand",
    "cosine_of_pieces",
    "dot",
    "float32_parts",
    "pieces",
    "products",
    "squared_distances",
    "squared_norms",
]

F64 = npt.NDArray[np.float64]

_F32_NORMAL_MIN = 2.0**-126


def float32_parts(values: F64) -> list[F64] | None:
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
        parts = float32_parts(self.values)
        self.exotic = parts is None
        self.parts = parts or []
        self.squared = exact_squared64(self.values)
        self.squared_parts = expansion(squared_terms64(self.values)) if not self.exotic else []

    def products(self, rows: F64) -> F64:
        """The exact products of float32-valued ``rows`` with this vector, side by side."""
        return products(rows, self.parts)


def products(rows: F64, parts: list[F64]) -> F64:
    """The exact products of float32-valued ``rows`` with each of ``parts`` (from
    :func:`float32_parts`), side by side."""
    if len(parts) == 1:
        return rows * parts[0]
    return np.concatenate([rows * part for part in parts], axis=1)


def dot(rows: F64, operand: Operand) -> F64:
    """RN64 of the exact dot product of each float32-valued row with ``operand``."""
    if operand.exotic:
        q = operand.values.tolist()
        return np.array([fraction_dot(r, q) for r in rows.tolist()])
    return fsum_rows(operand.products(rows))


def squared_norms(rows: F64) -> F64:
    """RN64 of the exact squared norm of each float32-valued row."""
    return fsum_rows(rows * rows)


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
