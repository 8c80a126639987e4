"""The syntax tree of a pattern, and the parser that builds it, after Rust's ``regex-syntax`` 0.8.

The parser follows ``regex_syntax::ast::parse`` step by step, so a pattern is accepted or
rejected exactly where Rust's parser accepts or rejects it, with Rust's error wording: escapes
(``\\x..``, ``\\u..``, ``\\U..`` with or without braces, ``\\a \\f \\t \\n \\r \\v``, escaped
punctuation), ``\\p``/``\\P`` class names, bracketed classes with nested classes, ``[:name:]`` ASCII
classes and the ``&&``, ``--``, ``~~`` set operators, groups (capturing, named with ``(?P<n>``
or ``(?<n>``, non-capturing, with flags), inline flags ``imsUuxR``, counted and uncounted
repetitions (which may be stacked: ``a**`` is valid), the nesting limit of 250, and ``(?x)``
whitespace and ``#`` comments. Look-around and back-references are rejected, as in Rust.
Positions are character offsets into the pattern (Rust reports byte offsets).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field

__all__ = [
    "NEST_LIMIT",
    "Alternation",
    "AsciiClass",
    "Assertion",
    "Ast",
    "BinaryOp",
    "Bracketed",
    "ClassItem",
    "ClassSet",
    "Concat",
    "Dot",
    "Empty",
    "Flags",
    "Group",
    "Literal",
    "PerlClass",
    "Range",
    "RegexError",
    "Repetition",
    "SetUnion",
    "UnicodeClass",
    "parse",
]

NEST_LIMIT = 250
"""Rust's default nesting limit for groups, repetitions, alternations and classes."""


class RegexError(ValueError):
    """A pattern the engine rejects: Rust's message (or ours, for what we don't support)."""

    def __init__(self, message: str, position: int | None = None) -> None:
        self.message = message
        self.position = position
        super().__init__(message if position is None else f"{message} at position {position}")


# ----------------------------------------------------------------------------- syntax tree


@dataclass(frozen=True)
class Empty:
    """The empty expression (``()``, ``a|``, an empty pattern)."""


@dataclass(frozen=True)
class Literal:
    """One character; ``short_hex`` marks ``\\xHH``, which means a byte under ``(?-u)``."""

    char: str
    position: int
    short_hex: bool = False


@dataclass(frozen=True)
class Dot:
    """``.``"""

    position: int


@dataclass(frozen=True)
class Assertion:
    """A zero-width assertion: ``^ $ \\A \\z \\b \\B \\< \\> \\b{start}`` and the like.

    ``kind`` is one of ``start_line end_line start_text end_text word not_word word_start
    word_end word_start_half word_end_half``.
    """

    kind: str
    position: int


@dataclass(frozen=True)
class PerlClass:
    """``\\d \\s \\w`` (``kind`` is ``d``, ``s`` or ``w``), negated for the upper-case letter."""

    kind: str
    negated: bool
    position: int


@dataclass(frozen=True)
class UnicodeClass:
    """``\\pN``, ``\\p{Name}``, ``\\p{name=value}`` (``op`` is ``=``, ``:``, ``!=`` or empty)."""

    name: str
    value: str
    op: str
    negated: bool
    position: int


@dataclass(frozen=True)
class AsciiClass:
    """``[:alpha:]`` inside a bracketed class."""

    name: str
    negated: bool
    position: int


@dataclass(frozen=True)
class Range:
    """``a-z`` inside a bracketed class."""

    start: Literal
    end: Literal
    position: int


@dataclass
class SetUnion:
    """The items of a bracketed class written side by side."""

    items: list[ClassItem] = field(default_factory=list)


@dataclass(frozen=True)
class BinaryOp:
    """``lhs && rhs``, ``lhs -- rhs`` or ``lhs ~~ rhs`` inside a bracketed class."""

    op: str
    lhs: ClassSet
    rhs: ClassSet


@dataclass(frozen=True)
class Bracketed:
    """``[...]``, possibly negated, possibly nested in another."""

    negated: bool
    items: ClassSet
    position: int


ClassSet = SetUnion | BinaryOp
ClassItem = Literal | Range | AsciiClass | UnicodeClass | PerlClass | Bracketed | SetUnion


@dataclass(frozen=True)
class Flags:
    """Inline flags: ``(?i-s)`` on its own, or the flags of a ``(?i:...)`` group.

    ``items`` maps each flag letter to True (set) or False (cleared).
    """

    items: tuple[tuple[str, bool], ...]
    position: int

    def state(self, flag: str) -> bool | None:
        for name, value in self.items:
            if name == flag:
                return value
        return None


@dataclass(frozen=True)
class Repetition:
    """``sub{min,max}`` (``max`` None is unbounded); ``*``, ``+`` and ``?`` included."""

    sub: Ast
    min: int
    max: int | None
    position: int


@dataclass(frozen=True)
class Group:
    """A group: capturing (``name`` may be set) or not; ``flags`` for ``(?flags:...)``."""

    sub: Ast
    capturing: bool
    flags: Flags | None
    position: int


@dataclass(frozen=True)
class Concat:
    items: tuple[Ast, ...]


@dataclass(frozen=True)
class Alternation:
    items: tuple[Ast, ...]


Ast = (
    Empty
    | Literal
    | Dot
    | Assertion
    | PerlClass
    | UnicodeClass
    | Bracketed
    | Repetition
    | Group
    | Flags
    | Concat
    | Alternation
)

# ----------------------------------------------------------------------------- parser

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
_WHITE_SPACE = frozenset(
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


def _is_alphabetic(char: str) -> bool:
    return char.isalpha() or unicodedata.category(char) == "Nl"


def _capture_char(char: str, first: bool) -> bool:
    """Rust's ``is_capture_char``: a letter or ``_``, then also digits, ``.``, ``[`` or ``]``."""
    if first:
        return char == "_" or _is_alphabetic(char)
    return char in "_.[]" or _is_alphabetic(char) or char.isnumeric()


@dataclass
class _GroupFrame:
    concat: list[Ast]
    group_position: int
    capturing: bool
    flags: Flags | None
    ignore_whitespace: bool
    alternation: list[Ast] | None = None


@dataclass
class _ClassOpen:
    union: SetUnion
    negated: bool
    position: int


@dataclass
class _ClassOp:
    op: str
    lhs: ClassSet


class _Parser:
    def __init__(self, pattern: str) -> None:
        self.pattern = pattern
        self.pos = 0
        self.ignore_whitespace = False
        self.capture_names: set[str] = set()
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
            if char in _WHITE_SPACE:
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

    def parse(self) -> Ast:
        stack: list[_GroupFrame] = []
        concat: list[Ast] = []
        alternation: list[Ast] | None = None
        while True:
            self.bump_space()
            if self.eof():
                break
            char = self.char()
            if char == "(":
                frame_or_flags = self.parse_group()
                if isinstance(frame_or_flags, Flags):
                    state = frame_or_flags.state("x")
                    if state is not None:
                        self.ignore_whitespace = state
                    concat.append(frame_or_flags)
                else:
                    frame_or_flags.concat = concat
                    frame_or_flags.alternation = alternation
                    stack.append(frame_or_flags)
                    concat, alternation = [], None
            elif char == ")":
                if not stack:
                    raise self.error("unopened group")
                frame = stack.pop()
                self.ignore_whitespace = frame.ignore_whitespace
                self.bump()
                sub = _finish(concat, alternation)
                concat, alternation = frame.concat, frame.alternation
                concat.append(Group(sub, frame.capturing, frame.flags, frame.group_position))
            elif char == "|":
                if alternation is None:
                    alternation = []
                alternation.append(_concat_ast(concat))
                concat = []
                self.bump()
            elif char == "[":
                concat.append(self.parse_set_class())
            elif char in "?*+":
                self.parse_uncounted_repetition(concat)
            elif char == "{":
                self.parse_counted_repetition(concat)
            else:
                concat.append(self.parse_primitive())
        if stack:
            raise self.error("unclosed group", stack[-1].group_position)
        ast = _finish(concat, alternation)
        _check_nesting(ast)
        return ast

    def parse_primitive(self) -> Ast:
        char = self.char()
        start = self.pos
        if char == "\\":
            return self.parse_escape()
        self.bump()
        if char == ".":
            return Dot(start)
        if char == "^":
            return Assertion("start_line", start)
        if char == "$":
            return Assertion("end_line", start)
        return Literal(char, start)

    # -- repetitions -------------------------------------------------------------------------

    def _repeatable(self, concat: list[Ast]) -> Ast:
        if not concat or isinstance(concat[-1], (Empty, Flags)):
            raise self.error("repetition operator missing expression")
        return concat.pop()

    def parse_uncounted_repetition(self, concat: list[Ast]) -> None:
        start = self.pos
        char = self.char()
        sub = self._repeatable(concat)
        bounds = {"?": (0, 1), "*": (0, None), "+": (1, None)}[char]
        if self.bump() and self.char() == "?":  # lazy: the same language
            self.bump()
        concat.append(Repetition(sub, bounds[0], bounds[1], start))

    def parse_counted_repetition(self, concat: list[Ast]) -> None:
        start = self.pos
        sub = self._repeatable(concat)
        if not self.bump_and_bump_space():
            raise self.error("unclosed counted repetition", start)
        low = self.parse_count(start)
        high: int | None = low
        if self.char() == ",":
            if not self.bump_and_bump_space():
                raise self.error("unclosed counted repetition", start)
            high = None if self.char() == "}" else self.parse_count(start)
        if self.eof() or self.char() != "}":
            raise self.error("unclosed counted repetition", start)
        if self.bump_and_bump_space() and self.char() == "?":
            self.bump()
        if high is not None and low > high:
            raise self.error("invalid repetition count range, the start must be <= the end", start)
        concat.append(Repetition(sub, low, high, start))

    def parse_count(self, start: int) -> int:
        """A repetition count; reaching the end of the pattern is reported first, as in Rust."""
        try:
            value = self.parse_decimal()
        except RegexError:
            if self.eof():
                raise self.error("unclosed counted repetition", start) from None
            raise
        if self.eof():
            raise self.error("unclosed counted repetition", start)
        return value

    def parse_decimal(self) -> int:
        while not self.eof() and self.char() in _WHITE_SPACE:
            self.bump()
        start = self.pos
        digits = []
        while not self.eof() and "0" <= self.char() <= "9":
            digits.append(self.char())
            self.bump_and_bump_space()
        while not self.eof() and self.char() in _WHITE_SPACE:
            self.bump_and_bump_space()
        if not digits:
            raise self.error("repetition quantifier expects a valid decimal", start)
        value = int("".join(digits))
        if value > 0xFFFFFFFF:
            raise self.error("decimal literal invalid", start)
        return value

    # -- groups and flags --------------------------------------------------------------------

    def parse_group(self) -> _GroupFrame | Flags:
        open_position = self.pos
        self.bump()
        self.bump_space()
        for prefix in ("?=", "?!", "?<=", "?<!"):
            if self.pattern.startswith(prefix, self.pos):
                raise self.error(
                    "look-around, including look-ahead and look-behind, is not supported",
                    open_position,
                )
        if self.bump_if("?P<") or self.bump_if("?<"):
            self.parse_capture_name()
            return _GroupFrame([], open_position, True, None, self.ignore_whitespace)
        if self.bump_if("?"):
            if self.eof():
                raise self.error("unclosed group", open_position)
            flags_position = self.pos - 1
            flags = self.parse_flags()
            end = self.char()
            self.bump()
            if end == ")":
                if not flags.items:
                    raise self.error("repetition operator missing expression", flags_position)
                return flags
            frame = _GroupFrame([], open_position, False, flags, self.ignore_whitespace)
            state = flags.state("x")
            if state is not None:
                self.ignore_whitespace = state
            return frame
        return _GroupFrame([], open_position, True, None, self.ignore_whitespace)

    def parse_capture_name(self) -> None:
        if self.eof():
            raise self.error("unclosed capture group name")
        start = self.pos
        while self.char() != ">":
            if not _capture_char(self.char(), self.pos == start):
                raise self.error("invalid capture group character")
            if not self.bump():
                break
        if self.eof():
            raise self.error("unclosed capture group name", start)
        name = self.pattern[start : self.pos]
        self.bump()
        if not name:
            raise self.error("empty capture group name", start)
        if name in self.capture_names:
            raise self.error("duplicate capture group name", start)
        self.capture_names.add(name)

    def parse_flags(self) -> Flags:
        start = self.pos
        items: list[tuple[str, bool]] = []
        seen: set[str] = set()
        negating = False
        dangling: int | None = None
        while self.char() not in (":", ")"):
            char = self.char()
            if char == "-":
                if "-" in seen:
                    raise self.error("flag negation operator repeated")
                seen.add("-")
                negating = True
                dangling = self.pos
            else:
                dangling = None
                if char not in "imsUuxR":
                    raise self.error("unrecognized flag")
                if char in seen:
                    raise self.error("duplicate flag")
                seen.add(char)
                items.append((char, not negating))
            if not self.bump():
                raise self.error("expected flag but got end of regex")
        if dangling is not None:
            raise self.error("dangling flag negation operator", dangling)
        return Flags(tuple(items), start)

    # -- escapes -----------------------------------------------------------------------------

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


def _concat_ast(items: list[Ast]) -> Ast:
    if not items:
        return Empty()
    if len(items) == 1:
        return items[0]
    return Concat(tuple(items))


def _finish(concat: list[Ast], alternation: list[Ast] | None) -> Ast:
    if alternation is None:
        return _concat_ast(concat)
    return Alternation((*alternation, _concat_ast(concat)))


def _children(ast: Ast | ClassItem | ClassSet) -> tuple[object, ...]:
    if isinstance(ast, (Concat, Alternation)):
        return ast.items
    if isinstance(ast, (Repetition, Group)):
        return (ast.sub,)
    if isinstance(ast, Bracketed):
        return (ast.items,)
    if isinstance(ast, SetUnion):
        return tuple(ast.items)
    if isinstance(ast, BinaryOp):
        return (ast.lhs, ast.rhs)
    return ()


def _counts(ast: object) -> bool:
    """Whether a node adds a level to Rust's nesting depth (its base cases do not)."""
    if isinstance(ast, SetUnion):
        return len(ast.items) > 1
    return isinstance(ast, (Concat, Alternation, Repetition, Group, Bracketed, BinaryOp))


def _check_nesting(ast: Ast) -> None:
    """Reject trees nested deeper than :data:`NEST_LIMIT` (iteratively: the tree may be deep)."""
    stack: list[tuple[object, int]] = [(ast, 0)]
    while stack:
        node, depth = stack.pop()
        if _counts(node):
            depth += 1
            if depth > NEST_LIMIT:
                position = getattr(node, "position", 0)
                raise RegexError(
                    f"exceed the maximum number of nested parentheses/brackets ({NEST_LIMIT})",
                    position,
                )
        stack.extend((child, depth) for child in _children(node))  # type: ignore[arg-type]


def parse(pattern: str) -> Ast:
    """Parse ``pattern`` into its syntax tree; raise :class:`RegexError` where Rust does."""
    return _Parser(pattern).parse()
