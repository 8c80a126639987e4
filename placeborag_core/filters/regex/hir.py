"""The high-level form of a pattern, which the automata are built from (Rust's ``hir``).

Nodes are immutable: :class:`Lit` (a string), :class:`Chars` (a set of code points),
:class:`Look` (a zero-width assertion), :class:`Repeat`, :class:`Capture`, :class:`Cat`,
:class:`Alt` and :class:`Nothing` (the empty string). The constructors :func:`char_class`,
:func:`concat`, :func:`alternation` and :func:`repetition` simplify the way Rust's ``Hir::class``,
``Hir::concat``, ``Hir::alternation`` and ``Hir::repetition`` do (one-character classes become
literals, adjacent literals merge, an alternation of classes becomes one class, a common prefix
is lifted out of an alternation, ``x{0}`` disappears), because Chroma inspects the simplified
result: a class that matches nothing, or a byte class (``(?-u)``), left in it makes Chroma
reject the pattern ("Byte pattern is not allowed"). The simplifications never change what
matches.
"""

from __future__ import annotations

from dataclasses import dataclass

from placeborag_core.filters.regex.charset import CharSet

__all__ = [
    "LOOKS",
    "Alt",
    "Capture",
    "Cat",
    "Chars",
    "Hir",
    "Lit",
    "Look",
    "Nothing",
    "Repeat",
    "alternation",
    "char_class",
    "concat",
    "literal",
    "repetition",
]

LOOKS = frozenset(
    {
        "start",
        "end",
        "start_lf",
        "end_lf",
        "start_crlf",
        "end_crlf",
        "word_u",
        "not_word_u",
        "word_start_u",
        "word_end_u",
        "word_start_half_u",
        "word_end_half_u",
        "word_a",
        "not_word_a",
        "word_start_a",
        "word_end_a",
        "word_start_half_a",
        "word_end_half_a",
    }
)
"""The assertions: text and line anchors (LF or CRLF lines), Unicode and ASCII word boundaries."""


@dataclass(frozen=True)
class Nothing:
    """The empty string."""


@dataclass(frozen=True)
class Lit:
    """A literal string of one or more characters."""

    text: str


@dataclass(frozen=True)
class Chars:
    """A character class of zero (matches nothing) or two and more code points.

    ``byte`` marks a class built under ``(?-u)``, which Rust keeps as a byte class.
    """

    chars: CharSet
    byte: bool = False


@dataclass(frozen=True)
class Look:
    """A zero-width assertion; ``kind`` is one of :data:`LOOKS`."""

    kind: str


@dataclass(frozen=True)
class Repeat:
    """``sub`` at least ``min`` and at most ``max`` times (None: unbounded)."""

    sub: Hir
    min: int
    max: int | None


@dataclass(frozen=True)
class Capture:
    """A capturing group (kept apart: Rust does not merge through it)."""

    sub: Hir


@dataclass(frozen=True)
class Cat:
    """A concatenation of two or more nodes."""

    items: tuple[Hir, ...]


@dataclass(frozen=True)
class Alt:
    """An alternation of two or more nodes."""

    items: tuple[Hir, ...]


Hir = Nothing | Lit | Chars | Look | Repeat | Capture | Cat | Alt


def literal(char: str) -> Hir:
    return Lit(char)


def char_class(chars: CharSet, byte: bool = False) -> Hir:
    """Rust's ``Hir::class``: a one-character class is a literal."""
    single = chars.single()
    if single is not None:
        return Lit(chr(single))
    return Chars(chars, byte)


def concat(items: list[Hir]) -> Hir:
    """Rust's ``Hir::concat``: flatten, drop empty strings, merge adjacent literals."""
    flat: list[Hir] = []
    pending: list[str] = []
    for item in items:
        for sub in item.items if isinstance(item, Cat) else (item,):
            if isinstance(sub, Lit):
                pending.append(sub.text)
            elif not isinstance(sub, Nothing):
                if pending:
                    flat.append(Lit("".join(pending)))
                    pending = []
                flat.append(sub)
    if pending:
        flat.append(Lit("".join(pending)))
    if not flat:
        return Nothing()
    if len(flat) == 1:
        return flat[0]
    return Cat(tuple(flat))


def alternation(items: list[Hir]) -> Hir:
    """Rust's ``Hir::alternation``: flatten, fold classes and single characters into one class,
    and lift a common prefix."""
    flat: list[Hir] = []
    for item in items:
        flat.extend(item.items if isinstance(item, Alt) else (item,))
    if not flat:
        return Chars(CharSet())
    if len(flat) == 1:
        return flat[0]
    if all(isinstance(sub, Lit) and len(sub.text) == 1 for sub in flat):
        return char_class(CharSet.of(*(ord(sub.text) for sub in flat if isinstance(sub, Lit))))
    if all(isinstance(sub, Chars) for sub in flat):
        merged = CharSet()
        for sub in flat:
            if isinstance(sub, Chars):
                merged = merged.union(sub.chars)
        return char_class(merged)
    lifted = _lift_common_prefix(flat)
    return lifted if lifted is not None else Alt(tuple(flat))


def _lift_common_prefix(items: list[Hir]) -> Hir | None:
    first = items[0]
    if not isinstance(first, Cat):
        return None
    prefix: tuple[Hir, ...] = first.items
    for item in items[1:]:
        if not isinstance(item, Cat):
            return None
        common = 0
        for a, b in zip(prefix, item.items, strict=False):
            if a != b:
                break
            common += 1
        prefix = prefix[:common]
        if not prefix:
            return None
    suffixes = [concat(list(item.items[len(prefix) :])) for item in items if isinstance(item, Cat)]
    return concat([*prefix, alternation(suffixes)])


def repetition(sub: Hir, low: int, high: int | None) -> Hir:
    """Rust's ``Hir::repetition``: ``x{0}`` is the empty string, ``x{1}`` is ``x``."""
    if low == 0 and high == 0:
        return Nothing()
    if low == 1 and high == 1:
        return sub
    return Repeat(sub, low, high)
