"""``where_document`` against the real Chroma: which records pass, and what is rejected, how.

Documents, a record stored without a document, plain and negated substring and regex tests,
``$and``/``$or``, and every malformed expression the probe found
(``probes/chroma_where_document.py``). The one deliberate difference: an invalid pattern raises
``FilterError`` (a ValueError) where Chroma raises its ``InvalidArgumentError``.

Then the regex engine itself (``placeborag_core.filters.regex``) against Chroma's Rust ``regex``:
``PATTERNS`` over ``TEXTS`` (Unicode classes, case folding, word boundaries, anchors and flags,
Rust-only syntax) must select the same records, and ``REJECTED`` must be refused by both.
"""

from __future__ import annotations

from typing import Any

import pytest

from placeborag_core import FakeVectorStore, FilterError

from ._engines import chroma_client, collection_name
from ._params import skip_unless_installed

pytestmark = [pytest.mark.fidelity, skip_unless_installed("chroma")]

IDS = ["a", "b", "c", "d", "e"]
DOCS = ["Refund policy", "refund window", "Shipping 2 days", "naïve café", "x"]
VECTORS = [[1.0, 0.0], [0.9, 0.1], [0.0, 1.0], [0.5, 0.5], [0.2, 0.8]]

EXPRESSIONS: list[Any] = [
    {"$contains": "refund"},
    {"$contains": "Refund"},
    {"$contains": "café"},
    {"$not_contains": "refund"},
    {"$regex": "^[Rr]efund"},
    {"$not_regex": "^[Rr]efund"},
    {"$regex": "(?i)REFUND"},
    {"$regex": r"\d"},
    {"$regex": r"\bwindow$"},
    {"$regex": "p.l"},
    {"$and": [{"$contains": "efund"}, {"$not_contains": "window"}]},
    {"$or": [{"$contains": "Ship"}, {"$contains": "window"}, {"$regex": "é"}]},
    {"$and": [{"$or": [{"$contains": "a"}, {"$contains": "x"}]}, {"$not_regex": "^R"}]},
    {"$and": [{"$contains": "efund"}]},
    {"$or": []},
    {"$contains": ""},
    {"$regex": ""},
    {"$contains": 3},
    {"$contains": ["a"]},
    {"$foo": "x"},
    {},
    {"$contains": "a", "$not_contains": "b"},
    "refund",
]


def _real(where_document: Any) -> tuple[str, Any]:
    collection = chroma_client().create_collection(collection_name(), embedding_function=None)
    collection.add(ids=IDS, documents=DOCS, embeddings=VECTORS)
    collection.add(ids=["no-doc"], embeddings=[[1.0, 0.1]])
    try:
        got = collection.query(
            query_embeddings=[[1.0, 0.0]], n_results=6, where_document=where_document
        )
    except ValueError as error:
        return "error", str(error)
    return "ids", (got["ids"][0], [round(d, 5) for d in got["distances"][0]])


def _ours(where_document: Any) -> tuple[str, Any]:
    store = FakeVectorStore(profile="chroma")
    store.upsert_many(list(zip(IDS, DOCS, [None] * len(IDS), VECTORS, strict=True)))
    store.upsert("no-doc", None, vector=[1.0, 0.1])
    try:
        found = store.query([1.0, 0.0], k=6, where_document=where_document)
    except FilterError as error:
        return "error", str(error)
    return "ids", ([m.id for m in found], [round(m.score, 5) for m in found])


@pytest.mark.parametrize("where_document", EXPRESSIONS, ids=repr)
def test_where_document_agrees_with_chroma(where_document: Any) -> None:
    assert _ours(where_document) == _real(where_document)


def test_an_invalid_pattern_is_rejected_by_both() -> None:
    import chromadb.errors

    with pytest.raises(chromadb.errors.InvalidArgumentError, match="regex parse error"):
        _real({"$regex": "("})
    message = "Regex syntax error: unclosed group at position 0"
    assert _ours({"$regex": "("}) == ("error", f"{message} (pattern '(') in query.")


# The texts the patterns run over: ASCII, Latin-1, Greek, combining marks, the Kelvin sign and
# long s, CRLF and LF line ends, digits of other scripts, and what Python's \w and \s would
# classify differently from Rust's.
TEXTS = [
    "Refund within 30 days",
    "refund window",
    "REFUNDS",
    "naïve café",
    "nai\u0308ve",
    "Ελληνικά σίγμα ς",
    "\u212a kelvin",
    "\u017f long s",
    "Straße STRASSE \u1e9e",
    "line one\nline two",
    "crlf one\r\ncrlf two",
    "ends with newline\n",
    "price: 42\u00a0€",
    "x² + y²",
    "٣ arabic digit",
    "snake_case‿joined",
    "\u24b6 circled",
    "tab\there",
    "file\x1cseparator",
    "windowsill",
    "a-b c.d",
    "(parens) [brackets] {braces}",
]
PATTERNS = [
    "refund",
    "(?i)refund",
    "(?i)REFUND(S)?$",
    r"\bwindow\b",
    r"\Bow",
    r"\<win",
    r"sill\>",
    r"\b{start}c",
    r"\b{end-half}",
    r"^\w+$",
    r"\w+\s\w+$",
    r"\d",
    r"\d{2}\s+days",
    r"\W\d",
    r"\s",
    r"[[:space:]]",
    r"\S+\s\S+\s\S+",
    r"x\w",
    r"\w\u0308",
    r"\p{L}+\s\p{L}+$",
    r"\p{Lu}{2}",
    r"\pN",
    r"\p{No}",
    r"\p{Sc}",
    r"\p{gc=Pc}",
    r"\P{L}\p{Ll}",
    r"(?i)\p{Lu}\p{Lu}\p{Lu}",
    "(?i)k",
    "(?i)s",
    "(?i)ß",
    "(?i)\u03c3",  # sigma
    "(?i)ς",
    "(?i)strasse",
    "(?i)[^a-z ]",
    "(?i)[k-k]",
    "$",
    "newline$",
    "(?m)newline$",
    "(?m)^line two",
    "(?m)one$",
    "(?mR)one$",
    "(?mR)^crlf two",
    "(?s)one.line",
    "one.line",
    "(?R)one.",
    r"\Aline",
    r"two\z",
    "(?x) refund \\ window # comment",
    "(?x)[a b]c",
    "a(?i)F|fUnD",
    "(?i:W)indow",
    "(?U)a+?b",
    "(a+)+$",
    "(?:x|y)²",
    "a**",
    "[a-z&&[^aeiou]]{4}",
    "[[:upper:]--[A-Q]]",
    "[a-c~~b-d]",
    "[]a]",
    r"\x{1e9e}",
    r"\u00e9",
    r"\U0001F600|é",
    r"(?P<word>\w+)\s(?<next>\w+)",
    r"[\p{L}&&\p{Ll}]+",
    r"[ab]|[c&&d]",
    r"\b{2}x",
    r"(?-u)\bwindow",
    r"\[brackets\]",
    r"\{braces\}",
    r"a\-b",
    r"[\d\s]{3}",
]
REJECTED = [
    "(?=a)",
    "(?<!a)b",
    r"(a)\1",
    r"\Z",
    "*a",
    "a{,3}",
    "[z-a]",
    "[a&&b]",
    "a|[a&&b]",
    r"(?-u)\w",
    "(?-u).",
    r"\p{Cs}",
    "(?#comment)",
    "(?P<n>a)(?P<n>b)",
    "(" * 251 + "a" + ")" * 251,
]
# Accepted by Chroma, rejected by the engine on purpose (a clear error rather than a silent
# difference): Unicode scripts and binary properties other than White_Space need tables the
# standard library does not have.
UNSUPPORTED = [r"\p{Greek}", r"[\p{Greek}&&\p{Ll}]+", r"\p{Alphabetic}", r"\p{scx=Latin}"]
_REGEX_COLLECTION: list[Any] = []


def _real_ids(pattern: str) -> set[str] | str:
    if not _REGEX_COLLECTION:
        collection = chroma_client().create_collection(collection_name(), embedding_function=None)
        ids = [str(i) for i in range(len(TEXTS))]
        collection.add(
            ids=ids, documents=TEXTS, embeddings=[[1.0, float(i)] for i in range(len(TEXTS))]
        )
        _REGEX_COLLECTION.append(collection)
    try:
        return set(_REGEX_COLLECTION[0].get(where_document={"$regex": pattern})["ids"])
    except Exception as error:  # Chroma raises InvalidArgumentError (or, on size, InternalError)
        return f"rejected: {type(error).__name__}"


def _our_ids(pattern: str) -> set[str] | str:
    store = FakeVectorStore(profile="chroma")
    store.upsert_many([(str(i), t, None, [1.0, float(i)]) for i, t in enumerate(TEXTS)])
    try:
        return {r.id for r in store.select(where_document={"$regex": pattern})}
    except FilterError:
        return "rejected"


@pytest.mark.parametrize("pattern", PATTERNS)
def test_the_regex_engine_selects_what_chroma_selects(pattern: str) -> None:
    assert _our_ids(pattern) == _real_ids(pattern)


@pytest.mark.parametrize("pattern", REJECTED)
def test_the_regex_engine_rejects_what_chroma_rejects(pattern: str) -> None:
    assert _our_ids(pattern) == "rejected"
    assert _real_ids(pattern) == "rejected: InvalidArgumentError"


@pytest.mark.parametrize("pattern", UNSUPPORTED)
def test_what_only_chroma_supports_is_rejected_not_approximated(pattern: str) -> None:
    assert _our_ids(pattern) == "rejected"
    assert isinstance(_real_ids(pattern), set)
