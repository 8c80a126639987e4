"""A planned filter answered for every row of a partition at once, as a pre-filter scans it.

The evaluator (``evaluators``) answers a batch of rows by reading each row's values. Here a part
of the filter that reads one metadata key only (``n = 3``, ``n > 1 AND n < 5``, ``tag IN (...)``,
``metadata.kind IS NULL``) is answered from the partition's column index instead: the same
evaluator asked once per distinct value of the key (``placeborag_core.filters.value_masks``).
``AND``, ``OR`` and ``NOT`` above such parts combine their masks (the rows where a part is TRUE
and those where it is FALSE; the rest are NULL) in SQL's three-valued logic; any other part (two
keys, the id, the text) is evaluated row by row.

The outcome is the batch evaluator's: SQL's logic is row by row, and DataFusion's short circuits
decide only which rows a part runs on. That matters when a part fails while it runs (a string
that does not cast to a number): the masks then give way to the batch evaluator, which fails, or
not, where the engine does (``Plan.mask``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from placeborag_core.backends.lancedb.sql import evaluators
from placeborag_core.backends.lancedb.sql.scope import Scope
from placeborag_core.backends.lancedb.sql.syntax import Binary, Column, Node, Unary
from placeborag_core.backends.lancedb.sql.tree import columns_in, strip
from placeborag_core.backends.lancedb.sql.values import Evaluation, Evaluator
from placeborag_core.filters.predicates import BoolMask
from placeborag_core.filters.value_masks import ABSENT, value_masks

__all__ = ["Masks", "MasksOf", "build"]

Masks = tuple[BoolMask, BoolMask | None]
"""The rows where a part is TRUE, and (when asked for) those where it is FALSE."""
MasksOf = Callable[[Any, bool], Masks]
"""A part's masks over a view's rows; the bool asks for the FALSE rows too."""

_PREFILTER = Evaluation(prefilter=True)


def build(scope: Scope, node: Node) -> MasksOf:
    """The masks of ``node``, a filter (or a part of one) that passed every planning stage."""
    node = strip(node)
    key = single_key(scope, node)
    if key is not None:
        return _by_value(evaluators.build(scope, node), key)
    if isinstance(node, Binary) and node.op in ("AND", "OR"):
        return _logic(build(scope, node.left), build(scope, node.right), node.op == "AND")
    if isinstance(node, Unary) and node.op == "NOT":
        inner = build(scope, node.operand)

        def negation(view: Any, want_false: bool) -> Masks:
            true, false = inner(view, True)
            assert false is not None
            return false, true if want_false else None

        return negation
    return _row_by_row(evaluators.build(scope, node))


def single_key(scope: Scope, node: Node) -> str | None:
    """The metadata key every column ``node`` reads lies under, if there is one: a column of
    the table's own for the key, or a field of the metadata struct (and fields below it)."""
    keys = {_key_of(scope, column) for column in columns_in(node)}
    if len(keys) != 1:
        return None
    return keys.pop()


def _key_of(scope: Scope, column: Column) -> str | None:
    if scope.column(column) is None:
        return None
    (name, quote), *rest = column.parts
    top = scope.table.lookup(name, quote)
    if top is not None and top.role == "key":
        return top.key
    if top is not None and top.role == "struct" and rest:
        return rest[0][0]
    return None


class _Values:
    """Records holding one value each under ``key`` (``ABSENT``: none), as the evaluator's
    column readers see a partition's rows."""

    def __init__(self, key: str, values: Sequence[Any]) -> None:
        self.key = key
        self.values = values

    def metadata_at(self, row: int) -> Mapping[str, Any]:
        value = self.values[row]
        return {} if value is ABSENT else {self.key: value}


def _by_value(evaluate: Evaluator, key: str) -> MasksOf:
    def outcomes_of(values: Sequence[Any]) -> list[Any]:
        return evaluate(_Values(key, values), range(len(values)), _PREFILTER)

    def masks(view: Any, want_false: bool) -> Masks:
        found = value_masks(view, key, outcomes_of, (True, False) if want_false else (True,))
        return found[0], found[1] if want_false else None

    return masks


def _row_by_row(evaluate: Evaluator) -> MasksOf:
    def masks(view: Any, want_false: bool) -> Masks:
        rows = view.live_rows()
        outcomes = evaluate(view, rows.tolist(), _PREFILTER) if len(rows) else []
        true = np.zeros(view.n_rows, dtype=bool)
        true[rows] = [value is True for value in outcomes]
        if not want_false:
            return true, None
        false = np.zeros(view.n_rows, dtype=bool)
        false[rows] = [value is False for value in outcomes]
        return true, false

    return masks


def _logic(left: MasksOf, right: MasksOf, conjunction: bool) -> MasksOf:
    def logic(view: Any, want_false: bool) -> Masks:
        a_true, a_false = left(view, want_false)
        b_true, b_false = right(view, want_false)
        if conjunction:
            true = a_true & b_true
            false = None if a_false is None or b_false is None else a_false | b_false
        else:
            true = a_true | b_true
            false = None if a_false is None or b_false is None else a_false & b_false
        return true, false

    return logic
