"""Numbers callers hand the library, checked the same way everywhere.

Vectors must hold real numbers: numpy would otherwise parse ``"0.5"`` as 0.5, or turn a date or a
complex number into a float, without a word. Python ints may be huge: a comparison with one is
fine, converting it to a float is not, so finiteness is decided without the conversion.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import numpy.typing as npt

from placeborag_core.messages import shown

__all__ = ["is_finite_real", "real_array"]

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
