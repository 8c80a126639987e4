"""numpy scalars in metadata, stored as the Python bool, int or float of the same value.

Values computed with numpy (``np.int64(3)`` from a count, ``np.float64(1.5)`` from a mean,
``np.bool_`` from a comparison) are what real engines mostly accept and hand back as plain Python
numbers: qdrant, pgvector and chroma return ``1.5`` for ``np.float64(1.5)``. The store does the
same, after the profile's own metadata rule has seen the raw value (chromadb refuses
``np.int64``, which is no ``int`` subclass, and the chroma profile with it), so a stored record,
its manifest digest and every read hold only Python types.
"""

from __future__ import annotations

from typing import Any

from placeborag_core.numbers import python_values

__all__ = ["python_scalars"]

_PLAIN = frozenset({str, int, float, bool, type(None)})


def python_scalars(metadata: dict[str, Any] | None) -> dict[str, Any] | None:
    """``metadata`` with every numpy bool, integer or floating scalar, at any nesting depth in
    dicts and lists, replaced by the Python ``bool``, ``int`` or ``float`` of the same value.

    Returns ``metadata`` itself when it holds none; the nesting depth was bounded before."""
    if not metadata or all(type(value) in _PLAIN for value in metadata.values()):
        return metadata  # the common flat record, at the cost of one pass
    converted: dict[str, Any] = python_values(metadata)
    return converted
