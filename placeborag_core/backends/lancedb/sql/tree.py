"""Walking a parsed filter: its children, its columns, and literals lance folds.

Parentheses (``Nested``) never change meaning, so every stage looks through them (``strip``); a
negated number literal is one literal to lance (``folded_literal``).
"""

from __future__ import annotations

from collections.abc import Sequence

from placeborag_core.backends.lancedb.sql.syntax import (
    Between,
    Binary,
    Column,
    Function,
    InList,
    IsTest,
    Like,
    Literal,
    Nested,
    Node,
    Unary,
)

__all__ = ["children", "columns_in", "folded_literal", "strip", "walk"]


def strip(node: Node) -> Node:
    while isinstance(node, Nested):
        node = node.inner
    return node


def folded_literal(node: Node) -> Literal | None:
    """A literal, or a negated number literal folded into one (lance folds ``-1.5``)."""
    node = strip(node)
    if isinstance(node, Literal):
        return node
    if isinstance(node, Unary) and node.op == "-":
        inner = folded_literal(node.operand)
        if inner is not None and inner.kind in ("int", "uint", "float"):
            value = -inner.value
            kind = "int" if inner.kind in ("int", "uint") and value >= -(2**63) else "float"
            if kind == "float":
                value = float(value)
            return Literal(kind, value, "-" + inner.text)
    return None


def children(node: Node) -> Sequence[Node]:
    if isinstance(node, Nested):
        return (node.inner,)
    if isinstance(node, Unary):
        return (node.operand,)
    if isinstance(node, Binary):
        return (node.left, node.right)
    if isinstance(node, IsTest):
        return (node.operand,)
    if isinstance(node, InList):
        return (node.operand, *node.items)
    if isinstance(node, Between):
        return (node.operand, node.low, node.high)
    if isinstance(node, Like):
        return (node.operand, node.pattern)
    if isinstance(node, Function):
        return node.args
    return ()


def walk(node: Node) -> list[Node]:
    return [node, *(n for child in children(node) for n in walk(child))]


def columns_in(node: Node) -> list[Column]:
    if isinstance(node, Column):
        return [node]
    return [column for child in children(node) for column in columns_in(child)]
