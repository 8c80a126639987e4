"""Compiled filters: a small tree of predicates that answer for one record or a whole partition.

Every predicate answers for one metadata mapping (``matches``), for the record in a row
(``row_matches``) and for every row of a partition at once (``mask``); the combinators keep the
common filters vectorised by asking their children for masks. A caller's function of the whole
record (:func:`record_condition`) or an already compiled predicate may stand for any clause.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

__all__ = [
    "AllOf",
    "AnyOf",
    "BoolMask",
    "CallablePredicate",
    "ColumnView",
    "Everything",
    "Negation",
    "Predicate",
    "RecordPredicate",
    "all_of",
    "record_condition",
]

BoolMask = npt.NDArray[np.bool_]


class ColumnView(Protocol):
    """What a predicate needs from a partition to build a row mask."""

    @property
    def n_rows(self) -> int: ...

    @property
    def version(self) -> int:
        """Changes with every write: what is derived from the rows stays current until then."""
        ...

    def live_rows(self) -> npt.NDArray[np.intp]: ...

    def metadata_at(self, row: int) -> Mapping[str, Any]: ...

    def record_at(self, row: int, *, vector: bool = True) -> Any: ...

    def id_at(self, row: int) -> str: ...

    def ids_mask(self, ids: Iterable[str]) -> BoolMask: ...

    def text_at(self, row: int) -> str | None: ...

    def key_mask(self, key: str) -> BoolMask: ...

    def value_mask(
        self, key: str, lookups: Iterable[tuple[str, Any]], elements: bool
    ) -> BoolMask: ...

    def value_groups(self, key: str) -> list[tuple[Any, npt.NDArray[np.intp]]]:
        """Each scalar value of ``key`` with the rows holding it."""
        ...

    def value_count(self, key: str) -> int:
        """How many distinct scalar values ``key`` holds, at most (cheap: no groups made)."""
        ...

    def unindexed_rows(self, key: str) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
        """The rows whose ``key`` holds a list, and those holding another unindexed value."""
        ...


class Predicate:
    """A compiled filter node."""

    def matches(self, metadata: Mapping[str, Any]) -> bool:
        """Whether a record with this metadata passes."""
        raise NotImplementedError

    def row_matches(self, view: ColumnView, row: int) -> bool:
        """Whether the record in ``row`` passes."""
        return self.matches(view.metadata_at(row))

    def mask(self, view: ColumnView) -> BoolMask:
        """Pass/fail for every row of a partition (rows that hold no record are unspecified)."""
        out = np.zeros(view.n_rows, dtype=bool)
        for row in view.live_rows().tolist():
            out[row] = self.row_matches(view, row)
        return out

    def rows_matching(self, view: ColumnView, rows: Sequence[int]) -> list[bool]:
        """Pass/fail for some rows, as a post-filter applies to a search's results (an engine
        that filters them as one batch, such as LanceDB, may decide differently from row by
        row: which value of a failing cast it reports)."""
        return [self.row_matches(view, row) for row in rows]


class RecordPredicate(Predicate):
    """A predicate that reads more of a record than its metadata: only ``row_matches`` works."""

    def matches(self, metadata: Mapping[str, Any]) -> bool:
        raise TypeError(f"{type(self).__name__} needs the whole record; use row_matches")


class CallablePredicate(RecordPredicate):
    """A caller's function of the whole record (``Record``), e.g. a LangChain callable filter."""

    def __init__(self, function: Callable[[Any], object], *, vector: bool = True) -> None:
        self.function = function
        self.vector = vector

    def row_matches(self, view: ColumnView, row: int) -> bool:
        return bool(self.function(view.record_at(row, vector=self.vector)))


class Everything(Predicate):
    def matches(self, metadata: Mapping[str, Any]) -> bool:
        return True

    def mask(self, view: ColumnView) -> BoolMask:
        return np.ones(view.n_rows, dtype=bool)


class AllOf(Predicate):
    def __init__(self, children: Sequence[Predicate]) -> None:
        self.children = tuple(children)

    def matches(self, metadata: Mapping[str, Any]) -> bool:
        return all(child.matches(metadata) for child in self.children)

    def row_matches(self, view: ColumnView, row: int) -> bool:
        return all(child.row_matches(view, row) for child in self.children)

    def mask(self, view: ColumnView) -> BoolMask:
        out = np.ones(view.n_rows, dtype=bool)
        for child in self.children:
            out &= child.mask(view)
        return out


class AnyOf(Predicate):
    def __init__(self, children: Sequence[Predicate]) -> None:
        self.children = tuple(children)

    def matches(self, metadata: Mapping[str, Any]) -> bool:
        return any(child.matches(metadata) for child in self.children)

    def row_matches(self, view: ColumnView, row: int) -> bool:
        return any(child.row_matches(view, row) for child in self.children)

    def mask(self, view: ColumnView) -> BoolMask:
        out = np.zeros(view.n_rows, dtype=bool)
        for child in self.children:
            out |= child.mask(view)
        return out


class Negation(Predicate):
    def __init__(self, child: Predicate) -> None:
        self.child = child

    def matches(self, metadata: Mapping[str, Any]) -> bool:
        return not self.child.matches(metadata)

    def row_matches(self, view: ColumnView, row: int) -> bool:
        return not self.child.row_matches(view, row)

    def mask(self, view: ColumnView) -> BoolMask:
        return ~self.child.mask(view)


def all_of(predicates: Sequence[Predicate | None]) -> Predicate:
    """The conjunction of the given predicates (None entries ignored; none at all passes all)."""
    given = [p for p in predicates if p is not None and not isinstance(p, Everything)]
    if not given:
        return Everything()
    return given[0] if len(given) == 1 else AllOf(given)


def record_condition(function: Callable[[Any], object], *, vector: bool = True) -> Predicate:
    """A condition that calls ``function`` with each candidate's ``Record`` (a copy) and keeps
    the truthy ones: what a callable ``where=`` becomes.

    With ``vector=False`` the record's ``vector`` is None. Copying the stored vector into a
    tuple of floats is most of the cost of a call (at 384 dimensions, ~16 -> ~3 us per row), and
    a condition on the id, text or metadata (such as a framework's callable filter of a
    document) does not need it.
    """
    return CallablePredicate(function, vector=vector)
