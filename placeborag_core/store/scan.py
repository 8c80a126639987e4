"""Which of a query's candidates are scored exactly: the band, or what a tie rule asks about.

The phase-1 keys and their rigorous bound (:func:`~placeborag_core.store.scoring.bounded_keys`)
rule out the candidates that certainly report a worse score than a given one. Below the
``limit``-th best key, that leaves the band (``store/scoring.py``), which decides the answer
for most tie rules. Some engines' selection depends on every candidate they are given:
PostgreSQL's bounded heap is built from the rows in heap order, and which of several equal
distances it keeps depends on when each arrived. Scoring every candidate exactly would cost a
hundred times the floor, but a row certainly worse than the heap's current worst never enters
the heap; :class:`Scan` gives such a rule exact badness for the candidates it asks about and the
test that rules the others out (:meth:`Scan.contenders`).
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from placeborag_core.store.scoring import ScoringQuery, bounded_keys, exact_scores

if TYPE_CHECKING:
    from placeborag_core.store.partition import Partition

__all__ = ["Scan"]

Rows = npt.NDArray[np.intp]


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

    @property
    def bounded(self) -> bool:
        """Whether the keys rule anything out (no bound holds for a zero query, zero rows
        reporting NaN, or a product that could overflow)."""
        return self._bound is not None

    def band(self, limit: int | None) -> Rows:
        """The candidate rows that can be among the ``limit`` best or tied with the
        ``limit``-th in the reported score (all if ``limit`` is None or reaches them all)."""
        if limit is None or limit >= self.count or self._bound is None:
            return self.rows
        keys, margin = self._bound
        # the limit-th largest key (selected from the front: numpy's introselect is slow near the
        # end of an array full of equal values)
        t = -float(np.partition(-keys, limit - 1)[limit - 1])
        return self.rows[np.flatnonzero(keys >= np.float64(t - margin))]

    def badness(self, positions: Rows) -> npt.NDArray[Any]:
        """The exact badness of the candidates at ``positions`` (the reported score, negated
        when higher is better)."""
        scores, _ = exact_scores(self._part, self._query, self.rows[positions])
        return -scores if self._negate else scores

    def contenders(self, start: int, stop: int, reference: int) -> Rows:
        """The positions in ``[start, stop)`` whose reported score may equal or beat that of the
        candidate at ``reference``: the others' phase-1 keys are more than the bound's margin
        below its key (all of them when no bound holds)."""
        if self._bound is None:
            return np.arange(start, stop)
        keys, margin = self._bound
        threshold = np.float64(float(keys[reference]) - margin)
        return start + np.flatnonzero(keys[start:stop] >= threshold)
