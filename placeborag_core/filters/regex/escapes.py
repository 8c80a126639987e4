"""Escapes in a regular-expression pattern, read as Rust's ``regex_syntax::ast::parse`` reads them.

:class:`EscapeParser` reads what follows a backslash: ``\\x..``, ``\\u..``, ``\\U..`` with or
without braces, ``\\a \\f \\t \\n \\r \\v``, escaped punctuation, ``\\d \\s \\w``, ``\\p``
classes, assertions and ``\\b{start}`` and the like, step by step as Rust does, so that it accepts
and rejects the same escapes with the same messages.
"""

from __future__ import annotations

from placeborag_core.filters.regex.cursor import Cursor
from placeborag_core.filters.regex.syntax import (
    Assertion,
    Literal,
    PerlClass,
    RegexError,
    UnicodeClass,
)

__all__ = ["EscapeParser"]

_META = set("\\.+*?()|[]{}^$#&-~")
_SPECIAL_ESCAPES = {"a": "\x07", "f": "\x0c", "t": "\t", "n": "\n", "r": "\r", "v": "\x0b"}
_HEX_DIGITS = set("0123456789abcdefABCDEF")


def _escapable(char: str) -> bool:
    """Rust's ``is_escapeable_character``: meta characters and ASCII punctuation but ``<>``."""
    if char in _META:
        return True
    if not char.isascii() or char.isalnum():
        return False
    return char not in "<>"


class EscapeParser(Cursor):
    """A cursor that reads escapes (Rust's ``parse_escape`` and the parsers it calls)."""

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
