"""Comparing and converting the values a filter reads while it runs.

SQL's comparisons on Python values as DataFusion orders them (NaN above every number and equal
to itself, ``-0.0`` equal to ``0.0``, lists element by element), the string-to-number casts of a
string column compared with a number, ``LIKE`` patterns, and what one evaluation knows
(``Evaluation``: pre- or post-filter, which decides a failing cast's message).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from typing import Any

from placeborag_core.backends.lancedb.arrow import ArrowType
from placeborag_core.backends.lancedb.sql.messages import (
    POSTFILTER_SCAN,
    PREFILTER_READ,
    LanceExecutionError,
)

__all__ = [
    "TESTS",
    "Batch",
    "Evaluation",
    "Evaluator",
    "compare_values",
    "like_regex",
    "parse_number",
]


Batch = list[Any]
Evaluator = Callable[[Any, Sequence[int], "Evaluation"], Batch]
"""A planned (sub)filter: its value for each of a batch of rows, in one evaluation."""


def float_key(value: float) -> tuple[int, float]:
    if math.isnan(value):
        return (1, 0.0)
    return (0, value + 0.0)  # -0.0 + 0.0 is 0.0


def compare_values(left: Any, right: Any) -> int:
    """-1/0/1 for two non-null values of one comparable kind (lists element by element)."""
    if isinstance(left, list) and isinstance(right, list):
        for a, b in zip(left, right, strict=False):
            if a is None or b is None:
                if a is not b:
                    return -1 if a is None else 1
                continue
            order: int = compare_values(a, b)
            if order:
                return order
        return (len(left) > len(right)) - (len(left) < len(right))
    if isinstance(left, str) or isinstance(right, str):
        a_text, b_text = str(left), str(right)
        return (a_text > b_text) - (a_text < b_text)
    if isinstance(left, int) and isinstance(right, int):
        return (left > right) - (left < right)
    a, b = float_key(float(left)), float_key(float(right))
    return (a > b) - (a < b)


TESTS: dict[str, Callable[[int], bool]] = {
    "=": lambda c: c == 0,
    "==": lambda c: c == 0,
    "<>": lambda c: c != 0,
    "<": lambda c: c < 0,
    "<=": lambda c: c <= 0,
    ">": lambda c: c > 0,
    ">=": lambda c: c >= 0,
}
FLOAT_TEXT = re.compile(
    r"[+-]?(?:[0-9]+\.?[0-9]*(?:[eE][+-]?[0-9]+)?|\.[0-9]+(?:[eE][+-]?[0-9]+)?|inf|infinity|nan)",
    re.IGNORECASE,
)


def parse_number(text: str, target: ArrowType) -> int | float | None:
    if target.kind in ("int64", "uint64"):
        return int(text) if re.fullmatch(r"[+-]?[0-9]+", text) else None
    return float(text) if FLOAT_TEXT.fullmatch(text) else None


def like_regex(pattern: str, insensitive: bool) -> re.Pattern[str]:
    out: list[str] = []
    i = 0
    while i < len(pattern):
        char = pattern[i]
        if char == "\\" and i + 1 < len(pattern):
            out.append(re.escape(pattern[i + 1]))
            i += 2
            continue
        out.append(".*" if char == "%" else "." if char == "_" else re.escape(char))
        i += 1
    return re.compile("".join(out), re.DOTALL | (re.IGNORECASE if insensitive else 0))


class Evaluation:
    """What one evaluation knows: whether it runs as a pre-filter (the whole table) or a
    post-filter (the search's results), which decides the message of a failing cast."""

    def __init__(self, prefilter: bool) -> None:
        self.prefilter = prefilter

    def cast_failed(self, value: str, target: ArrowType) -> LanceExecutionError:
        cast = f"Cast error: Cannot cast string '{value}' to value of {target.debug} type"
        if self.prefilter:
            return LanceExecutionError(
                "lance error: Query Execution error: Error applying filter expression to batch: "
                f"Arrow error: {cast}, {PREFILTER_READ}"
            )
        return LanceExecutionError(f"lance error: LanceError(Arrow): {cast}, {POSTFILTER_SCAN}")
