"""Milvus boolean expressions (``color == "red" and n > 2``): the lexer and parser.

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
an error. The result is a
plain tree (:class:`Node`); ``filters.py`` gives it Milvus's meaning.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

__all__ = [
    "Binary",
    "Call",
    "Field",
    "ListLit",
    "Literal",
    "Node",
    "ParseError",
    "RangeNode",
    "Term",
    "Unary",
    "parse",
]


class ParseError(Exception):
    """The expression is not in the grammar (Milvus: ``Invalid expr: ...: invalid parameter``)."""


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


Node = Literal | ListLit | Field | Unary | Binary | RangeNode | Term | Like | Call

# --- lexer ---------------------------------------------------------------------------------

_FUNCTIONS = {
    "json_contains": "json_contains",
    "JSON_CONTAINS": "json_contains",
    "json_contains_all": "json_contains_all",
    "JSON_CONTAINS_ALL": "json_contains_all",
    "json_contains_any": "json_contains_any",
    "JSON_CONTAINS_ANY": "json_contains_any",
    "array_contains": "json_contains",
    "ARRAY_CONTAINS": "json_contains",
    "array_contains_all": "json_contains_all",
    "ARRAY_CONTAINS_ALL": "json_contains_all",
    "array_contains_any": "json_contains_any",
    "ARRAY_CONTAINS_ANY": "json_contains_any",
    "array_length": "array_length",
    "ARRAY_LENGTH": "array_length",
}
_BOOLEANS = {"true": True, "True": True, "TRUE": True, "false": False, "False": False}
_BOOLEANS["FALSE"] = False
_KEYWORDS = {"and": "and", "or": "or", "not": "not", "in": "in", "like": "like", "LIKE": "like"}
_KEYWORDS |= {"exists": "exists", "EXISTS": "exists"}
_PUNCT = (
    "**", "==", "!=", "<=", ">=", "<<", ">>", "&&", "||",
    "<", ">", "=", "+", "-", "*", "/", "%", "~", "!", "&", "|", "^", "(", ")", "[", "]", ",",
)  # fmt: skip
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|\$meta")
_INDEX = re.compile(r"\[(?:\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*'|0|[1-9][0-9]*)\]")
_FLOAT = re.compile(r"(?:[0-9]*\.[0-9]+|[0-9]+\.)(?:[eE][+-]?[0-9]+)?|[0-9]+[eE][+-]?[0-9]+")
_INT = re.compile(r"[1-9][0-9]*|0[0-7]*")
_NIN = re.compile(r"not[ \t\r\n]+in(?![A-Za-z0-9_])")
_ESCAPES = {
    "'": "'", '"': '"', "?": "?", "\\": "\\",
    "a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v",
}  # fmt: skip
_RAW_ESCAPE = re.compile(r"x[0-9A-Fa-f]+|u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|[0-7]{1,3}")


@dataclass(frozen=True)
class _Token:
    kind: str  # "lit", "name", "func", "op", "end"
    text: str
    value: Any = None


class _LexError(Exception):
    """A string literal the lexer cannot read; ``resume`` is where lexing goes on."""

    def __init__(self, resume: int) -> None:
        super().__init__(resume)
        self.resume = resume


def _string(text: str, start: int) -> tuple[str, int]:
    """The string literal at ``start`` (its quote included) and the index after it;
    ``_LexError`` for a bad escape (lexing resumes after it) or a missing closing quote
    (lexing resumes after the opening quote)."""
    quote = text[start]
    out: list[str] = []
    i = start + 1
    while i < len(text):
        char = text[i]
        if char == quote:
            return "".join(out), i + 1
        if char == "\n":
            break
        if char == "\\":
            nxt = text[i + 1 : i + 2]
            if nxt in _ESCAPES:
                out.append(_ESCAPES[nxt])
                i += 2
                continue
            raw = _RAW_ESCAPE.match(text, i + 1)
            if raw is None:
                raise _LexError(i + 2)
            # Lexically valid, but the engine does not decode these to the character they
            # name (measured: "\u0072ed" does not equal "red"); the text is kept as written.
            out.append(text[i : raw.end()])
            i = raw.end()
            continue
        out.append(char)
        i += 1
    raise _LexError(start + 1)


def tokenize(text: str) -> list[_Token]:
    """The tokens of ``text``. As ANTLR's lexer does, text no token can start with (a stray
    character, a string literal with a bad escape, up to that escape, or a lone quote) is
    dropped and lexing goes on; the engine lets that pass (measured: ``color like "r\\%"``
    runs as ``color like ""``)."""
    tokens: list[_Token] = []
    i = 0
    while i < len(text):
        char = text[i]
        if char in " \t\r\n":
            i += 1
            continue
        if char in "\"'":
            try:
                value, i = _string(text, i)
            except _LexError as error:
                i = error.resume
                continue
            tokens.append(_Token("lit", value, value))
            continue
        nin = _NIN.match(text, i)
        if nin:
            tokens.append(_Token("op", "not in"))
            i = nin.end()
            continue
        number = _FLOAT.match(text, i)
        if number:
            tokens.append(_Token("lit", number.group(), float(number.group())))
            i = number.end()
            continue
        number = _INT.match(text, i)
        if number:
            digits = number.group()
            integer = int(digits, 8) if digits.startswith("0") else int(digits)
            # Past int64 the engine's parser falls back to a double (measured: no error).
            literal: int | float = integer if integer < 2**63 else float(integer)
            tokens.append(_Token("lit", digits, literal))
            i = number.end()
            continue
        name = _NAME.match(text, i)
        if name:
            word = name.group()
            i = name.end()
            path: list[str | int] = []
            while (index := _INDEX.match(text, i)) is not None:
                inner = index.group()[1:-1]
                try:
                    step = _string(inner, 0)[0] if inner[0] in "\"'" else int(inner)
                except _LexError:
                    raise ParseError(f"bad JSON path {index.group()!r}") from None
                path.append(step)
                i = index.end()
            if path:
                tokens.append(_Token("name", word, tuple(path)))
            elif word in _BOOLEANS:
                tokens.append(_Token("lit", word, _BOOLEANS[word]))
            elif word in _KEYWORDS:
                tokens.append(_Token("op", _KEYWORDS[word]))
            elif word in _FUNCTIONS:
                tokens.append(_Token("func", _FUNCTIONS[word]))
            else:
                tokens.append(_Token("name", word, ()))
            continue
        for punct in _PUNCT:
            if text.startswith(punct, i):
                spelled = {"&&": "and", "||": "or", "!": "not"}.get(punct, punct)
                tokens.append(_Token("op", spelled))
                i += len(punct)
                break
        else:
            i += 1  # no token starts here: dropped
    tokens.append(_Token("end", ""))
    return tokens


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
    def __init__(self, tokens: list[_Token]) -> None:
        self.tokens = tokens
        self.at = 0
        # For each expression being read, outermost first: the tokens that may follow it where
        # it stands (ANTLR's FOLLOW of the state that called it; none for the whole filter).
        self.follows: list[frozenset[str]] = []
        self.recovered = False  # the expression being read ends: ANTLR recovered from an error

    def peek(self) -> _Token:
        return self.tokens[self.at]

    def take(self) -> _Token:
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
