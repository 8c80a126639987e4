"""Tie rules: how a ranking orders equal scores, and which tied records survive a cut at ``k``.

Engines disagree here and tests notice: Chroma returns ties in insertion order, the Qdrant server
in point-id order, FAISS's IndexFlatIP whatever its selection heap leaves. A :class:`TieRule`
turns scores into an ordered selection of rows; the base rule is "the ``k`` best by (score,
insertion slot)", and an engine with another rule subclasses it (see
:class:`KeyOrderTies` and ``backends/faiss.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from placeborag_core.messages import shown

__all__ = ["INSERTION", "CandidateScan", "KeyOrderTies", "TieRule", "dense_ranks"]

Rows = npt.NDArray[np.intp]
Badness = npt.NDArray[Any]


def dense_ranks(badness: Badness) -> npt.NDArray[np.int64]:
    """``0, 1, ...`` in ascending order of ``badness``, equal values sharing a rank: ``-0.0``
    equals ``0.0``, and NaN comes after every number and equals NaN (PostgreSQL's float8 order;
    ranks compare as Python ints, faster than floats that may be NaN)."""
    values = np.asarray(badness, dtype=np.float64)
    order = np.argsort(values, kind="stable")  # NaN last
    ordered = values[order]
    nan = np.isnan(ordered)
    step = np.zeros(len(values), dtype=np.int64)
    step[1:] = (ordered[1:] != ordered[:-1]) & ~(nan[1:] & nan[:-1])
    ranks = np.empty(len(values), dtype=np.int64)
    ranks[order] = np.cumsum(step)
    return ranks


class CandidateScan(Protocol):
    """A query's candidates in input order (positions ``0 .. count - 1``), for a rule whose
    answer can depend on all of them: exact badness on demand, and which candidates can rank
    among the best of those before them (``store/scan.py``)."""

    @property
    def count(self) -> int: ...

    @property
    def rows(self) -> Rows:
        """The candidates' row numbers, ascending."""
        ...

    def badness(self, positions: Rows) -> Badness:
        """The exact badness of the candidates at ``positions``."""
        ...

    def ranks(self, positions: Rows) -> npt.NDArray[np.int64]:
        """Integers in the order of the exact badness of the candidates at ``positions``, equal
        for equal badness (as :func:`dense_ranks` of it)."""
        ...

    def entrants(self, bound: int) -> Rows:
        """The positions (ascending) that may rank among the ``bound`` best of the candidates
        up to them, ties included; the others certainly do not."""
        ...


class TieRule:
    """The ``limit`` best rows by (badness, insertion slot): ties in insertion order.

    ``badness`` is the score made "smaller is better" (negated similarities); ``rows`` are the
    candidates' row numbers in ascending (insertion) order, or None for "every row"; ``id_at``
    names the record in a row. Subclasses change :meth:`at_cut` (which ties survive the cut),
    :meth:`order` (how ties are ordered) or :meth:`arrange` (the final order of the selection).
    """

    name = "insertion"
    whole_input = False
    """Whether the order can depend on every candidate, not only on those that can rank or tie
    (PostgreSQL's sort compares every row it is given): when :meth:`band_decides` says the band
    of rows that can rank or tie is not enough, the store scores every candidate exactly."""

    def band_decides(self, badness: Badness, limit: int | None) -> bool:
        """Whether the exactly scored band (every row that can rank or tie at the cut, and its
        ``badness``) decides the answer without the other candidates (always, for this rule)."""
        return True

    def select_scan(self, scan: CandidateScan, limit: int, id_at: Callable[[int], str]) -> Rows:
        """The rows to return, best first, when the band did not decide (``whole_input``
        rules): here, every candidate scored exactly; a rule may read fewer of them."""
        everything = np.arange(scan.count)
        return self.select(scan.badness(everything), scan.rows, limit, id_at)

    def select(
        self,
        badness: Badness,
        rows: Rows | None,
        limit: int | None,
        id_at: Callable[[int], str],
    ) -> Rows:
        """The rows to return, best first."""
        if len(badness) == 0:
            return np.empty(0, dtype=np.intp)
        if limit is not None and limit < len(badness):
            worst = np.partition(badness, limit - 1)[limit - 1]
            keep = self.at_cut(badness, worst, limit)
            rows = keep if rows is None else rows[keep]
            badness = badness[keep]
        elif rows is None:
            rows = np.arange(len(badness))
        order = self.order(badness, rows, id_at)
        if limit is not None:
            order = order[:limit]
        return self.arrange(rows[order], badness[order])

    def at_cut(self, badness: Badness, worst: Any, limit: int) -> Rows:
        """The candidates (positions in ``badness``) that may be returned when ``limit`` cuts
        them, ``worst`` being the ``limit``-th best badness: here all at least that good."""
        return np.flatnonzero(badness <= worst)

    def order(self, badness: Badness, rows: Rows, id_at: Callable[[int], str]) -> Rows:
        """Positions in best-first order: by badness, ties by row (insertion slot)."""
        return np.lexsort((rows, badness))

    def arrange(self, chosen: Rows, badness: Badness) -> Rows:
        """The final order of the chosen rows (sorted by badness): unchanged here."""
        return chosen

    def __repr__(self) -> str:
        return f"<tie rule {shown(self.name)}>"


class KeyOrderTies(TieRule):
    """Ties ordered by a key of the record id (Qdrant's server: by point id)."""

    def __init__(self, name: str, key: Callable[[str], Any]) -> None:
        self.name = name
        self.key = key

    def order(self, badness: Badness, rows: Rows, id_at: Callable[[int], str]) -> Rows:
        keys = [self.key(id_at(row)) for row in rows.tolist()]
        rank = np.empty(len(keys), dtype=np.intp)
        rank[sorted(range(len(keys)), key=keys.__getitem__)] = np.arange(len(keys))
        return np.lexsort((rank, badness))


INSERTION = TieRule()
"""Ties in insertion order (an upsert keeps its slot; delete and re-add moves to the end)."""
