"""Three-valued JSONB conditions over a whole partition at once, from its column index.

A condition on one key's value (:class:`~.jsonb.ValueTri`) is a function of that value alone:
``missing`` for a record without the key, else ``value_truth(value)``. So it need not be asked
row by row: it is asked once per distinct scalar value of the key (the column index groups the
rows by value), once per row holding a list or another unindexed value, and once for the rows
without the key. The outcome is a pair of masks, the rows where the condition is true and, when
asked for (under a ``NOT``), the rows where it is false; the rest are unknown (SQL NULL).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from placeborag_core.filters.predicates import BoolMask, ColumnView

__all__ = ["Masks", "by_value", "equal_mask"]

Masks = tuple[BoolMask, BoolMask | None]
"""(rows where true, rows where false or None when not asked for)."""


def by_value(
    view: ColumnView,
    key: str,
    value_truth: Callable[[Any], bool | None],
    missing: bool | None,
    want_false: bool,
) -> Masks:
    """The masks of a condition that is ``missing`` without ``key``, else ``value_truth`` of
    its value (see the module docstring)."""
    true = np.zeros(view.n_rows, dtype=bool)
    false = np.zeros(view.n_rows, dtype=bool) if want_false else None
    if missing is True:
        true |= ~view.key_mask(key)
    elif missing is False and false is not None:
        false |= ~view.key_mask(key)
    one_by_one = list(view.unindexed_rows(key))
    for value, rows in view.value_groups(key):
        if isinstance(value, float) and value == 0.0:
            one_by_one.append(rows)  # 0.0 and -0.0 share a group, but print differently
            continue
        outcome = value_truth(value)
        if outcome is True:
            true[rows] = True
        elif outcome is False and false is not None:
            false[rows] = True
    for rows in one_by_one:
        for row in rows.tolist():
            outcome = value_truth(view.metadata_at(row)[key])
            if outcome is True:
                true[row] = True
            elif outcome is False and false is not None:
                false[row] = True
    return true, false


def equal_mask(
    view: ColumnView, key: str, operands: list[Any], value_true: Callable[[Any], bool]
) -> BoolMask | None:
    """The rows where ``$.key == $operand`` is true for one of ``operands`` (each a bool, an
    int, a non-NaN float, a str, or anything else, which equals no scalar), from the index's
    value and list-element groups; ``value_true`` answers for a value with no index key (a
    mapping, None, ...). None if an operand is null or NaN (they equal null or nothing)."""
    lookups: list[tuple[str, Any]] = []
    for operand in operands:
        if isinstance(operand, bool):
            lookups.append(("b", operand))
        elif isinstance(operand, str):
            lookups.append(("s", operand))
        elif isinstance(operand, int):
            lookups.append(("i", operand))
            try:
                if float(operand) == operand:  # a float equal to it (a huge int may have none)
                    lookups.append(("f", float(operand)))
            except OverflowError:
                pass
        elif isinstance(operand, float):
            if math.isnan(operand):
                return None
            lookups.append(("f", operand))
            if operand.is_integer():
                lookups.append(("i", int(operand)))
        elif operand is None:
            return None
    out = view.value_mask(key, lookups, True)
    for row in view.unindexed_rows(key)[1].tolist():
        out[row] = value_true(view.metadata_at(row)[key])
    return out
