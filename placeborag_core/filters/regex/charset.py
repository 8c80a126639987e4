"""Sets of code points as sorted ranges, and the Unicode tables the regex engine needs.

A :class:`CharSet` is an immutable, sorted tuple of disjoint, non-adjacent ``(lo, hi)`` ranges
(inclusive) of Unicode scalar values, with the set algebra of Rust's ``regex-syntax`` classes:
union, intersection, difference, symmetric difference, negation and simple case folding. The
universe is the scalar values: surrogates (``U+D800..U+DFFF``) are never members, as in Rust,
whose ``char`` cannot hold one (and Chroma cannot store a document containing one).

The Unicode data comes from the standard library's :mod:`unicodedata`, so its version is the
running Python's (3.11: Unicode 14.0; Rust's ``regex-syntax`` 0.8.10, in Chroma 1.5.9, uses 16.0):
characters assigned in between are classified as unassigned here. The tables are built once per
process, on first use, from one pass over the code points (a fraction of a second).
"""

from __future__ import annotations

import bisect
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

__all__ = [
    "ANY",
    "ASCII_CLASSES",
    "CharSet",
    "case_fold_set",
    "general_category",
    "perl_digit",
    "perl_space",
    "perl_word",
    "simple_fold_orbit",
]

MAX_CODE_POINT = 0x10FFFF
_SURROGATES = (0xD800, 0xDFFF)

Range = tuple[int, int]


class CharSet:
    """An immutable set of Unicode scalar values, stored as sorted disjoint ranges."""

    __slots__ = ("_starts", "ranges")

    def __init__(self, ranges: Iterable[Range] = (), *, canonical: bool = False) -> None:
        self.ranges: tuple[Range, ...] = tuple(ranges) if canonical else _canonical(ranges)
        self._starts: list[int] | None = None

    @classmethod
    def of(cls, *code_points: int) -> CharSet:
        """The set of the given code points."""
        return cls((cp, cp) for cp in code_points)

    def __contains__(self, cp: int) -> bool:
        starts = self._starts
        if starts is None:
            starts = self._starts = [lo for lo, _ in self.ranges]
        i = bisect.bisect_right(starts, cp) - 1
        return i >= 0 and cp <= self.ranges[i][1]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CharSet) and self.ranges == other.ranges

    def __hash__(self) -> int:
        return hash(self.ranges)

    def __repr__(self) -> str:
        shown = ", ".join(f"{lo:X}-{hi:X}" if lo != hi else f"{lo:X}" for lo, hi in self.ranges[:8])
        more = ", ..." if len(self.ranges) > 8 else ""
        return f"CharSet({shown}{more})"

    def __bool__(self) -> bool:
        return bool(self.ranges)

    def size(self) -> int:
        """The number of code points in the set."""
        return sum(hi - lo + 1 for lo, hi in self.ranges)

    def single(self) -> int | None:
        """The one code point of a one-element set, else None."""
        if len(self.ranges) == 1 and self.ranges[0][0] == self.ranges[0][1]:
            return self.ranges[0][0]
        return None

    def is_ascii(self) -> bool:
        """Whether every member is ASCII (an empty set is)."""
        return not self.ranges or self.ranges[-1][1] <= 0x7F

    def union(self, other: CharSet) -> CharSet:
        return CharSet(self.ranges + other.ranges)

    def negate(self) -> CharSet:
        """The scalar values not in the set."""
        out: list[Range] = []
        nxt = 0
        for lo, hi in self.ranges:
            if lo > nxt:
                out.append((nxt, lo - 1))
            nxt = hi + 1
        if nxt <= MAX_CODE_POINT:
            out.append((nxt, MAX_CODE_POINT))
        return CharSet(out)

    def intersect(self, other: CharSet) -> CharSet:
        out: list[Range] = []
        a, b = self.ranges, other.ranges
        i = j = 0
        while i < len(a) and j < len(b):
            lo = max(a[i][0], b[j][0])
            hi = min(a[i][1], b[j][1])
            if lo <= hi:
                out.append((lo, hi))
            if a[i][1] < b[j][1]:
                i += 1
            else:
                j += 1
        return CharSet(out, canonical=True)

    def difference(self, other: CharSet) -> CharSet:
        return self.intersect(other.negate())

    def symmetric_difference(self, other: CharSet) -> CharSet:
        return self.union(other).difference(self.intersect(other))


def _canonical(ranges: Iterable[Range]) -> tuple[Range, ...]:
    """Sort, merge overlapping or adjacent ranges, and drop the surrogates."""
    out: list[list[int]] = []
    for lo, hi in sorted(ranges):
        if out and lo <= out[-1][1] + 1:
            out[-1][1] = max(out[-1][1], hi)
        else:
            out.append([lo, hi])
    result: list[Range] = []
    s_lo, s_hi = _SURROGATES
    for lo, hi in out:
        if hi < s_lo or lo > s_hi:
            result.append((lo, hi))
            continue
        if lo < s_lo:
            result.append((lo, s_lo - 1))
        if hi > s_hi:
            result.append((s_hi + 1, hi))
    return tuple(result)


ANY = CharSet([(0, MAX_CODE_POINT)])

# POSIX classes of Rust's `[[:name:]]`: ASCII only, whatever the Unicode flag.
ASCII_CLASSES: dict[str, CharSet] = {
    "alnum": CharSet([(0x30, 0x39), (0x41, 0x5A), (0x61, 0x7A)]),
    "alpha": CharSet([(0x41, 0x5A), (0x61, 0x7A)]),
    "ascii": CharSet([(0x00, 0x7F)]),
    "blank": CharSet([(0x09, 0x09), (0x20, 0x20)]),
    "cntrl": CharSet([(0x00, 0x1F), (0x7F, 0x7F)]),
    "digit": CharSet([(0x30, 0x39)]),
    "graph": CharSet([(0x21, 0x7E)]),
    "lower": CharSet([(0x61, 0x7A)]),
    "print": CharSet([(0x20, 0x7E)]),
    "punct": CharSet([(0x21, 0x2F), (0x3A, 0x40), (0x5B, 0x60), (0x7B, 0x7E)]),
    "space": CharSet([(0x09, 0x0D), (0x20, 0x20)]),
    "upper": CharSet([(0x41, 0x5A)]),
    "word": CharSet([(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)]),
    "xdigit": CharSet([(0x30, 0x39), (0x41, 0x46), (0x61, 0x66)]),
}

# Unicode's White_Space property (stable since Unicode 6.3): Rust's `\s`.
_WHITE_SPACE = CharSet(
    [
        (0x09, 0x0D),
        (0x20, 0x20),
        (0x85, 0x85),
        (0xA0, 0xA0),
        (0x1680, 0x1680),
        (0x2000, 0x200A),
        (0x2028, 0x2029),
        (0x202F, 0x202F),
        (0x205F, 0x205F),
        (0x3000, 0x3000),
    ]
)

# The code points of Other_Alphabetic that are not marks: circled and squared Latin letters
# (category So). Rust's `\w` is Alphabetic + Mark + Decimal_Number + Connector_Punctuation +
# Join_Control; every other Other_Alphabetic code point is a mark, so this completes it.
_ALPHABETIC_SYMBOLS = CharSet(
    [(0x24B6, 0x24E9), (0x1F130, 0x1F149), (0x1F150, 0x1F169), (0x1F170, 0x1F189)]
)
_JOIN_CONTROL = CharSet([(0x200C, 0x200D)])

_CATEGORIES = [
    "Cc",
    "Cf",
    "Cn",
    "Co",
    "Cs",
    "Ll",
    "Lm",
    "Lo",
    "Lt",
    "Lu",
    "Mc",
    "Me",
    "Mn",
    "Nd",
    "Nl",
    "No",
    "Pc",
    "Pd",
    "Pe",
    "Pf",
    "Pi",
    "Po",
    "Ps",
    "Sc",
    "Sk",
    "Sm",
    "So",
    "Zl",
    "Zp",
    "Zs",
]


@lru_cache(maxsize=1)
def _category_ranges() -> dict[str, list[Range]]:
    """The ranges of every two-letter general category, from one pass over the code points."""
    table: dict[str, list[Range]] = {name: [] for name in _CATEGORIES}
    category = unicodedata.category
    start = 0
    current = category("\0")
    for cp in range(1, MAX_CODE_POINT + 1):
        name = category(chr(cp))
        if name != current:
            table[current].append((start, cp - 1))
            start, current = cp, name
    table[current].append((start, MAX_CODE_POINT))
    return table


@lru_cache(maxsize=64)
def general_category(names: str) -> CharSet:
    """The union of the two-letter categories whose names start with one of ``names``' letters.

    ``names`` is a space-separated list of category names, one or two letters each
    (``"L"`` is every letter category, ``"Lu Ll Lt"`` three of them).
    """
    table = _category_ranges()
    ranges: list[Range] = []
    for name in names.split():
        for full, found in table.items():
            if full.startswith(name):
                ranges.extend(found)
    return CharSet(ranges)


def perl_digit() -> CharSet:
    """Rust's Unicode ``\\d``: Decimal_Number."""
    return general_category("Nd")


def perl_space() -> CharSet:
    """Rust's Unicode ``\\s``: White_Space."""
    return _WHITE_SPACE


@lru_cache(maxsize=1)
def perl_word() -> CharSet:
    """Rust's Unicode ``\\w``.

    It is Alphabetic, Mark, Decimal_Number, Connector_Punctuation and Join_Control. Alphabetic
    is the letters (L), the letter numbers (Nl) and Other_Alphabetic, which is marks (in M
    already) and the few symbols of ``_ALPHABETIC_SYMBOLS``.
    """
    return general_category("L M Nd Nl Pc").union(_ALPHABETIC_SYMBOLS).union(_JOIN_CONTROL)


def _simple_fold(ch: str) -> str:
    """Unicode simple case folding (CaseFolding.txt statuses C and S) of one character.

    ``str.casefold`` is the full folding (C and F); where it gives several characters, the
    simple folding (S) is the simple lowercase mapping when there is one, else the character.
    """
    folded = ch.casefold()
    if len(folded) == 1:
        return folded
    lower = ch.lower()
    return lower if len(lower) == 1 else ch


# No cased character lies above U+1FFFF in any Unicode version so far (a test checks the
# running Python), so the folding table scans the first two planes only.
_CASED_LIMIT = 0x20000


# Simple foldings Unicode 15.1 added (status S) to characters whose full folding already
# existed; neither str.casefold nor str.lower reveals them, in any Python version.
_ADDED_SIMPLE_FOLDS = {0x1FD3: 0x0390, 0x1FE3: 0x03B0, 0xFB05: 0xFB06}


@lru_cache(maxsize=1)
def _fold_orbits() -> tuple[list[int], dict[int, tuple[int, ...]]]:
    """Every code point whose simple case folding orbit has another member, and that orbit."""
    groups: dict[str, list[int]] = {}
    for cp in range(_CASED_LIMIT):
        ch = chr(cp)
        folded = chr(_ADDED_SIMPLE_FOLDS[cp]) if cp in _ADDED_SIMPLE_FOLDS else _simple_fold(ch)
        if folded != ch:
            groups.setdefault(folded, [ord(folded)]).append(cp)
    orbits: dict[int, tuple[int, ...]] = {}
    for members in groups.values():
        orbit = tuple(sorted(set(members)))
        for cp in orbit:
            orbits[cp] = orbit
    return sorted(orbits), orbits


def simple_fold_orbit(cp: int) -> tuple[int, ...]:
    """The code points equal to ``cp`` under simple case folding (``cp`` included)."""
    return _fold_orbits()[1].get(cp, (cp,))


def case_fold_set(charset: CharSet) -> CharSet:
    """The set closed under simple case folding, as Rust's ``(?i)`` applies it to a class."""
    keys, orbits = _fold_orbits()
    extra: list[Range] = []
    for lo, hi in charset.ranges:
        first = bisect.bisect_left(keys, lo)
        last = bisect.bisect_right(keys, hi)
        for cp in keys[first:last]:
            extra.extend((member, member) for member in orbits[cp])
    return charset.union(CharSet(extra)) if extra else charset
