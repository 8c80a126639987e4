"""Conditions on one metadata key's value, answered for a whole partition from its column index.

A condition whose outcome for a record depends only on the value under one key (or on the key's
absence) need not be asked row by row: the column index groups the rows by scalar value
(``ColumnView.value_groups``), so the condition is asked once per distinct value, once per row
holding a list, a mapping or None (``ColumnView.unindexed_rows``), and once for the rows without
the key (:data:`ABSENT`). The rows of a group hold equal values of one kind (``True``, ``1`` and
``1.0`` are apart), which every engine's condition treats alike, except ``0.0`` and ``-0.0``:
their group is asked row by row. So is every row of a key whose values are mostly distinct
(fewer than :data:`MIN_GROUP` rows per value), where grouping would cost more than it saves. The
answers come back in one call (``outcomes_of``), so an engine that evaluates a batch at a time
(LanceDB) keeps doing so.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from placeborag_core.filters.predicates import BoolMask, ColumnView

__all__ = ["ABSENT", "MIN_GROUP", "Outcome", "value_masks"]

Outcome = bool | None
"""True, False, or None (SQL's NULL)."""


MIN_GROUP = 4
"""Rows per distinct value, on average, below which a key's rows are asked one by one."""


class _Absent:
    def __repr__(self) -> str:
        return "ABSENT"


ABSENT: Any = _Absent()
"""Stands for the value of a record without the key, among the values ``outcomes_of`` gets."""


def value_masks(
    view: ColumnView,
    key: str,
    outcomes_of: Callable[[Sequence[Any]], Sequence[Any]],
    wanted: Sequence[Outcome],
) -> list[BoolMask]:
    """For each outcome in ``wanted``, the rows whose value under ``key`` gets it from
    ``outcomes_of`` (a batch of values, :data:`ABSENT` among them, to their outcomes; rows that
    hold no record are unspecified). Whatever ``outcomes_of`` raises propagates."""
    if view.value_count(key) * MIN_GROUP > view.n_rows:
        return _row_by_row(view, key, outcomes_of, wanted)
    blocks: list[npt.NDArray[np.intp]] = []
    values: list[Any] = [ABSENT]
    singles: list[int] = []
    for rows in view.unindexed_rows(key):
        singles.extend(rows.tolist())
    for value, rows in view.value_groups(key):
        if isinstance(value, float) and value == 0.0:
            singles.extend(rows.tolist())  # 0.0 and -0.0 share a group but print differently
        else:
            blocks.append(rows)
            values.append(value)
    values.extend(view.metadata_at(row)[key] for row in singles)
    outcomes = [None if o is None else bool(o) for o in outcomes_of(values)]
    absent, grouped, single = (
        outcomes[0],
        outcomes[1 : len(blocks) + 1],
        outcomes[len(blocks) + 1 :],
    )
    single_rows = np.array(singles, dtype=np.intp)
    masks: list[BoolMask] = []
    for target in wanted:
        base = absent is target  # the rows without the key, and the fill
        mask = np.full(view.n_rows, base, dtype=bool)
        flipped = [rows for rows, o in zip(blocks, grouped, strict=True) if (o is target) != base]
        if flipped:
            mask[np.concatenate(flipped)] = not base
        if singles:
            mask[single_rows] = [o is target for o in single]
        masks.append(mask)
    return masks


def _row_by_row(
    view: ColumnView,
    key: str,
    outcomes_of: Callable[[Sequence[Any]], Sequence[Any]],
    wanted: Sequence[Outcome],
) -> list[BoolMask]:
    """:func:`value_masks` for a key whose values are mostly distinct: every live row's value
    asked (grouping them would cost more than it saves)."""
    rows = view.live_rows()
    values = [view.metadata_at(row).get(key, ABSENT) for row in rows.tolist()]
    outcomes = [None if o is None else bool(o) for o in outcomes_of(values)]
    masks: list[BoolMask] = []
    for target in wanted:
        mask = np.zeros(view.n_rows, dtype=bool)
        mask[rows] = [o is target for o in outcomes]
        masks.append(mask)
    return masks
