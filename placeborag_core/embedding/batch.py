"""The batch route of ``FakeEmbedder``: many texts embedded with a few numpy calls.

:class:`BucketSums` turns a batch of texts into its unnormalised vectors (per text and bucket,
the sum of the signed feature weights) with one gather over the interned token table and one
``bincount``, and normalises rows of them; it is all a cluster declaration needs to place its
members. :class:`BatchRows` makes those sums the vectors ``embed_many`` and ``embed_lists``
return: unit rows, with cluster members and texts without a token put in their place. Both
compute exactly what the single-text route computes (every weight is a multiple of 1/2, so the
sums are exact), which the tests check bit for bit.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import numpy as np
import numpy.typing as npt

from placeborag_core.embedding._speed.half_pools import HalfPools
from placeborag_core.embedding._speed.token_table import TokenTable
from placeborag_core.embedding.clusters import ClusterSpace
from placeborag_core.embedding.hashing import derive_key, mix64
from placeborag_core.embedding.text import tokenise_flat

__all__ = ["BatchRows", "BucketSums", "fallback_vector"]

FloatArray = npt.NDArray[np.float64]


def fallback_vector(key: int, dimensions: int) -> FloatArray:
    """The vector of a text with no token at all (the empty string, pure punctuation).

    A fixed ±1/sqrt(d) pattern derived from the key: deterministic, unit length, never zero,
    and unrelated to any hashed text.
    """
    bits = mix64(np.arange(dimensions, dtype=np.uint64), derive_key(key, "empty"))
    signs = np.where((bits & np.uint64(1)) == 1, 1.0, -1.0)
    return signs / math.sqrt(dimensions)


class BucketSums:
    """The unnormalised vectors of a batch, and rows of them made unit length."""

    __slots__ = ("_fallback", "_tokens", "_width")

    def __init__(self, tokens: TokenTable, width: int, fallback: FloatArray) -> None:
        self._tokens = tokens
        self._width = width
        self._fallback = fallback

    @property
    def fallback(self) -> FloatArray:
        """The vector of texts without a (nonzero) token (see :func:`fallback_vector`)."""
        return self._fallback

    def of(self, texts: list[str]) -> FloatArray:
        """Per text and bucket, the sum of the signed feature weights (exact multiples of 1/2).

        Each distinct token is hashed once (and interned, see
        :mod:`placeborag_core.embedding._speed.token_table`);
        the features of every token occurrence are then gathered with numpy and summed per text
        and bucket by one ``bincount``.
        """
        count, width = len(texts), self._width
        flat = tokenise_flat(texts)
        table = self._tokens.current
        try:
            ids = np.fromiter(map(table.ids.__getitem__, flat), dtype=np.int64, count=len(flat))
        except KeyError:
            table = self._tokens.intern(flat)
            ids = np.fromiter(map(table.ids.__getitem__, flat), dtype=np.int64, count=len(flat))
        boundary = ids == 0
        rows = np.cumsum(boundary) - boundary
        sizes = table.sizes[ids]
        ends = np.cumsum(sizes)
        features = np.arange(int(ends[-1]) if len(ends) else 0, dtype=np.int64)
        features -= np.repeat(ends - sizes - table.starts[ids], sizes)
        cells = np.repeat(rows * width, sizes)
        cells += table.buckets[features]
        sums = np.bincount(cells, weights=table.weights[features], minlength=count * width).astype(
            np.float64, copy=False
        )
        return sums.reshape(count, width)

    def hashed_rows(self, texts: list[str]) -> FloatArray:
        """The hashed unit vectors of ``texts`` (float64, one row each), cluster members included:
        what the texts would be without clusters. Member offsets are made from these."""
        return self.normalised(self.of(texts), np.arange(len(texts)))

    def normalised(self, sums: FloatArray, rows: npt.NDArray[np.intp]) -> FloatArray:
        """Rows ``rows`` of the bucket sums ``sums`` as unit vectors (a new float64 array): the
        same quotients :meth:`BatchRows.unit_rows` computes, and the fallback vector for empty
        rows."""
        picked = sums[rows]
        norms = np.sqrt(np.einsum("ij,ij->i", picked, picked))
        empty = norms == 0.0
        norms[empty] = 1.0
        unit: FloatArray = picked / norms[:, None]
        unit[empty] = self._fallback
        return unit


class BatchRows:
    """The vectors of a batch, from its bucket sums: unit rows, cluster members, fallbacks."""

    __slots__ = ("_clusters", "_pools", "_sums")

    def __init__(self, sums: BucketSums, pools: HalfPools, clusters: ClusterSpace | None) -> None:
        self._sums = sums
        self._pools = pools
        self._clusters = clusters

    def matrix(self, texts: list[str]) -> FloatArray:
        """Embed a batch: the bucket sums of every text, as unit rows."""
        return self.unit_rows(texts, self._sums.of(texts))

    def unit_rows(
        self, texts: list[str], sums: FloatArray, out: npt.NDArray[Any] | None = None
    ) -> npt.NDArray[Any]:
        """The bucket sums of ``texts`` normalised (in place, or written into ``out``, rounded
        to its dtype), then cluster members and texts without a token overridden."""
        members = list(self._cluster_rows(texts, sums))  # from float64 sums, before they change
        norms = np.sqrt(np.einsum("ij,ij->i", sums, sums))
        empty = norms == 0.0
        norms[empty] = 1.0
        rows: npt.NDArray[Any] = np.divide(sums, norms[:, None], out=sums if out is None else out)
        if empty.any():
            rows[empty] = self._sums.fallback
        for row, vector in members:
            rows[row] = vector
        return rows

    def lists(self, texts: list[str]) -> list[list[float]]:
        """``FakeEmbedder.embed_lists`` for one block of texts.

        Entry ``j`` of a row is ``sum_j / norm`` with ``sum_j`` a multiple of 1/2, the division
        :meth:`matrix` performs;
        :meth:`~placeborag_core.embedding._speed.half_pools.HalfPools.unit_lists`
        gathers these quotients from floats made once per squared norm in the block, so no
        float is created per entry and equal entries share one object, which also keeps the
        rows compact in memory.
        """
        sums = self._sums.of(texts)
        # int32: numpy converts float64 to int32 with SIMD, to int64 element by element (~10x)
        doubled = (sums * 2.0).astype(np.int32)
        rows = [
            self.fallback_list() if row is None else row for row in self._pools.unit_lists(doubled)
        ]
        for row, vector in self._cluster_rows(texts, sums):
            rows[row] = vector.tolist()
        return rows

    def fallback_list(self) -> list[float]:
        """The fixed vector of texts without a (nonzero) token, as a new list."""
        fallback: list[float] = self._sums.fallback.tolist()
        return fallback

    def _cluster_rows(self, texts: list[str], sums: FloatArray) -> Iterator[tuple[int, FloatArray]]:
        """(row, member vector) for every text of a batch that belongs to a declared cluster,
        given the batch's bucket sums (float64, not yet normalised)."""
        if self._clusters is None:
            return
        found = [
            (row, cluster)
            for row, text in enumerate(texts)
            if (cluster := self._clusters.cluster_of(text)) is not None
        ]
        if not found:
            return
        hashed = self._sums.normalised(sums, np.array([row for row, _ in found], dtype=np.intp))
        for (row, cluster), vector in zip(found, hashed, strict=True):
            yield row, self._clusters.member_vector(texts[row], cluster, vector)
