"""PostgreSQL conditions on a ``json``/``jsonb`` metadata column written as plain SQL text.

Some integrations do not use SQL/JSON path (:class:`~.jsonb.PathCompare`) but compare the text
``meta->>'key'`` directly: llama-index's ``PGVectorStore`` builds
``(metadata_->>'k')::float > 3.0``, ``metadata_->>'k' = 'red'``, ``metadata_->>'k' IS NULL``,
``metadata_::jsonb->'k' ?| array['x']`` and ``metadata_::jsonb->'k' @> '["x"]'``. These
predicates are those conditions, with PostgreSQL's semantics (measured: probe
``tests/fidelity/probes/pgvector_sqltext.py``, facts in ``docs/engines/pgvector.md``):

* ``meta->>'key'`` is NULL for a missing key and for JSON null, a string as itself, anything
  else as its JSON text (``json``: the text as written; ``jsonb``: normalised, see
  :func:`~.jsonb.as_text`).
* The ``::float`` cast is ``float8in``: surrounding blanks are allowed, ``NaN``/``Infinity``/
  ``inf`` in any case are numbers; any other text (``true``, ``red``, ``[1, 2]``) aborts the
  whole statement with ``invalid input syntax for type double precision: "<text>"`` (SQLSTATE
  22P02), a magnitude beyond double precision with ``"<text>" is out of range for type double
  precision`` (22003). So the error depends on the **data**: it is raised for the first row
  (heap order) whose condition reaches the cast. float8 comparisons put NaN above every
  number and equal to itself.
* Text compares by code point (the database collation is ``C.UTF-8``).
* :class:`QualList` is the WHERE clause's top level: PostgreSQL flattens nested ``AND``s, moves
  each ``expression = constant`` after the other conditions (it becomes an equivalence class,
  whose clauses are emitted last, one per expression; two different constants for one
  expression make the whole clause false without reading a row) and evaluates them cheapest
  first (``order_qual_clauses``, stable for equal cost), stopping at the first that is not
  true. Below the top level,
  ``AND``/``OR`` evaluate left to right, stopping at the first false (true), as
  :class:`~.jsonb.TriAll` and :class:`~.jsonb.TriAny` do. Costs, in ``cpu_operator_cost``
  units (read from ``EXPLAIN VERBOSE`` orderings): ``->>`` 1, a text comparison or ``LIKE`` 1,
  the text-to-float cast 2 and its comparison 1, ``IS NULL`` 0, ``IN``/``NOT IN`` of n texts
  n/2 (n < 9), the ``::jsonb`` cast of a ``json`` column 2, ``->`` 1, ``?|``/``?&``/``@>`` 1.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import Any, Literal

import numpy as np

from placeborag_core.backends.pgvector.jsonb import (
    COMPARE,
    TextIn,
    TextLike,
    Tri,
    Truth,
    ValueTri,
    as_text,
    truth_of,
)
from placeborag_core.backends.pgvector.masks import Masks
from placeborag_core.filters.predicates import ColumnView, Predicate

__all__ = [
    "Column",
    "FloatCast",
    "JsonbContainsText",
    "JsonbHasKeys",
    "PgvectorCastError",
    "QualList",
    "RowIdIn",
    "TextCompare",
    "TextInList",
    "TextIsNull",
    "TextPattern",
    "cost_of",
    "float8in",
]

Column = Literal["json", "jsonb"]
SqlComparison = Literal["=", "!=", "<", "<=", ">", ">="]


class PgvectorCastError(ValueError):
    """A stored value that PostgreSQL cannot cast (SQLSTATE ``22P02`` or ``22003``): the real
    integration raises ``sqlalchemy.exc.DataError`` wrapping psycopg's ``InvalidTextRepresentation``
    / ``NumericValueOutOfRange`` with the same message."""

    def __init__(self, message: str, sqlstate: str) -> None:
        super().__init__(message)
        self.sqlstate = sqlstate


_FLOAT8 = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_HEX = re.compile(r"[+-]?0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)(?:[pP][+-]?[0-9]+)?")
_SPECIAL = {
    "nan": math.nan,
    "+nan": math.nan,
    "-nan": math.nan,
    "infinity": math.inf,
    "+infinity": math.inf,
    "-infinity": -math.inf,
    "inf": math.inf,
    "+inf": math.inf,
    "-inf": -math.inf,
}
_BLANKS = " \t\n\r\v\f"


def float8in(text: str) -> float:
    """PostgreSQL's text-to-``double precision`` input: the number, or PgvectorCastError."""
    stripped = text.strip(_BLANKS)
    special = _SPECIAL.get(stripped.lower())
    if special is not None:
        return special
    out_of_range = PgvectorCastError(f'"{text}" is out of range for type double precision', "22003")
    if _HEX.fullmatch(stripped):  # glibc's strtod reads C99 hex floats
        try:
            return float.fromhex(stripped)
        except OverflowError:
            raise out_of_range from None
    if not _FLOAT8.fullmatch(stripped):
        raise PgvectorCastError(
            f'invalid input syntax for type double precision: "{text}"', "22P02"
        )
    value = float(stripped)
    if math.isinf(value) or (value == 0.0 and _nonzero_digits(stripped)):
        raise out_of_range
    return value


def _nonzero_digits(number: str) -> bool:
    mantissa = re.split("[eE]", number)[0]
    return any(c in "123456789" for c in mantissa)


def _compare(left: Any, right: Any, op: SqlComparison) -> bool:
    return bool(COMPARE[op](left, right))


def _float8_key(value: float) -> tuple[int, float]:
    # float8 order: NaN above every number and equal to itself.
    return (1, 0.0) if math.isnan(value) else (0, value)


class _Costed(Tri):
    """A condition with its evaluation cost (for :class:`QualList`)."""

    cost: float = 2.0


class FloatCast(_Costed):
    """``(meta->>'key')::float <op> number``: unknown for NULL, a cast error for a stored text
    that is no number."""

    cost = 4.0

    def __init__(self, key: str, op: SqlComparison, number: float, column: Column) -> None:
        self.key = key
        self.op: SqlComparison = op
        self.number = number
        self.column: Column = column

    def truth(self, metadata: Mapping[str, Any]) -> Truth:
        text = as_text(metadata.get(self.key), self.column)
        if text is None:
            return None
        return _compare(_float8_key(float8in(text)), _float8_key(self.number), self.op)


class TextCompare(_Costed, ValueTri):
    """``meta->>'key' <op> 'text'`` (code point order); unknown for NULL."""

    cost = 2.0

    def __init__(self, key: str, op: SqlComparison, text: str, column: Column) -> None:
        self.key = key
        self.op: SqlComparison = op
        self.text = text
        self.column: Column = column

    def value_truth(self, value: Any) -> Truth:
        text = as_text(value, self.column)
        if text is None:
            return None
        return _compare(text, self.text, self.op)


class TextIsNull(_Costed, ValueTri):
    """``meta->>'key' IS NULL``: the key is missing or holds JSON null (never unknown)."""

    cost = 1.0
    missing = True

    def __init__(self, key: str) -> None:
        self.key = key

    def value_truth(self, value: Any) -> Truth:
        return value is None


class TextInList(TextIn):
    """``meta->>'key' [NOT] IN ('a', 'b', ...)`` with its cost (``n/2`` comparisons plus
    ``->>``; fewer than 9 items: PostgreSQL hashes longer lists, at another cost; one item is
    an equality)."""

    def __init__(self, key: str, texts: Sequence[str], *, negate: bool, column: Column) -> None:
        super().__init__(key, texts, negate=negate, column=column)
        # PostgreSQL turns "IN (one)" into "= one" (and NOT IN into "<>"): cost 2
        self.single = len(texts) == 1
        self.cost = 2.0 if self.single else 1.0 + len(texts) / 2


class TextPattern(TextLike):
    """``meta->>'key' [I]LIKE 'pattern'`` (cost 2)."""

    cost = 2.0


class JsonbHasKeys(_Costed, ValueTri):
    """``meta::jsonb->'key' ?| array[...]`` (``every``: ``?&``): the value's top-level strings
    (array elements that are strings, object keys, a string scalar) include any (all) of
    ``items``; unknown for a missing key."""

    def __init__(self, key: str, items: Sequence[str], *, every: bool, column: Column) -> None:
        self.key = key
        self.items = tuple(items)
        self.every = every
        self.cost = 4.0 if column == "json" else 2.0

    def value_truth(self, value: Any) -> Truth:
        if isinstance(value, Mapping):
            present = {k for k in value if isinstance(k, str)}
        elif isinstance(value, list | tuple):
            present = {v for v in value if isinstance(v, str)}
        elif isinstance(value, str):
            present = {value}
        else:
            present = set()
        hits = [item in present for item in self.items]
        return all(hits) if self.every else any(hits)


class JsonbContainsText(_Costed, ValueTri):
    """``meta::jsonb->'key' @> '["text"]'``: the value is an array with the string ``text`` as
    an element; unknown for a missing key."""

    def __init__(self, key: str, text: str, *, column: Column) -> None:
        self.key = key
        self.text = text
        self.cost = 4.0 if column == "json" else 2.0

    def value_truth(self, value: Any) -> Truth:
        if not isinstance(value, list | tuple):
            return False
        return any(isinstance(v, str) and v == self.text for v in value)


class RowIdIn(_Costed):
    """``id_column IN (...)`` on the record id: one id is ``id = 'a'`` (an equivalence class,
    cost 1), more are ``= ANY(array)`` (cost n/2). Evaluated with the other top-level conditions,
    so a cast error on a row outside the ids is raised only if the cast comes first."""

    vectorised = True

    def __init__(self, ids: Sequence[str]) -> None:
        self.ids = frozenset(ids)
        self.single = len(ids) == 1
        self.cost = 1.0 if self.single else len(ids) / 2

    def truth(self, metadata: Mapping[str, Any]) -> Truth:
        raise TypeError("RowIdIn reads the record id: use row_truth")

    def row_truth(self, view: ColumnView, row: int) -> Truth:
        return view.id_at(row) in self.ids

    def truth_masks(self, view: ColumnView, want_false: bool) -> Masks:
        true = view.ids_mask(self.ids)
        return true, ~true if want_false else None


def cost_of(node: Predicate) -> float:
    """A condition's evaluation cost (``AND``/``OR``/``NOT``: the sum of their children's)."""
    cost = getattr(node, "cost", None)
    if isinstance(cost, int | float):
        return float(cost)
    children = getattr(node, "children", None)
    if children is not None:
        return sum(cost_of(c) for c in children)
    child = getattr(node, "child", None)
    return cost_of(child) if child is not None else 2.0


def _equivalence(node: Predicate) -> tuple[tuple[str, str], Any] | None:
    """``(expression, constant)`` of an ``expression = constant`` condition, else None."""
    if isinstance(node, RowIdIn):
        return (("id", ""), next(iter(node.ids))) if node.single else None
    if isinstance(node, TextInList):
        single = node.single and not node.negate
        return (("text", node.key), next(iter(node.texts))) if single else None
    if isinstance(node, FloatCast) and node.op == "=":
        return ("float", node.key), _float8_key(node.number)
    if isinstance(node, TextCompare) and node.op == "=":
        return ("text", node.key), node.text
    return None


class QualList(Tri):
    """A WHERE clause's top level: conditions evaluated cheapest first (stable), the row kept
    only if each is true, evaluation stopping at the first that is not."""

    def __init__(self, quals: Sequence[Predicate]) -> None:
        # The planner takes "expression = constant" into an equivalence class and emits it
        # again after the other conditions; then it sorts by cost, keeping ties in order.
        self.given = tuple(quals)
        plain = [q for q in quals if _equivalence(q) is None]
        moved: list[Predicate] = []
        constants: dict[tuple[str, str], Any] = {}
        self.contradiction = False  # two different constants: "One-Time Filter: false"
        for qual in quals:
            found = _equivalence(qual)
            if found is None:
                continue
            expression, constant = found
            if expression not in constants:
                constants[expression] = constant
                moved.append(qual)  # one clause per equivalence class
            elif constants[expression] != constant:
                self.contradiction = True
        self.quals = tuple(sorted(plain + moved, key=cost_of))
        self.vectorised = all(isinstance(q, Tri) and q.vectorised for q in self.quals)

    def truth_masks(self, view: ColumnView, want_false: bool) -> Masks:
        """The first outcome that is not true decides, in the quals' order."""
        undecided = np.full(view.n_rows, not self.contradiction)
        false = np.zeros(view.n_rows, dtype=bool) if want_false else None
        for qual in self.quals:
            assert isinstance(qual, Tri)
            true, qual_false = qual.truth_masks(view, want_false)
            if false is not None and qual_false is not None:
                false |= undecided & qual_false
            undecided &= true
        if false is not None and self.contradiction:
            false[:] = True
        return undecided, false

    def with_ids(self, ids: Sequence[str]) -> QualList:
        """This clause with ``id IN (ids)`` added at the top level (as a second ``.where``)."""
        return QualList([*self.given, RowIdIn(ids)])

    def truth(self, metadata: Mapping[str, Any]) -> Truth:
        if self.contradiction:
            return False
        for qual in self.quals:
            outcome = qual.truth(metadata) if isinstance(qual, Tri) else qual.matches(metadata)
            if outcome is not True:
                return outcome
        return True

    def row_truth(self, view: ColumnView, row: int) -> Truth:
        if self.contradiction:
            return False
        for qual in self.quals:
            outcome = truth_of(qual, view, row)
            if outcome is not True:
                return outcome
        return True
