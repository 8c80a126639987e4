"""Probe: what qdrant-client's local-mode ``Filter`` conditions match, and how bad ones fail.

Covers ``qdrant-filter-*`` and ``qdrant-payload-*`` of docs/engines/qdrant.md, on records with a
missing key, a record without payload, a number stored as a string, int against float, bools,
an empty string and list values: MatchValue is type-exact for ints, must_not matches a missing
key while MatchExcept does not, arrays match element-wise, IsEmpty/IsNull, Range skips
non-numbers, empty clauses constrain nothing; pydantic rejects malformed conditions at
construction. Run: python tests/fidelity/probes/qdrant_filters.py
"""

from __future__ import annotations

import pydantic
from _probe import Facts, name, raised
from qdrant_client import QdrantClient, models

F, FC, MV = models.Filter, models.FieldCondition, models.MatchValue
RECORDS = {
    1: {"color": "red", "n": 1},
    2: {"color": "blue", "n": 5},
    3: {"n": 10},
    4: {"color": "green"},
    5: None,
    6: {"color": "red", "n": "5"},
    7: {"n": 2.5, "color": "blue"},
    8: {"flag": True, "n": 1.0},
    9: {"flag": False, "color": ""},
    10: {"tags": ["x", "y"]},
    11: {"tags": []},
    12: {"tags": None},
}
ALL = set(RECORDS)


def must(condition) -> models.Filter:
    return F(must=[condition])


def main() -> None:
    facts = Facts("Qdrant local-mode filters", "qdrant-client", "pydantic")
    client = QdrantClient(":memory:")
    client.create_collection("f", models.VectorParams(size=2, distance=models.Distance.EUCLID))
    client.upsert(
        "f",
        [
            models.PointStruct(id=i, vector=[1.0, float(i)], payload=payload)
            for i, payload in RECORDS.items()
        ],
    )

    def match(flt) -> set[int]:
        searched = {
            p.id for p in client.query_points("f", [1.0, 0.0], query_filter=flt, limit=50).points
        }
        scrolled = {p.id for p in client.scroll("f", scroll_filter=flt, limit=50)[0]}
        assert searched == scrolled, (flt, searched, scrolled)
        return searched

    def check(fact_id: str, flt, expected: set[int], meaning: str) -> None:
        got = match(flt)
        facts.check(fact_id, got == expected, f"{sorted(got)}: {meaning}")

    check("qdrant-filter-match", must(FC(key="color", match=MV(value="red"))), {1, 6}, "MatchValue")
    check(
        "qdrant-filter-int-exact",
        must(FC(key="n", match=MV(value=1))),
        {1},
        "MatchValue(1) does not match the float 1.0",
    )
    check(
        "qdrant-filter-str", must(FC(key="n", match=MV(value="5"))), {6}, "no str/number coercion"
    )
    check("qdrant-filter-bool", must(FC(key="flag", match=MV(value=True))), {8}, "MatchValue(True)")
    check(
        "qdrant-filter-empty-str", must(FC(key="color", match=MV(value=""))), {9}, "'' is a value"
    )
    check(
        "qdrant-filter-must-not-missing",
        F(must_not=[FC(key="color", match=MV(value="red"))]),
        ALL - {1, 6},
        "must_not matches points without the key (and without payload)",
    )
    check(
        "qdrant-filter-any",
        must(FC(key="color", match=models.MatchAny(any=["red", "green"]))),
        {1, 4, 6},
        "MatchAny",
    )
    check(
        "qdrant-filter-any-empty",
        must(FC(key="color", match=models.MatchAny(any=[]))),
        set(),
        "MatchAny([])",
    )
    check(
        "qdrant-filter-except-missing",
        must(FC(key="color", match=models.MatchExcept(**{"except": ["red", "green"]}))),
        {2, 7, 9},
        "MatchExcept needs the key: points without it do not match",
    )
    check(
        "qdrant-filter-except-empty",
        must(FC(key="color", match=models.MatchExcept(**{"except": []}))),
        {1, 2, 4, 6, 7, 9},
        "MatchExcept([]) matches every point that has the key",
    )
    check(
        "qdrant-filter-range",
        must(FC(key="n", range=models.Range(gte=5))),
        {2, 3},
        "Range skips the string '5'",
    )
    check(
        "qdrant-filter-range-mixed",
        must(FC(key="n", range=models.Range(gt=2))),
        {2, 3, 7},
        "int bound vs 2.5",
    )
    check(
        "qdrant-filter-range-unbounded",
        must(FC(key="n", range=models.Range())),
        {1, 2, 3, 7, 8},
        "Range() matches every numeric value",
    )
    check(
        "qdrant-filter-range-bool",
        must(FC(key="flag", range=models.Range(gt=0))),
        set(),
        "a bool is not a number",
    )
    check(
        "qdrant-filter-must-not-range",
        F(must_not=[FC(key="n", range=models.Range(gt=3))]),
        ALL - {2, 3},
        "must_not Range: missing keys and strings match",
    )
    check(
        "qdrant-filter-empty-clauses",
        F(must=[], should=[], must_not=[]),
        ALL,
        "empty must/should/must_not constrain nothing",
    )
    check(
        "qdrant-filter-should",
        F(should=[FC(key="color", match=MV(value="green")), FC(key="n", range=models.Range(gt=5))]),
        {3, 4},
        "should = any of",
    )
    check(
        "qdrant-filter-min-should",
        F(
            min_should=models.MinShould(
                conditions=[
                    FC(key="color", match=MV(value="red")),
                    FC(key="n", range=models.Range(lte=1)),
                    FC(key="flag", match=MV(value=True)),
                ],
                min_count=2,
            )
        ),
        {1, 8},
        "min_should: at least min_count of the conditions",
    )
    check(
        "qdrant-filter-is-empty",
        must(models.IsEmptyCondition(is_empty=models.PayloadField(key="tags"))),
        ALL - {10},
        "IsEmpty: missing, null or []",
    )
    check(
        "qdrant-filter-is-null",
        must(models.IsNullCondition(is_null=models.PayloadField(key="tags"))),
        {12},
        "IsNull: an explicit null only",
    )
    check(
        "qdrant-filter-is-empty-str",
        must(models.IsEmptyCondition(is_empty=models.PayloadField(key="color"))),
        {3, 5, 8, 10, 11, 12},
        "IsEmpty does not count '' as empty",
    )
    check(
        "qdrant-filter-array-match", must(FC(key="tags", match=MV(value="x"))), {10}, "any element"
    )
    check(
        "qdrant-filter-array-except",
        must(FC(key="tags", match=models.MatchExcept(**{"except": ["x"]}))),
        {10},
        "MatchExcept on a list: some element is not excluded; [], null, missing never match",
    )
    check(
        "qdrant-filter-text",
        must(FC(key="color", match=models.MatchText(text="ed"))),
        set(),
        "MatchText matches words, not substrings",
    )
    check(
        "qdrant-filter-text-word",
        must(FC(key="color", match=models.MatchText(text="RED"))),
        {1, 6},
        "MatchText: every word of the text is a word of the value, case-insensitively",
    )
    check(
        "qdrant-filter-text-array",
        must(FC(key="tags", match=models.MatchText(text="Y"))),
        {10},
        "MatchText on an array: a word match against any str element",
    )
    check(
        "qdrant-filter-no-condition",
        must(FC.model_construct(key="color")),
        set(),
        "a FieldCondition without a condition matches nothing, no error",
    )

    client.create_collection("crowd", models.VectorParams(size=2, distance=models.Distance.COSINE))
    client.upsert(
        "crowd",
        [
            models.PointStruct(id=i, vector=[1.0, i / 1000], payload={"keep": False})
            for i in range(50)
        ]
        + [
            models.PointStruct(id=100 + i, vector=[-1.0, i / 100], payload={"keep": True})
            for i in range(10)
        ],
    )
    kept = [
        p.id
        for p in client.query_points(
            "crowd", [1.0, 0.0], query_filter=must(FC(key="keep", match=MV(value=True))), limit=5
        ).points
    ]
    facts.check(
        "qdrant-filter-prefilter",
        kept == [109, 108, 107, 106, 105],
        f"the filter applies before the limit: 5 matches behind 50 closer non-matches -> {kept}",
    )

    def invalid(fact_id: str, build, start: str) -> None:
        kind, message = raised(build)
        facts.check(
            fact_id,
            kind is pydantic.ValidationError and message.startswith(start),
            f"{name(kind)}: {message.splitlines()[0]}",
        )

    invalid(
        "qdrant-filter-error-match-float",
        lambda: MV(value=1.5),
        "3 validation errors for MatchValue",
    )
    invalid(
        "qdrant-filter-error-match-list",
        lambda: MV(value=["red"]),
        "3 validation errors for MatchValue",
    )
    invalid(
        "qdrant-filter-error-any-str",
        lambda: models.MatchAny(any="red"),
        "2 validation errors for MatchAny",
    )
    invalid(
        "qdrant-filter-error-except-float",
        lambda: models.MatchExcept(**{"except": [1.5]}),
        "2 validation errors for MatchExcept",
    )
    invalid(
        "qdrant-filter-error-range-str",
        lambda: models.Range(gt="a"),
        "1 validation error for Range",
    )
    kind, message = raised(lambda: client.query_points("f", [1.0, 0.0], query_filter={"must": []}))
    facts.check(
        "qdrant-filter-error-dict",
        kind is AttributeError and message == "'dict' object has no attribute 'must'",
        f"a plain dict as query_filter: {name(kind)}: {message}",
    )
    coerced = models.Range(gt=True).gt
    facts.check(
        "qdrant-filter-range-bool-bound",
        coerced == 1.0,
        f"Range(gt=True) is accepted and read as {coerced!r}",
    )

    client.upsert("f", [models.PointStruct(id=1, vector=[1.0, 1.0], payload={"z": 1})])
    replaced = client.retrieve("f", [1])[0].payload
    client.set_payload("f", payload={"w": 2}, points=[1])
    merged = client.retrieve("f", [1])[0].payload
    facts.check(
        "qdrant-payload-upsert-replaces",
        replaced == {"z": 1} and merged == {"z": 1, "w": 2},
        f"upsert replaces the payload wholesale ({replaced}); set_payload merges ({merged})",
    )
    client.upsert(
        "f", [models.PointStruct(id=20, vector=[1.0, 1.0], payload={"d": {"e": [1, {"f": 2}]}})]
    )
    facts.check(
        "qdrant-payload-nested",
        client.retrieve("f", [20])[0].payload == {"d": {"e": [1, {"f": 2}]}}
        and match(must(FC(key="d.e[].f", match=MV(value=2)))) == {20},
        "nested payloads are stored as given and nested keys are filterable",
    )
    facts.done()


if __name__ == "__main__":
    main()
