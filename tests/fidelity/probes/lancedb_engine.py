"""Probe: LanceDB ``_distance`` per metric, ties, SQL filters, pre/post-filter, errors and writes.

Engine: lancedb (OSS, embedded: ``lancedb.connect(<tmp dir>)``), in process, no server. A table
without an index is searched exactly (flat KNN); an IVF_PQ index makes ``_distance`` an estimate
from the compressed codes unless ``refine_factor`` re-ranks with the raw vectors.
Covers the facts of docs/engines/lancedb.md from ``lancedb-vector-column-float32`` to
``lancedb-ivfpq-refine-factor-exact-distances`` (scores, ties, filter results, pre/post-filter,
errors, k, writes); ``lancedb_schema.py`` covers the table schema and lance's filter stages.
Run: python tests/fidelity/probes/lancedb_engine.py
"""

from __future__ import annotations

import shutil
import tempfile
from typing import Any

import lancedb
import numpy as np
from _probe import Facts, check, check_error, error_of
from _probe_geometry import DOCS, Q
from lancedb.index import IvfPq

FACTS = Facts("LanceDB engine (embedded)", "lancedb", "pyarrow")


RECORDS: list[tuple[str, dict[str, Any]]] = [
    ("r1", {"color": "red", "n": 1, "tags": ["x", "y"]}),
    ("r2", {"color": "blue", "n": 5}),
    ("r3", {"n": 10}),
    ("r4", {"color": "green"}),
    ("r5", {}),
    ("r7", {"n": 2.5, "color": "blue"}),
    ("r8", {"flag": True, "n": 1.0}),
    ("r9", {"flag": False, "color": ""}),
]


def check_err(fact: str, err: tuple[str, str] | None, want: tuple[str, str]) -> None:
    check_error(fact, err, *want)


def main() -> None:
    root = tempfile.mkdtemp(prefix="probe-lancedb-")
    try:
        db = lancedb.connect(root)
        scores(db)
        ties(db)
        filters(db)
        errors_and_writes(db)
        ann(db)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    FACTS.done()


def scores(db: Any) -> None:
    table = db.create_table("s", [{"id": k, "vector": v} for k, v in DOCS.items()])
    check(
        "lancedb-vector-column-float32",
        str(table.schema.field("vector").type),
        "fixed_size_list<item: float>[3]",
    )

    def ranked(metric: str | None) -> list[tuple[str, float]]:
        query = table.search(Q)
        if metric:
            query = query.distance_type(metric)
        return [(r["id"], r["_distance"]) for r in query.limit(10).to_list()]

    l2 = [
        ("same", 0.0),
        ("diag", 0.800000011920929),
        ("twice", 1.0),
        ("ortho", 2.0),
        ("opp", 4.0),
        ("c34", 20.0),
    ]
    check("lancedb-score-default-metric-l2", ranked(None), l2)
    check("lancedb-score-l2-squared", ranked("l2"), l2)
    check(
        "lancedb-score-cosine-one-minus-cos",
        ranked("cosine"),
        [
            ("same", 0.0),
            ("twice", 0.0),
            ("c34", 0.3999999761581421),
            ("diag", 0.3999999761581421),
            ("ortho", 1.0),
            ("opp", 2.0),
        ],
    )
    check(
        "lancedb-score-dot-one-minus-dot",
        ranked("dot"),
        [
            ("c34", -2.0),
            ("twice", -1.0),
            ("same", 0.0),
            ("diag", 0.3999999761581421),
            ("ortho", 1.0),
            ("opp", 2.0),
        ],
    )
    check_err(
        "lancedb-score-hamming-rejects-float",
        error_of(lambda: ranked("hamming")),
        ("ValueError", "Invalid input, Distance type hamming does not support Float32"),
    )
    schema = table.search(Q).limit(1).to_arrow().schema
    check(
        "lancedb-score-dtype",
        [str(schema.field("_distance").type), type(ranked("l2")[0][1]).__name__],
        ["float", "float"],
    )
    stored = table.search().where("id = 'c34'").to_list()[0]["vector"]
    check("lancedb-stores-unnormalised", list(stored), [3.0, 4.0, 0.0])
    table.add([{"id": "zero", "vector": [0.0, 0.0, 0.0]}])
    cos = [r["id"] for r in table.search(Q).distance_type("cosine").limit(10).to_list()]
    check("lancedb-zero-vector-row-dropped-from-cosine", "zero" in cos, False)
    check(
        "lancedb-zero-query-cosine-empty",
        table.search([0.0, 0.0, 0.0]).distance_type("cosine").limit(3).to_list(),
        [],
    )
    rng = np.random.default_rng(5)
    x = rng.normal(size=(40, 16)).astype(np.float32)
    q = rng.normal(size=16).astype(np.float32)
    rt = db.create_table("rand", [{"id": i, "vector": v.tolist()} for i, v in enumerate(x)])
    close = {}
    for metric in ("l2", "cosine", "dot"):
        rows = rt.search(q.tolist()).distance_type(metric).limit(40).to_list()
        got = np.array([r["_distance"] for r in rows])
        v = x[[r["id"] for r in rows]]
        ref = {
            "l2": ((v - q) ** 2).sum(1),
            "dot": 1 - v @ q,
            "cosine": 1 - (v @ q) / np.linalg.norm(v, axis=1) / np.linalg.norm(q),
        }[metric]
        close[metric] = bool(np.all(np.abs(got - ref) <= 1e-5 * np.maximum(1, np.abs(ref))))
    check(
        "lancedb-score-float32-within-1e-5-relative",
        close,
        {"l2": True, "cosine": True, "dot": True},
    )


def ties(db: Any) -> None:
    order = [f"t{i:02d}" for i in np.random.default_rng(1).permutation(30)]
    table = db.create_table("ties", [{"id": i, "vector": [0.0, 1.0]} for i in order])
    rules = {}
    for metric in ("l2", "cosine", "dot"):
        for k in (1, 3, 5, 30):
            got = [
                r["id"] for r in table.search([0.0, 1.0]).distance_type(metric).limit(k).to_list()
            ]
            rules[f"{metric}/{k}"] = got == order[:k]
    check("lancedb-ties-first-k-inserted", all(rules.values()), True)
    table.add([{"id": "late", "vector": [0.0, 1.0]}])
    table.merge_insert("id").when_matched_update_all().execute(
        [{"id": order[0], "vector": [0.0, 1.0]}]
    )
    got = [r["id"] for r in table.search([0.0, 1.0]).limit(32).to_list()]
    check(
        "lancedb-ties-updated-row-moves-to-end", [got[0], got[-2:]], [order[1], ["late", order[0]]]
    )
    mixed = db.create_table(
        "mixed",
        [
            {"id": f"m{i:02d}", "vector": [0.0, 1.0] if i % 3 == 0 else [1.0, float(i)]}
            for i in range(30)
        ],
    )
    got = [r["id"] for r in mixed.search([0.0, 1.0]).limit(4).to_list()]
    check("lancedb-ties-mixed-scores-insertion-order", got, ["m00", "m03", "m06", "m09"])


def filters(db: Any) -> None:
    rows = [
        {
            "id": i,
            "vector": [1.0, float(j)],
            "color": m.get("color"),
            "n": m.get("n"),
            "flag": m.get("flag"),
            "tags": m.get("tags", []),
        }
        for j, (i, m) in enumerate(RECORDS)
    ]
    table = db.create_table("f", rows)
    check(
        "lancedb-schema-inferred-int-and-float-become-double",
        str(table.schema.field("n").type),
        "double",
    )

    def where(expr: str) -> Any:
        got = error_of(lambda: table.search().where(expr).limit(100).to_list())
        if got:
            return got
        return sorted(r["id"] for r in table.search().where(expr).limit(100).to_list())

    cases = {
        "color = 'red'": ["r1"],
        "color == 'red'": ["r1"],
        "n = 1": ["r1", "r8"],
        "n = 1.0": ["r1", "r8"],
        "flag = true": ["r8"],
        "color != 'red'": ["r2", "r4", "r7", "r9"],
        "color <> 'red'": ["r2", "r4", "r7", "r9"],
        "n != 1": ["r2", "r3", "r7"],
        "color IN ('red', 'green')": ["r1", "r4"],
        "color NOT IN ('red', 'green')": ["r2", "r7", "r9"],
        "n > 2": ["r2", "r3", "r7"],
        "n BETWEEN 1 AND 5": ["r1", "r2", "r7", "r8"],
        "color LIKE 'r%'": ["r1"],
        "color ILIKE 'R%'": ["r1"],
        "color IS NULL": ["r3", "r5", "r8"],
        "color IS NOT NULL": ["r1", "r2", "r4", "r7", "r9"],
        "NOT (color = 'red')": ["r2", "r4", "r7", "r9"],
        "color = 'red' AND n = 1": ["r1"],
        "color = 'red' OR n > 5": ["r1", "r3"],
        "array_has(tags, 'x')": ["r1"],
        "array_contains(tags, 'x')": ["r1"],
        "flag = 1": (
            "ValueError",
            (
                "Invalid input, Error resolving filter expression flag = 1: "
                "Invalid user input: Received literal In"
            ),
        ),
        "n = '1'": (
            "ValueError",
            (
                "Invalid input, Error resolving filter expression n = '1': "
                "Invalid user input: Received literal U"
            ),
        ),
        "color = red": (
            "ValueError",
            (
                "Invalid input, Schema error: No field named red. Valid "
                "fields are `id`, `vector`, `color`, `n`, `fl"
            ),
        ),
        "nosuch = 1": (
            "ValueError",
            (
                "Invalid input, Schema error: No field named nosuch. Valid "
                "fields are `id`, `vector`, `color`, `n`, "
            ),
        ),
        "n >": (
            "ValueError",
            (
                "Invalid input, Error parsing statement: SELECT 1 FROM t WHERE n > "
                "(sql parser error: Expected: an"
            ),
        ),
    }
    results = {e: where(e) for e, want in cases.items() if not isinstance(want, tuple)}
    check("lancedb-filter-results", results, {e: w for e, w in cases.items() if e in results})
    errors = {e: where(e) for e, want in cases.items() if isinstance(want, tuple)}
    FACTS.check(
        "lancedb-filter-errors",
        all(
            isinstance(got, tuple) and got[0] == cases[e][0] and got[1].startswith(cases[e][1])
            for e, got in errors.items()
        ),
        repr(errors),
    )

    near = [{"id": f"n{i:02d}", "vector": [1.0, i * 0.001], "color": "blue"} for i in range(50)]
    pf = db.create_table("pf", [*near, {"id": "far", "vector": [-1.0, 0.0], "color": "red"}])

    def top(prefilter: bool | None, k: int = 1) -> list[str]:
        query = pf.search([1.0, 0.0])
        query = (
            query.where("color = 'red'")
            if prefilter is None
            else query.where("color = 'red'", prefilter=prefilter)
        )
        return [r["id"] for r in query.limit(k).to_list()]

    check("lancedb-prefilter-true-finds-far-match", top(True), ["far"])
    check("lancedb-postfilter-top1-nearest-fails-returns-empty", top(False), [])
    check("lancedb-postfilter-k-covers-match", top(False, 51), ["far"])
    check("lancedb-where-default-is-prefilter", top(None), ["far"])


def errors_and_writes(db: Any) -> None:
    t = db.create_table("e", [{"id": "a", "vector": [1.0, 0.0], "color": "x"}])
    wrong = [{"id": "b", "vector": [1.0, 0.0, 0.0], "color": "x"}]
    check_err(
        "lancedb-error-add-wrong-dimension",
        error_of(lambda: t.add(wrong)),
        (
            "ValueError",
            (
                "lance error: LanceError(Arrow): Cast error: Cannot cast to "
                "FixedSizeList(2): value at index 0 has length 3"
            ),
        ),
    )
    check_err(
        "lancedb-error-search-wrong-dimension",
        error_of(lambda: t.search([1.0, 0.0, 0.0]).limit(1).to_list()),
        (
            "ValueError",
            (
                "There is no vector column in the data. Please specify the vector "
                "column name for vector search"
            ),
        ),
    )
    for k in (0, -1, None):
        check_err(
            f"lancedb-k-{'none' if k is None else k}",
            error_of(lambda k=k: t.search([1.0, 0.0]).limit(k).to_list()),
            ("ValueError", "Limit is required for ANN/KNN queries"),
        )
    t.add([{"id": f"p{i}", "vector": [1.0, 0.0], "color": "x"} for i in range(20)])
    check("lancedb-k-default-10", len(t.search([1.0, 0.0]).to_list()), 10)
    check("lancedb-k-larger-than-rows-truncates", len(t.search([1.0, 0.0]).limit(99).to_list()), 21)
    nan = [{"id": "nan", "vector": [float("nan"), 0.0], "color": "x"}]
    check_err(
        "lancedb-error-nan-vector",
        error_of(lambda: t.add(nan)),
        (
            "ValueError",
            "lance error: LanceError(Arrow): Compute error: Vector column contains NaN values",
        ),
    )
    check("lancedb-nan-query-empty", t.search([float("nan"), 0.0]).limit(2).to_list(), [])
    extra = [{"id": "m", "vector": [1.0, 0.0], "color": "x", "extra": 1}]
    check_err(
        "lancedb-error-unknown-column-on-add",
        error_of(lambda: t.add(extra)),
        ("ValueError", "Invalid input, field 'extra' does not exist in table schema"),
    )
    t.add([{"id": "m", "vector": [1.0, 0.0]}])
    check(
        "lancedb-missing-column-on-add-is-null",
        t.search().where("id = 'm'").to_list()[0]["color"],
        None,
    )
    t.add([{"id": 5, "vector": [1.0, 0.0], "color": "x"}])
    check(
        "lancedb-int-id-cast-to-string-column",
        [r["id"] for r in t.search().where("id = '5'").to_list()],
        ["5"],
    )

    w = db.create_table(
        "w", [{"id": "a", "vector": [1.0, 0.0], "m": 1}, {"id": "b", "vector": [1.0, 0.0], "m": 2}]
    )

    def listing() -> list[tuple[str, int]]:
        return [(r["id"], r["m"]) for r in w.to_arrow().to_pylist()]

    w.add([{"id": "a", "vector": [0.0, 1.0], "m": 3}])
    check(
        "lancedb-write-add-existing-id-appends-duplicate", listing(), [("a", 1), ("b", 2), ("a", 3)]
    )
    w.add([{"id": "c", "vector": [1.0, 0.0], "m": 4}, {"id": "c", "vector": [1.0, 0.0], "m": 5}])
    check("lancedb-write-duplicate-ids-one-add-both-kept", w.count_rows("id = 'c'"), 2)
    result = (
        w.merge_insert("id")
        .when_matched_update_all()
        .when_not_matched_insert_all()
        .execute(
            [{"id": "b", "vector": [0.0, 1.0], "m": 9}, {"id": "z", "vector": [0.0, 1.0], "m": 10}]
        )
    )
    check(
        "lancedb-write-merge-insert-upsert-counts",
        [result.num_updated_rows, result.num_inserted_rows],
        [1, 1],
    )
    check(
        "lancedb-listing-updated-row-moves-to-end",
        listing(),
        [("a", 1), ("a", 3), ("c", 4), ("c", 5), ("b", 9), ("z", 10)],
    )
    result = (
        w.merge_insert("id")
        .when_matched_update_all()
        .when_not_matched_insert_all()
        .execute([{"id": "a", "vector": [0.0, 1.0], "m": 11}])
    )
    check("lancedb-write-merge-insert-updates-every-duplicate", result.num_updated_rows, 2)
    result = (
        w.merge_insert("id")
        .when_matched_update_all()
        .when_not_matched_insert_all()
        .execute(
            [{"id": "q", "vector": [0.0, 1.0], "m": 1}, {"id": "q", "vector": [0.0, 1.0], "m": 2}]
        )
    )
    check("lancedb-write-merge-insert-duplicate-source-inserts-both", result.num_inserted_rows, 2)
    check("lancedb-write-delete-missing-silent", w.delete("id IN ('nope')").num_deleted_rows, 0)
    check_err(
        "lancedb-error-delete-bad-predicate",
        error_of(lambda: w.delete("id IN (")),
        ("ValueError", "Invalid input, Error parsing statement"),
    )


def ann(db: Any) -> None:
    rng = np.random.default_rng(11)
    x = rng.normal(size=(512, 16)).astype(np.float32)
    table = db.create_table("ann", [{"id": i, "vector": v.tolist()} for i, v in enumerate(x)])
    table.create_index(
        "vector", config=IvfPq(distance_type="l2", num_partitions=2, num_sub_vectors=4)
    )
    q = rng.normal(size=16).astype(np.float32)
    exact = ((x - q) ** 2).sum(1)
    rows = table.search(q.tolist()).limit(10).to_list()
    est = [abs(r["_distance"] - exact[r["id"]]) > 1e-3 for r in rows]
    check("lancedb-ivfpq-distance-is-estimate", any(est), True)
    rows = table.search(q.tolist()).limit(10).refine_factor(5).to_list()
    check(
        "lancedb-ivfpq-refine-factor-exact-distances",
        all(abs(r["_distance"] - exact[r["id"]]) < 1e-4 for r in rows),
        True,
    )


if __name__ == "__main__":
    main()
