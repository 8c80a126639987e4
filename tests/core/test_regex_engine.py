"""The linear-time regex engine of ``where_document``'s ``$regex``: Rust semantics, bounded time.

Three kinds of evidence: a hypothesis comparison with Python's ``re`` on the syntax both share
and where both mean the same thing; tables of Rust's behaviour where the two differ (each
measured against Chroma 1.5.9, whose ``$regex`` runs Rust's ``regex`` crate; the fidelity suite
re-checks them live, ``tests/fidelity/test_where_document.py``); and the algorithm's bounds,
checked on its counters, never on wall-clock time.

Known differences with Python's ``re``, kept out of the comparison: ``$`` (Rust: end of text
only; Python: also before a final newline, so the comparison writes it ``\\Z`` for ``re``);
``\\s`` (Python also matches ``\\x1c``-``\\x1f``); ``\\w`` and ``\\b`` (Rust: Alphabetic, marks,
decimal digits, connector punctuation, join controls; Python: ``str.isalnum`` and ``_``, e.g.
``²`` is a word character only in Python, a combining accent only in Rust); ``(?i)`` (Rust:
simple case folding; Python: its own tables), flags after the start, stacked repetitions
(``a**``), ``(?x)`` inside classes, set operations in classes, ``\\z``/``\\Z``.
"""

from __future__ import annotations

import random
import re
import threading

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from placeborag_core.filters.regex import Regex, RegexError, compile_regex, dfa, nfa
from placeborag_core.filters.regex.charset import simple_fold_orbit

# ----------------------------------------------------------------------------- vs Python re

_ATOMS = ["a", "b", "c", "x", " ", "é", "1", "\\.", ".", "\\d", "\\w", "\\W", "\\D", "\\b"]
_ATOMS += ["\\B", "[abc]", "[a-c]", "[^a]", "[^ab\\s]", "[é1]", "\\n", "^", "$", "\\A"]
_QUANTIFIERS = ["", "", "", "*", "+", "?", "{2}", "{1,3}", "{0,2}", "{2,}", "*?", "+?", "??"]
_TEXT = st.text(alphabet="abcx é1.\nAB_-", min_size=1, max_size=14)  # re's \\B never matches ""


@st.composite
def _patterns(draw: st.DrawFn, depth: int = 0, multiline: bool | None = None) -> tuple[str, str]:
    """A pattern in Rust syntax and the same pattern for Python's ``re``.

    Without ``(?m)``, Rust's ``$`` is the end of the text (Python's ``\\Z``; Python's ``$`` also
    matches before a final newline); with it, both mean the end of a line or of the text.
    """
    flag = ""
    if multiline is None:
        flag = draw(st.sampled_from(["", "", "(?m)", "(?s)", "(?i)", "(?ms)"]))
        multiline = "m" in flag
    rust, python = [], []
    for _ in range(draw(st.integers(1, 4))):
        if depth < 2 and draw(st.integers(0, 5)) == 0:
            inner_rust, inner_python = draw(_patterns(depth + 1, multiline))
            opener = draw(st.sampled_from(["(", "(?:", "(?i:"]))
            atom_rust, atom_python = f"{opener}{inner_rust})", f"{opener}{inner_python})"
        else:
            atom_rust = draw(st.sampled_from(_ATOMS))
            atom_python = "\\Z" if atom_rust == "$" and not multiline else atom_rust
        is_look = atom_rust in ("\\b", "\\B", "^", "$", "\\A")
        quantifier = "" if is_look else draw(st.sampled_from(_QUANTIFIERS))
        rust.append(atom_rust + quantifier)
        python.append(atom_python + quantifier)
    rust_text, python_text = "".join(rust), "".join(python)
    if draw(st.integers(0, 4)) == 0:
        other_rust, other_python = (
            draw(_patterns(depth + 1, multiline)) if depth < 2 else ("b", "b")
        )
        rust_text, python_text = f"{rust_text}|{other_rust}", f"{python_text}|{other_python}"
    if depth == 0:
        # Python and Rust fold the same way on this alphabet (Rust's (?i) inside a class also
        # adds the Kelvin sign etc., which the texts never hold).
        rust_text, python_text = flag + rust_text, flag + python_text
    return rust_text, python_text


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_patterns(), st.lists(_TEXT, min_size=1, max_size=6))
def test_agrees_with_python_re_where_both_mean_the_same(
    patterns: tuple[str, str], texts: list[str]
) -> None:
    rust, python = patterns
    ours = Regex(rust)
    theirs = re.compile(python)
    for text in texts:
        assert ours.is_match(text) == (theirs.search(text) is not None), (rust, text)


# ----------------------------------------------------------------------------- Rust semantics

# (pattern, text, Rust's answer): each measured with Chroma 1.5.9's $regex.
RUST: list[tuple[str, str, bool]] = [
    ("a$", "a\n", False),  # $ is the end of the text
    ("(?m)a$", "a\n", True),
    ("(?m)^b", "a\nb", True),
    ("(?mR)^y", "x\r\ny", True),
    ("(?mR)x$", "x\r\ny", True),
    ("(?R).", "\r", False),
    ("(?s).", "\n", True),
    (".", "\n", False),
    ("\\w", "\u0301", True),  # a combining accent is a word character in Rust
    ("\\w", "²", False),  # a superscript digit is not
    ("\\w", "\u24b6", True),  # a circled letter is (Other_Alphabetic)
    ("\\w", "\u200d", True),  # zero width joiner (Join_Control)
    ("\\s", "\x1c", False),
    ("\\s", "\u2003", True),
    ("\\d", "٣", True),
    ("(?i)k", "\u212a", True),  # the Kelvin sign folds to k
    ("(?i)s", "\u017f", True),  # long s
    ("(?i)ß", "ẞ", True),
    ("(?i)ss", "ß", False),  # simple folding only
    ("(?i)\u03c3", "\u03c2", True),  # sigma, final sigma
    ("(?i)\u03b9", "\u1fbe", True),  # iota, prosgegrammeni
    ("(?i)i", "İ", False),
    ("(?i)\\x{390}", "\u1fd3", True),  # a simple folding Unicode 15.1 added
    ("(?i)[^k]", "\u212a", False),  # folded, then negated
    ("(?i)\\P{Lu}", "a", False),
    ("(?i)[[:upper:]]", "\u212a", True),
    ("a(?i)b|a", "A", True),  # flags hold to the end of the group, across |
    ("(?:a(?i)b)|a", "A", False),
    ("(?i:a)b", "AB", False),
    ("\\bwindow\\b", "windowsill", False),
    ("\\Bow", "window", True),
    ("\\<a", "ba", False),
    ("a\\>", "ab", False),
    ("\\b{start}a", "a", True),
    ("\\b{end-half}", "a", True),
    ("(?-u)\\b", "é", False),
    ("(?-u)\\B", "aéa", False),
    ("a**", "b", True),
    ("^*", "", True),
    ("[a-c&&b]", "a", False),
    ("[a-c--b]", "b", False),
    ("[a-c~~b-z]", "z", True),
    ("[]a]", "]", True),
    ("[:alpha:]", ":", True),
    ("[[:alpha:]]", ":", False),
    ("[ab]|[a&&b]", "b", True),  # the empty class disappears in the union
    ("[a&&b]{0}", "", True),
    ("(?x) a b # comment", "ab", True),
    ("(?x)[a b]", " ", False),
    ("(?x)a\\ b", "a b", True),
    ("\\pL", "é", True),
    ("\\p{ lu }", "É", True),
    ("\\p{gc=Nd}", "٣", True),
    ("\\p{isL}", "x", True),
    ("[ab]|\\P{Any}", "a", True),
    ("\\x{1F600}", "\U0001f600", True),
    ("\\u00e9", "é", True),
    ("(?<name>a)(?P<other>b)", "ab", True),
    ("a{ 2 , 3 }", "aa", True),
    ("\\b{2}", "a", True),
    ("(?-u)é", "é", True),
    ("(?-u:[ab]|[cd])", "c", True),
]


@pytest.mark.parametrize(("pattern", "text", "expected"), RUST)
def test_follows_rust_where_python_differs(pattern: str, text: str, expected: bool) -> None:
    assert compile_regex(pattern).is_match(text) is expected


_SPECIAL = (
    "unrecognized special word boundary assertion, valid choices are: start, end, start-half "
    "or end-half"
)
_UNSUPPORTED = (
    "Unicode property not found or not supported (placeborag's engine knows the general "
    "categories, White_Space, Any, ASCII and Assigned)"
)

# (pattern, Rust's message (ours where Chroma's differs or we refuse), position)
ERRORS: list[tuple[str, str, int | None]] = [
    ("(", "unclosed group", 0),
    ("a)", "unopened group", 1),
    ("(?=a)", "look-around, including look-ahead and look-behind, is not supported", 0),
    ("(?<!a)b", "look-around, including look-ahead and look-behind, is not supported", 0),
    ("(a)\\1", "backreferences are not supported", 3),
    ("(?P<n>a)(?P=n)", "unrecognized flag", 10),
    ("(?#c)", "unrecognized flag", 2),
    ("*a", "repetition operator missing expression", 0),
    ("a|*", "repetition operator missing expression", 2),
    ("(?i)*", "repetition operator missing expression", 4),
    ("(?)", "repetition operator missing expression", 1),
    ("a{,3}", "repetition quantifier expects a valid decimal", 2),
    ("a{2,1}", "invalid repetition count range, the start must be <= the end", 1),
    ("a{", "unclosed counted repetition", 1),
    ("a{2", "unclosed counted repetition", 1),
    ("x{4294967296}", "decimal literal invalid", 2),
    ("[ab", "unclosed character class", 0),
    ("[]", "unclosed character class", 0),
    ("[z-a]", "invalid character class range, the start must be <= the end", 1),
    ("[a-\\d]", "invalid range boundary, must be a literal", 3),
    ("[\\b]", "invalid escape sequence found in character class", 1),
    ("\\Z", "unrecognized escape sequence", 0),
    ("\\é", "unrecognized escape sequence", 0),
    ("\\x4", "incomplete escape sequence, reached end of pattern prematurely", 3),
    ("\\x{}", "hexadecimal literal empty", 2),
    ("\\x{D800}", "hexadecimal literal is not a Unicode scalar value", 3),
    ("\\p{Cs}", "Unicode property value not found", 0),
    ("\\b{x}", _SPECIAL, 3),
    ("(?P<1n>a)", "invalid capture group character", 4),
    ("(?P<>a)", "empty capture group name", 4),
    ("(?P<n>a)(?P<n>b)", "duplicate capture group name", 12),
    ("(?ii)", "duplicate flag", 3),
    ("(?i-)", "dangling flag negation operator", 3),
    ("(?a)", "unrecognized flag", 2),
    ("(?i", "expected flag but got end of regex", 3),
    ("(?-u).", "pattern can match invalid UTF-8", 5),
    ("(?-u)\\xFF", "pattern can match invalid UTF-8", 5),
    ("(?-u:[é])", "Unicode not allowed here", 6),
    ("(?-u)\\pL", "Unicode not allowed here", 5),
    (
        "[a&&b]",
        "a class that matches nothing is rejected by Chroma ('Byte pattern is not allowed')",
        None,
    ),
    (
        "a|[a&&b]",
        "a class that matches nothing is rejected by Chroma ('Byte pattern is not allowed')",
        None,
    ),
    (
        "(?-u)\\w",
        "a byte class (under (?-u)) is rejected by Chroma ('Byte pattern is not allowed')",
        None,
    ),
    ("\\p{Greek}", _UNSUPPORTED, 0),
    ("a\ud800", "lone surrogate in the pattern (not encodable as UTF-8)", 1),
    (
        "(" * 251 + "a" + ")" * 251,
        "exceed the maximum number of nested parentheses/brackets (250)",
        250,
    ),
]


@pytest.mark.parametrize(("pattern", "message", "position"), ERRORS)
def test_rejects_what_rust_rejects_with_its_wording(
    pattern: str, message: str, position: int | None
) -> None:
    with pytest.raises(RegexError) as raised:
        Regex(pattern)
    assert raised.value.message == message
    assert raised.value.position == position


def test_the_nesting_limit_is_rusts() -> None:
    assert Regex("(" * 250 + "a" + ")" * 250).is_match("a")


def test_the_size_limit_is_explicit() -> None:
    Regex("a{99999}")
    with pytest.raises(RegexError, match=r"needs 100001 states, more than the limit of 100000"):
        Regex("(?:a{1000}){100}")
    with pytest.raises(RegexError, match="limit of 100000"):
        Regex("a{4294967295}")


# ----------------------------------------------------------------------------- bounded time

CATASTROPHIC = [
    "(a+)+$",
    "(a|a)*b",
    "(a*)*b",
    "(x+x+)+y",
    "(\\w+\\s?)*$",
    "(a|aa)+$",
    "^(a?){30}a{30}$",
]


@pytest.mark.parametrize("pattern", CATASTROPHIC)
@pytest.mark.parametrize("length", [29, 1000, 20_000])
def test_catastrophic_patterns_cost_a_transition_per_character_at_most(
    pattern: str, length: int
) -> None:
    text = ("a" * length) + "!"
    regex = Regex(pattern)
    regex.is_match(text)
    # each character costs one memoised look-up, plus at most one transition computation (O(m))
    assert regex.dfa.computed <= len(text) + 1
    # and the automaton these patterns need is tiny: the transitions are computed once
    assert regex.dfa.computed <= 80
    assert regex.dfa.flushes == 0


def test_a_pattern_with_an_exponential_dfa_stays_linear(monkeypatch: pytest.MonkeyPatch) -> None:
    # [ab]*a[ab]{12}: the DFA needs 2**13 states; with the memo capped at 100 it is emptied and
    # rebuilt, at most one transition computation per character, and the answer is unchanged.
    monkeypatch.setattr(dfa, "MAX_DFA_STATES", 100)
    rng = random.Random(3)
    text = "".join(rng.choice("ab") for _ in range(5_000)) + "b" * 12
    regex = Regex("[ab]*a[ab]{12}c|zz")
    assert regex.is_match(text) is False
    assert regex.dfa.flushes > 0
    assert regex.dfa.computed <= len(text) + 1
    assert regex.dfa.states <= 100
    assert Regex("a[ab]{12}$").is_match(text[:-12] + "a" + "b" * 12) is True


def test_threads_share_a_compiled_pattern(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dfa, "MAX_DFA_STATES", 50)
    regex = Regex("a[ab]{8}b")
    rng = random.Random(5)
    texts = ["".join(rng.choice("ab") for _ in range(300)) for _ in range(40)]
    expected = [re.search("a[ab]{8}b", t) is not None for t in texts]
    failures: list[str] = []

    def work() -> None:
        for _ in range(5):
            if [regex.is_match(t) for t in texts] != expected:
                failures.append("mismatch")

    threads = [threading.Thread(target=work) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures


# ----------------------------------------------------------------------------- fast paths


def test_a_plain_literal_is_a_substring_test() -> None:
    regex = Regex("refund")
    assert regex.prefilter.literal == "refund"
    assert regex.is_match("a refund")
    assert not regex.is_match("Refund")


@pytest.mark.parametrize("pattern", ["(?i)refund", "refund|return|invoice", "[Rr]ef(?:und|er)"])
def test_exact_prefix_searches_are_backtracking_free(pattern: str) -> None:
    # the re pattern is an alternation of fixed sequences of one-character classes: no
    # quantifier, no nested group, so re has nothing to backtrack into (linear time)
    regex = Regex(pattern)
    assert regex.prefilter.exact
    search = regex.prefilter.search
    assert search is not None
    source = search.__self__.pattern  # type: ignore[attr-defined]
    assert source.startswith("(?:")
    assert source.endswith(")")
    assert not re.search(r"(?<!\\)[*+?{]|\(", source[3:])


def test_a_required_literal_rejects_texts_early() -> None:
    regex = Regex(r"\b\d{2}\s+days\b")
    assert regex.prefilter.required == "days"
    assert regex.is_match("within 30 days.")
    assert not regex.is_match("within 30 weeks")


def test_prefix_skipping_gives_the_dfa_answer() -> None:
    rng = random.Random(11)
    for _ in range(200):
        text = "".join(rng.choice("ab1 \n") for _ in range(rng.randint(0, 30)))
        for pattern in (r"\b1\d?b", r"a1+\b", r"(?m)^b1", r"ba|1 a"):
            ours = Regex(pattern)
            plain = Regex(pattern)
            plain.dfa.skip = None
            plain._required = None
            assert ours.is_match(text) == plain.is_match(text), (pattern, text)


# ----------------------------------------------------------------------------- Unicode tables


def test_no_cased_character_lies_beyond_the_folding_scan() -> None:
    # the case folding table scans U+0000..U+1FFFF: nothing above is cased in this Python
    start = 0x20000
    cased = [
        cp
        for cp in range(start, 0x110000)
        if chr(cp).lower() != chr(cp) or chr(cp).upper() != chr(cp) or chr(cp).casefold() != chr(cp)
    ]
    assert cased == []


def test_case_folding_orbits() -> None:
    assert set(simple_fold_orbit(ord("k"))) == {ord("k"), ord("K"), 0x212A}
    assert set(simple_fold_orbit(0x3B9)) == {0x345, 0x399, 0x3B9, 0x1FBE}  # iota
    assert simple_fold_orbit(0x131) == (0x131,)  # dotless i


def test_nfa_states_bound() -> None:
    assert nfa.MAX_STATES == 100_000
