"""A linear-time regular-expression matcher with the syntax and semantics of Rust's ``regex``.

Chroma compiles ``where_document`` patterns with Rust's ``regex`` crate (1.12, ``regex-syntax``
0.8), whose engines never backtrack. Python's ``re`` does, so a pattern such as ``(a+)+$``
takes exponential time on a text of a's; this engine, in pure Python on the standard library,
answers the same boolean question Chroma asks (``Regex::is_match``: is there a match anywhere
in the text) in time linear in the text:

* :mod:`.parser` (on :mod:`.scanner`: bracketed classes, :mod:`.escapes` and the
  :mod:`.cursor`) parses the pattern into the tree of :mod:`.syntax` the way ``regex-syntax``
  does, with its error messages;
* :mod:`.translate` applies the flags (``i m s x U u R``), case folding and Unicode classes and
  gives the high-level form of :mod:`.hir`;
* :mod:`.nfa` compiles that to a Thompson NFA of at most :data:`~.nfa.MAX_STATES` states
  (bigger patterns are rejected, naming the limit);
* :mod:`.dfa` searches with a lazily built DFA: **O(m * n) time** for an NFA of m states and a
  text of n characters in the worst case, one dictionary look-up per character once warm, with
  a bounded memo (at most :data:`~.dfa.MAX_DFA_STATES` states; emptied and rebuilt when full);
* :mod:`.prefilter` adds fast paths that keep that bound (a required literal tested with
  ``in``; the pattern's prefixes, searched with Python's ``re`` on a backtracking-free pattern).

What it supports, and where it differs from Rust, is listed in :data:`SUPPORTED`.
"""

from __future__ import annotations

from functools import lru_cache

from placeborag_core.filters.regex import hir
from placeborag_core.filters.regex.dfa import LazyDfa
from placeborag_core.filters.regex.nfa import compile_nfa
from placeborag_core.filters.regex.parser import parse
from placeborag_core.filters.regex.prefilter import analyse
from placeborag_core.filters.regex.syntax import RegexError
from placeborag_core.filters.regex.translate import translate

__all__ = ["SUPPORTED", "Regex", "RegexError", "compile_regex"]

SUPPORTED = """\
Rust regex syntax, as Chroma 1.5.9 (regex 1.12.3, regex-syntax 0.8.10) accepts it: literals and
escapes (\\x7F \\x{..} \\u.. \\u{..} \\U........ \\a \\f \\t \\n \\r \\v, escaped punctuation), `.`,
classes [...] with ranges, negation, nesting, [:ascii:] classes and the && -- ~~ operators,
\\d \\s \\w \\D \\S \\W (Unicode), \\pX \\p{..} \\P{..} (general categories, White_Space, Any,
ASCII, Assigned), anchors ^ $ \\A \\z, word boundaries \\b \\B \\< \\> \\b{start} \\b{end}
\\b{start-half} \\b{end-half}, groups ( ) (?: ) (?P<n> ) (?<n> ), alternation, greedy and lazy
repetitions * + ? {n} {n,} {n,m} (stacked too: a**), flags i m s x U u R, set (?i) or scoped
(?i: ), the nesting limit of 250. Rejected as in Rust: look-around, back-references, \\Z, (?#,
(?>, unknown escapes and flags, unbalanced groups and classes. Rejected as in Chroma: a class
that matches nothing, and byte classes under (?-u).
Differences: Unicode data is the running Python's (3.11: Unicode 14.0; Rust: 16.0); Unicode
scripts and binary properties other than White_Space are rejected; patterns whose automaton
exceeds 100,000 states are rejected (Chroma accepts some of them and fails others at query time
on its 10 MiB size limit); error positions count characters, not bytes.
"""


class Regex:
    """A compiled pattern; :meth:`is_match` answers Rust's ``Regex::is_match``."""

    def __init__(self, pattern: str) -> None:
        self.pattern = pattern
        node = translate(parse(pattern))
        _reject_byte_classes(node)
        self.hir = node
        self.nfa = compile_nfa(node)
        self.prefilter = analyse(node)
        prefilter = self.prefilter
        self._literal = prefilter.literal
        self._required = prefilter.required
        self._exact = prefilter.search if prefilter.exact else None
        skip = None if prefilter.exact else prefilter.search
        self.dfa = LazyDfa(self.nfa, anchored=_anchored(node), skip=skip)

    def __repr__(self) -> str:
        return f"Regex({self.pattern!r})"

    def is_match(self, text: str) -> bool:
        """Whether the pattern matches anywhere in ``text`` (an unanchored search)."""
        if self._literal is not None:
            return self._literal in text
        if self._required is not None and self._required not in text:
            return False
        if self._exact is not None:
            return self._exact(text, 0) is not None
        return self.dfa.is_match(text)


def _anchored(node: hir.Hir) -> bool:
    """Whether every match starts at the start of the text (conservative: False if unsure)."""
    if isinstance(node, hir.Look):
        return node.kind == "start"
    if isinstance(node, hir.Capture):
        return _anchored(node.sub)
    if isinstance(node, hir.Cat):
        return _anchored(node.items[0])
    if isinstance(node, hir.Alt):
        return all(_anchored(item) for item in node.items)
    if isinstance(node, hir.Repeat):
        return node.min >= 1 and _anchored(node.sub)
    return False


def _reject_byte_classes(node: hir.Hir) -> None:
    """Chroma refuses a pattern whose simplified HIR keeps an empty or a byte class."""
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, hir.Chars) and (item.byte or not item.chars):
            what = "a byte class (under (?-u))" if item.chars else "a class that matches nothing"
            raise RegexError(f"{what} is rejected by Chroma ('Byte pattern is not allowed')")
        if isinstance(item, (hir.Cat, hir.Alt)):
            stack.extend(item.items)
        elif isinstance(item, (hir.Repeat, hir.Capture)):
            stack.append(item.sub)


@lru_cache(maxsize=256)
def compile_regex(pattern: str) -> Regex:
    """The compiled :class:`Regex` of ``pattern`` (cached); :class:`RegexError` if invalid."""
    return Regex(pattern)
