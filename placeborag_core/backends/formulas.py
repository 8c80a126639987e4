"""Score formulas shared by several engines: one float32 pass over a partition's matrix.

A :class:`Formula` is what a :class:`~placeborag_core.backends.profile.MetricVariant` computes.
Each function takes the float32 matrix (rows in slot order), the float32 row norms and the
float64 query, and scores every row in one call. Engine-specific recipes (Qdrant's float64
arithmetic) live in their engine's module.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

__all__ = [
    "COSINE_F32",
    "DOT_F32",
    "ONE_MINUS_COSINE_F32",
    "ONE_MINUS_DOT_F32",
    "SQUARED_L2_F32",
    "Formula",
    "ScoreFunction",
    "nonzero",
    "query32",
]

F32 = np.float32
Matrix = npt.NDArray[np.float32]
Vector = npt.NDArray[np.floating]
ScoreFunction = Callable[[Matrix, npt.NDArray[np.float32], npt.NDArray[np.float64]], Vector]

ROW_BLOCK = 2048
"""Rows per block for recipes whose temporary is as large as the rows they read."""


@dataclass(frozen=True)
class Formula:
    """A named score function. ``row_groups``: it is one float32 matrix-vector product, so the
    store may lay the matrix out column-major and score it in whole groups of rows (see
    :class:`~placeborag_core.store.partition.Partition`). ``is_cosine``: the score is the cosine
    similarity itself, so a match's ``similarity`` is its score."""

    name: str
    score: ScoreFunction
    row_groups: bool = False
    is_cosine: bool = False


def nonzero(norms: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """``norms`` with zeros replaced by 1, so that a zero vector divided by its norm stays zero."""
    return norms if norms.all() else np.where(norms == 0, F32(1), norms)


def query32(query: npt.NDArray[np.float64]) -> tuple[npt.NDArray[np.float32], np.float32]:
    """The query rounded to float32, and its float32 norm."""
    q32 = query.astype(F32)
    return q32, F32(np.sqrt(np.dot(q32, q32)))


def _cosine_f32(
    matrix: Matrix, norms: npt.NDArray[np.float32], query: npt.NDArray[np.float64]
) -> Vector:
    q32, qnorm = query32(query)
    result: Vector = matrix @ q32
    np.divide(result, norms, out=result)
    np.divide(result, qnorm, out=result)
    return result


def _squared_l2_f32(
    matrix: Matrix, norms: npt.NDArray[np.float32], query: npt.NDArray[np.float64]
) -> Vector:
    # np.sum((q32 - v32) ** 2, dtype=float32), computed in blocks of rows: each row is reduced on
    # its own, so the result is that of the whole-matrix expression without a temporary as large
    # as the matrix.
    q32 = query.astype(F32)
    result: Vector = np.empty(len(matrix), dtype=F32)
    buffer = np.empty((min(ROW_BLOCK, len(matrix)), matrix.shape[1]), dtype=F32)
    for start in range(0, len(matrix), ROW_BLOCK):
        rows = matrix[start : start + ROW_BLOCK]
        diff = buffer[: len(rows)]
        np.subtract(rows, q32, out=diff)
        np.multiply(diff, diff, out=diff)
        np.sum(diff, axis=1, dtype=F32, out=result[start : start + len(rows)])
    return result


def _one_minus_cosine_f32(
    matrix: Matrix, norms: npt.NDArray[np.float32], query: npt.NDArray[np.float64]
) -> Vector:
    # 1 - dot(q / |q|, v / |v|) in float32. A zero vector stays zero (as hnswlib's normalisation
    # leaves it): its distance is 1.
    q32 = query.astype(F32)
    qnorm = np.linalg.norm(q32)
    qn = q32 / qnorm if qnorm else q32
    result: Vector = F32(1) - (matrix / nonzero(norms)[:, None]) @ qn
    return result


def _one_minus_dot_f32(
    matrix: Matrix, norms: npt.NDArray[np.float32], query: npt.NDArray[np.float64]
) -> Vector:
    result: Vector = F32(1) - matrix @ query.astype(F32)
    return result


def _dot_f32(
    matrix: Matrix, norms: npt.NDArray[np.float32], query: npt.NDArray[np.float64]
) -> Vector:
    result: Vector = matrix @ query.astype(F32)
    return result


COSINE_F32 = Formula("cosine_f32", _cosine_f32, row_groups=True, is_cosine=True)
"""Cosine similarity in float32: one matrix-vector product, then the two norms."""
SQUARED_L2_F32 = Formula("squared_l2_f32", _squared_l2_f32)
"""Squared L2 distance, element-wise in float32 (Chroma ``l2``, FAISS ``IndexFlatL2``)."""
ONE_MINUS_COSINE_F32 = Formula("one_minus_cosine_f32", _one_minus_cosine_f32, row_groups=True)
"""1 - cosine in float32 (Chroma ``cosine``, Weaviate)."""
ONE_MINUS_DOT_F32 = Formula("one_minus_dot_f32", _one_minus_dot_f32, row_groups=True)
"""1 - dot product in float32 (Chroma ``ip``)."""
DOT_F32 = Formula("dot_f32", _dot_f32, row_groups=True)
"""Dot product in float32 (FAISS ``IndexFlatIP``)."""
