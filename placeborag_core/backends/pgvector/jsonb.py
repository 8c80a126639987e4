"""PostgreSQL's JSONB metadata semantics as filter predicates with SQL's three-valued logic.

A condition on JSONB metadata is true, false or unknown (SQL NULL), and only true keeps a row.
These predicates answer :meth:`Tri.truth` (True, False or None) and combine with Kleene logic
(``NOT unknown`` is unknown, ``unknown OR true`` is true), as SQL's ``AND``/``OR``/``NOT`` do.
Measured facts: ``docs/engines/pgvector.md#filtering-jsonb-semantics`` (probe
``tests/fidelity/probes/pgvector_jsonb.py``).

* :class:`PathCompare` is ``jsonb_path_match(meta, '$.key <op> $value')`` in SQL/JSON path's lax
  mode: a missing key is false; an array value is unwrapped one level and so is an array operand,
  and the comparison is true if any pair is true, else unknown if any pair is unknown, else
  false; a pair of different JSON types (number and string, bool and number) or holding an
  object or a nested array is unknown; null equals only null (``!=`` is true for null against
  anything else, ``<``/``>`` with null are false); numbers compare exactly (1 == 1.0), strings by
  code point, false < true.
* :class:`TextIn` is ``meta->>'key' IN (texts)`` (or ``NOT IN``): the value as text (numbers as
  PostgreSQL's ``numeric`` prints them, true/false, arrays and objects as JSON text), unknown for
  a missing key or JSON null.
* :class:`TextLike` is ``meta->>'key' [I]LIKE pattern`` (``%``, ``_``, backslash escapes).
* :class:`KeyExists` is ``meta ? 'key'`` (a key holding null exists).
"""

from __future__ import annotations

import json
import operator
import re
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any, Literal

import numpy as np

from placeborag_core.backends.pgvector.masks import Masks, by_value, equal_mask
from placeborag_core.filters.predicates import BoolMask, ColumnView, Predicate

__all__ = [
    "COMPARE",
    "KeyExists",
    "PathCompare",
    "TextIn",
    "TextLike",
    "Tri",
    "TriAll",
    "TriAny",
    "TriNot",
    "ValueTri",
    "as_text",
    "truth_of",
]

Truth = bool | None
Comparison = Literal["==", "!=", "<", "<=", ">", ">="]
_MISSING = object()

COMPARE: dict[str, Any] = {
    "==": operator.eq,
    "=": operator.eq,  # SQL's spelling
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}
"""Each comparison operator, in jsonpath's and SQL's spellings, as the function it applies."""


class Tri(Predicate):
    """A condition with three outcomes; a row passes only when it is True.

    A condition that is a function of the metadata and cannot fail answers for a whole
    partition at once (``vectorised``, :meth:`truth_masks`, built from the column index); any
    other (a cast that can fail on some row, a test of the record id) is asked row by row, and
    so is every ``AND``/``OR``/``NOT`` above it, which keeps SQL's order of evaluation."""

    vectorised = False
    """Whether :meth:`truth_masks` answers (else the condition is asked row by row)."""

    def truth(self, metadata: Mapping[str, Any]) -> Truth:
        """True, False or None (unknown) for a record with this metadata."""
        raise NotImplementedError

    def truth_masks(self, view: ColumnView, want_false: bool) -> Masks:
        """The rows where the condition is true and, if ``want_false``, those where it is
        false (for ``vectorised`` conditions)."""
        raise NotImplementedError

    def mask(self, view: ColumnView) -> BoolMask:
        """Pass/fail for every row of a partition: the true rows of :meth:`truth_masks` when
        ``vectorised``, else row by row."""
        if self.vectorised:
            return self.truth_masks(view, False)[0]
        return super().mask(view)

    def row_truth(self, view: ColumnView, row: int) -> Truth:
        """The condition for the record in ``row`` (a caller's record condition inside may need
        more than the metadata)."""
        return self.truth(view.metadata_at(row))

    def matches(self, metadata: Mapping[str, Any]) -> bool:
        return self.truth(metadata) is True

    def row_matches(self, view: ColumnView, row: int) -> bool:
        return self.row_truth(view, row) is True


def truth_of(node: Predicate, view: ColumnView, row: int) -> Truth:
    """A child's outcome: three-valued for :class:`Tri`, else its plain match."""
    if isinstance(node, Tri):
        return node.row_truth(view, row)
    return node.row_matches(view, row)


def _meta_truth(node: Predicate, metadata: Mapping[str, Any]) -> Truth:
    return node.truth(metadata) if isinstance(node, Tri) else node.matches(metadata)


def _vectorised(children: Sequence[Predicate]) -> bool:
    return all(isinstance(c, Tri) and c.vectorised for c in children)


def _children_masks(children: Sequence[Predicate], view: ColumnView, want_false: bool) -> Any:
    return [c.truth_masks(view, want_false) for c in children if isinstance(c, Tri)]


class TriAll(Tri):
    """SQL ``AND``: false if any is false, else unknown if any is unknown, else true."""

    def __init__(self, children: Sequence[Predicate]) -> None:
        self.children = tuple(children)
        self.vectorised = _vectorised(self.children)

    def truth_masks(self, view: ColumnView, want_false: bool) -> Masks:
        true = np.ones(view.n_rows, dtype=bool)
        false = np.zeros(view.n_rows, dtype=bool) if want_false else None
        for child_true, child_false in _children_masks(self.children, view, want_false):
            true &= child_true
            if false is not None:
                false |= child_false
        return true, false

    def _combine(self, outcomes: Any) -> Truth:
        unknown = False
        for outcome in outcomes:
            if outcome is False:
                return False
            if outcome is None:
                unknown = True
        return None if unknown else True

    def truth(self, metadata: Mapping[str, Any]) -> Truth:
        return self._combine(_meta_truth(c, metadata) for c in self.children)

    def row_truth(self, view: ColumnView, row: int) -> Truth:
        return self._combine(truth_of(c, view, row) for c in self.children)


class TriAny(Tri):
    """SQL ``OR``: true if any is true, else unknown if any is unknown, else false."""

    def __init__(self, children: Sequence[Predicate]) -> None:
        self.children = tuple(children)
        self.vectorised = _vectorised(self.children)

    def truth_masks(self, view: ColumnView, want_false: bool) -> Masks:
        true = np.zeros(view.n_rows, dtype=bool)
        false = np.ones(view.n_rows, dtype=bool) if want_false else None
        for child_true, child_false in _children_masks(self.children, view, want_false):
            true |= child_true
            if false is not None:
                false &= child_false
        return true, false

    def _combine(self, outcomes: Any) -> Truth:
        unknown = False
        for outcome in outcomes:
            if outcome is True:
                return True
            if outcome is None:
                unknown = True
        return None if unknown else False

    def truth(self, metadata: Mapping[str, Any]) -> Truth:
        return self._combine(_meta_truth(c, metadata) for c in self.children)

    def row_truth(self, view: ColumnView, row: int) -> Truth:
        return self._combine(truth_of(c, view, row) for c in self.children)


class TriNot(Tri):
    """SQL ``NOT``: unknown stays unknown."""

    def __init__(self, child: Predicate) -> None:
        self.child = child
        self.vectorised = _vectorised([child])

    def truth_masks(self, view: ColumnView, want_false: bool) -> Masks:
        true, false = _children_masks([self.child], view, True)[0]
        return false, true if want_false else None

    def truth(self, metadata: Mapping[str, Any]) -> Truth:
        outcome = _meta_truth(self.child, metadata)
        return None if outcome is None else not outcome

    def row_truth(self, view: ColumnView, row: int) -> Truth:
        outcome = truth_of(self.child, view, row)
        return None if outcome is None else not outcome


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "container"


def compare_items(left: Any, right: Any, op: Comparison) -> Truth:
    """One SQL/JSON path comparison of two items (after lax unwrapping)."""
    if left is None or right is None:
        both = left is None and right is None
        if op == "==":
            return both
        if op == "!=":
            return not both
        return False
    kind = _kind(left)
    if kind != _kind(right) or kind == "container":
        return None
    return bool(COMPARE[op](left, right))


def path_compare(value: Any, operand: Any, op: Comparison) -> Truth:
    """``$.key <op> $value`` in lax mode, ``value`` being the key's value (``_MISSING`` if
    absent)."""
    if value is _MISSING:
        return False
    lefts = value if isinstance(value, list | tuple) else [value]
    rights = operand if isinstance(operand, list | tuple) else [operand]
    unknown = False
    for left in lefts:
        for right in rights:
            outcome = compare_items(left, right, op)
            if outcome is True:
                return True
            if outcome is None:
                unknown = True
    return None if unknown else False


class ValueTri(Tri):
    """A condition on one key's value: ``missing`` without the key, else :meth:`value_truth`
    of its value; vectorised by :func:`~.masks.by_value`."""

    vectorised = True
    key: str
    missing: Truth = None

    def value_truth(self, value: Any) -> Truth:
        """The outcome for a record holding ``value`` under the key."""
        raise NotImplementedError

    def truth(self, metadata: Mapping[str, Any]) -> Truth:
        value = metadata.get(self.key, _MISSING)
        return self.missing if value is _MISSING else self.value_truth(value)

    def truth_masks(self, view: ColumnView, want_false: bool) -> Masks:
        return by_value(view, self.key, self.value_truth, self.missing, want_false)


class PathCompare(ValueTri):
    """``jsonb_path_match(meta, '$.key <op> $value', {"value": operand})``."""

    missing = False

    def __init__(self, key: str, op: Comparison, operand: Any) -> None:
        self.key = key
        self.op = op
        self.operand = operand

    def value_truth(self, value: Any) -> Truth:
        return path_compare(value, self.operand, self.op)

    def truth_masks(self, view: ColumnView, want_false: bool) -> Masks:
        if self.op == "==" and not want_false:  # the rows equal to an operand, looked up
            operands = self.operand if isinstance(self.operand, list | tuple) else [self.operand]
            true = equal_mask(view, self.key, list(operands), self._true)
            if true is not None:
                return true, None
        return super().truth_masks(view, want_false)

    def _true(self, value: Any) -> bool:
        return self.value_truth(value) is True


def _number_text(value: int | float) -> str:
    if isinstance(value, int):
        return str(value)
    text = format(Decimal(repr(value)), "f")
    return text[1:] if text.startswith("-") and Decimal(text) == 0 else text


def as_text(value: Any, column: Literal["jsonb", "json"] = "jsonb") -> str | None:
    """``meta->>'key'`` for a value: None for JSON null, a str as itself, a number as
    PostgreSQL prints it (jsonb: ``numeric`` text, e.g. 1e-05 -> ``0.00001``; json: the JSON
    text), true/false, an array or object as JSON text."""
    if value is None:
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float) and column == "jsonb":
        return _number_text(value)
    return json.dumps(value)


class TextIn(ValueTri):
    """``meta->>'key' IN (texts)`` (``negate``: ``NOT IN``); unknown when the text is NULL."""

    def __init__(
        self, key: str, texts: Sequence[str], *, negate: bool = False, column: str = "jsonb"
    ) -> None:
        self.key = key
        self.texts = frozenset(texts)
        self.negate = negate
        self.column: Literal["jsonb", "json"] = "json" if column == "json" else "jsonb"

    def value_truth(self, value: Any) -> Truth:
        text = as_text(value, self.column)
        if text is None:
            return None
        return (text in self.texts) != self.negate


def like_regex(pattern: str, *, insensitive: bool) -> re.Pattern[str]:
    """SQL ``LIKE`` pattern as a regex: ``%`` any run, ``_`` one character, backslash escapes
    the next character."""
    parts: list[str] = []
    escaped = False
    for char in pattern:
        if escaped:
            parts.append(re.escape(char))
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == "%":
            parts.append(".*")
        elif char == "_":
            parts.append(".")
        else:
            parts.append(re.escape(char))
    flags = re.DOTALL | (re.IGNORECASE if insensitive else 0)
    return re.compile("".join(parts), flags)


class TextLike(ValueTri):
    """``meta->>'key' LIKE pattern`` (``ILIKE`` if ``insensitive``); unknown when NULL."""

    def __init__(
        self, key: str, pattern: str, *, insensitive: bool = False, column: str = "jsonb"
    ) -> None:
        self.key = key
        self.regex = like_regex(pattern, insensitive=insensitive)
        self.column: Literal["jsonb", "json"] = "json" if column == "json" else "jsonb"

    def value_truth(self, value: Any) -> Truth:
        text = as_text(value, self.column)
        if text is None:
            return None
        return self.regex.fullmatch(text) is not None


class KeyExists(Tri):
    """``meta ? 'key'``: the key is present (holding null counts)."""

    vectorised = True

    def __init__(self, key: str) -> None:
        self.key = key

    def truth(self, metadata: Mapping[str, Any]) -> Truth:
        return self.key in metadata

    def truth_masks(self, view: ColumnView, want_false: bool) -> Masks:
        has = view.key_mask(self.key)
        return has, ~has if want_false else None
