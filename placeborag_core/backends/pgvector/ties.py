"""PostgreSQL's sort of ``ORDER BY distance LIMIT k`` over a sequential scan, tuple for tuple.

Without an index, pgvector's exact search is a sequential scan in heap order feeding
PostgreSQL's ``tuplesort`` on the one sort key (the distance). Which of equal distances come back,
and in which order, is what that sort leaves:

* up to ``2k`` input rows: the whole input is sorted by PostgreSQL's quicksort
  (``src/include/lib/sort_template.h``: insertion sort below 7 elements, a presorted check,
  median-of-three or ninther pivots, Bentley-McIlroy three-way partitioning), which is not
  stable, and the first ``k`` are returned;
* more than ``2k`` rows: when row ``2k + 1`` arrives the sort becomes a bounded heap of ``k``
  (``make_bounded_heap``), later rows replace the heap's top only when strictly better, and the
  heap is sorted in place at the end (``sort_bounded_heap``).

Distances compare as float8 does: NaN (the cosine distance of a zero vector) after every number
and equal to itself, ``-0.0`` equal to ``0.0``. :class:`PostgresSortTies` is this algorithm ported
to Python; ``tests/fidelity/probes/pgvector_ties.py`` checks it against the engine on random
tie-heavy tables (``docs/engines/pgvector.md#pgvector-ties-tuplesort-port``). It simulates only
where ties can matter: when the best ``k`` distances are all different from each other and from
the next one, any correct sort gives the same answer, and numpy's is used. When they tie, the
bounded heap is replayed over only the rows that can enter it (:func:`_bounded_scan`: a row
certainly worse than the heap's worst is discarded by PostgreSQL without changing anything, and
the phase-1 bound of ``store/scan.py`` finds those without scoring them exactly).

Not modelled: a sort that exceeds ``work_mem`` (4 MB by default; the rows are sorted with their
vectors and metadata) switches to a bounded heap as soon as ``k`` rows are in, or, without a
bound, to an external merge sort.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from placeborag_core.backends.ties import Badness, CandidateScan, Rows, TieRule, dense_ranks

__all__ = ["PostgresSortTies", "pg_order"]

Item = tuple[int, int]  # (the row's rank among the distances, its input position)

_INSERTION_SORT_BELOW = 7
_NINTHER_ABOVE = 40


# Items compare by rank (``dense_ranks``: float8 order, NaN after every number and equal to
# itself), so the port below compares them as PostgreSQL compares the distances.


def _med3(items: list[Item], a: int, b: int, c: int) -> int:
    ka, kb, kc = items[a][0], items[b][0], items[c][0]
    if ka < kb:
        if kb < kc:
            return b
        return c if ka < kc else a
    if kb > kc:
        return b
    return a if ka < kc else c


def _swap_blocks(items: list[Item], i: int, j: int, count: int) -> None:
    for t in range(count):
        items[i + t], items[j + t] = items[j + t], items[i + t]


def _qsort(items: list[Item], start: int, count: int) -> None:
    """PostgreSQL's ``sort_template.h`` quicksort of ``items[start:start + count]``."""
    a, n = start, count
    while True:
        if n < _INSERTION_SORT_BELOW:
            for m in range(a + 1, a + n):
                i = m
                while i > a and items[i - 1][0] > items[i][0]:
                    items[i], items[i - 1] = items[i - 1], items[i]
                    i -= 1
            return
        if all(items[i - 1][0] <= items[i][0] for i in range(a + 1, a + n)):
            return  # presorted
        middle = a + n // 2
        if n > _INSERTION_SORT_BELOW:
            low, high = a, a + n - 1
            if n > _NINTHER_ABOVE:
                step = n // 8
                low = _med3(items, low, low + step, low + 2 * step)
                middle = _med3(items, middle - step, middle, middle + step)
                high = _med3(items, high - 2 * step, high - step, high)
            middle = _med3(items, low, middle, high)
        items[a], items[middle] = items[middle], items[a]
        pivot = items[a][0]
        pa = pb = a + 1
        pc = pd = a + n - 1
        while True:
            while pb <= pc:
                key = items[pb][0]
                if key > pivot:
                    break
                if key == pivot:
                    items[pa], items[pb] = items[pb], items[pa]
                    pa += 1
                pb += 1
            while pb <= pc:
                key = items[pc][0]
                if key < pivot:
                    break
                if key == pivot:
                    items[pc], items[pd] = items[pd], items[pc]
                    pd -= 1
                pc -= 1
            if pb > pc:
                break
            items[pb], items[pc] = items[pc], items[pb]
            pb += 1
            pc -= 1
        end = a + n
        d1 = min(pa - a, pb - pa)
        _swap_blocks(items, a, pb - d1, d1)
        d1 = min(pd - pc, end - pd - 1)
        _swap_blocks(items, pb, end - d1, d1)
        left, right = pb - pa, pd - pc
        if left <= right:
            if left > 1:
                _qsort(items, a, left)
            if right <= 1:
                return
            a, n = end - right, right
        else:
            if right > 1:
                _qsort(items, end - right, right)
            if left <= 1:
                return
            n = left


# The bounded heap runs in reversed direction (``reversedirection``): its top is the worst row,
# and a parent is never better than its children.
def _heap_insert(heap: list[Item], item: Item) -> None:
    heap.append(item)
    key = item[0]
    j = len(heap) - 1
    while j > 0:
        i = (j - 1) >> 1
        if key <= heap[i][0]:
            break
        heap[j] = heap[i]
        j = i
    heap[j] = item


def _heap_replace_top(heap: list[Item], item: Item, size: int) -> None:
    key = item[0]
    i = 0
    j = 1
    while j < size:
        if j + 1 < size and heap[j][0] < heap[j + 1][0]:
            j += 1
        if key >= heap[j][0]:
            break
        heap[i] = heap[j]
        i = j
        j = 2 * i + 1
    heap[i] = item


def _sort_heap(heap: list[Item]) -> list[Item]:
    """``sort_bounded_heap``: the heap sorted in place, best first."""
    size = len(heap)
    while size > 1:
        top_item = heap[0]
        size -= 1
        _heap_replace_top(heap, heap[size], size)
        heap[size] = top_item
    return heap


def _bounded(ranks: Any, bound: int) -> list[Item]:
    """``make_bounded_heap`` over the input (ranks, input order), then ``sort_bounded_heap``:
    the first ``bound`` rows are inserted, each later one replaces the top only when strictly
    better."""
    values = ranks.tolist()
    heap: list[Item] = []
    for position in range(min(bound, len(values))):
        _heap_insert(heap, (values[position], position))
    if not heap:
        return heap
    # the rows that can enter: better than the top when the heap filled (it only improves)
    for position in (np.flatnonzero(ranks[bound:] < heap[0][0]) + bound).tolist():
        if values[position] < heap[0][0]:
            _heap_replace_top(heap, (values[position], position), bound)
    return _sort_heap(heap)


def _bounded_scan(scan: CandidateScan, bound: int) -> list[Item]:
    """:func:`_bounded` over the candidates of ``scan``, reading only those that can enter.

    A candidate that cannot rank among the ``bound`` best of those before it is not better than
    the heap's top when it arrives: PostgreSQL discards it without changing anything, so the
    heap replayed over the others alone is the same, and only they need ranking (which scores
    exactly only those whose phase-1 keys are too close to tell apart)."""
    positions = scan.entrants(bound)
    return [(rank, int(positions[at])) for rank, at in _bounded(scan.ranks(positions), bound)]


def pg_order(keys: Any, limit: int | None) -> list[int]:
    """Positions of ``keys`` (float64, input order) as ``ORDER BY key LIMIT limit`` returns
    them (``limit`` None: no LIMIT)."""
    ranks = dense_ranks(keys)
    count = len(keys)
    if limit is not None and count > 2 * limit:
        return [position for _, position in _bounded(ranks, limit)]
    items = list(zip(ranks.tolist(), range(count), strict=True))
    _qsort(items, 0, count)
    chosen = items if limit is None else items[:limit]
    return [position for _, position in chosen]


def _unique_answer(keys: Any, limit: int | None) -> Any:
    """The sorted positions if ties cannot change the answer, else None."""
    order = np.argsort(keys, kind="stable")
    take = len(order) if limit is None else min(limit, len(order))
    chosen = keys[order[: take + 1]] if take < len(order) else keys[order[:take]]
    if np.isnan(chosen).sum() > 1 or (len(chosen) > 1 and (np.diff(chosen) == 0).any()):
        return None
    return order[:take]


class PostgresSortTies(TieRule):
    """Equal distances as PostgreSQL's tuplesort leaves them (see the module docstring); rows
    are in heap order, which the ``pgvector`` profile keeps as insertion order with an updated
    row moved to the end. The sort's comparisons involve every row, so when distances tie at
    the cut the answer is read from the whole input (``whole_input``, :meth:`select_scan`);
    otherwise the band decides it (any correct sort gives it)."""

    whole_input = True

    def band_decides(self, badness: Badness, limit: int | None) -> bool:
        keys = np.asarray(badness, dtype=np.float64)
        return limit is not None and _unique_answer(keys, limit) is not None

    name = "postgres_tuplesort"

    def select_scan(self, scan: CandidateScan, limit: int, id_at: Callable[[int], str]) -> Rows:
        """The bounded heap replayed over the candidates that can enter it (more than ``2k``
        candidates and a bound on their keys), else every candidate scored and sorted."""
        if limit == 0 or scan.count == 0:
            return np.empty(0, dtype=np.intp)
        if scan.count <= 2 * limit:
            return super().select_scan(scan, limit, id_at)
        positions = [position for _, position in _bounded_scan(scan, limit)]
        return scan.rows[np.asarray(positions, dtype=np.intp)]

    def select(
        self,
        badness: Badness,
        rows: Rows | None,
        limit: int | None,
        id_at: Callable[[int], str],
    ) -> Rows:
        if len(badness) == 0 or limit == 0:
            return np.empty(0, dtype=np.intp)
        keys = np.asarray(badness, dtype=np.float64)
        positions = _unique_answer(keys, limit)
        if positions is None:
            positions = np.asarray(pg_order(keys, limit), dtype=np.intp)
        chosen = np.asarray(positions, dtype=np.intp)
        return chosen if rows is None else rows[chosen]
