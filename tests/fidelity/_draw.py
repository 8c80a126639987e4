"""One source of choices for the case generators, two drivers.

The generators in ``_cases`` ask a ``Draw`` for every decision. Under pytest the decisions
come from hypothesis (so failures shrink and the run is derandomized); in the report script
they come from a seeded ``random.Random``. The same generator code then feeds both, and the
report counts exactly the kinds of case the tests check.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

T = TypeVar("T")


class Draw(Protocol):
    """The decisions a case generator may ask for."""

    def integer(self, lo: int, hi: int) -> int:
        """An int in [lo, hi]."""
        ...

    def choice(self, options: Sequence[T]) -> T:
        """One element of a non-empty sequence."""
        ...

    def chance(self, p: float) -> bool:
        """True with (roughly) probability p."""
        ...


class RandomDraw:
    """Draws from a private ``random.Random`` (never the global one)."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def integer(self, lo: int, hi: int) -> int:
        return self._rng.randint(lo, hi)

    def choice(self, options: Sequence[T]) -> T:
        return options[self._rng.randrange(len(options))]

    def chance(self, p: float) -> bool:
        return self._rng.random() < p


class HypothesisDraw:
    """Draws through a hypothesis ``draw`` function, so the data shrinks on failure."""

    def __init__(self, draw: Callable[[Any], Any]) -> None:
        from hypothesis import strategies as st

        self._draw = draw
        self._st = st

    def integer(self, lo: int, hi: int) -> int:
        return int(self._draw(self._st.integers(lo, hi)))

    def choice(self, options: Sequence[T]) -> T:
        return options[self._draw(self._st.integers(0, len(options) - 1))]

    def chance(self, p: float) -> bool:
        # A 1-in-1000 grid keeps the probability; the draw shrinks towards 0, i.e. False.
        return bool(self._draw(self._st.integers(0, 999)) >= 1000 - int(p * 1000))
