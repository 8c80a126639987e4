"""Interned tokens and their hashed features, laid out for numpy gathers.

A text's features are the union of its tokens' features (character n-grams never cross a token),
so the embedder hashes each distinct token once and keeps its features here (bucket and signed
weight) in flat arrays with a start and a size per token (the CSR layout). Embedding a batch is
then a gather over these arrays, with no Python loop over features. The table only saves work: a
vector never depends on what was interned before.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["Hasher", "TokenFeatures", "TokenTable"]

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
#: The features of new tokens, grouped by token in order: each feature's bucket and signed
#: weight, and the number of features of each token (arrays or plain lists).
TokenFeatures = tuple[IntArray | list[int], FloatArray | list[float], list[int]]
Hasher = Callable[[list[str]], TokenFeatures]


class _Snapshot:
    """One generation of the table. Readers hold a snapshot; only the writer mutates it, and a
    token's id is published only after its codes are in place."""

    __slots__ = ("buckets", "ids", "sizes", "spans", "starts", "tokens", "used", "weights")

    def __init__(self) -> None:
        self.ids: dict[str, int] = {}
        self.spans: list[slice] = []  # per token id: its features' slice of the flat arrays
        self.tokens = 0
        self.used = 0
        self.buckets: IntArray = np.zeros(1 << 14, dtype=np.int64)
        self.weights: FloatArray = np.zeros(1 << 14, dtype=np.float64)
        self.starts: IntArray = np.zeros(1 << 12, dtype=np.int64)
        self.sizes: IntArray = np.zeros(1 << 12, dtype=np.int64)


def _grown(array: npt.NDArray[Any], needed: int) -> npt.NDArray[Any]:
    if needed <= len(array):
        return array
    bigger = np.zeros(max(needed, 2 * len(array)), dtype=array.dtype)
    bigger[: len(array)] = array
    return bigger


class TokenTable:
    """A grow-only token -> features table, emptied when it would exceed ``limit`` tokens.

    ``reserved`` (the batch boundary marker) always has id 0 and no features.
    """

    def __init__(self, hasher: Hasher, *, reserved: str, limit: int = 1 << 17) -> None:
        self._hasher = hasher
        self._reserved = reserved
        self._limit = limit
        self._lock = threading.Lock()
        self._snapshot = self._empty()

    def _empty(self) -> _Snapshot:
        """A fresh generation holding only the reserved token (id 0, no features)."""
        snapshot = _Snapshot()
        snapshot.ids[self._reserved] = 0
        snapshot.spans.append(slice(0, 0))
        snapshot.tokens = 1
        return snapshot

    @property
    def current(self) -> _Snapshot:
        """The current generation (it may lack tokens a caller needs: then call :meth:`intern`)."""
        return self._snapshot

    def intern(self, vocabulary: list[str]) -> _Snapshot:
        """Make sure every token of ``vocabulary`` is in the table; return a snapshot with them."""
        snapshot = self._snapshot
        if all(map(snapshot.ids.__contains__, vocabulary)):
            return snapshot
        distinct = dict.fromkeys(vocabulary)
        with self._lock:
            snapshot = self._snapshot
            missing = [token for token in distinct if token not in snapshot.ids]
            if snapshot.tokens + len(missing) > self._limit:
                snapshot = self._snapshot = self._empty()
                missing = [token for token in distinct if token not in snapshot.ids]
            self._append(snapshot, missing)
            return snapshot

    def _append(self, snapshot: _Snapshot, missing: list[str]) -> None:
        buckets, weights, sizes = self._hasher(missing)
        first, used, added, count = snapshot.tokens, snapshot.used, len(buckets), len(missing)
        snapshot.buckets = _grown(snapshot.buckets, used + added)
        snapshot.weights = _grown(snapshot.weights, used + added)
        snapshot.starts = _grown(snapshot.starts, first + count)
        snapshot.sizes = _grown(snapshot.sizes, first + count)
        snapshot.buckets[used : used + added] = buckets
        snapshot.weights[used : used + added] = weights
        bounds = list(itertools.accumulate(sizes, initial=used))
        snapshot.starts[first : first + count] = bounds[:-1]
        snapshot.sizes[first : first + count] = sizes
        snapshot.spans.extend(map(slice, bounds[:-1], bounds[1:]))
        snapshot.used = used + added
        snapshot.tokens = first + count
        snapshot.ids.update(zip(missing, range(first, first + count), strict=True))
