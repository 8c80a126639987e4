"""The cursor over a pattern, and the parsing of escapes and bracketed classes, after Rust's
``regex_syntax::ast::parse``.

:class:`Scanner` reads characters (skipping white space and ``#`` comments under ``(?x)``, as
Rust does everywhere it calls ``bump_space``), escapes (``\\x..``, ``\\u..``, ``\\U..`` with or
without braces, ``\\a \\f \\t \\n \\r \\v``, escaped punctuation, ``\\d \\s \\w``, ``\\p``
classes, assertions, ``\\b{start}`` and the like) and bracketed classes (ranges, negation,
nesting, ``[:name:]`` ASCII classes, the ``&&``, ``--`` and ``~~`` operators, a leading ``]`` or
``-`` taken literally), step by step as Rust does, so that it accepts and rejects the same
patterns with the same messages. :class:`~.parser.Parser` adds the rest.
"""

from __future__ import annotations

from dataclasses import dataclass

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
    RegexError,
    SetUnion,
    UnicodeClass,
)

__all__ = ["WHITE_SPACE", "Scanner"]

_META = set("\\.+*?()|[]{}^$#&-~")
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
_SPECIAL_ESCAPES = {"a": "\x07", "f": "\x0c", "t": "\t", "n": "\n", "r": "\r", "v": "\x0b"}
_HEX_DIGITS = set("0123456789abcdefABCDEF")
WHITE_SPACE = frozenset(
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)


def _escapable(char: str) -> bool:
    """Rust's ``is_escapeable_character``: meta characters and ASCII punctuation but ``<>``."""
    if char in _META:
        return True
    if not char.isascii() or char.isalnum():
        return False
    return char not in "<>"


@dataclass
class _ClassOpen:
    union: SetUnion
    negated: bool
    position: int


@dataclass
class _ClassOp:
    op: str
    lhs: ClassSet


class Scanner:
    """A position in a pattern, and the parsing of its escapes and bracketed classes."""

    def __init__(self, pattern: str) -> None:
        self.pattern = pattern
        self.pos = 0
        self.ignore_whitespace = False
        self.class_stack: list[_ClassOpen | _ClassOp] = []

    # -- cursor ------------------------------------------------------------------------------

    def eof(self) -> bool:
        return self.pos >= len(self.pattern)

    def char(self) -> str:
        return self.pattern[self.pos] if self.pos < len(self.pattern) else ""

    def bump(self) -> bool:
        """Advance one character; False when that reaches the end of the pattern."""
        if self.pos < len(self.pattern):
            self.pos += 1
        return self.pos < len(self.pattern)

    def bump_if(self, prefix: str) -> bool:
        if self.pattern.startswith(prefix, self.pos):
            self.pos += len(prefix)
            return True
        return False

    def bump_space(self) -> None:
        """Under ``(?x)``, skip white space and ``#`` comments."""
        if not self.ignore_whitespace:
            return
        while not self.eof():
            char = self.char()
            if char in WHITE_SPACE:
                self.bump()
            elif char == "#":
                self.bump()
                while not self.eof():
                    char = self.char()
                    self.bump()
                    if char == "\n":
                        break
            else:
                break

    def bump_and_bump_space(self) -> bool:
        if not self.bump():
            return False
        self.bump_space()
        return not self.eof()

    def peek(self) -> str:
        nxt = self.pos + 1
        return self.pattern[nxt] if nxt < len(self.pattern) else ""

    def peek_space(self) -> str:
        """The next character after the current one, skipping ``(?x)`` white space."""
        if not self.ignore_whitespace:
            return self.peek()
        saved = self.pos
        self.bump()
        self.bump_space()
        found = self.char()
        self.pos = saved
        return found

    def error(self, message: str, position: int | None = None) -> RegexError:
        return RegexError(message, self.pos if position is None else position)

    # -- top level ---------------------------------------------------------------------------

    def parse_escape(self) -> Literal | Assertion | PerlClass | UnicodeClass:
        start = self.pos
        if not self.bump():
            raise self.error(
                "incomplete escape sequence, reached end of pattern prematurely", start
            )
        char = self.char()
        if "0" <= char <= "9":
            raise RegexError("backreferences are not supported", start)
        if char in "xuU":
            return self.parse_hex(start)
        if char in "pP":
            return self.parse_unicode_class(start)
        if char in "dswDSW":
            self.bump()
            return PerlClass(char.lower(), char.isupper(), start)
        self.bump()
        if _escapable(char):
            return Literal(char, start)
        if char in _SPECIAL_ESCAPES:
            return Literal(_SPECIAL_ESCAPES[char], start)
        simple = {"A": "start_text", "z": "end_text", "B": "not_word", "<": "word_start"}
        if char in simple:
            return Assertion(simple[char], start)
        if char == ">":
            return Assertion("word_end", start)
        if char == "b":
            if not self.eof() and self.char() == "{":
                special = self.maybe_parse_special_word_boundary(start)
                if special is not None:
                    return Assertion(special, start)
            return Assertion("word", start)
        raise RegexError("unrecognized escape sequence", start)

    def maybe_parse_special_word_boundary(self, start: int) -> str | None:
        brace = self.pos
        if not self.bump_and_bump_space():
            raise self.error(
                "found either the beginning of a special word boundary or a bounded repetition "
                "on a \\b with an opening brace, but no closing brace",
                start,
            )

        def valid(char: str) -> bool:
            return char == "-" or ("a" <= char.lower() <= "z" and char.isascii())

        if not valid(self.char()):
            self.pos = brace
            return None
        contents = self.pos
        name = []
        while not self.eof() and valid(self.char()):
            name.append(self.char())
            self.bump_and_bump_space()
        if self.eof() or self.char() != "}":
            raise self.error(
                "special word boundary assertion is either unclosed or contains an invalid "
                "character",
                brace,
            )
        self.bump()
        kinds = {
            "start": "word_start",
            "end": "word_end",
            "start-half": "word_start_half",
            "end-half": "word_end_half",
        }
        kind = kinds.get("".join(name))
        if kind is None:
            raise self.error(
                "unrecognized special word boundary assertion, valid choices are: start, end, "
                "start-half or end-half",
                contents,
            )
        return kind

    def parse_hex(self, start: int) -> Literal:
        kind = self.char()
        if not self.bump_and_bump_space():
            raise self.error("incomplete escape sequence, reached end of pattern prematurely")
        if self.char() == "{":
            brace = self.pos
            digits: list[str] = []
            while self.bump_and_bump_space() and self.char() != "}":
                if self.char() not in _HEX_DIGITS:
                    raise self.error("invalid hexadecimal digit")
                digits.append(self.char())
            if self.eof():
                raise self.error(
                    "incomplete escape sequence, reached end of pattern prematurely", brace
                )
            self.bump_and_bump_space()
            if not digits:
                raise self.error("hexadecimal literal empty", brace)
            return Literal(self._scalar("".join(digits), brace + 1), start)
        count = {"x": 2, "u": 4, "U": 8}[kind]
        digits_at = self.pos
        digits = []
        for i in range(count):
            if i > 0 and not self.bump_and_bump_space():
                raise self.error("incomplete escape sequence, reached end of pattern prematurely")
            if self.char() not in _HEX_DIGITS:
                raise self.error("invalid hexadecimal digit")
            digits.append(self.char())
        self.bump_and_bump_space()
        return Literal(self._scalar("".join(digits), digits_at), start, short_hex=kind == "x")

    def _scalar(self, digits: str, position: int) -> str:
        value = int(digits, 16)
        if value > 0x10FFFF or 0xD800 <= value <= 0xDFFF:
            raise self.error("hexadecimal literal is not a Unicode scalar value", position)
        return chr(value)

    def parse_unicode_class(self, start: int) -> UnicodeClass:
        negated = self.char() == "P"
        if not self.bump_and_bump_space():
            raise self.error("incomplete escape sequence, reached end of pattern prematurely")
        if self.char() == "{":
            chars: list[str] = []
            while self.bump_and_bump_space() and self.char() != "}":
                chars.append(self.char())
            if self.eof():
                raise self.error("incomplete escape sequence, reached end of pattern prematurely")
            self.bump()
            name = "".join(chars)
            for op in ("!=", ":", "="):
                at = name.find(op)
                if at >= 0:
                    return UnicodeClass(
                        name[:at], name[at + len(op) :], op, negated != (op == "!="), start
                    )
            return UnicodeClass(name, "", "", negated, start)
        char = self.char()
        if char == "\\":
            raise self.error("invalid Unicode character class")
        self.bump_and_bump_space()
        return UnicodeClass(char, "", "", negated, start)

    # -- bracketed classes -------------------------------------------------------------------

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
