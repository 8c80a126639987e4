"""Shared Python floats for unit vectors whose entries are halves over a norm.

Every hashed vector is a sum of signed weights that are multiples of 1/2, divided by its norm.
Written in "doubled" integers ``k`` (the entry is ``k / 2``), a vector with ``sum(k**2) == s``
has entries ``(k * 0.5) / sqrt(s / 4)``, and ``|k| <= isqrt(s)``: one small set of quotients
per squared norm. Texts with the same squared norm are frequent (``s`` is an integer), so the
quotients are made as Python float objects, once per squared norm (kept across calls for single
vectors, per call for a batch), and a vector becomes a list by gathering references to them: no
float is created per entry, which is what converting an array of 384 floats to a list mostly
costs. The quotients are the same IEEE divisions the array route performs, so the floats are
bit-identical to it.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["HalfPools"]

ObjectArray = npt.NDArray[np.object_]

_KEPT_ENTRIES = 1 << 17  # float objects kept across all pools (~4 MB) before starting afresh


class HalfPools:
    """Pools of quotients ``k * 0.5 / sqrt(s / 4)`` for ``-isqrt(s) <= k <= isqrt(s)``, per ``s``.

    A pool is an object array laid out for numpy's negative indexing: position ``k`` holds the
    quotient of ``k`` for ``k >= 0`` and position ``len + k`` that of ``k < 0``, so a vector of
    doubled entries indexes it directly. Pools longer than ``max_length`` are not made (a plain
    float conversion is cheaper than building them).
    """

    __slots__ = ("_entries", "_max_length", "_pools")

    def __init__(self, max_length: int) -> None:
        self._max_length = max_length
        self._pools: dict[int, ObjectArray] = {}
        self._entries = 0

    def pool(self, squared: int) -> ObjectArray | None:
        """The pool for vectors of doubled squared norm ``squared`` (> 0), or None if too long."""
        found = self._pools.get(squared)
        if found is not None:
            return found
        reach = math.isqrt(squared)
        length = 2 * reach + 1
        if length > self._max_length:
            return None
        if self._entries + length > _KEPT_ENTRIES:
            self._pools = {}
            self._entries = 0
        doubled = np.concatenate((np.arange(reach + 1), np.arange(-reach, 0)))
        made: ObjectArray = (doubled * 0.5 / math.sqrt(squared * 0.25)).astype(object)
        self._pools[squared] = made
        self._entries += length
        return made

    def unit_list(self, doubled: npt.NDArray[Any]) -> list[float] | None:
        """``doubled * 0.5`` divided by its norm, as a list of shared floats; None for zero."""
        squared = int(doubled.dot(doubled))
        if squared == 0:
            return None
        pool = self.pool(squared)
        if pool is None:
            unit: list[float] = (doubled * 0.5 / math.sqrt(squared * 0.25)).tolist()
            return unit
        gathered: list[float] = pool[doubled].tolist()
        return gathered

    def unit_lists(self, doubled: npt.NDArray[Any]) -> list[list[float] | None]:
        """:meth:`unit_list` for each row of a matrix (None for zero rows), vectorised.

        The quotients of every squared norm among the rows are made at once, side by side, one
        slot each as wide as the widest row needs (they are not kept: building them in one
        numpy pass costs less than looking up kept pools one by one), and one gather takes every
        entry from its row's slot.
        """
        squared = np.einsum("ij,ij->i", doubled, doubled, dtype=np.int64)
        reach = int(np.abs(doubled).max()) if doubled.size else 0
        span = 2 * reach + 1
        if span > self._max_length:  # slots longer than rows: plain division is cheaper
            norms = np.sqrt(squared * 0.25)
            norms[norms == 0.0] = 1.0  # zero rows become None below
            rows: list[list[float] | None] = (doubled * 0.5 / norms[:, None]).tolist()
        else:
            levels, slot_of_row = np.unique(squared, return_inverse=True)
            norms = np.sqrt(levels * 0.25)
            norms[norms == 0.0] = 1.0
            halves = np.arange(-reach, reach + 1) * 0.5
            slots = (halves[None, :] / norms[:, None]).astype(object).ravel()
            rows = slots[doubled + (reach + slot_of_row.reshape(-1) * span)[:, None]].tolist()
        for row in np.flatnonzero(squared == 0).tolist():
            rows[row] = None
        return rows
