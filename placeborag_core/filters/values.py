"""Value semantics of filters: when a stored metadata value equals, exceeds or contains an
operand, under a dialect's rules."""

from __future__ import annotations

import math
import re
from typing import Any

from placeborag_core.filters.dialect import FilterDialect

__all__ = ["as_i64", "is_number", "lookups", "operand_for", "scalar_eq", "tokens"]


def is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def scalar_eq(value: Any, operand: Any, dialect: FilterDialect) -> bool:
    if isinstance(operand, bool) or isinstance(value, bool):
        return isinstance(operand, bool) and isinstance(value, bool) and value == operand
    if isinstance(operand, str):
        return isinstance(value, str) and value == operand
    if not is_number(value):
        return False
    if dialect.numeric_equality == "int_exact" and isinstance(operand, int):
        return isinstance(value, int) and value == operand
    return bool(value == operand)


_I64_MIN, _I64_MAX = -(2**63), 2**63 - 1


def as_i64(operand: float) -> int:
    """Rust's ``operand as i64``: toward zero, saturating at the int64 range, NaN becomes 0."""
    if math.isnan(operand):
        return 0
    if operand >= _I64_MAX:
        return _I64_MAX
    if operand <= _I64_MIN:
        return _I64_MIN
    return int(operand)


def operand_for(value: Any, operand: Any, dialect: FilterDialect) -> Any:
    """The operand as the dialect compares it with this scalar ``value`` (see ``FilterDialect``)."""
    if (
        dialect.int_vs_float_operand == "truncate"
        and isinstance(operand, float)
        and isinstance(value, int)
        and not isinstance(value, bool)
    ):
        return as_i64(operand)
    return operand


def lookups(operand: Any, dialect: FilterDialect) -> list[tuple[str, Any]]:
    """Column-index keys (as ``store.column_index.index_key`` makes them) whose rows equal
    ``operand`` under the dialect (mirrors ``scalar_eq``)."""
    if isinstance(operand, bool):
        return [("b", operand)]
    if isinstance(operand, str):
        return [("s", operand)]
    if isinstance(operand, int):
        if dialect.numeric_equality == "int_exact":
            return [("i", operand)]
        try:
            as_float = float(operand)
        except OverflowError:
            return [("i", operand)]
        # a float equals the int only when it is exactly that number (2.0**53 is not 2**53 + 1)
        return [("i", operand), ("f", as_float)] if as_float == operand else [("i", operand)]
    keys: list[tuple[str, Any]] = [("f", operand)]
    if dialect.int_vs_float_operand == "truncate":
        keys.append(("i", as_i64(operand)))
    elif math.isfinite(operand) and operand.is_integer():
        keys.append(("i", int(operand)))
    return keys


_WORD = re.compile(r"[^\W_]+")


def tokens(text: str) -> list[str]:
    return [token.lower() for token in _WORD.findall(text)]
