"""Bracketed character classes in a regular-expression pattern, after Rust's
``regex_syntax::ast::parse``.

:class:`Scanner` is the cursor (:mod:`.cursor`) and escape reader (:mod:`.escapes`) the parser
builds on, plus bracketed classes: ranges, negation, nesting, ``[:name:]`` ASCII classes, the
``&&``, ``--`` and ``~~`` operators, a leading ``]`` or ``-`` taken literally, read step by step
as Rust does, so that it accepts and rejects the same patterns with the same messages.
:class:`~.parser.Parser` adds the rest.
"""

from __future__ import annotations

from dataclasses import dataclass

from placeborag_core.filters.regex.cursor import WHITE_SPACE
from placeborag_core.filters.regex.escapes import EscapeParser
from placeborag_core.filters.regex.syntax import (
    AsciiClass,
    Assertion,
    BinaryOp,
    Bracketed,
    ClassItem,
    ClassSet,
    Literal,
    PerlClass,
    Range,
    SetUnion,
    UnicodeClass,
)

__all__ = ["WHITE_SPACE", "Scanner"]

_ASCII_NAMES = {
    "alnum",
    "alpha",
    "ascii",
    "blank",
    "cntrl",
    "digit",
    "graph",
    "lower",
    "print",
    "punct",
    "space",
    "upper",
    "word",
    "xdigit",
}


@dataclass
class _ClassOpen:
    union: SetUnion
    negated: bool
    position: int


@dataclass
class _ClassOp:
    op: str
    lhs: ClassSet


class Scanner(EscapeParser):
    """A position in a pattern, and the parsing of its escapes and bracketed classes."""

    def __init__(self, pattern: str) -> None:
        super().__init__(pattern)
        self.class_stack: list[_ClassOpen | _ClassOp] = []

    def parse_set_class(self) -> Bracketed:
        union = SetUnion()
        while True:
            self.bump_space()
            if self.eof():
                raise self.error("unclosed character class", self._innermost_open())
            char = self.char()
            if char == "[":
                if self.class_stack:
                    ascii_class = self.maybe_parse_ascii_class()
                    if ascii_class is not None:
                        union.items.append(ascii_class)
                        continue
                union = self.push_class_open(union)
            elif char == "]":
                closed = self.pop_class(union)
                if isinstance(closed, Bracketed):
                    return closed
                union = closed
            elif char == "&" and self.peek() == "&":
                self.pos += 2
                union = self.push_class_op("&&", union)
            elif char == "-" and self.peek() == "-":
                self.pos += 2
                union = self.push_class_op("--", union)
            elif char == "~" and self.peek() == "~":
                self.pos += 2
                union = self.push_class_op("~~", union)
            else:
                union.items.append(self.parse_set_class_range())

    def _innermost_open(self) -> int:
        for state in reversed(self.class_stack):
            if isinstance(state, _ClassOpen):
                return state.position
        return self.pos  # pragma: no cover - the parser always has an open class here

    def push_class_open(self, parent: SetUnion) -> SetUnion:
        start = self.pos
        if not self.bump_and_bump_space():
            raise self.error("unclosed character class", start)
        negated = False
        if self.char() == "^":
            negated = True
            if not self.bump_and_bump_space():
                raise self.error("unclosed character class", start)
        union = SetUnion()
        while self.char() == "-":
            union.items.append(Literal("-", self.pos))
            if not self.bump_and_bump_space():
                raise self.error("unclosed character class", start)
        if not union.items and self.char() == "]":
            union.items.append(Literal("]", self.pos))
            if not self.bump_and_bump_space():
                raise self.error("unclosed character class", start)
        self.class_stack.append(_ClassOpen(parent, negated, start))
        return union

    def push_class_op(self, op: str, union: SetUnion) -> SetUnion:
        lhs = self.pop_class_op(union)
        self.class_stack.append(_ClassOp(op, lhs))
        return SetUnion()

    def pop_class_op(self, rhs: ClassSet) -> ClassSet:
        if self.class_stack and isinstance(self.class_stack[-1], _ClassOp):
            op = self.class_stack.pop()
            assert isinstance(op, _ClassOp)
            return BinaryOp(op.op, op.lhs, rhs)
        return rhs

    def pop_class(self, union: SetUnion) -> Bracketed | SetUnion:
        items = self.pop_class_op(union)
        state = self.class_stack.pop()
        assert isinstance(state, _ClassOpen)
        self.bump()
        bracketed = Bracketed(state.negated, items, state.position)
        if not self.class_stack:
            return bracketed
        state.union.items.append(bracketed)
        return state.union

    def maybe_parse_ascii_class(self) -> AsciiClass | None:
        start = self.pos
        if not self.bump() or self.char() != ":" or not self.bump():
            self.pos = start
            return None
        negated = False
        if self.char() == "^":
            negated = True
            if not self.bump():
                self.pos = start
                return None
        name_start = self.pos
        while self.char() != ":" and self.bump():
            pass
        if self.eof():
            self.pos = start
            return None
        name = self.pattern[name_start : self.pos]
        if not self.bump_if(":]") or name not in _ASCII_NAMES:
            self.pos = start
            return None
        return AsciiClass(name, negated, start)

    def parse_set_class_range(self) -> ClassItem:
        first = self.parse_set_class_item()
        self.bump_space()
        if self.eof():
            raise self.error("unclosed character class", self._innermost_open())
        if self.char() != "-" or self.peek_space() in ("]", "-"):
            if isinstance(first, Assertion):
                raise self.error("invalid escape sequence found in character class", first.position)
            return first
        if not self.bump_and_bump_space():
            raise self.error("unclosed character class", self._innermost_open())
        second = self.parse_set_class_item()
        if not isinstance(first, Literal) or not isinstance(second, Literal):  # Rust's order
            bad = first if not isinstance(first, Literal) else second
            raise self.error("invalid range boundary, must be a literal", bad.position)
        if first.char > second.char:
            raise self.error(
                "invalid character class range, the start must be <= the end", first.position
            )
        return Range(first, second, first.position)

    def parse_set_class_item(self) -> Literal | Assertion | PerlClass | UnicodeClass:
        if self.char() == "\\":
            return self.parse_escape()
        literal = Literal(self.char(), self.pos)
        self.bump()
        return literal
