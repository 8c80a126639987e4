"""Milvus filter semantics over records: the typed fields an expression may name, how JSON values
compare with literals (Milvus 2.5's rules, ``docs/engines/milvus.md#filter-expressions``), and the
row predicates the planner (``planner.py``) builds from them. A test of one metadata key's value
answers for a whole partition from its column index (``filters.value_masks``; equality from the
buckets of the equal values)."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from placeborag_core.backends.milvus.errors import MilvusFilterError
from placeborag_core.filters.predicates import BoolMask, ColumnView, Predicate, RecordPredicate
from placeborag_core.filters.value_masks import ABSENT, value_masks

__all__ = [
    "ARITHMETIC",
    "FLOAT_ARITHMETIC",
    "INT_ARITHMETIC",
    "KIND_OF_TYPE",
    "MISSING",
    "ORDER_TESTS",
    "REVERSED",
    "And",
    "Equals",
    "Fails",
    "FieldType",
    "Getter",
    "Or",
    "Schema",
    "Test",
    "is_numeric",
    "json_equal",
    "json_order",
    "kind_of",
    "like_regex",
]

FieldType = Literal["varchar", "int64", "double", "bool"]
KIND_OF_TYPE: dict[str, type] = {"varchar": str, "int64": int, "double": float, "bool": bool}


@dataclass(frozen=True)
class Schema:
    """The typed fields an expression may name. ``id_field``/``id_type``: the primary key;
    ``text_field``: the field holding the record's text (None: none); ``fields``: metadata keys
    that are typed scalar fields of the collection (langchain-milvus builds them from its first
    batch); ``dynamic``: whether any other name is a key of the record's metadata, Milvus's
    dynamic JSON field (else naming it is an error)."""

    id_field: str = "id"
    id_type: FieldType = "varchar"
    text_field: str | None = None
    fields: Mapping[str, FieldType] = field(default_factory=dict)
    dynamic: bool = True


class Missing:
    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = Missing()
"""A key a record does not have (distinct from a stored null)."""


# --- value semantics -------------------------------------------------------------------------


def kind_of(value: Any) -> type | None:
    """The literal kind of a JSON scalar: bool, int, float or str (None for anything else)."""
    if isinstance(value, bool):
        return bool
    if isinstance(value, int):
        return int
    if isinstance(value, float):
        return float
    if isinstance(value, str):
        return str
    return None


def is_numeric(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def json_equal(value: Any, operand: Any) -> bool:
    """Milvus ``value == operand`` for a JSON value and a literal."""
    if isinstance(operand, bool) or isinstance(value, bool):
        return isinstance(operand, bool) and isinstance(value, bool) and value == operand
    if isinstance(operand, str):
        return isinstance(value, str) and value == operand
    if not (is_numeric(value) and is_numeric(operand)):
        return False
    if isinstance(value, int) and isinstance(operand, int):
        return value == operand
    return float(value) == float(operand)


def json_order(value: Any, operand: Any) -> int | None:
    """-1, 0 or 1 comparing a JSON value with a literal, or None when they do not compare."""
    if isinstance(operand, bool) or isinstance(value, bool):
        if not (isinstance(operand, bool) and isinstance(value, bool)):
            return None
        left: Any = int(value)
        right: Any = int(operand)
    elif isinstance(operand, str):
        if not isinstance(value, str):
            return None
        left, right = (
            value.encode("utf-8", "surrogatepass"),
            operand.encode("utf-8", "surrogatepass"),
        )
    elif is_numeric(value) and is_numeric(operand):
        if isinstance(value, int) and isinstance(operand, int):
            left, right = value, operand
        else:
            left, right = float(value), float(operand)
            if math.isnan(left) or math.isnan(right):
                return None
    else:
        return None
    return int(left > right) - int(left < right)


ORDER_TESTS: dict[str, Callable[[int], bool]] = {
    "<": lambda c: c < 0,
    "<=": lambda c: c <= 0,
    ">": lambda c: c > 0,
    ">=": lambda c: c >= 0,
}
ARITHMETIC = ("+", "-", "*", "/", "%", "**")


def _truncated_division(a: int, b: int) -> int:
    quotient = abs(a) // abs(b)
    return quotient if (a >= 0) == (b > 0) else -quotient


INT_ARITHMETIC: dict[str, Callable[[Any, Any], Any]] = {
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "/": _truncated_division,
    "%": lambda a, b: a - b * _truncated_division(a, b),
}
"""INT64 arithmetic as the Milvus core does it (C's truncating ``/`` and ``%``)."""
FLOAT_ARITHMETIC: dict[str, Callable[[Any, Any], Any]] = {
    "+": lambda a, b: float(a) + b,
    "-": lambda a, b: float(a) - b,
    "*": lambda a, b: float(a) * b,
    "/": lambda a, b: float(a) / b,
    "%": lambda a, b: None,  # measured: ``price % 2 == 1.5`` matches nothing
}
"""DOUBLE arithmetic (``%`` on a DOUBLE field matches nothing)."""

REVERSED = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "!=", "!=": "=="}
"""A literal on the left: relational operators turn around; ``==``/``!=`` swap (the bug)."""


def like_regex(pattern: str) -> re.Pattern[str] | None:
    """The pattern as an anchored regex (None: a pattern of only wildcards, ``%`` and ``_``,
    which matches nothing on any field: ``milvus-filter-like-wildcards-only-match-nothing``)."""
    if pattern and set(pattern) <= {"%", "_"}:
        return None
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
    return re.compile("".join(out), re.DOTALL)


# --- predicates ------------------------------------------------------------------------------


def _step(value: Any, step: str | int) -> Any:
    """``value[step]`` along a JSON path (a key of an object, an index of a list), or MISSING."""
    if isinstance(step, str):
        return value[step] if isinstance(value, Mapping) and step in value else MISSING
    return value[step] if isinstance(value, list) and step < len(value) else MISSING


class Getter:
    """Reads one named value of the record in a row: a JSON path, the id (an int for an INT64
    key) or the text."""

    def __init__(
        self, source: Literal["json", "id", "int_id", "text"], path: tuple[str | int, ...]
    ) -> None:
        self.source = source
        self.path = path

    def __call__(self, view: ColumnView, row: int) -> Any:
        if self.source == "id":
            return view.id_at(row)
        if self.source == "int_id":
            return int(view.id_at(row))
        if self.source == "text":
            text = view.text_at(row)
            return MISSING if text is None else text
        return self._walk(view.metadata_at(row), self.path)

    @property
    def key(self) -> str | None:
        """The metadata key every value this reads lies under (None: the id, the text, the
        whole metadata)."""
        if self.source == "json" and self.path and isinstance(self.path[0], str):
            return self.path[0]
        return None

    def below(self, value: Any) -> Any:
        """What this reads from a record holding ``value`` under :attr:`key` (ABSENT: none)."""
        return MISSING if value is ABSENT else self._walk(value, self.path[1:])

    @staticmethod
    def _walk(value: Any, path: tuple[str | int, ...]) -> Any:
        for step in path:
            value = _step(value, step)
            if value is MISSING:
                break
        return value


class Test(RecordPredicate):
    """``test`` of one value of the record (see :class:`Getter`)."""

    def __init__(self, get: Getter, test: Callable[[Any], bool]) -> None:
        self.get = get
        self.test = test

    def row_matches(self, view: ColumnView, row: int) -> bool:
        return self.test(self.get(view, row))

    def mask(self, view: ColumnView) -> BoolMask:
        """From the column index when the value lies under one metadata key (the test asked
        once per distinct value), else row by row."""
        key = self.get.key
        if key is None:
            return super().mask(view)
        try:
            return value_masks(view, key, self._outcomes, (True,))[0]
        except Exception:  # raised again, from the row that fails first
            return super().mask(view)

    def _outcomes(self, values: Sequence[Any]) -> list[bool]:
        return [self.test(self.get.below(value)) for value in values]


class Equals(Test):
    """``value == literal`` for one of ``literals`` (``==``, ``in``), or with ``negated`` for
    none of them (``!=``, ``not in``). On a metadata key's own value (not a path below it) and
    for bool, str and int64 literals, the rows come straight from the column index's buckets of
    the equal values; a list, an object, a null or a missing key equals nothing."""

    def __init__(self, get: Getter, literals: Sequence[Any], *, negated: bool) -> None:
        found = tuple(literals)
        super().__init__(get, lambda v: any(json_equal(v, item) for item in found) != negated)
        self.literals = found
        self.negated = negated

    def mask(self, view: ColumnView) -> BoolMask:
        lookups = _equal_lookups(self.literals)
        key = self.get.key
        if key is None or len(self.get.path) != 1 or lookups is None:
            return super().mask(view)
        equal = view.value_mask(key, lookups, False)
        return ~equal if self.negated else equal


def _equal_lookups(literals: Sequence[Any]) -> list[tuple[str, Any]] | None:
    """The column-index buckets (``store.column_index.index_key``) of the values
    :func:`json_equal` to one of ``literals``; None for a float literal (an int value equals it
    through a double, which a huge int cannot become without an error)."""
    lookups: list[tuple[str, Any]] = []
    for item in literals:
        if isinstance(item, bool):
            lookups.append(("b", item))
        elif isinstance(item, str):
            lookups.append(("s", item))
        elif isinstance(item, int) and -(2**63) <= item < 2**63:
            lookups += [("i", item), ("f", float(item))]
        else:
            return None
    return lookups


class Fails(RecordPredicate):
    """An error the engine raises only when it evaluates rows: any row its segment holds,
    deleted ones too (measured: ``lc-milvus-runtime-error-deleted-rows``), so it raises once
    a collection has taken a row, and not before."""

    def __init__(self, error: MilvusFilterError) -> None:
        self.error = error

    def row_matches(self, view: ColumnView, row: int) -> bool:
        raise self.error

    def mask(self, view: ColumnView) -> BoolMask:
        if view.n_rows:
            raise self.error
        return np.zeros(0, dtype=bool)


class And(Predicate):
    """Milvus's conjunction: its operands are evaluated in order over the rows, and once no
    row is left true the rest are skipped (so an operand that would fail while it runs does
    not, as in the engine); with no live row nothing is skipped (measured:
    ``lc-milvus-runtime-error-deleted-rows``)."""

    def __init__(self, children: Sequence[Predicate]) -> None:
        self.children = tuple(children)

    def row_matches(self, view: ColumnView, row: int) -> bool:
        return all(child.row_matches(view, row) for child in self.children)

    def mask(self, view: ColumnView) -> BoolMask:
        live = view.live_rows()
        out = np.ones(view.n_rows, dtype=bool)
        for child in self.children:
            if len(live) and not out[live].any():
                break
            out &= child.mask(view)
        return out


class Or(Predicate):
    """Milvus's disjunction: evaluated in order, the rest skipped once every row is true."""

    def __init__(self, children: Sequence[Predicate]) -> None:
        self.children = tuple(children)

    def row_matches(self, view: ColumnView, row: int) -> bool:
        return any(child.row_matches(view, row) for child in self.children)

    def mask(self, view: ColumnView) -> BoolMask:
        live = view.live_rows()
        out = np.zeros(view.n_rows, dtype=bool)
        for child in self.children:
            if len(live) and out[live].all():
                break
            out |= child.mask(view)
        return out
