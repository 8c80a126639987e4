"""From syntax tree to :mod:`~placeborag_core.filters.regex.hir`, applying the flags, after
Rust's ``regex_syntax::hir::translate``.

Flags set by ``(?flags)`` hold until the end of the enclosing group, across ``|`` (so in
``a(?i)b|c`` the ``c`` is case-insensitive too); ``(?flags:...)`` holds inside its group. Under
``(?i)`` a literal or a class is closed under Unicode simple case folding (``k`` also matches
the Kelvin sign U+212A, ``s`` the long s U+017F); in a bracketed class the operands of ``&&``,
``--`` and ``~~`` are folded before the operation and a class is folded before it is negated, as
in Rust. Unicode classes are the general categories (``\\pL``, ``\\p{Lu}``, ``\\p{gc=Nd}``, long
names and loose matching included), ``White_Space``, ``Any``, ``ASCII`` and ``Assigned``; other
properties (scripts, other binary properties) are rejected rather than approximated.

Under ``(?-u)`` Rust works on bytes: what could match invalid UTF-8 (``.``, a negated class,
``\\xFF``) is an error, and so is a Unicode class or a non-ASCII character in a class; what is
left is an ASCII byte class, which Chroma then refuses ("Byte pattern is not allowed") unless it
is a single character. The engine mirrors those outcomes.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from placeborag_core.filters.regex import hir
from placeborag_core.filters.regex.charset import (
    ANY,
    ASCII_CLASSES,
    CharSet,
    case_fold_set,
    general_category,
    perl_digit,
    perl_space,
    perl_word,
    simple_fold_orbit,
)
from placeborag_core.filters.regex.syntax import (
    AsciiClass,
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
    PerlClass,
    Range,
    RegexError,
    Repetition,
    UnicodeClass,
)

__all__ = ["translate"]

_NOT_UTF8 = "pattern can match invalid UTF-8"
_NO_UNICODE = "Unicode not allowed here"
_ASCII_PERL = {"d": "digit", "s": "space", "w": "word"}

# General category values and their aliases, normalised (Unicode's PropertyValueAliases.txt),
# mapped to the two-letter categories they cover.
_GENERAL_CATEGORIES: dict[str, str] = {}
for _names, _cats in [
    ("c other", "Cc Cf Cn Co"),
    ("cc control cntrl", "Cc"),
    ("cf format", "Cf"),
    ("cn unassigned", "Cn"),
    ("co privateuse", "Co"),
    ("l letter", "L"),
    ("lc casedletter", "Lu Ll Lt"),
    ("ll lowercaseletter", "Ll"),
    ("lm modifierletter", "Lm"),
    ("lo otherletter", "Lo"),
    ("lt titlecaseletter", "Lt"),
    ("lu uppercaseletter", "Lu"),
    ("m mark combiningmark", "M"),
    ("mc spacingmark", "Mc"),
    ("me enclosingmark", "Me"),
    ("mn nonspacingmark", "Mn"),
    ("n number", "N"),
    ("nd decimalnumber digit", "Nd"),
    ("nl letternumber", "Nl"),
    ("no othernumber", "No"),
    ("p punctuation punct", "P"),
    ("pc connectorpunctuation", "Pc"),
    ("pd dashpunctuation", "Pd"),
    ("pe closepunctuation", "Pe"),
    ("pf finalpunctuation", "Pf"),
    ("pi initialpunctuation", "Pi"),
    ("po otherpunctuation", "Po"),
    ("ps openpunctuation", "Ps"),
    ("s symbol", "S"),
    ("sc currencysymbol", "Sc"),
    ("sk modifiersymbol", "Sk"),
    ("sm mathsymbol", "Sm"),
    ("so othersymbol", "So"),
    ("z separator", "Z"),
    ("zl lineseparator", "Zl"),
    ("zp paragraphseparator", "Zp"),
    ("zs spaceseparator", "Zs"),
]:
    for _name in _names.split():
        _GENERAL_CATEGORIES[_name] = _cats
_SURROGATE_NAMES = ("cs", "surrogate")
_WHITE_SPACE_NAMES = ("whitespace", "wspace", "space")
_UNSUPPORTED = (
    "Unicode property not found or not supported (placeborag's engine knows the general "
    "categories, White_Space, Any, ASCII and Assigned)"
)


@dataclass(frozen=True)
class _Flags:
    case_insensitive: bool = False
    multi_line: bool = False
    dot_all: bool = False
    unicode: bool = True
    crlf: bool = False

    def apply(self, flags: Flags) -> _Flags:
        names = {"i": "case_insensitive", "m": "multi_line", "s": "dot_all", "u": "unicode"}
        names["R"] = "crlf"
        changes = {names[f]: on for f, on in flags.items if f in names}
        return replace(self, **changes)


def _normalise(name: str) -> str:
    """Rust's ``symbolic_name_normalize``: drop an ``is`` prefix, spaces, ``_`` and ``-``."""
    starts_with_is = name[:2].lower() == "is"
    body = name[2:] if starts_with_is else name
    out = "".join(c.lower() for c in body if c.isascii() and c not in " _-")
    return "isc" if starts_with_is and out == "c" else out


def _category(normalised: str) -> CharSet | None:
    if normalised == "any":
        return ANY
    if normalised == "ascii":
        return CharSet([(0, 0x7F)])
    if normalised == "assigned":
        return general_category("Cn").negate()
    names = _GENERAL_CATEGORIES.get(normalised)
    return general_category(names) if names else None


def unicode_property(ast: UnicodeClass) -> CharSet:
    """The code points of ``\\p{...}`` (before negation), or :class:`RegexError`."""
    if ast.op:
        prop, value = _normalise(ast.name), _normalise(ast.value)
        if prop in ("gc", "generalcategory"):
            if value in _SURROGATE_NAMES:
                raise RegexError("Unicode property value not found", ast.position)
            found = _category(value)
            if found is None:
                raise RegexError("Unicode property value not found", ast.position)
            return found
        raise RegexError(_UNSUPPORTED, ast.position)
    name = _normalise(ast.name)
    if name in _WHITE_SPACE_NAMES:
        return perl_space()
    if name in _SURROGATE_NAMES:
        raise RegexError("Unicode property value not found", ast.position)
    found = _category(name)
    if found is None:
        raise RegexError(_UNSUPPORTED, ast.position)
    return found


def _perl(kind: str, unicode: bool) -> CharSet:
    if not unicode:
        return ASCII_CLASSES[_ASCII_PERL[kind]]
    if kind == "d":
        return perl_digit()
    return perl_space() if kind == "s" else perl_word()


def _ascii_fold(chars: CharSet) -> CharSet:
    upper = chars.intersect(CharSet([(0x41, 0x5A)]))
    lower = chars.intersect(CharSet([(0x61, 0x7A)]))
    shifted = [(lo + 32, hi + 32) for lo, hi in upper.ranges]
    shifted += [(lo - 32, hi - 32) for lo, hi in lower.ranges]
    return chars.union(CharSet(shifted))


class _Translator:
    def __init__(self) -> None:
        self.flags = _Flags()

    def fold(self, chars: CharSet) -> CharSet:
        if not self.flags.case_insensitive:
            return chars
        return case_fold_set(chars) if self.flags.unicode else _ascii_fold(chars)

    def fold_and_negate(self, chars: CharSet, negated: bool, position: int) -> CharSet:
        chars = self.fold(chars)
        if negated:
            chars = chars.negate()
        if not self.flags.unicode and not chars.is_ascii():
            raise RegexError(_NOT_UTF8, position)
        return chars

    def translate(self, ast: Ast) -> hir.Hir:
        if isinstance(ast, Empty):
            return hir.Nothing()
        if isinstance(ast, Flags):
            self.flags = self.flags.apply(ast)
            return hir.Nothing()
        if isinstance(ast, Literal):
            return self.literal(ast)
        if isinstance(ast, Dot):
            return self.dot(ast)
        if isinstance(ast, Assertion):
            return hir.Look(self.look(ast.kind))
        if isinstance(ast, PerlClass):
            return self.perl_class(ast)
        if isinstance(ast, UnicodeClass):
            if not self.flags.unicode:
                raise RegexError(_NO_UNICODE, ast.position)
            chars = self.fold_and_negate(unicode_property(ast), ast.negated, ast.position)
            return hir.char_class(chars)
        if isinstance(ast, Bracketed):
            chars = self.class_set(ast.items)
            chars = self.fold_and_negate(chars, ast.negated, ast.position)
            return hir.char_class(chars, byte=not self.flags.unicode)
        if isinstance(ast, Repetition):
            return hir.repetition(self.translate(ast.sub), ast.min, ast.max)
        if isinstance(ast, Group):
            saved = self.flags
            if ast.flags is not None:
                self.flags = self.flags.apply(ast.flags)
            sub = self.translate(ast.sub)
            self.flags = saved
            return hir.Capture(sub) if ast.capturing else sub
        if isinstance(ast, Concat):
            return hir.concat([self.translate(item) for item in ast.items])
        return hir.alternation([self.translate(item) for item in ast.items])

    def scalar(self, ast: Literal) -> str:
        """The character of a literal; under ``(?-u)`` ``\\x80``-``\\xFF`` would be a lone byte."""
        if not self.flags.unicode and ast.short_hex and ord(ast.char) > 0x7F:
            raise RegexError(_NOT_UTF8, ast.position)
        return ast.char

    def literal(self, ast: Literal) -> hir.Hir:
        char = self.scalar(ast)
        if not self.flags.case_insensitive:
            return hir.literal(char)
        if self.flags.unicode:
            orbit = simple_fold_orbit(ord(char))
            return hir.char_class(CharSet.of(*orbit)) if len(orbit) > 1 else hir.literal(char)
        if not char.isascii():
            return hir.literal(char)
        return hir.char_class(_ascii_fold(CharSet.of(ord(char))), byte=True)

    def dot(self, ast: Dot) -> hir.Hir:
        if not self.flags.unicode:
            raise RegexError(_NOT_UTF8, ast.position)
        if self.flags.dot_all:
            return hir.char_class(ANY)
        excluded = CharSet.of(10, 13) if self.flags.crlf else CharSet.of(10)
        return hir.char_class(excluded.negate())

    def look(self, kind: str) -> str:
        if kind in ("start_line", "end_line"):
            side = "start" if kind == "start_line" else "end"
            if not self.flags.multi_line:
                return side
            return f"{side}_crlf" if self.flags.crlf else f"{side}_lf"
        if kind == "start_text":
            return "start"
        if kind == "end_text":
            return "end"
        return f"{kind}_{'u' if self.flags.unicode else 'a'}"

    def perl_class(self, ast: PerlClass) -> hir.Hir:
        chars = _perl(ast.kind, self.flags.unicode)
        if ast.negated:
            chars = chars.negate()
        if not self.flags.unicode and not chars.is_ascii():
            raise RegexError(_NOT_UTF8, ast.position)
        return hir.char_class(chars, byte=not self.flags.unicode)

    # -- bracketed classes -------------------------------------------------------------------

    def class_set(self, items: ClassSet) -> CharSet:
        if isinstance(items, BinaryOp):
            lhs = self.fold(self.class_set(items.lhs))
            rhs = self.fold(self.class_set(items.rhs))
            if items.op == "&&":
                return lhs.intersect(rhs)
            if items.op == "--":
                return lhs.difference(rhs)
            return lhs.symmetric_difference(rhs)
        result = CharSet()
        for item in items.items:
            result = result.union(self.class_item(item))
        return result

    def class_char(self, ast: Literal) -> int:
        char = self.scalar(ast)
        if not self.flags.unicode and not char.isascii():
            raise RegexError(_NO_UNICODE, ast.position)
        return ord(char)

    def class_item(self, item: ClassItem) -> CharSet:
        if isinstance(item, Literal):
            return CharSet.of(self.class_char(item))
        if isinstance(item, Range):
            return CharSet([(self.class_char(item.start), self.class_char(item.end))])
        if isinstance(item, AsciiClass):
            chars = ASCII_CLASSES[item.name]
            return chars.negate() if item.negated else chars
        if isinstance(item, PerlClass):
            chars = _perl(item.kind, self.flags.unicode)
            chars = chars.negate() if item.negated else chars
            if not self.flags.unicode and not chars.is_ascii():
                raise RegexError(_NOT_UTF8, item.position)
            return chars
        if isinstance(item, UnicodeClass):
            if not self.flags.unicode:
                raise RegexError(_NO_UNICODE, item.position)
            chars = self.fold(unicode_property(item))
            return chars.negate() if item.negated else chars
        if isinstance(item, Bracketed):
            return self.fold_and_negate(self.class_set(item.items), item.negated, item.position)
        return self.class_set(item)


def translate(ast: Ast) -> hir.Hir:
    """The HIR of a parsed pattern (raises :class:`RegexError` where Rust's translator does)."""
    return _Translator().translate(ast)
