"""The planning stages after the filter's type: DataFusion's analyser, simplifier, physical plan.

Stage 5 checks, children before parents, the operand types of every node (``analyze``), then
casts the string literals a comparison coerced to a number (``cast_literals``), then checks the
columns only ``IS NULL`` refers to (``simplify``); physical planning then refuses a ``LIKE`` it
cannot run (``physical``). See ``planner`` for the order.
"""

from __future__ import annotations

from collections.abc import Sequence

from placeborag_core.backends.lancedb.arrow import (
    UTF8,
    ArrowType,
)
from placeborag_core.backends.lancedb.sql.messages import (
    ANALYZER,
    DATAFUSION_BUG,
    DF_OPERATOR,
    ESCAPE,
    SIGNED_ZERO,
    SIMPLIFIER,
    LanceExecutionError,
    invalid,
)
from placeborag_core.backends.lancedb.sql.scope import Scope
from placeborag_core.backends.lancedb.sql.syntax import (
    Between,
    Binary,
    Column,
    Function,
    InList,
    IsTest,
    Like,
    Literal,
    Node,
    Unary,
)
from placeborag_core.backends.lancedb.sql.tree import children, columns_in, folded_literal, strip
from placeborag_core.backends.lancedb.sql.type_rules import coercion
from placeborag_core.backends.lancedb.sql.values import parse_number
from placeborag_core.errors import FilterError

__all__ = ["analyze", "cast_literals", "physical", "simplify"]


def analyze(scope: Scope, node: Node) -> None:
    """DataFusion's type coercion: children first, each node checks its operands' types
    (an unknown column among them is an error here)."""
    node = strip(node)
    for child in children(node):
        analyze(scope, child)
    if isinstance(node, IsTest) and node.test in ("NULL", "NOT NULL"):
        return
    if isinstance(node, Column | Literal | Function) or scope.literal(node) is not None:
        return
    for child in children(node):
        target = strip(child)
        if isinstance(target, Column) and scope.column(target) is None:
            raise scope.optimizer_column_error(target, ANALYZER)
    if isinstance(node, Unary) and node.op == "-":
        raise scope.analyzer_error(
            "Error during planning: Negation only supports numeric, interval and timestamp types"
        )
    if isinstance(node, Unary | IsTest):
        kind = scope.type_of(node.operand)
        if kind.kind not in ("bool", "null"):
            raise scope.analyzer_error(
                "Error during planning: Cannot infer common argument type for comparison "
                f"operation {kind.display} IS DISTINCT FROM Boolean"
            )
    elif isinstance(node, Binary) and node.op in ("AND", "OR"):
        left, right = scope.type_of(node.left), scope.type_of(node.right)
        if left.kind not in ("bool", "null") or right.kind not in ("bool", "null"):
            raise scope.analyzer_error(
                "Error during planning: Cannot infer common argument type for logical "
                f"boolean operation {left.display} {node.op} {right.display}"
            )
    elif isinstance(node, Binary):
        if scope.is_resolved(node.left) or scope.is_resolved(node.right):
            return
        left, right = scope.type_of(node.left), scope.type_of(node.right)
        if coercion(left, right) is None:
            raise scope.analyzer_error(
                "Error during planning: Cannot infer common argument type for comparison "
                f"operation {left.display} {DF_OPERATOR[node.op]} {right.display}"
            )
    elif isinstance(node, Like):
        left, right = scope.type_of(node.operand), scope.type_of(node.pattern)
        if "null" not in (left.kind, right.kind) and (left, right) != (UTF8, UTF8):
            word = "ILIKE" if node.insensitive else "LIKE"
            raise scope.analyzer_error(
                "Error during planning: There isn't a common type to coerce "
                f"{left.display} and {right.display} in {word} expression"
            )
    elif isinstance(node, InList):
        analyze_in(scope, node)
    elif isinstance(node, Between):
        analyze_between(scope, node)


def analyze_in(scope: Scope, node: InList) -> None:
    kind = scope.type_of(node.operand)
    unresolved = [item for item in node.items if not scope.is_resolved(item)]
    if not unresolved:
        return
    types = [scope.type_of(item) for item in node.items]
    target: ArrowType | None = kind
    for other in types:
        target = None if target is None else coercion(target, other)
    if target is None:
        listed = ", ".join(t.display for t in types)
        raise scope.analyzer_error(
            "Error during planning: Can not find compatible types to compare "
            f"{kind.display} with [{listed}]"
        )


def analyze_between(scope: Scope, node: Between) -> None:
    if scope.is_resolved(node.low) and scope.is_resolved(node.high):
        return
    kind = scope.type_of(node.operand)
    coerced = []
    for bound in (node.low, node.high):
        other = scope.type_of(bound)
        common = coercion(kind, other)
        if common is None:
            raise between_error(scope, kind, other)
        coerced.append(common)
    if coercion(coerced[0], coerced[1]) is None:
        raise between_error(scope, kind, scope.type_of(node.high))


def between_error(scope: Scope, kind: ArrowType, other: ArrowType) -> FilterError:
    return scope.optimizing(
        "LanceError(IO): Internal error: Failed to coerce types "
        f"{kind.display} and {other.display} in BETWEEN expression.\n"
        f"{DATAFUSION_BUG}, {ANALYZER}"
    )


def cast_literals(scope: Scope, node: Node) -> None:
    """The string literals of a comparison, IN list or BETWEEN the analyser coerced to a
    number, cast (lance's signed-zero pass evaluates them), left to right."""
    node = strip(node)
    for child in children(node):
        cast_literals(scope, child)
    if isinstance(node, Binary) and node.op not in ("AND", "OR"):
        group: Sequence[Node] = (node.left, node.right)
    elif isinstance(node, InList | Between):
        group = children(node)
    else:
        return
    if any(scope.is_resolved(member) for member in group):
        return
    target = scope.group_target(group)
    if target is None or not target.numeric:
        return
    for member in group:
        literal = folded_literal(member)
        if (
            literal is not None
            and literal.kind == "str"
            and parse_number(literal.value, target) is None
        ):
            raise scope.optimizing(
                f"LanceError(Arrow): Cast error: Cannot cast string '{literal.value}' to "
                f"value of {target.debug} type, {SIGNED_ZERO}"
            )


def simplify(scope: Scope, node: Node) -> None:
    """Columns only ``IS NULL`` refers to, checked last (DataFusion's simplifier)."""
    for column in columns_in(node):
        if scope.column(column) is None:
            raise scope.optimizer_column_error(column, SIMPLIFIER)


def physical(scope: Scope, node: Node) -> None:
    """Physical planning, left to right: a LIKE whose NULL-typed side the optimiser gave
    the other side's non-string type (``Int64 and Int64``), a LIKE with another escape
    character than the backslash."""
    node = strip(node)
    if isinstance(node, Like):
        left, right = scope.type_of(node.operand), scope.type_of(node.pattern)
        if (left.kind == "null") != (right.kind == "null"):
            kind = right if left.kind == "null" else left
            if kind.kind != "string":
                word = "ILIKE" if node.insensitive else "LIKE"
                raise invalid(
                    "Error during planning: There isn't a common type to coerce "
                    f"{kind.display} and {kind.display} in {word} expression"
                )
        if node.escape is not None and node.escape != "\\":
            raise LanceExecutionError(
                "lance error: Query Execution error: Execution error: LIKE does not support "
                f"escape_char other than the backslash (\\), {ESCAPE}"
            )
    for child in children(node):
        physical(scope, child)
