"""Values as error messages show them: ``repr`` with limits.

A message must never fail while describing the bad value it rejects: the plain ``repr`` of a list
nested thousands of levels deep raises ``RecursionError``, and that of a huge container floods the
terminal. :func:`shown` is ``repr`` for ordinary values and a shortened, depth-limited form for
the rest.
"""

from __future__ import annotations

import reprlib

__all__ = ["Shown", "shown"]

_REPR = reprlib.Repr()
_REPR.maxlevel = 4
for _limit in ("maxtuple", "maxlist", "maxarray", "maxdict", "maxset", "maxfrozenset", "maxdeque"):
    setattr(_REPR, _limit, 12)
_REPR.maxstring = 200
_REPR.maxother = 200
_REPR.maxlong = 60


def shown(value: object) -> str:
    """``repr(value)``, cut to a readable length and depth (``...`` marks what was left out)."""
    try:
        return _REPR.repr(value)
    except Exception:  # a value whose own __repr__ fails must still be named
        return f"<{type(value).__name__} object>"


class Shown:
    """A value to put in a message template (``"got {k!r}"``, ``"got {k}"``): it formats as
    :func:`shown` does, so an engine's own message text can name any value safely."""

    def __init__(self, value: object) -> None:
        self.value = value

    def __repr__(self) -> str:
        return shown(self.value)

    def __str__(self) -> str:
        return self.value if isinstance(self.value, str) else shown(self.value)
