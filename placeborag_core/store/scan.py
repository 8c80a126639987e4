"""Which of a query's candidates are scored exactly: the band, or what a tie rule asks about.

The phase-1 keys and their rigorous bound (:func:`~placeborag_core.store.scoring.bounded_keys`)
rule out the candidates that certainly report a worse score than a given one. Below the
``limit``-th best key, that leaves the band (``store/scoring.py``), which decides the answer
for most tie rules. Some engines' selection depends on every candidate they are given:
PostgreSQL's bounded heap is built from the rows in heap order, and which of several equal
distances it keeps depends on when each arrived. Scoring every candidate exactly would cost a
hundred times the floor, but a row certainly worse than the heap's current worst never enters
the heap; :class:`Scan` finds the candidates that may enter it (:meth:`Scan.entrants`) and
orders them (:meth:`Scan.ranks`: by float64 keys, scoring exactly only those whose keys are
too close to order).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from placeborag_core.backends.ties import dense_ranks
from placeborag_core.store.scoring import (
    ScoringQuery,
    bounded_keys,
    exact_scores,
    refined_keys,
)

if TYPE_CHECKING:
    from placeborag_core.store.partition import Partition

__all__ = ["Scan", "entrants", "kth_largest", "ranks_by_keys"]

Rows = npt.NDArray[np.intp]
_MIN_BLOCK = 64  # candidates per block at least (one numpy step each)
_HEAD = 1024  # keys at least whose k-th largest bounds the k-th largest of all (kth_largest)


class Scan:
    """The candidates ``rows`` (ascending, or every row if None) of one query (see the module
    docstring); ``higher_is_better`` turns the profile's scores into badness. The phase-1 keys
    are computed once, when first needed."""

    def __init__(
        self,
        part: Partition,
        query: ScoringQuery,
        rows: Rows | None,
        higher_is_better: bool,
    ) -> None:
        self._part = part
        self._query = query
        self._given = rows
        self._negate = higher_is_better
        self.rows: Rows = np.arange(part.n_rows) if rows is None else rows
        self.count = len(self.rows)

    @functools.cached_property
    def _bound(self) -> tuple[Any, float] | None:
        return bounded_keys(self._part, self._query, self._given)

    def band(self, limit: int | None) -> Rows:
        """The candidate rows that can be among the ``limit`` best or tied with the
        ``limit``-th in the reported score (all if ``limit`` is None or reaches them all)."""
        if limit is None or limit >= self.count or self._bound is None:
            return self.rows
        keys, margin = self._bound
        t = kth_largest(keys, limit)
        return self.rows[np.flatnonzero(keys >= np.float64(t - margin))]

    def badness(self, positions: Rows) -> npt.NDArray[Any]:
        """The exact badness of the candidates at ``positions`` (the reported score, negated
        when higher is better)."""
        scores, _ = exact_scores(self._part, self._query, self.rows[positions])
        return -scores if self._negate else scores

    def ranks(self, positions: Rows) -> npt.NDArray[np.int64]:
        """Integers in the order of the exact badness of the candidates at ``positions``, equal
        for equal badness (:func:`ranks_by_keys`)."""
        if self._bound is None:
            return dense_ranks(self.badness(positions))
        keys, margin = refined_keys(self._part, self._query, self.rows[positions])
        return ranks_by_keys(keys, margin, lambda at: self.badness(positions[at]))

    def entrants(self, bound: int) -> Rows:
        """The positions that may rank among the ``bound`` best of the candidates up to them,
        ties included (:func:`entrants`; all of them when no bound holds)."""
        if self._bound is None:
            return np.arange(self.count)
        keys, margin = self._bound
        return entrants(keys, margin, bound)


def entrants(keys: Any, margin: float, bound: int) -> Rows:
    """The positions whose reported score may rank among the ``bound`` best of those up to
    them, given phase-1 ``keys`` (higher is better) that rule out every row whose key is more
    than ``margin`` below another's: the first ``bound``, then each whose key reaches the
    ``bound``-th best key before its block, less the margin.

    A row at ``p`` better than the ``bound``-th best score before it is better than one of the
    ``bound`` rows with the best keys before its block, so its key is at most the margin below
    theirs (the band's argument, ``store/scoring.py``). Blocks grow with the prefix, so that the
    threshold stays close to the one at each row."""
    if bound >= len(keys):
        return np.arange(len(keys))
    return np.flatnonzero(_streamed(keys, margin, bound))


def kth_largest(keys: Any, k: int) -> float:
    """The ``k``-th largest of ``keys`` (1 <= k < their count). The ``k``-th largest of the
    first ``h`` is a lower bound for it, so only the keys reaching that one are partitioned:
    about ``len(keys) * k / h`` of them for keys in no particular order (all of them at worst,
    when the keys rise along the rows); ``h = sqrt(len(keys) * k)`` balances the two
    partitions."""
    head = keys[: max(_HEAD, math.isqrt(len(keys) * k))]
    floor = np.partition(head, len(head) - k)[len(head) - k]
    rest = keys[keys >= floor]
    return float(np.partition(rest, len(rest) - k)[len(rest) - k])


def _streamed(keys: Any, margin: float, bound: int) -> npt.NDArray[np.bool_]:
    """The mask of :func:`entrants`: one pass over ``keys`` in growing blocks (``bound`` <
    their count), keeping the ``bound`` largest keys so far."""
    count = len(keys)
    keep = np.zeros(count, dtype=bool)
    keep[:bound] = True
    best = np.asarray(keys[:bound], dtype=np.float64)  # the bound largest keys so far
    start = bound
    while start < count:
        stop = min(count, start + max(_MIN_BLOCK, start // 4))
        block = keep[start:stop] = keys[start:stop] >= np.float64(float(best.min()) - margin)
        rising = keys[start:stop][block]  # only these can join the bound largest keys
        best = np.partition(np.concatenate([best, rising]), len(rising))[len(rising) :]
        start = stop
    return keep


def ranks_by_keys(
    keys: Any, margin: float, badness: Callable[[Rows], Any]
) -> npt.NDArray[np.int64]:
    """Integers in the order of the exact badness of some candidates (equal for equal badness),
    from their phase-1 ``keys`` (higher is better; a key more than ``margin`` below another
    means a strictly worse score) and ``badness(indices)``, their exact badness.

    Sorted by key, the candidates fall into runs whose neighbours' keys are within the margin;
    a run is strictly better than the next (its keys are more than the margin above), so only
    the candidates in runs of two or more are scored exactly, to order them within their run."""
    ordered = np.argsort(-np.asarray(keys, dtype=np.float64), kind="stable")  # best first
    near = np.asarray(keys, dtype=np.float64)[ordered]
    run = np.zeros(len(near), dtype=np.int64)
    run[1:] = np.cumsum(near[1:] < near[:-1] - margin)
    shared = np.bincount(run)[run] > 1
    exact = np.zeros(len(near))
    if shared.any():
        exact[shared] = badness(ordered[shared])
    by_run = np.lexsort((exact, run))
    runs, values = run[by_run], exact[by_run]
    step = np.zeros(len(near), dtype=np.int64)
    step[1:] = (runs[1:] != runs[:-1]) | (values[1:] != values[:-1])
    ranks = np.empty(len(near), dtype=np.int64)
    ranks[ordered[by_run]] = np.cumsum(step)
    return ranks
