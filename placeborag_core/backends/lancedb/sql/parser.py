"""A LanceDB filter parsed as sqlparser-rs parses the ``WHERE`` expression lance hands it.

The parser is a Pratt parser with sqlparser's precedences (``OR`` 5, ``AND`` 10, prefix ``NOT``
15, ``IS`` 17, ``LIKE``/``ILIKE`` 19, comparisons, ``IN`` and ``BETWEEN`` 20, ``+ -`` 30,
``* / %`` 40). Like lance, it parses one expression and ignores whatever follows it
(``"n = 1 junk"`` filters on ``n = 1``), and a keyword where an expression should start is a
column name (``"n = 1 AND AND m = 2"`` names a column ``AND``). Its errors carry sqlparser's
messages (``Expected: an expression, found: EOF``). Constructs outside the subset this package
evaluates (CASE, CAST, arithmetic, placeholders, subqueries) raise ``NotImplementedError`` naming
them, rather than filtering wrongly. The tree it builds is ``syntax``'s (re-exported here).
"""

from __future__ import annotations

from placeborag_core.backends.lancedb.sql.lexer import Token
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
    Unsupported,
)

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
    "SqlParseError",
    "Unary",
    "Unsupported",
    "parse",
]


class SqlParseError(Exception):
    """sqlparser's error for a filter that is not an expression (the text after
    ``sql parser error:``)."""


_COMPARISONS = frozenset({"=", "==", "!=", "<>", "<", "<=", ">", ">=", "<=>"})
_NOT_SUPPORTED_HERE = frozenset(
    {"CASE", "CAST", "TRY_CAST", "EXISTS", "INTERVAL", "EXTRACT", "SELECT", "ARRAY", "STRUCT",
     "MAP", "DATE", "TIMESTAMP", "TIME", "POSITION", "SUBSTRING", "TRIM", "OVERLAY"}
)  # fmt: skip


def _unsupported(what: str) -> NotImplementedError:
    return NotImplementedError(
        f"LanceDB filter: {what} is not supported by placeborag's SQL reader (it evaluates "
        "comparisons, AND/OR/NOT, IN, BETWEEN, LIKE/ILIKE, IS [NOT] NULL/TRUE/FALSE and "
        "array_has/array_contains on columns and literals)"
    )


class _Parser:
    def __init__(self, tokens: list[Token]) -> None:
        self.tokens = [t for t in tokens if t.kind != "ws"]
        self.at = 0

    def peek(self, ahead: int = 0) -> Token:
        index = min(self.at + ahead, len(self.tokens) - 1)
        return self.tokens[index]

    def take(self) -> Token:
        token = self.peek()
        self.at = min(self.at + 1, len(self.tokens) - 1)
        return token

    def expected(self, what: str) -> SqlParseError:
        return SqlParseError(f"Expected: {what}, found: {self.peek().shown()}")

    def expect_op(self, op: str) -> None:
        if not (self.peek().kind == "op" and self.peek().value == op):
            raise self.expected(op)
        self.take()

    def expression(self, precedence: int = 0) -> Node:
        node = self.prefix()
        while True:
            next_precedence = self.next_precedence()
            if precedence >= next_precedence:
                return node
            node = self.infix(node, next_precedence)

    def next_precedence(self) -> int:
        token = self.peek()
        if token.kind == "word" and token.quote is None:
            word = token.value.upper()
            if word == "NOT":
                after = self.peek(1)
                if after.keyword("IN", "BETWEEN"):
                    return 20
                if after.keyword("LIKE", "ILIKE", "SIMILAR", "RLIKE", "REGEXP"):
                    return 19
                return 0
            return {"OR": 5, "AND": 10, "XOR": 24, "IS": 17, "IN": 20, "BETWEEN": 20,
                    "LIKE": 19, "ILIKE": 19, "SIMILAR": 19, "RLIKE": 19, "REGEXP": 19,
                    }.get(word, 0)  # fmt: skip
        if token.kind == "op":
            if token.value in _COMPARISONS or token.value == "~":
                return 20
            return {"+": 30, "-": 30, "*": 40, "/": 40, "%": 40, "||": 40, "::": 50, "[": 50,
                    "!": 16, "&": 23, "|": 21, "^": 22}.get(token.value, 0)  # fmt: skip
        return 0

    # ------------------------------------------------------------------ prefix

    def prefix(self) -> Node:
        token = self.peek()
        if token.kind == "word":
            if token.quote is None:
                word = token.value.upper()
                if word in ("TRUE", "FALSE"):
                    self.take()
                    return Literal("bool", word == "TRUE", token.text)
                if word == "NULL":
                    self.take()
                    return Literal("null", None, token.text)
                if word == "NOT":
                    self.take()
                    if self.peek().keyword("EXISTS"):
                        raise _unsupported("EXISTS")
                    return Unary("NOT", self.expression(15))
                after = self.peek(1)
                special = after.kind == "string" or (after.kind == "op" and after.value == "(")
                if word in _NOT_SUPPORTED_HERE and (special or word == "CASE"):
                    raise _unsupported(word)
            return self.name()
        if token.kind == "number":
            self.take()
            return _number(token)
        if token.kind == "string":
            self.take()
            return Literal("str", token.value, token.text)
        if token.kind == "placeholder":
            raise _unsupported(f"the placeholder {token.text}")
        if token.kind == "op":
            if token.value in ("-", "+"):
                self.take()
                return Unary(token.value, self.expression(40))
            if token.value == "(":
                self.take()
                inner = self.expression()
                if self.peek().kind == "op" and self.peek().value == ",":
                    items = [inner]
                    while self.peek().kind == "op" and self.peek().value == ",":
                        self.take()
                        items.append(self.expression())
                    self.expect_op(")")
                    text = "(" + ", ".join(item.sql() for item in items) + ")"
                    return Unsupported(f"Expression '{text}' is not supported SQL in lance", text)
                self.expect_op(")")
                return Nested(inner)
        raise self.expected("an expression")

    def name(self) -> Node:
        token = self.take()
        parts: list[tuple[str, str | None]] = [(token.value, token.quote)]
        if self.peek().kind == "op" and self.peek().value == "(" and token.quote is None:
            return self.function(token.value)
        while True:
            after = self.peek()
            if after.kind == "op" and after.value == ".":
                self.take()
                part = self.peek()
                if part.kind != "word":
                    raise self.expected("identifier")
                self.take()
                parts.append((part.value, part.quote))
            elif after.kind == "op" and after.value == "[":
                self.take()
                key = self.peek()
                if key.kind != "string":
                    raise _unsupported("a subscript other than a quoted field name")
                self.take()
                self.expect_op("]")
                parts.append((key.value, "'"))
            else:
                return Column(tuple(parts))

    def function(self, name: str) -> Node:
        self.expect_op("(")
        args: list[Node] = []
        if not (self.peek().kind == "op" and self.peek().value == ")"):
            args.append(self.expression())
            while self.peek().kind == "op" and self.peek().value == ",":
                self.take()
                args.append(self.expression())
        self.expect_op(")")
        return Function(name, tuple(args))

    # ------------------------------------------------------------------ infix

    def infix(self, left: Node, precedence: int) -> Node:
        token = self.take()
        if token.kind == "op":
            if token.value in _COMPARISONS or token.value in ("+", "-", "*", "/", "%", "||", "~"):
                op = {"==": "==", "!=": "<>"}.get(token.value, token.value)
                return Binary(left, op, self.expression(precedence))
            if token.value == "!":
                raise SqlParseError("No infix parser for token ExclamationMark")
            raise _unsupported(f"the operator {token.value}")
        word = token.value.upper()
        if word in ("AND", "OR"):
            return Binary(left, word, self.expression(precedence))
        if word == "IS":
            negated = self.peek().keyword("NOT")
            if negated:
                self.take()
            test = self.peek()
            if test.keyword("NULL", "TRUE", "FALSE", "UNKNOWN"):
                self.take()
                label = ("NOT " if negated else "") + test.value.upper()
                if test.value.upper() == "UNKNOWN":
                    text = f"{left.sql()} IS {label}"
                    return Unsupported(f"Expression '{text}' is not supported SQL in lance", text)
                return IsTest(left, label)
            if test.keyword("DISTINCT"):
                self.take()
                if not self.peek().keyword("FROM"):
                    raise self.expected("FROM")
                self.take()
                right = self.expression(precedence)
                word = "IS NOT DISTINCT FROM" if negated else "IS DISTINCT FROM"
                text = f"{left.sql()} {word} {right.sql()}"
                return Unsupported(f"Expression '{text}' is not supported SQL in lance", text)
            raise self.expected(
                "[NOT] NULL | TRUE | FALSE | DISTINCT | [form] NORMALIZED FROM after IS"
            )
        negated = word == "NOT"
        if negated:
            token = self.take()
            word = token.value.upper()
        if word == "IN":
            return self.in_list(left, negated)
        if word == "BETWEEN":
            low = self.expression(20)
            if not self.peek().keyword("AND"):
                raise self.expected("AND")
            self.take()
            return Between(left, low, self.expression(20), negated)
        if word in ("LIKE", "ILIKE"):
            pattern = self.expression(19)
            escape = None
            if self.peek().keyword("ESCAPE"):
                self.take()
                value = self.peek()
                if value.kind != "string":
                    raise self.expected("a value")
                self.take()
                escape = value.value
            return Like(left, pattern, negated, word == "ILIKE", escape)
        raise _unsupported(word)

    def in_list(self, left: Node, negated: bool) -> Node:
        if not (self.peek().kind == "op" and self.peek().value == "("):
            raise self.expected("(")
        self.take()
        if self.peek().keyword("SELECT", "WITH"):
            raise _unsupported("a subquery")
        items = [self.expression()]
        while self.peek().kind == "op" and self.peek().value == ",":
            self.take()
            items.append(self.expression())
        self.expect_op(")")
        return InList(left, tuple(items), negated)


_I64_MAX = 2**63 - 1
_U64_MAX = 2**64 - 1


def _number(token: Token) -> Literal:
    """A number literal typed as DataFusion types it: Int64 if it fits, then UInt64, else
    Float64."""
    text = token.text
    if text[:2] in ("0x", "0X"):
        raise _unsupported(f"the hex literal {text}")
    if text.isdigit():
        value = int(text)
        if value <= _I64_MAX:
            return Literal("int", value, text)
        if value <= _U64_MAX:
            return Literal("uint", value, text)
        return Literal("float", float(value), text)
    mantissa = text.rstrip("eE") if text[-1:] in "eE" else text
    return Literal("float", float(mantissa), text)


def parse(tokens: list[Token]) -> Node:
    """The first expression of the filter (what follows it is ignored, as lance ignores it)."""
    return _Parser(tokens).expression()
