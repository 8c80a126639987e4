"""Milvus boolean expressions (``color == "red" and n > 2``): the parser (tokens: ``lexer.py``).

The grammar is Milvus 2.5's (``Plan.g4``, as its C++ core parses it), measured in
``docs/engines/milvus.md#filter-expressions``:

* literals: ``"..."`` or ``'...'`` strings with C escapes (an unknown escape such as ``\\%`` is a
  lexer error), decimal and octal (``010``) integers, floats (``.5``, ``5.``, ``1e3``), the booleans
  ``true True TRUE false False FALSE``; no hexadecimal and no ``_`` separators;
* names: a field (``color``), a JSON path (``obj["a"][0]``, no blanks inside), ``$meta["key"]``;
* operators, tightest first: ``like``/``LIKE``; ``**``; unary ``- + ~ not !``; ``* / %``;
  ``+ -``; ``<< >>``; ``in``/``not in`` (a bracketed list); ``< <= > >=`` (and the range form
  ``1 < x < 5``); ``== !=``; ``& ^ |``; ``and``/``&&``; ``or``/``||``. ``AND``, ``OR``, ``NOT``,
  ``IN`` are *not* keywords (they are names);
* calls: ``json_contains``, ``json_contains_all``, ``json_contains_any``, their ``array_``
  twins, ``array_length`` (also upper case), and ``exists``.

Like the engine's ANTLR parser (as measured), the parser reads the expression up to the first
token that cannot continue it and ignores the rest: ``color == "red" AND n == 1`` is
``color == "red"``. Where a ``)`` is missing it recovers as ANTLR does (``_Parser._recover``):
``(n == 1`` is ``(n == 1)``, ``(a not b) and c`` is ``(a)``, but ``((a not b) and c)`` is
``(a) and c`` and ``c or (a not b == 1)`` is ``(c or a) == 1``
(docs/engines/milvus.md#milvus-parser-recovery-nested). An operator left without its operand is
an error, but for ``< <= > >=`` at the end or before ``)`` (``Missing``). The result is a
plain tree (:class:`Node`); ``planner.py`` gives it Milvus's meaning.
"""

from __future__ import annotations

from dataclasses import dataclass

from placeborag_core.backends.milvus.lexer import ParseError, Token, tokenize

__all__ = [
    "Binary",
    "Call",
    "Field",
    "ListLit",
    "Literal",
    "Missing",
    "Node",
    "ParseError",
    "RangeNode",
    "Term",
    "Unary",
    "parse",
]


@dataclass(frozen=True)
class Literal:
    value: bool | int | float | str


@dataclass(frozen=True)
class ListLit:
    items: tuple[Node, ...]


@dataclass(frozen=True)
class Field:
    """A name: ``name`` with a JSON ``path`` (``obj["a"][0]`` -> ``("a", 0)``); ``$meta`` is
    the name of the dynamic-field JSON itself."""

    name: str
    path: tuple[str | int, ...] = ()


@dataclass(frozen=True)
class Unary:
    op: str
    operand: Node


@dataclass(frozen=True)
class Binary:
    op: str
    left: Node
    right: Node


@dataclass(frozen=True)
class RangeNode:
    """``low op1 field op2 high`` (both operators ``<``/``<=``, or both ``>``/``>=``)."""

    low: Node
    op1: str
    field: Node
    op2: str
    high: Node


@dataclass(frozen=True)
class Term:
    """``operand in [items]`` (``negated``: ``not in``)."""

    operand: Node
    items: tuple[Node, ...]
    negated: bool


@dataclass(frozen=True)
class Like:
    """``operand like pattern`` (None: the literal was missing and supplied by the parser)."""

    operand: Node
    pattern: str | None


@dataclass(frozen=True)
class Call:
    name: str
    args: tuple[Node, ...]


@dataclass(frozen=True)
class Missing:
    """The operand of ``< <= > >=`` at the end of the text or before ``)``: the engine then
    reads a JSON name alone and rejects a typed one (``milvus-filter-dangling-relational``)."""


Node = Literal | ListLit | Field | Unary | Binary | RangeNode | Term | Like | Call | Missing
# --- parser --------------------------------------------------------------------------------

_BINARY = {
    "or": 1, "and": 2, "|": 3, "^": 4, "&": 5, "==": 6, "!=": 6,
    "<": 7, "<=": 7, ">": 7, ">=": 7, "in": 8, "not in": 8, "<<": 9, ">>": 9,
    "+": 10, "-": 10, "*": 11, "/": 11, "%": 11,
}  # fmt: skip
_OPERATORS = frozenset(_BINARY) | {"like", "**"}
"""What may follow an operand: any binary operator (ANTLR's recovery ignores precedence)."""
_PAREN_FOLLOW = frozenset({")"})
_ARGUMENT_FOLLOW = frozenset({",", ")"})
_ITEM_FOLLOW = frozenset({",", "]"})
_UNARY_POWER = 12
_POW = 13
_LESS = ("<", "<=")
_GREATER = (">", ">=")


class _Parser:
    def __init__(self, tokens: list[Token]) -> None:
        self.tokens = tokens
        self.at = 0
        # For each expression being read, outermost first: the tokens that may follow it where
        # it stands (ANTLR's FOLLOW of the state that called it; none for the whole filter).
        self.follows: list[frozenset[str]] = []
        self.recovered = False  # the expression being read ends: ANTLR recovered from an error

    def peek(self) -> Token:
        return self.tokens[self.at]

    def take(self) -> Token:
        token = self.tokens[self.at]
        if token.kind != "end":
            self.at += 1
        return token

    def expect(self, text: str) -> None:
        token = self.take()
        if token.kind != "op" or token.text != text:
            raise ParseError(f"expected {text!r}, got {token.text!r}")

    def expression(self, power: int = 0, follow: frozenset[str] = _OPERATORS) -> Node:
        """An expression (one invocation of ANTLR's ``expr`` rule) binding tighter than
        ``power``; ``follow`` is what may come after it where it stands (for an operand: any
        binary operator)."""
        self.follows.append(follow)
        try:
            return self._expression(power)
        finally:
            self.follows.pop()

    def _expression(self, power: int) -> Node:
        left = self.prefix()
        if self.recovered:
            self.recovered = False
            return left
        while True:
            token = self.peek()
            if token.kind != "op":
                return left
            op = token.text
            if op == "like":
                self.take()
                pattern = self.peek()
                if pattern.kind == "end":  # a missing literal at the end is supplied: it is
                    left = Like(left, None)  # ANTLR's placeholder, which matches nothing
                    continue
                self.take()
                if pattern.kind != "lit" or not isinstance(pattern.value, str):
                    raise ParseError("like takes a string literal")
                left = Like(left, pattern.value)
                continue
            if op == "**":
                if power >= _POW:
                    return left
                self.take()
                left = Binary("**", left, self.expression(_POW - 1))
                continue
            strength = _BINARY.get(op)
            if strength is None or strength <= power:
                return left
            if op in ("in", "not in"):
                after = self.tokens[self.at + 1]
                if after.kind != "op" or after.text != "[":
                    return left  # not a term: the expression ends before ``in``
                self.take()
                self.take()
                left = Term(left, self.items(), negated=op == "not in")
                continue
            self.take()
            if op in _LESS + _GREATER and (self.peek().kind == "end" or self._is(")")):
                left = Binary(op, left, Missing())
                continue
            right = self.expression(strength)
            if op in _LESS + _GREATER and isinstance(right, Field):
                follow = self.peek()
                same = _LESS if op in _LESS else _GREATER
                if follow.kind == "op" and follow.text in same:
                    self.take()
                    left = RangeNode(left, op, right, follow.text, self.expression(strength))
                    continue
            left = Binary(op, left, right)

    def _is(self, text: str, ahead: int = 0) -> bool:
        token = self.tokens[min(self.at + ahead, len(self.tokens) - 1)]
        return token.kind == "op" and token.text == text

    def _recover(self) -> None:
        """ANTLR's recovery when a ``)`` is missing after ``( expr``
        (docs/engines/milvus.md#milvus-parser-recovery-nested). One stray token before a ``)``
        is deleted; at the end the ``)`` is supplied. Otherwise the expression this
        parenthesis opens ends there (it is the parenthesized expression), and the tokens
        from the one that cannot continue are dropped up to the first that may follow any of
        the expressions being read (ANTLR's error recovery set): a binary operator if one of
        them is an operand, ``)`` if one is inside parentheses, and so on; nothing, up to the
        end, at the top level. The expression that called it goes on from there."""
        if self.peek().kind == "end":
            return
        if self._is(")", 1):
            self.at += 2
            return
        stop = frozenset().union(*self.follows)
        while not (
            self.peek().kind == "end" or (self.peek().kind == "op" and self.peek().text in stop)
        ):
            self.take()
        self.recovered = True

    def items(self) -> tuple[Node, ...]:
        """A bracketed list's items, after its ``[`` (a trailing comma is allowed)."""
        items: list[Node] = []
        while not (self.peek().kind == "op" and self.peek().text == "]"):
            items.append(self.expression(0, _ITEM_FOLLOW))
            token = self.take()
            if token.kind == "op" and token.text == "]":
                return tuple(items)
            if not (token.kind == "op" and token.text == ","):
                raise ParseError(f"expected ',' or ']', got {token.text!r}")
        self.take()
        return tuple(items)

    def prefix(self) -> Node:
        token = self.take()
        if token.kind == "lit":
            return Literal(token.value)
        if token.kind == "name":
            return Field(token.text, token.value)
        if token.kind == "func":
            self.expect("(")
            args = [self.expression(0, _ARGUMENT_FOLLOW)]
            while self.peek().kind == "op" and self.peek().text == ",":
                self.take()
                args.append(self.expression(0, _ARGUMENT_FOLLOW))
            self.expect(")")
            return Call(token.text, tuple(args))
        if token.kind == "op":
            if token.text == "(":
                inner = self.expression(0, _PAREN_FOLLOW)
                if not self._is(")"):
                    self._recover()
                else:
                    self.take()
                return inner
            if token.text == "[":
                return ListLit(self.items())
            if token.text in ("-", "+", "~", "not"):
                return Unary(token.text, self.expression(_UNARY_POWER))
            if token.text == "exists":
                return Call("exists", (self.expression(_UNARY_POWER),))
        raise ParseError(f"unexpected {token.text or 'end of expression'!r}")


def parse(text: str) -> Node | None:
    """The expression tree of ``text`` (None for an empty or blank expression: no filter)."""
    tokens = tokenize(text)
    if tokens[0].kind == "end":
        return None
    return _Parser(tokens).expression(0, frozenset())
