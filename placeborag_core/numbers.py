"""Numbers callers hand the library, checked the same way everywhere.

Vectors must hold real numbers: numpy would otherwise parse ``"0.5"`` as 0.5, or turn a date or a
complex number into a float, without a word. Python ints may be huge: a comparison with one is
fine, converting it to a float is not, so finiteness is decided without the conversion.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from placeborag_core.messages import shown

__all__ = ["is_finite_real", "python_values", "real_array"]

_REAL_KINDS = frozenset("iuf")  # numpy dtype kinds of ints, unsigned ints and floats
_FLOAT_LIMIT = 2**1024  # ints at or above this overflow a float


def is_finite_real(value: object) -> bool:
    """Whether ``value`` is an int (not a bool) or float that a float can hold, and finite."""
    if isinstance(value, bool) or not isinstance(value, int | float | np.integer | np.floating):
        return False
    if isinstance(value, int | np.integer):
        return abs(int(value)) < _FLOAT_LIMIT
    return math.isfinite(value)


def real_array(value: Any, what: str) -> npt.NDArray[Any]:
    """``value`` as a numpy array of real numbers (ints or floats), or ``TypeError`` naming
    ``what``: strings, bools, complex numbers, dates and other objects are not converted."""
    if isinstance(value, str | bytes):
        raise TypeError(f"{what} must be a sequence of numbers, got {type(value).__name__}")
    try:
        array = np.asarray(value)
    except (TypeError, ValueError, OverflowError) as error:
        raise TypeError(f"{what} must be a sequence of numbers, got {shown(value)}") from error
    if array.dtype.kind not in _REAL_KINDS:
        raise TypeError(
            f"{what} must hold real numbers (int or float), got elements of dtype {array.dtype} "
            f"(strings, bools, complex numbers, dates and huge ints are not converted)"
        )
    return array


def python_values(value: Any) -> Any:
    """``value`` with every numpy bool, integer or floating scalar, at any nesting depth in
    mappings, lists and tuples, replaced by the Python ``bool``, ``int`` or ``float`` of the same
    value (a mapping that held one comes back as a ``dict``); ``value`` itself when it holds none.
    Anything else (a callable, a compiled predicate) is left as it is. The caller bounds the
    nesting depth first. Used for metadata (``store/numpy_scalars.py``) and filter operands."""
    converted = _convert(value)
    return value if converted is None else converted


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
