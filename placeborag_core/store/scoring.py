"""Score formulas, one per engine convention, computed the way each engine computes them.

Every function takes the partition's float32 matrix (rows in slot order), the float32 row norms and
the float64 query, and scores *all* rows in one call: Qdrant's local mode, for one, is only
bit-exact when the whole matrix goes through a single ``np.dot`` (integrations.md section 3).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

__all__ = [
    "FORMULAS",
    "MATVEC_FORMULAS",
    "ROW_GROUP",
    "Formula",
    "cosine_f32",
    "row_cosines",
    "row_norms",
]

F32 = np.float32
Matrix = npt.NDArray[np.float32]
Vector = npt.NDArray[np.floating]
Formula = Callable[[Matrix, npt.NDArray[np.float32], npt.NDArray[np.float64]], Vector]


def row_norms(matrix: Matrix) -> npt.NDArray[np.float32]:
    """Float32 L2 norm of each row."""
    norms: npt.NDArray[np.float32] = np.sqrt(np.einsum("ij,ij->i", matrix, matrix, dtype=F32))
    return norms


def _nonzero(norms: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """``norms`` with zeros replaced by 1, so that a zero vector divided by its norm stays zero."""
    return norms if norms.all() else np.where(norms == 0, F32(1), norms)


def _query32(query: npt.NDArray[np.float64]) -> tuple[npt.NDArray[np.float32], np.float32]:
    """The query rounded to float32, and its float32 norm."""
    q32 = query.astype(F32)
    return q32, F32(np.sqrt(np.dot(q32, q32)))


def cosine_f32(
    matrix: Matrix, norms: npt.NDArray[np.float32], query: npt.NDArray[np.float64]
) -> Vector:
    """Cosine similarity in float32: one matrix-vector product, then the two norms."""
    q32, qnorm = _query32(query)
    result: Vector = matrix @ q32
    np.divide(result, norms, out=result)
    np.divide(result, qnorm, out=result)
    return result


_ROW_BLOCK = 2048  # rows per block for recipes with a temporary as large as their rows


def _squared_l2_f32(
    matrix: Matrix, norms: npt.NDArray[np.float32], query: npt.NDArray[np.float64]
) -> Vector:
    # Chroma l2 recipe: np.sum((q32 - v32) ** 2, dtype=float32), bit-exact (integrations.md 3.1).
    # Computed in blocks of rows: each row is reduced on its own, so the result is identical to
    # the whole-matrix expression, without a temporary as large as the matrix.
    q32 = query.astype(F32)
    result: Vector = np.empty(len(matrix), dtype=F32)
    buffer = np.empty((min(_ROW_BLOCK, len(matrix)), matrix.shape[1]), dtype=F32)
    for start in range(0, len(matrix), _ROW_BLOCK):
        rows = matrix[start : start + _ROW_BLOCK]
        diff = buffer[: len(rows)]
        np.subtract(rows, q32, out=diff)
        np.multiply(diff, diff, out=diff)
        np.sum(diff, axis=1, dtype=F32, out=result[start : start + len(rows)])
    return result


def _one_minus_cosine_f32(
    matrix: Matrix, norms: npt.NDArray[np.float32], query: npt.NDArray[np.float64]
) -> Vector:
    # Chroma cosine space: 1 - dot(q / |q|, v / |v|) in float32 (integrations.md 3.1). A zero
    # vector stays zero, as hnswlib's normalisation leaves it: its distance is 1.
    q32 = query.astype(F32)
    qnorm = np.linalg.norm(q32)
    qn = q32 / qnorm if qnorm else q32
    result: Vector = F32(1) - (matrix / _nonzero(norms)[:, None]) @ qn
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


def _by_row_blocks(
    matrix: Matrix, score: Callable[[npt.NDArray[np.float64]], Vector]
) -> npt.NDArray[np.float64]:
    """``score`` of the float64 copy of ``matrix``, taken :data:`_ROW_BLOCK` rows at a time.

    Qdrant's recipes mix a float32 matrix with a float64 query, so numpy first copies the whole
    matrix to float64 (twice its size) on every query; a block at a time the copy stays
    cache-sized (50,000 x 384: 49 -> 23 ms). Each row is reduced on its own, and the blocks are
    whole multiples of every BLAS row group, so the scores are bit for bit those of one call.
    """
    result = np.empty(len(matrix), dtype=np.float64)
    buffer = np.empty((min(_ROW_BLOCK, len(matrix)), matrix.shape[1]), dtype=np.float64)
    for start in range(0, len(matrix), _ROW_BLOCK):
        rows = matrix[start : start + _ROW_BLOCK]
        block = buffer[: len(rows)]
        block[...] = rows
        result[start : start + len(rows)] = score(block)
    return result


def _dot_f64_query(
    matrix: Matrix, norms: npt.NDArray[np.float32], query: npt.NDArray[np.float64]
) -> Vector:
    # Qdrant local recipe: float32 matrix times float64 query in one np.dot, float64 result.
    return _by_row_blocks(matrix, lambda block: np.dot(block, query))


def _cosine_f64_query(
    matrix: Matrix, norms: npt.NDArray[np.float32], query: npt.NDArray[np.float64]
) -> Vector:
    # Qdrant COSINE: rows were normalised in float32 on upsert; the query is normalised in float64
    # (a zero query stays zero: every score 0.0, as Qdrant reports).
    norm = np.linalg.norm(query)
    unit = query / norm if norm else query
    return _by_row_blocks(matrix, lambda block: np.dot(block, unit))


def _euclid_f64_query(
    matrix: Matrix, norms: npt.NDArray[np.float32], query: npt.NDArray[np.float64]
) -> Vector:
    # Qdrant EUCLID: np.linalg.norm(M - q, axis=-1) with a float64 query (not squared).
    return _by_row_blocks(matrix, lambda block: np.linalg.norm(block - query, axis=-1))


FORMULAS: dict[str, Formula] = {
    "cosine_f32": cosine_f32,
    "squared_l2_f32": _squared_l2_f32,
    "one_minus_cosine_f32": _one_minus_cosine_f32,
    "one_minus_dot_f32": _one_minus_dot_f32,
    "dot_f32": _dot_f32,
    "dot_f64_query": _dot_f64_query,
    "cosine_f64_query": _cosine_f64_query,
    "euclid_f64_query": _euclid_f64_query,
}

MATVEC_FORMULAS: frozenset[str] = frozenset(
    {"cosine_f32", "dot_f32", "one_minus_dot_f32", "one_minus_cosine_f32"}
)
"""Formulas that are one float32 matrix-vector product with no engine bit pattern to reproduce.

Their scores are exact only on exactly representable geometry (integrations.md section 3), so the
partition is free to lay the matrix out for them
(:class:`~placeborag_core.store.partition.Partition`
with ``grouped=True``): column-major, which OpenBLAS multiplies about 30% faster at 50,000 x 384,
and scored in whole groups of :data:`ROW_GROUP` rows. BLAS kernels compute the last few rows of a
matrix (those that do not fill a SIMD block) with other code than the rest, so without the groups
two identical vectors could score an ulp apart depending on their positions, and a tie would be
broken by rounding instead of by the profile's rule. The other formulas reproduce an engine's
recipe bit for bit on any vectors and read the rows the way the engine does.
"""

ROW_GROUP = 64
"""Rows scored together: a multiple of every BLAS kernel's row block (16 measured here)."""


def row_cosines(
    matrix: Matrix, norms: npt.NDArray[np.float32], query: npt.NDArray[np.float64]
) -> npt.NDArray[np.float32]:
    """:func:`cosine_f32` of a few gathered rows, each row reduced on its own (position-free).

    The cosine of a zero vector (stored or query), which some engines accept, is 0.
    """
    q32, qnorm = _query32(query)
    dots = np.einsum("ij,j->i", matrix, q32)
    if qnorm and norms.all():
        result: npt.NDArray[np.float32] = dots / norms / qnorm
        return result
    result = np.zeros(len(dots), dtype=F32)
    if qnorm:
        some = norms != 0
        result[some] = dots[some] / norms[some] / qnorm
    return result
