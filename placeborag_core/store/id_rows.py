"""Which rows of a partition hold each visible record: one row per id, or several.

A store with a primary key keeps one row per id. An engine without one (LanceDB's
``table.add``) appends every record as a new row, so an id can be stored several times, each copy
a record of its own: a listing shows every copy, a search can return each, an upsert rewrites
all of them, and a delete by filter removes only the copies it matches. ``IdRows`` keeps that
mapping for a :class:`~placeborag_core.store.partition.Partition`: the first row of every id
(``first``) and, only for ids stored more than once, all their rows (``copies``), so a store that
never duplicates an id pays nothing for the possibility.

Rows are ascending within an id (insertion order), as the partition appends them.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence

import numpy as np
import numpy.typing as npt

__all__ = ["IdRows"]


class IdRows:
    """The rows of every visible record's id (orphans are not here: the partition keeps them)."""

    def __init__(self) -> None:
        self.first: dict[str, int] = {}
        self.copies: dict[str, list[int]] = {}  # only ids stored more than once
        self._extra = 0  # rows beyond the first of each id

    def __len__(self) -> int:
        """Visible records (rows), a duplicated id counted once per row."""
        return len(self.first) + self._extra

    def __contains__(self, record_id: object) -> bool:
        return record_id in self.first

    def get(self, record_id: str) -> int | None:
        """The first row of ``record_id``, or None."""
        return self.first.get(record_id)

    def of(self, record_id: str) -> list[int]:
        """The rows of a visible record (several when its id is duplicated), ascending."""
        copies = self.copies.get(record_id)
        if copies is not None:
            return list(copies)
        row = self.first.get(record_id)
        return [] if row is None else [row]

    def every_row(self) -> list[int]:
        """Every visible record's row, ascending (insertion order)."""
        if not self.copies:
            return sorted(self.first.values())
        rows = set(self.first.values())
        for copies in self.copies.values():
            rows.update(copies)
        return sorted(rows)

    def rows_of(self, ids: Iterable[str], orphans: Mapping[str, int]) -> npt.NDArray[np.intp]:
        """The rows holding ``ids`` (records, then an orphan's row), in order; unknown ids
        skipped; a duplicated id gives all its rows."""
        first = self.first
        if self.copies:
            found: list[int] = []
            for i in ids:
                copies = self.copies.get(i)
                if copies is not None:
                    found.extend(copies)
                    continue
                row = first.get(i, orphans.get(i))
                if row is not None:
                    found.append(row)
            return np.asarray(found, dtype=np.intp)
        rows = (first.get(i, orphans.get(i)) for i in ids)
        return np.fromiter((r for r in rows if r is not None), dtype=np.intp)

    def add(self, record_id: str, row: int) -> None:
        """Register ``row`` as (another) row of ``record_id``."""
        first = self.first.get(record_id)
        if first is None:
            self.first[record_id] = row
            return
        copies = self.copies.get(record_id)
        if copies is None:
            self.copies[record_id] = [first, row]
        else:
            copies.append(row)
        self._extra += 1

    def add_block(self, ids: Sequence[str], start: int, append: bool) -> None:
        """Register rows ``start, start + 1, ...`` as the rows of ``ids``: ids new to the
        partition unless ``append`` (every record a new row, even of a stored id)."""
        rows = range(start, start + len(ids))
        if append or len(set(ids)) < len(ids):
            for record_id, row in zip(ids, rows, strict=True):
                self.add(record_id, row)
        else:
            self.first.update(zip(ids, rows, strict=True))

    def forget(self, record_id: str) -> None:
        """Drop every row of ``record_id`` from the mapping."""
        self.first.pop(record_id, None)
        copies = self.copies.pop(record_id, None)
        if copies is not None:
            self._extra -= len(copies) - 1

    def split(
        self, rows: Iterable[int], row_id: Sequence[str]
    ) -> Iterator[tuple[str, list[int], set[int]]]:
        """For a delete of ``rows`` (``row_id``: each row's id): every id they hold, with its
        rows at the time it is reached and the rows of it to delete."""
        doomed: dict[str, set[int]] = {}
        for row in rows:
            doomed.setdefault(row_id[row], set()).add(row)
        for record_id, gone in doomed.items():
            yield record_id, self.of(record_id), gone

    def keep(self, record_id: str, current: Sequence[int], left: Sequence[int]) -> None:
        """After a row delete: ``record_id`` had rows ``current`` and keeps ``left`` (not
        empty)."""
        self.first[record_id] = left[0]
        self._extra -= len(current) - len(left)
        if len(left) == 1:
            self.copies.pop(record_id, None)
        else:
            self.copies[record_id] = list(left)
