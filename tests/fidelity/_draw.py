"""One source of choices for the case generators, driven by a seed.

The generators in ``_cases`` ask a ``Draw`` for every decision, and the decisions come from a
seeded ``random.Random``: in the report script (``benchmarks/fidelity_report.py``) and in the
tests (``check_drawn_cases``), so the report counts exactly the kinds of case the tests check.

The tests used hypothesis's ``st.data()`` before. Hypothesis mixes constants read from every
local module imported so far into its draws, so a derandomized test drew other cases when other
test directories were collected beside it, and a failure seen in a full run did not replay when
its file ran alone. A seed depends on nothing but the test's name and the case's number.
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Callable, Sequence
from typing import Protocol, TypeVar

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


def case_seed(test: str, case: int) -> int:
    """The seed of a test's ``case``-th drawn case: a pure function of the two."""
    return zlib.crc32(test.encode()) * 10_000 + case


def check_drawn_cases(test: str, count: int, check: Callable[[Draw], object]) -> None:
    """Run ``check`` on ``count`` seeded draws; a failure names the seed that replays it
    (``check(RandomDraw(seed))``, in any process, whatever else is imported)."""
    for case in range(count):
        seed = case_seed(test, case)
        try:
            check(RandomDraw(seed))
        except Exception as error:
            raise AssertionError(f"{test}, case {case}: RandomDraw({seed}): {error}") from error
