"""Three-valued JSONB conditions over a whole partition at once, from its column index.

A condition on one key's value (:class:`~.jsonb.ValueTri`) is a function of that value alone:
``missing`` for a record without the key, else ``value_truth(value)``; so it is asked once per
distinct value (:func:`~placeborag_core.filters.value_masks.value_masks`). The outcome is a
pair of masks, the rows where the condition is true and, when asked for (under a ``NOT``), the
rows where it is false; the rest are unknown (SQL NULL). ``$.key == $value`` takes its true rows
straight from the index's buckets of the equal values (:func:`equal_mask`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from placeborag_core.filters.predicates import BoolMask, ColumnView
from placeborag_core.filters.value_masks import ABSENT, value_masks

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
    its value."""

    def outcomes(values: Sequence[Any]) -> list[bool | None]:
        return [missing if value is ABSENT else value_truth(value) for value in values]

    if not want_false:
        return value_masks(view, key, outcomes, [True])[0], None
    true, false = value_masks(view, key, outcomes, [True, False])
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
