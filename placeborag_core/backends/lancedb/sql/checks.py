"""The planning stages that run before a filter's type is known: conversion, literals, schema.

Stage 1 (conversion) refuses the constructs lance refuses and unknown columns in function
arguments; stage 2 converts each literal compared with a column to the column's type, or raises
lance's ``could not convert`` error; stage 3 walks the filter left to right checking every
column and the operand types of ``AND``/``OR`` and of comparisons, and returns the filter's type
(stage 4 in ``planner`` requires it to be boolean). See ``planner`` for the order.
"""

from __future__ import annotations

from placeborag_core.backends.lancedb.arrow import BOOL, ArrowType
from placeborag_core.backends.lancedb.sql.messages import (
    DF_OPERATOR,
    LOGICAL_EXPR,
    invalid,
    literal_debug,
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
    Unsupported,
)
from placeborag_core.backends.lancedb.sql.table import quoted
from placeborag_core.backends.lancedb.sql.tree import children, folded_literal, strip
from placeborag_core.backends.lancedb.sql.type_rules import coercion, convert_literal, literal_type
from placeborag_core.backends.lancedb.sql.values import TESTS

__all__ = ["convert", "resolve", "typed"]


def convert(scope: Scope, node: Node) -> None:
    """Stage 1, conversion: the constructs lance refuses, and (``convert_function``) unknown
    columns in a function's arguments."""
    if isinstance(node, Unsupported):
        raise invalid(node.message)
    if isinstance(node, Unary):
        if node.op == "+":
            raise invalid("Unary operator 'Plus' is not supported")
        if node.op == "-" and folded_literal(node) is None:
            inner = strip(node.operand)
            if not (isinstance(inner, Literal) and inner.kind == "str"):
                raise NotImplementedError(
                    "LanceDB filter: negating an expression other than a number literal is "
                    "not supported by placeborag's SQL reader"
                )
    if isinstance(node, Binary):
        if node.op in ("<=>", "~"):
            raise invalid(f"Operator {node.op} is not supported")
        if node.op not in TESTS and node.op not in ("AND", "OR"):
            raise NotImplementedError(
                f"LanceDB filter: the operator {node.op} (arithmetic, concatenation) is not "
                "supported by placeborag's SQL reader"
            )
    if isinstance(node, Function):
        convert_function(scope, node)
    for child in children(node):
        convert(scope, child)


def convert_function(scope: Scope, node: Function) -> None:
    if node.name.lower() not in ("array_has", "array_contains") or len(node.args) != 2:
        raise NotImplementedError(
            f"LanceDB filter: the function {node.name}() is not supported by placeborag's "
            "SQL reader (array_has and array_contains are)"
        )
    for arg in node.args:
        target = strip(arg)
        if isinstance(target, Column) and scope.table.lookup(*target.parts[0]) is None:
            fields = [*(quoted(c.name) for c in scope.table.columns), *scope.table.hidden]
            raise invalid(
                "Error parsing function: Schema error: No field named "
                f"{quoted(target.parts[0][0])}. Valid fields are {', '.join(fields)}."
            )
    target = strip(node.args[0])
    literal = folded_literal(node.args[1])
    if not isinstance(target, Column) or literal is None:
        raise NotImplementedError(
            "LanceDB filter: array_has/array_contains are supported on a column and a literal"
        )


def resolve(scope: Scope, node: Node) -> None:
    """Stage 2, literal resolution: each literal compared with a column converted to the
    column's type (remembered in ``scope``), or lance's ``could not convert`` error."""
    node = strip(node)
    if isinstance(node, Binary):
        if node.op in ("AND", "OR"):
            resolve(scope, node.left)
            resolve(scope, node.right)
            return
        left, right = strip(node.left), strip(node.right)
        if isinstance(left, Column):
            resolve_literal(scope, left, node.right)
        elif isinstance(right, Column):
            resolve_literal(scope, right, node.left)
        return
    column = strip(node.operand) if isinstance(node, InList | Between) else None
    if isinstance(column, Column) and len(column.parts) > 1:
        column = None  # lance resolves IN and BETWEEN literals against plain columns only
    if isinstance(node, InList) and isinstance(column, Column):
        for item in node.items:
            resolve_literal(scope, column, item)
    elif isinstance(node, Between) and isinstance(column, Column):
        resolve_literal(scope, column, node.low)
        resolve_literal(scope, column, node.high)
    elif isinstance(node, IsTest):
        resolve(scope, node.operand)


def resolve_literal(scope: Scope, column: Column, other: Node) -> None:
    literal = folded_literal(other)
    resolved = scope.column(column)
    if literal is None or resolved is None:
        return
    converted = convert_literal(literal, resolved.type)
    if converted is None:
        raise invalid(
            f"Error resolving filter expression {scope.text}: Invalid user input: Received "
            f"literal {literal_debug(literal)} and could not convert to literal of type "
            f"'{resolved.type.debug}', {LOGICAL_EXPR}"
        )
    scope.resolved[id(strip(other))] = converted


def typed(scope: Scope, node: Node) -> ArrowType:
    """Stage 3, schema: the node's type, checking every column (left to right, children
    first)."""
    node = strip(node)
    literal = scope.literal(node)
    if literal is not None:
        return literal_type(literal)
    if isinstance(node, Column):
        resolved = scope.column(node)
        if resolved is None:
            raise scope.column_error(node)
        return resolved.type
    if isinstance(node, Unary):  # NOT
        may_be_null(scope, node.operand)
        return BOOL
    if isinstance(node, IsTest):
        return BOOL
    if isinstance(node, Function):
        typed_function(scope, node)
        return BOOL
    if isinstance(node, InList | Like | Between):
        may_be_null(scope, node)  # DataFusion stops at the first operand that may be NULL
        return BOOL
    if isinstance(node, Binary):
        left, right = typed(scope, node.left), typed(scope, node.right)
        if node.op in ("AND", "OR"):
            if left.kind not in ("bool", "null") or right.kind not in ("bool", "null"):
                raise invalid(
                    "Error during planning: Cannot infer common argument type for logical "
                    f"boolean operation {left.display} {node.op} {right.display}"
                )
        elif (
            not (scope.is_resolved(node.left) or scope.is_resolved(node.right))
            and coercion(left, right) is None
        ):
            raise invalid(
                "Error during planning: Cannot infer common argument type for comparison "
                f"operation {left.display} {DF_OPERATOR[node.op]} {right.display}"
            )
        return BOOL
    for child in children(node):
        typed(scope, child)
    return BOOL


def typed_function(scope: Scope, node: Function) -> None:
    array, element = typed(scope, node.args[0]), typed(scope, node.args[1])
    check_array_has(scope, array, element)


def may_be_null(scope: Scope, node: Node) -> bool:
    """DataFusion's ``nullable`` (under ``NOT``): operands left to right until one may be
    NULL; a column may always be NULL, a literal only if it is NULL."""
    node = strip(node)
    literal = scope.literal(node)
    if literal is not None:
        return literal.kind == "null"
    if isinstance(node, Column):
        if scope.column(node) is None:
            raise scope.column_error(node)
        return True
    if isinstance(node, IsTest):
        return False
    if isinstance(node, Function):
        typed_function(scope, node)
        return True
    return any(may_be_null(scope, child) for child in children(node))


def check_array_has(scope: Scope, array: ArrowType, element: ArrowType) -> None:
    item = array.item if array.kind == "list" else None
    if item is not None and (element.kind == "null" or coercion(item, element) is not None):
        return
    raise invalid(
        "Error during planning: Failed to coerce arguments to satisfy a call to 'array_has' "
        f"function: coercion from {array.display}, {element.display} to the signature "
        "ArraySignature(array, element) failed. No function matches the given name and "
        f"argument types 'array_has({array.display}, {element.display})'. You might need to "
        "add explicit type casts.\n\tCandidate functions:\n\tarray_has(array, element)"
    )
