"""Probe: Chroma's where_document dialect (operators, validation messages, documents without text).

Measured with chromadb 1.5.9: $contains/$not_contains are case-sensitive substring tests,
$regex/$not_regex unanchored searches; one operator per expression, non-empty str operands,
$and/$or need two or more expressions. A record stored without a document fails $contains and
$regex and passes their negations ($not_contains, $not_regex). Facts ``chroma-document-*`` of
docs/engines/chroma.md. Run: python tests/fidelity/probes/chroma_where_document.py
"""

from _probe import Facts, chroma_client

TWO = "Expected document value for $and or $or to be a list with at least two where document "
EMPTY = "Expected where document operand value for operator {} to be a non-empty str in query."
ONE = "Expected where document to have exactly one operator, got {} in query."
EXPECTED = {  # fact id -> (where_document, ids or (exception name, first line of its message))
    "chroma-document-contains-case": ({"$contains": "refund"}, ["b"]),
    "chroma-document-contains-case-upper": ({"$contains": "Refund"}, ["a"]),
    "chroma-document-not-contains": ({"$not_contains": "refund"}, ["a", "c", "d", "no-doc"]),
    "chroma-document-regex": ({"$regex": "^[Rr]efund"}, ["a", "b"]),
    "chroma-document-not-regex": ({"$not_regex": "^[Rr]efund"}, ["c", "d", "no-doc"]),
    "chroma-document-regex-flags": ({"$regex": "(?i)REFUND"}, ["a", "b"]),
    "chroma-document-and": (
        {"$and": [{"$contains": "efund"}, {"$not_contains": "window"}]},
        ["a"],
    ),
    "chroma-document-or": ({"$or": [{"$contains": "Ship"}, {"$contains": "window"}]}, ["b", "c"]),
    "chroma-document-error-and-single": (
        {"$and": [{"$contains": "efund"}]},
        ("ValueError", TWO + "expressions, got [{'$contains': 'efund'}] in query."),
    ),
    "chroma-document-error-or-empty": (
        {"$or": []},
        ("ValueError", TWO + "expressions, got [] in query."),
    ),
    "chroma-document-error-empty-contains": (
        {"$contains": ""},
        ("ValueError", EMPTY.format("$contains")),
    ),
    "chroma-document-error-empty-regex": ({"$regex": ""}, ("ValueError", EMPTY.format("$regex"))),
    "chroma-document-error-empty-not-regex": (
        {"$not_regex": ""},
        ("ValueError", EMPTY.format("$not_regex")),
    ),
    "chroma-document-error-operand-type": (
        {"$contains": 3},
        (
            "ValueError",
            (
                "Expected where document operand value for operator $contains to be a str, "
                "got 3 in query."
            ),
        ),
    ),
    "chroma-document-error-operator": (
        {"$foo": "x"},
        (
            "ValueError",
            (
                "Expected where document operator to be one of $contains, $not_contains, "
                "$regex, $not_regex, $and, $or, got $foo in query."
            ),
        ),
    ),
    "chroma-document-error-no-operator": ({}, ("ValueError", ONE.format("{}"))),
    "chroma-document-error-two-operators": (
        {"$contains": "a", "$not_contains": "b"},
        ("ValueError", ONE.format("{'$contains': 'a', '$not_contains': 'b'}")),
    ),
    "chroma-document-error-bad-regex": (
        {"$regex": "("},
        ("InvalidArgumentError", "Regex syntax errror: regex parse error:"),
    ),
    "chroma-document-error-not-dict": (
        "refund",
        ("ValueError", "Expected where document to be a dictionary, got refund in query."),
    ),
}

facts = Facts("Chroma where_document", "chromadb")
col = chroma_client().create_collection("where-document-probe", embedding_function=None)
col.add(
    ids=["a", "b", "c", "d"],
    documents=["Refund policy", "refund window", "Shipping", "x"],
    embeddings=[[1.0, 0.0], [0.9, 0.1], [0.0, 1.0], [0.5, 0.5]],
)
col.add(ids=["no-doc"], embeddings=[[1.0, 0.1]])
for fact_id, (where_document, expected) in EXPECTED.items():
    try:
        got = col.query(query_embeddings=[[1.0, 0.0]], n_results=5, where_document=where_document)
        outcome = sorted(got["ids"][0])
        print(where_document, "->", outcome)
    except Exception as error:
        outcome = (type(error).__name__, str(error).splitlines()[0])
        print(where_document, "!!", *outcome)
    facts.check(fact_id, outcome == expected, f"{where_document!r} -> {outcome}")
listed = col.get(where_document={"$contains": "efund"})["ids"]
negated = sorted(col.get(where_document={"$not_contains": "zzz"})["ids"])
print("get $contains efund:", listed)
print("get $not_contains zzz:", negated)
facts.check(
    "chroma-document-get",
    listed == ["a", "b"] and negated == ["a", "b", "c", "d", "no-doc"],
    "get() filters documents the same way; a record without a document passes $not_contains",
)
facts.done()
