"""Probe: what Chroma's ``where`` filters match, and the errors bad filters and metadata raise.

Covers ``chroma-filter-*``, ``chroma-filter-error-*`` and ``chroma-metadata-*`` of
docs/engines/chroma.md. The records mix a missing key, a record without metadata, a number
stored as a string, int against float, bools and a list value, so that every rule is visible.
get() and query() filter alike (both are checked). Run:
python tests/fidelity/probes/chroma_filters.py
"""

from __future__ import annotations

from _probe import Facts, chroma_client, name, raised

RECORDS = {
    "r1": {"color": "red", "n": 1},
    "r2": {"color": "blue", "n": 5},
    "r3": {"n": 10},
    "r4": {"color": "green"},
    "r5": None,
    "r6": {"color": "red", "n": "5"},
    "r7": {"n": 2.5, "color": "blue"},
    "r8": {"flag": True, "n": 1.0},
    "r9": {"flag": False, "color": ""},
    "r10": {"tags": ["x", "y"]},
}


def main() -> None:
    facts = Facts("Chroma where filters", "chromadb")
    made = chroma_client().create_collection("filters", embedding_function=None)
    made.add(
        ids=list(RECORDS),
        embeddings=[[1.0, float(i)] for i in range(len(RECORDS))],
        metadatas=list(RECORDS.values()),
    )

    def match(where) -> set[str]:
        by_get = set(made.get(where=where)["ids"])
        by_query = set(
            made.query(query_embeddings=[[1.0, 0.0]], n_results=20, where=where)["ids"][0]
        )
        assert by_get == by_query, (where, by_get, by_query)
        return by_get

    def check(fact_id: str, where, expected: set[str], meaning: str) -> None:
        got = match(where)
        facts.check(fact_id, got == expected, f"{where} -> {sorted(got)}: {meaning}")

    check("chroma-filter-eq", {"color": "red"}, {"r1", "r6"}, "a bare value means $eq")
    check("chroma-filter-int-float", {"n": {"$eq": 1}}, {"r1", "r8"}, "int 1 equals float 1.0")
    check("chroma-filter-str-not-number", {"n": {"$eq": "5"}}, {"r6"}, "no str/number coercion")
    check("chroma-filter-bool-not-int", {"flag": {"$eq": 1}}, set(), "bool and int differ")
    check(
        "chroma-filter-ne-missing",
        {"color": {"$ne": "red"}},
        {"r2", "r3", "r4", "r5", "r7", "r8", "r9", "r10"},
        "$ne matches records without the key, and a record without metadata",
    )
    check(
        "chroma-filter-nin-missing",
        {"color": {"$nin": ["red", "green"]}},
        {"r2", "r3", "r5", "r7", "r8", "r9", "r10"},
        "$nin matches records without the key",
    )
    check("chroma-filter-in", {"color": {"$in": ["red", "green"]}}, {"r1", "r4", "r6"}, "$in")
    check(
        "chroma-filter-bounds-skip-str",
        {"n": {"$gte": 5}},
        {"r2", "r3"},
        "numeric bounds silently skip the string '5'",
    )
    check("chroma-filter-bounds-mixed", {"n": {"$gt": 2}}, {"r2", "r3", "r7"}, "int bound vs 2.5")
    check(
        "chroma-filter-and-or",
        {"$or": [{"color": "green"}, {"$and": [{"n": {"$gt": 1}}, {"n": {"$lt": 6}}]}]},
        {"r2", "r4", "r7"},
        "$and/$or nest",
    )
    check(
        "chroma-filter-contains-scalar",
        {"color": {"$contains": "re"}},
        set(),
        "$contains does not look inside a str value",
    )
    check("chroma-filter-array-contains", {"tags": {"$contains": "x"}}, {"r10"}, "list membership")
    check(
        "chroma-filter-array-not-contains",
        {"tags": {"$not_contains": "x"}},
        set(RECORDS) - {"r10"},
        "$not_contains also matches records without the key",
    )
    check(
        "chroma-filter-array-eq",
        {"$or": [{"tags": {"$eq": "x"}}, {"tags": {"$in": ["x"]}}]},
        set(),
        "$eq and $in do not look inside a list value",
    )
    check(
        "chroma-filter-array-ne",
        {"tags": {"$ne": "x"}},
        set(RECORDS),
        "$ne matches every record, the list containing 'x' included",
    )

    crowd = chroma_client().create_collection("filters-crowd", embedding_function=None)
    crowd.add(
        ids=[f"near{i}" for i in range(50)] + [f"far{i}" for i in range(10)],
        embeddings=[[1.0, i / 1000] for i in range(50)] + [[-1.0, i / 100] for i in range(10)],
        metadatas=[{"keep": False}] * 50 + [{"keep": True}] * 10,
    )
    kept = crowd.query(query_embeddings=[[1.0, 0.0]], n_results=5, where={"keep": True})["ids"][0]
    facts.check(
        "chroma-filter-prefilter",
        kept == [f"far{i}" for i in range(5)],
        f"the filter applies before the top-k cut: k=5 behind 50 closer non-matches -> {kept}",
    )

    def error(fact_id: str, where, kind: type, message: str) -> None:
        got = raised(lambda: made.get(where=where))
        in_query = raised(lambda: made.query(query_embeddings=[[1.0, 0.0]], where=where))
        expected_query = message.replace(" in get.", " in query.")
        facts.check(
            fact_id,
            got == (kind, message) and in_query == (kind, expected_query),
            f"{where!r} -> {name(got[0])}: {got[1]}",
        )

    ops = "$gt, $gte, $lt, $lte, $ne, $eq, $in, $nin, $contains, $not_contains"
    from chromadb.errors import InvalidArgumentError

    error(
        "chroma-filter-error-operator",
        {"color": {"$foo": "red"}},
        ValueError,
        f"Expected where operator to be one of {ops}, got $foo in get.",
    )
    error(
        "chroma-filter-error-not",
        {"$not": {"color": "red"}},
        ValueError,
        f"Expected where operator to be one of {ops}, got color in get.",
    )
    error(
        "chroma-filter-error-in-list",
        {"color": {"$in": "red"}},
        ValueError,
        "Expected operand value to be an list for operator $in, got red in get.",
    )
    error(
        "chroma-filter-error-in-empty",
        {"color": {"$in": []}},
        ValueError,
        "Expected where operand value to be a non-empty list, and all values to be of the same "
        "type got [] in get.",
    )
    error(
        "chroma-filter-error-bound-type",
        {"color": {"$gt": "a"}},
        ValueError,
        "Expected operand value to be an int or a float for operator $gt, got a in get.",
    )
    error(
        "chroma-filter-error-bool-bound",
        {"flag": {"$gt": False}},
        InvalidArgumentError,
        "Invalid where clause",
    )
    error(
        "chroma-filter-error-eq-list",
        {"color": {"$eq": ["red"]}},
        InvalidArgumentError,
        "Invalid where clause",
    )
    error(
        "chroma-filter-error-none",
        {"color": None},
        ValueError,
        "Expected where value to be a str, int, float, or operator expression, got None in get.",
    )
    error(
        "chroma-filter-error-and-single",
        {"$and": [{"color": "red"}]},
        ValueError,
        "Expected where value for $and or $or to be a list with at least two where expressions, "
        "got [{'color': 'red'}] in get.",
    )
    error(
        "chroma-filter-error-and-dict",
        {"$and": {"color": "red"}},
        ValueError,
        "Expected where value for $and or $or to be a list of where expressions, got "
        "{'color': 'red'} in get.",
    )
    error(
        "chroma-filter-error-two-keys",
        {"color": "red", "n": 1},
        ValueError,
        "Expected where to have exactly one operator, got {'color': 'red', 'n': 1} in get.",
    )
    error(
        "chroma-filter-error-two-operators",
        {"n": {"$gt": 1, "$lt": 9}},
        ValueError,
        "Expected operator expression to have exactly one operator, got {'$gt': 1, '$lt': 9} "
        "in get.",
    )
    facts.check(
        "chroma-errors-not-valueerror",
        not issubclass(InvalidArgumentError, ValueError),
        f"InvalidArgumentError's bases: {[c.__name__ for c in InvalidArgumentError.__mro__]}",
    )

    def write(fact_id: str, metadata, kind: type, start: str) -> None:
        got = raised(lambda: made.add(ids=["w"], embeddings=[[1.0, 0.0]], metadatas=[metadata]))
        facts.check(
            fact_id,
            got[0] is kind and got[1].startswith(start),
            f"metadata {metadata!r} -> {name(got[0])}: {got[1][:90]}",
        )

    write("chroma-metadata-none-value", {"a": None}, TypeError, "argument 'metadatas'")
    write("chroma-metadata-empty", {}, ValueError, "Expected metadata to be a non-empty dict")
    write("chroma-metadata-nested", {"a": {"b": 1}}, ValueError, "Expected metadata value")
    write("chroma-metadata-dollar-key", {"$a": 1}, InvalidArgumentError, "")
    facts.done()


if __name__ == "__main__":
    main()
