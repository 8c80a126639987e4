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

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from placeborag_core.backends.ties import Badness, CandidateScan, Rows, TieRule

__all__ = ["PostgresSortTies", "pg_order"]

Item = tuple[float, int]

_INSERTION_SORT_BELOW = 7
_NINTHER_ABOVE = 40


def _cmp(a: float, b: float) -> int:
    """float8 comparison: NaN is larger than any number and equal to itself."""
    a_nan, b_nan = math.isnan(a), math.isnan(b)
    if a_nan or b_nan:
        return 0 if a_nan and b_nan else (1 if a_nan else -1)
    return -1 if a < b else (1 if a > b else 0)


def _med3(items: list[Item], a: int, b: int, c: int) -> int:
    ka, kb, kc = items[a][0], items[b][0], items[c][0]
    if _cmp(ka, kb) < 0:
        if _cmp(kb, kc) < 0:
            return b
        return c if _cmp(ka, kc) < 0 else a
    if _cmp(kb, kc) > 0:
        return b
    return a if _cmp(ka, kc) < 0 else c


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
                while i > a and _cmp(items[i - 1][0], items[i][0]) > 0:
                    items[i], items[i - 1] = items[i - 1], items[i]
                    i -= 1
            return
        if all(_cmp(items[i - 1][0], items[i][0]) <= 0 for i in range(a + 1, a + n)):
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
                r = _cmp(items[pb][0], pivot)
                if r > 0:
                    break
                if r == 0:
                    items[pa], items[pb] = items[pb], items[pa]
                    pa += 1
                pb += 1
            while pb <= pc:
                r = _cmp(items[pc][0], pivot)
                if r < 0:
                    break
                if r == 0:
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


# The bounded heap runs in reversed direction (``reversedirection``): its top is the worst row.
def _rev(a: Item, b: Item) -> int:
    return -_cmp(a[0], b[0])


def _heap_insert(heap: list[Item], item: Item) -> None:
    heap.append(item)
    j = len(heap) - 1
    while j > 0:
        i = (j - 1) >> 1
        if _rev(item, heap[i]) >= 0:
            break
        heap[j] = heap[i]
        j = i
    heap[j] = item


def _heap_replace_top(heap: list[Item], item: Item, size: int) -> None:
    i = 0
    while True:
        j = 2 * i + 1
        if j >= size:
            break
        if j + 1 < size and _rev(heap[j], heap[j + 1]) > 0:
            j += 1
        if _rev(item, heap[j]) <= 0:
            break
        heap[i] = heap[j]
        i = j
    heap[i] = item


def _offer(heap: list[Item], item: Item, bound: int) -> None:
    """One input row reaching the bounded heap: inserted while the heap has fewer than
    ``bound`` rows, then replacing the top (the worst) only when strictly better."""
    if len(heap) < bound:
        _heap_insert(heap, item)
    elif _cmp(item[0], heap[0][0]) < 0:
        _heap_replace_top(heap, item, len(heap))


def _sort_heap(heap: list[Item]) -> list[Item]:
    """``sort_bounded_heap``: the heap sorted in place, best first."""
    size = len(heap)
    while size > 1:
        top_item = heap[0]
        size -= 1
        _heap_replace_top(heap, heap[size], size)
        heap[size] = top_item
    return heap


def _bounded(keys: Any, bound: int) -> list[Item]:
    """``make_bounded_heap`` over the input, then ``sort_bounded_heap``."""
    heap: list[Item] = []
    values = keys.tolist()
    count = len(values)
    position = 0
    while position < count:
        if len(heap) < bound:
            _offer(heap, (values[position], position), bound)
            position += 1
            continue
        # A row enters only if strictly better than the top; skip the others in one numpy step.
        top = heap[0][0]
        rest = keys[position:]
        better = np.flatnonzero(~np.isnan(rest)) if math.isnan(top) else np.flatnonzero(rest < top)
        if len(better) == 0:
            break
        position += int(better[0])
        _offer(heap, (values[position], position), bound)
        position += 1
    return _sort_heap(heap)


def _bounded_scan(scan: CandidateScan, bound: int) -> list[Item]:
    """:func:`_bounded` over the candidates of ``scan``, reading only those that can enter.

    The heap's top (its worst row) only improves, so a candidate certainly worse than the top
    when its block starts is discarded by PostgreSQL too and needs no exact score. Blocks double
    in length: the top tightens fastest at the start."""
    first = np.arange(bound)
    heap: list[Item] = []
    for item in zip(scan.badness(first).tolist(), first.tolist(), strict=True):
        _offer(heap, item, bound)
    start, size = bound, bound
    while start < scan.count:
        stop = min(scan.count, start + size)
        top, reference = heap[0]
        positions = scan.contenders(start, stop, reference)
        values = np.asarray(scan.badness(positions), dtype=np.float64)
        better = np.flatnonzero(~np.isnan(values) if math.isnan(top) else values < top)
        for item in zip(values[better].tolist(), positions[better].tolist(), strict=True):
            _offer(heap, item, bound)
        start, size = stop, 2 * size
    return _sort_heap(heap)


def pg_order(keys: Any, limit: int | None) -> list[int]:
    """Positions of ``keys`` (float64, input order) as ``ORDER BY key LIMIT limit`` returns
    them (``limit`` None: no LIMIT)."""
    count = len(keys)
    if limit is not None and count > 2 * limit:
        return [position for _, position in _bounded(keys, limit)]
    items = list(zip(keys.tolist(), range(count), strict=True))
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
        if scan.count <= 2 * limit or not scan.bounded:
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
