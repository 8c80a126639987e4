"""The scoring step of the pipeline: a profile's formula over a partition's rows, and the cosine
similarity every ``Match`` carries beside the engine's score.

The formulas themselves are engine facts and live in ``placeborag_core.backends``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from placeborag_core.backends.formulas import Formula, query32

__all__ = ["ROW_GROUP", "row_cosines", "row_norms", "score_rows"]

F32 = np.float32
Matrix = npt.NDArray[np.float32]

ROW_GROUP = 64
"""Rows scored together by the row-group formulas (``Formula.row_groups``): a multiple of every
BLAS kernel's row block (16 measured here).

BLAS kernels compute the last few rows of a matrix (those that do not fill a SIMD block) with
other code than the rest, so without whole groups two identical vectors could score an ulp apart
depending on their positions, and a tie would be broken by rounding instead of by the profile's
rule. The partition lays such a matrix out column-major (which OpenBLAS multiplies about 30%
faster at 50,000 x 384) and scores it in whole groups.
"""


def row_norms(matrix: Matrix) -> npt.NDArray[np.float32]:
    """Float32 L2 norm of each row."""
    norms: npt.NDArray[np.float32] = np.sqrt(np.einsum("ij,ij->i", matrix, matrix, dtype=F32))
    return norms


def score_rows(
    formula: Formula,
    matrix: Matrix,
    norms: npt.NDArray[np.float32],
    n_rows: int,
    query: npt.NDArray[np.float64],
) -> npt.NDArray[Any]:
    """The formula's scores of the first ``n_rows`` rows (``matrix`` may hold a few more: the
    rest of a row group)."""
    return formula.score(matrix, norms, query)[:n_rows]


def row_cosines(
    matrix: Matrix, norms: npt.NDArray[np.float32], query: npt.NDArray[np.float64]
) -> npt.NDArray[np.float32]:
    """The float32 cosine of a few gathered rows, each row reduced on its own (position-free).

    The cosine of a zero vector (stored or query), which some engines accept, is 0.
    """
    q32, qnorm = query32(query)
    dots = np.einsum("ij,j->i", matrix, q32)
    if qnorm and norms.all():
        result: npt.NDArray[np.float32] = dots / norms / qnorm
        return result
    result = np.zeros(len(dots), dtype=F32)
    if qnorm:
        some = norms != 0
        result[some] = dots[some] / norms[some] / qnorm
    return result
