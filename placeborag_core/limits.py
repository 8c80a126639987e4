"""Limits on the shape of what callers hand the library, checked without recursion.

A filter or a metadata value nested thousands of levels deep (or one that contains itself) would
otherwise exhaust Python's recursion limit deep inside the library. Each limit here is checked by
an iterative walk before the value is read recursively, and the error names the limit.

- :data:`MAX_FILTER_DEPTH`: containers (mappings, lists, tuples) nested in a ``where=`` or
  ``where_document=`` filter, and clauses nested in an engine's native filter object.
- :data:`MAX_METADATA_DEPTH`: containers nested in one metadata value.
- Integers in JSON files are read with Python's limit of 4,300 digits.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["MAX_FILTER_DEPTH", "MAX_METADATA_DEPTH", "nesting_depth_exceeds"]

MAX_FILTER_DEPTH = 100
MAX_METADATA_DEPTH = 32

_LEAVES = frozenset({str, int, float, bool, type(None)})


def nesting_depth_exceeds(value: Any, limit: int) -> bool:
    """Whether ``value`` nests mappings, lists and tuples more than ``limit`` levels deep.

    A container that contains itself is infinitely deep, so it exceeds any limit. The walk stops
    at the first path longer than ``limit``; a container shared by several paths is walked again
    only when reached deeper than before, so the walk is at most ``limit`` times the size.
    """
    if type(value) is dict and all(type(v) in _LEAVES for v in value.values()):
        return limit < 1  # the common case, a flat mapping: one level
    deepest: dict[int, int] = {}
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, Mapping):
            children: Any = item.values()
        elif isinstance(item, list | tuple):
            children = item
        else:
            continue
        if depth + 1 > limit:
            return True
        if deepest.get(id(item), -1) >= depth:
            continue
        deepest[id(item)] = depth
        stack.extend((child, depth + 1) for child in children)
    return False
