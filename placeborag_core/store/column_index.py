"""The column index of one metadata key: which rows carry it, and which rows hold each scalar
value or list element.

Values are bucketed by :func:`index_key`, which keeps ``True``, ``1`` and ``1.0`` apart (engines
disagree about which of them are equal); a filter asks for every bucket that its dialect counts as
equal to the operand. A partition indexes a key the first time a filter uses it, then keeps the
index current on every write (:class:`ColumnIndexes`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["ColumnIndexes", "KeyIndex", "index_key"]


def index_key(value: Any) -> tuple[str, Any] | None:
    """The column-index key of a scalar metadata value (None for values that are not indexed)."""
    if isinstance(value, bool):
        return ("b", value)
    if isinstance(value, int):
        return ("i", value)
    if isinstance(value, float):
        return ("f", value)
    if isinstance(value, str):
        return ("s", value)
    return None


_LISTS = ("l", None)  # pseudo-buckets of the rows holding a list, and any other unindexed value
_OTHERS = ("o", None)


class KeyIndex:
    """Rows carrying one key, by scalar value and by list element (keys from ``index_key``),
    and the rows whose value is a list or another value that has no index key."""

    def __init__(self) -> None:
        self.rows: set[int] = set()
        self.values: dict[tuple[str, Any], set[int]] = {}
        self.elements: dict[tuple[str, Any], set[int]] = {}
        self.unindexed: dict[tuple[str, Any], set[int]] = {_LISTS: set(), _OTHERS: set()}
        # bucket -> its rows as an array, made on first read and dropped when the bucket changes,
        # so that repeated queries with one filter do not convert a set per query
        self._arrays: dict[tuple[bool, tuple[str, Any]], npt.NDArray[np.intp]] = {}
        self._present: npt.NDArray[np.intp] | None = None  # ``rows`` as an array, the same way

    def add(self, row: int, value: Any) -> None:
        self.rows.add(row)
        self._present = None
        if isinstance(value, list):
            self._unindexed(_LISTS).add(row)
            for item in value:
                item_key = index_key(item)
                if item_key is not None:
                    self.elements.setdefault(item_key, set()).add(row)
                    self._arrays.pop((True, item_key), None)
            return
        value_key = index_key(value)
        if value_key is not None:
            self.values.setdefault(value_key, set()).add(row)
            self._arrays.pop((False, value_key), None)
        else:
            self._unindexed(_OTHERS).add(row)

    def _unindexed(self, which: tuple[str, Any]) -> set[int]:
        self._arrays.pop((False, which), None)
        return self.unindexed[which]

    def discard(self, row: int, value: Any) -> None:
        self.rows.discard(row)
        self._present = None
        self._unindexed(_LISTS).discard(row)
        self._unindexed(_OTHERS).discard(row)
        if isinstance(value, list):
            for item in value:
                item_key = index_key(item)
                if item_key is not None:
                    self.elements[item_key].discard(row)
                    self._arrays.pop((True, item_key), None)
            return
        value_key = index_key(value)
        if value_key is not None:
            self.values[value_key].discard(row)
            self._arrays.pop((False, value_key), None)

    def present(self) -> npt.NDArray[np.intp]:
        """The rows carrying the key (``$exists``), as an array kept until the key's rows change."""
        if self._present is None:
            self._present = np.fromiter(self.rows, dtype=np.intp, count=len(self.rows))
        return self._present

    def rows_of(self, lookup: tuple[str, Any], element: bool) -> npt.NDArray[np.intp]:
        """The rows of one bucket (a scalar value, or with ``element`` a list element)."""
        cached = self._arrays.get((element, lookup))
        if cached is None:
            table = self.elements if element else self.values
            found = table.get(lookup, self.unindexed.get(lookup, ()))
            cached = np.fromiter(found, dtype=np.intp, count=len(found))
            self._arrays[(element, lookup)] = cached
        return cached

    def groups(self) -> list[tuple[Any, npt.NDArray[np.intp]]]:
        """Each scalar value held, with the rows holding it (one value stands for all that
        share its index key, such as 0.0 and -0.0)."""
        return [(key[1], self.rows_of(key, False)) for key, rows in self.values.items() if rows]

    def distinct(self) -> int:
        """How many distinct scalar values the key holds, at most (a value whose rows have all
        gone may still be counted), without making the groups' arrays."""
        return len(self.values)

    def unindexed_rows(self) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
        """The rows holding a list, and those holding any other value that has no index key
        (None, a mapping, ...)."""
        return self.rows_of(_LISTS, False), self.rows_of(_OTHERS, False)


class ColumnIndexes:
    """The column indexes of one partition: a :class:`KeyIndex` per metadata key a filter has
    used, built on first use and kept current by every write after that."""

    def __init__(self) -> None:
        self._by_key: dict[str, KeyIndex] = {}

    def __bool__(self) -> bool:
        """Whether any key is indexed (a write then has indexes to keep current)."""
        return bool(self._by_key)

    def of(
        self,
        key: str,
        metas: Sequence[Mapping[str, Any] | None],
        live_rows: Callable[[], Iterable[int]],
    ) -> KeyIndex:
        """The index of ``key``, built from the rows ``live_rows()`` and their ``metas`` the
        first time it is asked for."""
        index = self._by_key.get(key)
        if index is None:
            index = self._by_key[key] = KeyIndex()
            for row in live_rows():
                meta = metas[row]
                if meta and key in meta:
                    index.add(row, meta[key])
        return index

    def add(self, row: int, meta: Mapping[str, Any]) -> None:
        """Index a row written with ``meta``."""
        for key, index in self._by_key.items():
            if key in meta:
                index.add(row, meta[key])

    def discard(self, row: int, meta: Mapping[str, Any]) -> None:
        """Unindex a row that held ``meta``."""
        for key, index in self._by_key.items():
            if key in meta:
                index.discard(row, meta[key])
