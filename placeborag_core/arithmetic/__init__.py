"""Deterministic arithmetic: numbers that are the same bit for bit on every machine.

Every function here returns a fixed function of its inputs' values, whatever the CPU, the SIMD
level numpy dispatches to, or the BLAS kernel: that is what makes a score, a ranking and a tie
the same everywhere. Only these operations are used:

* element-wise ``+ - * / sqrt rint`` and comparisons on float64 or float32 arrays, which IEEE 754
  rounds correctly (numpy applies each ufunc on its own: no fused multiply-add);
* ``math.fsum``, the correctly rounded sum of a list of floats (Shewchuk's exact partials);
* ``int / int`` on Python integers, which CPython rounds correctly;
* sums and BLAS products of *integer-valued* float64 arrays whose partial sums all stay below
  2**53: every intermediate is then an exact integer, so the summation order cannot matter.

``np.dot``, ``@``, ``einsum`` and ``np.linalg.norm`` on other data are used only for
approximations whose error is bounded and then certified or corrected exactly.

Modules, bottom to top:

* ``error_free``: sums and products kept exactly as a few floats (error-free extraction,
  TwoProduct, expansions), rounded once by ``fsum``; rational arithmetic at extreme exponents.
* ``exact_pieces``: :func:`dot`, :func:`squared_norms`, :func:`squared_distances` and
  :func:`pieces` of float32-valued rows against one query (:class:`Operand`), correctly rounded
  to float64, and :func:`cosine_of_pieces`.
* ``float32_norm``: :func:`norm32`, the correctly rounded float32 norm (Qdrant's normalisation).
* ``lattice``: FakeEmbedder's vectors recognised by their values (:func:`lattice_directions`) and
  their exact cosines (:func:`lattice_cosines`), so mathematically equal cosines are equal.
* ``pairwise``: :func:`dot64`, :func:`cosine` and :func:`cosine_table` for arbitrary float64
  vectors, for the embedding helpers and MMR.

This package re-exports what the rest of the core uses; the helpers they are built from stay in
their modules.
"""

from placeborag_core.arithmetic.error_free import row_parts
from placeborag_core.arithmetic.exact_pieces import (
    Operand,
    cosine_of_pieces,
    dot,
    pieces,
    squared_distances,
    squared_norms,
)
from placeborag_core.arithmetic.float32_norm import norm32
from placeborag_core.arithmetic.lattice import lattice_cosines, lattice_directions
from placeborag_core.arithmetic.pairwise import cosine, cosine_table, dot64

__all__ = [
    "Operand",
    "cosine",
    "cosine_of_pieces",
    "cosine_table",
    "dot",
    "dot64",
    "lattice_cosines",
    "lattice_directions",
    "norm32",
    "pieces",
    "row_parts",
    "squared_distances",
    "squared_norms",
]
