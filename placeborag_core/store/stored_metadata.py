"""Metadata as a partition stores it: copies that share nothing mutable, ``None`` values dropped.

The store hands out and takes in metadata dicts; a stored dict must not change when the caller
mutates what it passed or what it got back, so every crossing copies (``copy_metadata``). A
write whose ``None`` values remove their keys stores the dict without them (``without_none``).
"""

from __future__ import annotations

from collections.abc import Mapping
from copy import deepcopy
from typing import Any

__all__ = ["copy_metadata", "without_none"]

_NESTED = (list, tuple, dict)


def copy_metadata(metadata: Mapping[str, Any] | None) -> dict[str, Any]:
    """A copy that shares nothing mutable with the original (list values are copied too)."""
    if not metadata:
        return {}
    copy = dict(metadata)
    for key, value in copy.items():
        if isinstance(value, _NESTED):  # one check per value: most values are scalars
            copy[key] = deepcopy(list(value) if isinstance(value, tuple) else value)
    return copy


def without_none(meta: dict[str, Any]) -> dict[str, Any]:
    """``meta`` without its ``None`` values (the same dict when it has none)."""
    if all(value is not None for value in meta.values()):
        return meta
    return {key: value for key, value in meta.items() if value is not None}
