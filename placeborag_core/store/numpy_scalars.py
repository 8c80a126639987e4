"""numpy scalars in metadata, stored as the Python bool, int or float of the same value.

Values computed with numpy (``np.int64(3)`` from a count, ``np.float64(1.5)`` from a mean,
``np.bool_`` from a comparison) are what real engines mostly accept and hand back as plain Python
numbers: qdrant, pgvector and chroma return ``1.5`` for ``np.float64(1.5)``. The store does the
same, after the profile's own metadata rule has seen the raw value (chromadb refuses
``np.int64``, which is no ``int`` subclass, and the chroma profile with it), so a stored record,
its manifest digest and every read hold only Python types.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

__all__ = ["python_scalars"]

_PLAIN = frozenset({str, int, float, bool, type(None)})


def python_scalars(metadata: dict[str, Any] | None) -> dict[str, Any] | None:
    """``metadata`` with every numpy bool, integer or floating scalar, at any nesting depth in
    dicts and lists, replaced by the Python ``bool``, ``int`` or ``float`` of the same value.

    Returns ``metadata`` itself when it holds none; the nesting depth was bounded before."""
    if not metadata or all(type(value) in _PLAIN for value in metadata.values()):
        return metadata  # the common flat record, at the cost of one pass
    converted = _convert(metadata)
    return metadata if converted is None else converted


def _convert(value: Any) -> Any:
    """The converted value, or None when nothing in ``value`` needs converting."""
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        return float(value)
    if isinstance(value, Mapping):
        changes = {k: c for k, v in value.items() if (c := _convert(v)) is not None}
        return {**value, **changes} if changes else None
    if isinstance(value, list | tuple):
        items = [_convert(v) for v in value]
        if all(c is None for c in items):
            return None
        out = [v if c is None else c for v, c in zip(value, items, strict=True)]
        return out if isinstance(value, list) else tuple(out)
    return None
