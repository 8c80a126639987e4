"""Probe: LanceDB's two LangChain stores -- langchain-community ``LanceDB`` and langchain-lancedb.

Integrations: langchain-community 0.4.2 ``langchain_community.vectorstores.LanceDB`` and
langchain-lancedb 0.1.0 ``langchain_lancedb.LanceDB`` on lancedb 0.40 (embedded, tmp dir).
Unit-vector table embeddings from _probe_geometry; both return LanceDB's raw ``_distance``.
Run: python tests/fidelity/probes/lc_lancedb.py
"""

from __future__ import annotations

import time
import warnings
from typing import Any

from _probe import check, check_error, error_of, finish, scratch_dir
from _probe_geometry import META, lc_embeddings

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # "langchain-community is being sunset"
    from langchain_community.vectorstores import LanceDB as CommunityLanceDB

STARTED = time.perf_counter()
L2 = [0.0, 0.4000000059604645, 0.800000011920929, 2.0, 3.200000286102295, 4.0]


def main() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "langchain-community is being sunset", no results
        with scratch_dir("lc-lancedb") as root:
            community(str(root / "community"))
            try:  # langchain-lancedb is measured, not imitated (not in the fidelity extra)
                from langchain_lancedb import LanceDB as PackageLanceDB
            except ImportError:
                print("  note: langchain-lancedb is not installed: its facts are not checked")
            else:
                package(PackageLanceDB, str(root / "package"))
    finish(STARTED)


def community(uri: str) -> None:
    emb = lc_embeddings()
    for distance in ("l2", "cosine", "dot"):
        vs = CommunityLanceDB(uri=uri, embedding=emb, table_name=f"t_{distance}", distance=distance)
        vs.add_texts(list(META), metadatas=list(META.values()), ids=list(META))
        got = vs.similarity_search_with_score("q", k=6)
        check(
            f"lc-lancedb-community-score-ignores-distance-{distance}",
            [[d.page_content for d, _ in got], [s for _, s in got]],
            [list("abcdef"), L2],
        )
        rel = error_of(lambda vs=vs: vs.similarity_search_with_relevance_scores("q", k=6))
        if rel is None:
            rel = [s for _, s in vs.similarity_search_with_relevance_scores("q", k=6)]
        want: Any = {
            "l2": [
                1.0,
                0.7171572833106962,
                0.43431456662139234,
                -0.4142135623730949,
                -1.262741902101825,
                -1.8284271247461898,
            ],
            "cosine": [
                1.0,
                0.5999999940395355,
                0.19999998807907104,
                -1.0,
                -2.200000286102295,
                -3.0,
            ],
            "dot": (
                "ValueError",
                (
                    "No supported normalization function for distance metric of "
                    "type: dot.Consider providing relevance_score_fn to Chroma constructor."
                ),
            ),
        }[distance]
        check(f"lc-lancedb-community-relevance-{distance}", rel, want)
    doc = got[0][0]
    check("lc-lancedb-community-document", [doc.id, doc.metadata], [None, META["a"]])
    per_metric = {
        m: [round(s, 6) for _, s in vs.similarity_search_with_score("q", k=6, metrics=m)]
        for m in ("l2", "cosine", "dot")
    }
    check(
        "lc-lancedb-community-metrics-kwarg-sets-engine-metric",
        per_metric,
        {
            "l2": [0.0, 0.4, 0.8, 2.0, 3.2, 4.0],
            "cosine": [0.0, 0.2, 0.4, 1.0, 1.6, 2.0],
            "dot": [0.0, 0.2, 0.4, 1.0, 1.6, 2.0],
        },
    )

    over = CommunityLanceDB(uri=uri, embedding=emb, table_name="overwrite")
    over.add_texts(["a", "b"], metadatas=[META["a"], META["b"]])
    over.add_texts(["c"], metadatas=[META["c"]])
    check(
        "lc-lancedb-community-default-mode-overwrite-replaces-table",
        [d.page_content for d in over.similarity_search("q", k=10)],
        ["c"],
    )
    auto = over.add_texts(["d"], metadatas=[META["d"]])[0]
    check("lc-lancedb-community-auto-id-uuid4", [len(auto), auto[14]], [36, "4"])

    empty = [
        error_of(
            lambda mode=mode, n=n: CommunityLanceDB(
                uri=uri, embedding=emb, table_name=n, mode=mode
            ).add_texts([])
        )
        for mode, n in (("append", "overwrite"), ("overwrite", "overwrite"), ("append", "fresh"))
    ]
    check(
        "lc-lancedb-community-empty-add",
        empty,
        [("ValueError", "Cannot create table from empty list without a schema")] * 3,
    )

    vs = CommunityLanceDB(uri=uri, embedding=emb, table_name="append", mode="append")
    vs.add_texts(list(META), metadatas=list(META.values()), ids=list(META))
    schema = str(vs.get_table().schema.field("metadata").type)
    check(
        "lc-lancedb-community-metadata-struct-from-first-batch",
        schema,
        "struct<color: string, n: int64, price: double>",
    )

    def ids(**kw: Any) -> Any:
        err = error_of(lambda: vs.similarity_search("q", **kw))
        return err or sorted(d.page_content for d in vs.similarity_search("q", **kw))

    check(
        "lc-lancedb-community-filter-sql-on-struct",
        ids(k=10, filter="metadata.color = 'red'"),
        ["a", "c", "f"],
    )
    check(
        "lc-lancedb-community-default-postfilter-top1-empty",
        [d.page_content for d in vs.similarity_search("q", k=1, filter="metadata.color = 'blue'")],
        [],
    )
    check(
        "lc-lancedb-community-prefilter-kwarg",
        [
            d.page_content
            for d in vs.similarity_search(
                "q", k=1, filter="metadata.color = 'blue'", prefilter=True
            )
        ],
        ["b"],
    )
    check_error(
        "lc-lancedb-community-dict-filter-not-prefixed",
        error_of(lambda: vs.similarity_search("q", k=3, filter={"color": "red"})),
        "ValueError",
        "Invalid input, Schema error: No field named color.",
    )
    vs.add_texts(["b"], metadatas=[META["b"]], ids=["a"])
    check("lc-lancedb-community-add-existing-id-appends", vs.get_table().count_rows("id = 'a'"), 2)
    vs.add_texts(["c"], metadatas=[{"color": "red"}], ids=["m"])
    check(
        "lc-lancedb-community-missing-key-null",
        [r["metadata"] for r in vs.get_table().to_arrow().to_pylist() if r["id"] == "m"],
        [{"color": "red", "n": None, "price": None}],
    )
    check_error(
        "lancedb-bug-plain-search-where-after-struct-nulls",
        error_of(lambda: vs.get_table().search().where("id = 'm'").to_list()),
        "ValueError",
        "Invalid input, projection supplied fewer column indices than its fields require",
    )
    check_error(
        "lc-lancedb-community-extra-key",
        error_of(lambda: vs.add_texts(["c"], metadatas=[{**META["c"], "other": 1}], ids=["x"])),
        "ValueError",
        "Invalid input, field 'other' does not exist in table schema",
    )
    check_error(
        "lc-lancedb-community-no-metadatas-uses-id-struct",
        error_of(lambda: vs.add_texts(["c"], ids=["nm"])),
        "ValueError",
        "Invalid input, field 'id' does not exist in table schema",
    )
    check_error(
        "lc-lancedb-community-k-0",
        error_of(lambda: vs.similarity_search("q", k=0)),
        "ValueError",
        "Limit is required for ANN/KNN queries",
    )
    check("lc-lancedb-community-delete-missing-silent", vs.delete(ids=["nope"]), None)
    check_error(
        "lc-lancedb-community-get-by-ids",
        error_of(lambda: vs.get_by_ids(["a"])),
        "NotImplementedError",
        "LanceDB does not yet support get_by_ids.",
    )
    short = CommunityLanceDB(uri=uri, embedding=emb, table_name="lengths", mode="append")
    short.add_texts(["a"], metadatas=[META["a"]], ids=["a"])
    check(
        "lc-lancedb-community-metadatas-short",
        [
            error_of(lambda: short.add_texts(["b", "c"], metadatas=[META["b"]], ids=["b", "c"])),
            short.get_table().count_rows(),
        ],
        [("IndexError", "list index out of range"), 1],
    )
    check(
        "lc-lancedb-community-ids-short",
        [
            error_of(
                lambda: short.add_texts(["b", "c"], metadatas=[META["b"], META["c"]], ids=["b"])
            ),
            short.get_table().count_rows(),
        ],
        [("IndexError", "list index out of range"), 1],
    )


def package(PackageLanceDB: Any, uri: str) -> None:
    vs = PackageLanceDB(lc_embeddings(), uri=uri, table_name="t")
    check("lc-lancedb-package-search-before-table-empty", vs.similarity_search("q"), [])
    ids = vs.add_texts(list(META), metadatas=list(META.values()))
    check(
        "lc-lancedb-package-auto-id-sha256-of-text",
        ids[0],
        "ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb",
    )
    got = vs.similarity_search_with_score("q", k=6)
    check("lc-lancedb-package-score-l2-squared", [s for _, s in got], L2)
    doc = got[0][0]
    check(
        "lc-lancedb-package-document-source-injected",
        [doc.id, doc.metadata],
        [None, {**META["a"], "source": uri}],
    )
    check(
        "lc-lancedb-package-metadata-json-string-column",
        str(vs._table.schema.field("metadata").type),
        "string",
    )
    check(
        "lc-lancedb-package-filter-kwarg-ignored",
        [d.page_content for d in vs.similarity_search("q", k=2, filter="color = 'blue'")],
        ["a", "b"],
    )
    check(
        "lc-lancedb-package-relevance-not-implemented",
        error_of(lambda: vs.similarity_search_with_relevance_scores("q", k=2)),
        ("NotImplementedError", ""),
    )
    vs.add_texts(["a"], metadatas=[{"x": 1}])
    check(
        "lc-lancedb-package-same-text-same-id-appends", vs._table.count_rows(f"id = '{ids[0]}'"), 2
    )
    check_error(
        "lc-lancedb-package-k-0",
        error_of(lambda: vs.similarity_search("q", k=0)),
        "ValueError",
        "Limit is required for ANN/KNN queries",
    )
    check_error(
        "lc-lancedb-package-delete-id-with-quote",
        error_of(lambda: vs.delete(ids=["it's"])),
        "ValueError",
        "Invalid input, invalid SQL predicate: Unterminated string literal",
    )
    check("lc-lancedb-package-delete-missing", vs.delete(ids=["nope"]), True)
    check_error(
        "lc-lancedb-package-delete-none",
        error_of(vs.delete),
        "ValueError",
        "No ids provided to delete.",
    )


if __name__ == "__main__":
    main()
