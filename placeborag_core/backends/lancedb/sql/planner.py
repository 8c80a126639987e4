"""A parsed LanceDB filter checked against a table's columns and turned into an evaluator.

Lance plans a filter in stages, and which error a filter with several faults raises depends on
their order (measured; ``docs/engines/lancedb.md#filter-semantics-and-errors``):

1. conversion: constructs lance refuses (``IS DISTINCT FROM``, a tuple, ``<=>``, unary ``+``) and
   unknown columns in function arguments (``Error parsing function: ...``);
2. literal resolution: in ``column <op> literal`` (also ``IN`` lists and ``BETWEEN`` bounds, but
   not under ``NOT``) the literal must convert to the column's type exactly (an integer becomes a
   double; nothing else converts): ``Received literal Utf8("1") and could not convert ...``;
3. schema: left to right, every column must exist (``No field named``) and struct fields too;
   ``AND``/``OR`` need booleans and two columns compared need types that meet. Under ``NOT``,
   and in ``IN``, ``LIKE`` and ``BETWEEN``, the walk stops at the first operand that may be
   NULL (any column, a NULL literal), so ``NOT (color = nosuch)`` and ``color IN (nosuch)``
   pass here; ``IS NULL`` operands are not visited;
4. the filter must be boolean (``The filter i does not return a boolean``);
5. optimisation, DataFusion's analyser (children before parents): columns missed by stage 3,
   ``LIKE`` operand types, ``NOT`` and ``IS TRUE`` of a non-boolean, comparisons, ``IN`` and
   ``BETWEEN`` under ``NOT`` whose types do not meet; then string literals cast to the numeric
   side of such a comparison; then columns under ``IS NULL``;
6. execution: a string column compared with a number is cast batch-wise while the query runs,
   and a value that does not parse fails it (a ``RuntimeError``).

Evaluation follows SQL's three-valued logic: a comparison with NULL (a missing key) is NULL,
``NOT NULL`` is NULL, and only rows whose filter is TRUE pass. It works on a whole batch of rows
at once, as DataFusion does (``AND`` skips its right side only when the left is FALSE for every
row), so a failing cast surfaces where the engine's does. Doubles order NaN above every number and
equal to itself, and ``-0.0`` equals ``0.0`` (lance normalises signed zeros).

Modules: ``table`` (the columns, and messages about their names), ``scope`` (what one filter's
names and literals mean), ``checks`` (stages 1-3), ``optimizer`` (stage 5 and physical
planning), ``evaluators`` (the three-valued evaluator), ``masks`` (its answers for a whole
partition from the column index), built on ``tree`` (walking the parsed filter), ``type_rules``
(literal conversion, coercion), ``values`` (comparing and casting values) and ``messages``
(lance's message pieces). This module runs the stages in lance's order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from placeborag_core.backends.lancedb.sql import checks, evaluators, masks, optimizer
from placeborag_core.backends.lancedb.sql.masks import MasksOf
from placeborag_core.backends.lancedb.sql.messages import (
    LanceExecutionError,
    invalid,
    literal_debug,
    rust_float,
)
from placeborag_core.backends.lancedb.sql.scope import Scope
from placeborag_core.backends.lancedb.sql.syntax import Column, Node
from placeborag_core.backends.lancedb.sql.table import HIDDEN_COLUMNS, Table, TableColumn
from placeborag_core.backends.lancedb.sql.tree import folded_literal, strip
from placeborag_core.backends.lancedb.sql.values import Evaluation, Evaluator
from placeborag_core.filters.predicates import BoolMask

__all__ = [
    "HIDDEN_COLUMNS",
    "LanceExecutionError",
    "Plan",
    "Table",
    "TableColumn",
    "plan",
    "rust_float",
]


@dataclass(frozen=True)
class Plan:
    """A planned filter: ``passing(view, rows, prefilter)`` tells which rows pass, ``mask``
    which rows of a whole partition do (``masks``: from its column index, when it can)."""

    evaluate: Evaluator
    masks: MasksOf | None = None

    def passing(self, view: Any, rows: Sequence[int], prefilter: bool) -> list[bool]:
        """For each row, whether the filter is TRUE (not FALSE, not NULL) for it."""
        if not rows:
            return []
        return [value is True for value in self.evaluate(view, rows, Evaluation(prefilter))]

    def mask(self, view: Any) -> BoolMask:
        """Every row of a partition, as a pre-filter scans the table."""
        if self.masks is not None:
            try:
                return self.masks(view, False)[0]
            except Exception:  # a part failed while it ran: fail, or not, where lance does
                pass
        out = np.zeros(view.n_rows, dtype=bool)
        rows = view.live_rows().tolist()
        out[rows] = self.passing(view, rows, prefilter=True)
        return out


def plan(node: Node, table: Table, text: str) -> Plan:
    """The filter ``node`` (whose echoed text is ``text``) planned against ``table``: raises
    lance's error for the first fault in lance's order, or returns the evaluator."""
    scope = Scope(table, text)
    checks.convert(scope, node)
    checks.resolve(scope, node)
    kind = checks.typed(scope, node)
    if kind.kind != "bool":
        raise invalid(f"The filter {_df_display(node, scope)} does not return a boolean")
    optimizer.analyze(scope, node)
    optimizer.cast_literals(scope, node)
    optimizer.simplify(scope, node)
    optimizer.physical(scope, node)
    return Plan(evaluators.build(scope, node), _masks_of(scope, node))


def _masks_of(scope: Scope, node: Node) -> MasksOf | None:
    """The column-index evaluation of the filter (None if a part of it cannot be built
    separately: the batch evaluator alone then answers)."""
    try:
        return masks.build(scope, node)
    except Exception:
        return None


def _df_display(node: Node, scope: Scope) -> str:
    """A non-boolean filter as DataFusion displays the expression (``i``, ``Int64(1)``)."""
    node = strip(node)
    literal = folded_literal(node)
    if literal is not None:
        return literal_debug(literal)
    if isinstance(node, Column):
        resolved = scope.column(node)
        return resolved.name if resolved is not None else node.sql()
    return node.sql()
