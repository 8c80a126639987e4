"""The syntax tree of a pattern, after Rust's ``regex-syntax`` 0.8 AST, and the engine's error.

:mod:`.parser` builds it (with :mod:`.scanner`), :mod:`.translate` turns it into :mod:`.hir`.
Positions are character offsets into the pattern (Rust reports byte offsets).
"""

from __future__ import annotations

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
