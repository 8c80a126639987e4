"""The expression tree of a parsed LanceDB filter, displayed as sqlparser displays it.

Each node's ``sql()`` is the text lance echoes in its errors (``n = 1``, ``NOT (a IS NULL)``),
so the planner's messages quote a filter exactly as the engine does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = [
    "Between",
    "Binary",
    "Column",
    "Function",
    "InList",
    "IsTest",
    "Like",
    "Literal",
    "Nested",
    "Node",
    "Unary",
    "Unsupported",
]


class Node:
    """A parsed expression."""

    def sql(self) -> str:
        """The node as sqlparser displays it."""
        raise NotImplementedError


@dataclass(frozen=True)
class Column(Node):
    """A column reference: ``parts`` are ``(name, quote)`` pairs (``meta.a``, ``meta['a']``)."""

    parts: tuple[tuple[str, str | None], ...]

    def sql(self) -> str:
        out: list[str] = []
        for name, quote in self.parts:
            if quote == "'":
                out[-1] += f"['{name}']"
            else:
                out.append(f"{quote}{name}{quote}" if quote else name)
        return ".".join(out)


@dataclass(frozen=True)
class Literal(Node):
    """A literal: ``kind`` is int, uint, float, str, bool or null."""

    kind: str
    value: Any
    text: str

    def sql(self) -> str:
        return self.text


@dataclass(frozen=True)
class Unary(Node):
    op: str  # "-", "+", "NOT"
    operand: Node

    def sql(self) -> str:
        return f"NOT {self.operand.sql()}" if self.op == "NOT" else f"{self.op}{self.operand.sql()}"


@dataclass(frozen=True)
class Binary(Node):
    left: Node
    op: str  # "=", "<>", "<", "<=", ">", ">=", "AND", "OR", "<=>", "+", "||", ...
    right: Node

    def sql(self) -> str:
        return f"{self.left.sql()} {self.op} {self.right.sql()}"


@dataclass(frozen=True)
class Nested(Node):
    inner: Node

    def sql(self) -> str:
        return f"({self.inner.sql()})"


@dataclass(frozen=True)
class IsTest(Node):
    """``expr IS [NOT] NULL|TRUE|FALSE|UNKNOWN`` (``test`` is e.g. ``"NOT NULL"``)."""

    operand: Node
    test: str

    def sql(self) -> str:
        return f"{self.operand.sql()} IS {self.test}"


@dataclass(frozen=True)
class InList(Node):
    operand: Node
    items: tuple[Node, ...]
    negated: bool

    def sql(self) -> str:
        items = ", ".join(item.sql() for item in self.items)
        return f"{self.operand.sql()} {'NOT ' if self.negated else ''}IN ({items})"


@dataclass(frozen=True)
class Between(Node):
    operand: Node
    low: Node
    high: Node
    negated: bool

    def sql(self) -> str:
        word = "NOT BETWEEN" if self.negated else "BETWEEN"
        return f"{self.operand.sql()} {word} {self.low.sql()} AND {self.high.sql()}"


@dataclass(frozen=True)
class Like(Node):
    operand: Node
    pattern: Node
    negated: bool
    insensitive: bool
    escape: str | None

    def sql(self) -> str:
        word = ("NOT " if self.negated else "") + ("ILIKE" if self.insensitive else "LIKE")
        tail = f" ESCAPE '{self.escape}'" if self.escape is not None else ""
        return f"{self.operand.sql()} {word} {self.pattern.sql()}{tail}"


@dataclass(frozen=True)
class Function(Node):
    name: str
    args: tuple[Node, ...]

    def sql(self) -> str:
        return f"{self.name}({', '.join(a.sql() for a in self.args)})"


@dataclass(frozen=True)
class Unsupported(Node):
    """A construct sqlparser parses and lance refuses while converting it (``message`` is
    lance's error), e.g. ``IS DISTINCT FROM`` or a tuple."""

    message: str
    text: str

    def sql(self) -> str:
        return self.text
