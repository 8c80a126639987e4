"""The parser of patterns, after Rust's ``regex_syntax::ast::parse``.

On top of :class:`~.scanner.Scanner`: the main loop (literals, ``.``, ``^``, ``$``, groups,
alternation, classes), repetitions (``* + ?`` and ``{n}``, ``{n,}``, ``{n,m}``, greedy or lazy,
which may be stacked: ``a**`` is valid, a repetition of nothing is not), groups (capturing, named
with ``(?P<n>`` or ``(?<n>``, non-capturing, with flags), inline flags ``imsUuxR`` (``(?x)``
switches white-space skipping until the end of the group) and Rust's nesting limit of 250.
Look-around (``(?=``, ``(?!``, ``(?<=``, ``(?<!``), back-references and ``(?#`` are rejected
with Rust's messages.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from placeborag_core.filters.regex.scanner import WHITE_SPACE, Scanner
from placeborag_core.filters.regex.syntax import (
    NEST_LIMIT,
    Alternation,
    Assertion,
    Ast,
    BinaryOp,
    Bracketed,
    ClassItem,
    ClassSet,
    Concat,
    Dot,
    Empty,
    Flags,
    Group,
    Literal,
    RegexError,
    Repetition,
    SetUnion,
)

__all__ = ["parse"]


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


class Parser(Scanner):
    """A pattern being parsed into its :mod:`~.syntax` tree."""

    def __init__(self, pattern: str) -> None:
        super().__init__(pattern)
        self.capture_names: set[str] = set()

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
        while not self.eof() and self.char() in WHITE_SPACE:
            self.bump()
        start = self.pos
        digits = []
        while not self.eof() and "0" <= self.char() <= "9":
            digits.append(self.char())
            self.bump_and_bump_space()
        while not self.eof() and self.char() in WHITE_SPACE:
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
    """Parse ``pattern`` into its syntax tree; raise :class:`RegexError` where Rust does.

    A lone surrogate has no UTF-8 form, so no Rust pattern (and no Chroma request) can hold one.
    """
    for position, char in enumerate(pattern):
        if "\ud800" <= char <= "\udfff":
            raise RegexError("lone surrogate in the pattern (not encodable as UTF-8)", position)
    return Parser(pattern).parse()
