"""Probe: langchain-milvus ``Milvus`` on Milvus Lite -- scores, relevance, schema, expr filters.

Integration: langchain-milvus 0.3.3 with pymilvus 2.6.9 and milvus-lite 2.5.1, the Milvus core
(the newest versions that install beside llama-index-vector-stores-milvus; pymilvus >= 2.6.10
no longer registers the ORM connection that langchain-milvus 0.3.3 needs). Unit-vector table
embeddings from _probe_common. Run: python tests/fidelity/probes/next/lc_milvus.py
"""

from __future__ import annotations

import logging
import time
import warnings
from typing import Any

from _probe_common import META, check, check_error, error_of, finish, lc_embeddings, scratch_dir
from langchain_milvus import Milvus
from milvus_lite.server_manager import server_manager_instance

STARTED = time.perf_counter()
logging.disable(logging.CRITICAL)


def main() -> None:
    with scratch_dir("lc-milvus") as root:
        # pymilvus 2.6.9 reads the first path segment of a file URI as the database name
        # ("database 'tmp' does not exist"), so db_name is given explicitly.
        conn = {"uri": str(root / "m.db"), "db_name": "default"}
        try:
            scores(conn)
            schema_and_ids(conn)
        finally:
            server_manager_instance.release_all()
    finish(STARTED)


def scores(conn: dict[str, Any]) -> None:
    emb = lc_embeddings()
    want = {
        "COSINE": (
            [1.0, 0.800000011920929, 0.6000000238418579, 0.0, -0.6000000238418579, -1.0],
            [1.0, 0.9000000059604645, 0.800000011920929, 0.5, 0.19999998807907104, 0.0],
        ),
        "L2": (
            [0.0, 0.40000003576278687, 0.800000011920929, 2.0, 3.200000286102295, 4.0],
            [1.0, 0.8999999910593033, 0.7999999970197678, 0.5, 0.19999992847442627, 0.0],
        ),
        "IP": (
            [1.0, 0.800000011920929, 0.6000000238418579, 0.0, -0.6000000238418579, -1.0],
            [1.0, 0.9000000059604645, 0.800000011920929, 0.5, 0.19999998807907104, 0.0],
        ),
    }
    for metric, (raw, rel) in want.items():
        vs = Milvus(
            emb,
            connection_args=conn,
            collection_name=f"s_{metric}",
            index_params={"metric_type": metric, "index_type": "FLAT"},
        )
        vs.add_texts(list(META), metadatas=list(META.values()), ids=[f"{metric}-{t}" for t in META])
        got = vs.similarity_search_with_score("q", k=6)
        check(
            f"lc-milvus-score-{metric.lower()}-raw-engine-value",
            [[d.page_content for d, _ in got], [s for _, s in got]],
            [list("abcdef"), raw],
        )
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            relevance = [s for _, s in vs.similarity_search_with_relevance_scores("q", k=6)]
        check(f"lc-milvus-relevance-{metric.lower()}", [relevance, len(caught)], [rel, 0])
        doc = got[0][0]
        check(
            f"lc-milvus-document-id-none-pk-in-metadata-{metric.lower()}",
            [doc.id, doc.metadata],
            [None, {"pk": f"{metric}-a", **META["a"]}],
        )


def schema_and_ids(conn: dict[str, Any]) -> None:
    emb = lc_embeddings()
    vs = Milvus(emb, connection_args=conn, collection_name="default_index")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_error(
            "lc-milvus-missing-key-in-first-batch",
            error_of(
                lambda: vs.add_texts(
                    ["a", "b"], metadatas=[{"color": "red", "n": 1}, {"color": "blue"}]
                )
            ),
            "DataNotMatchException",
            "<DataNotMatchException: (code=1, message=Insert missed "
            "an field `n` to collection without set nullable==true or set default_value)>",
        )
    ids = vs.add_texts(["a", "b"], metadatas=[{"color": "red", "n": 1}, {"color": "blue", "n": 2}])
    check(
        "lc-milvus-no-ids-switches-auto-id-on-with-warning",
        [str(w.message) for w in caught],
        ["No ids provided and auto_id is False. Setting auto_id to True automatically."],
    )
    # The Milvus core hands out timestamp-based INT64 ids (milvus-lite 3 gave 1, 2, ...).
    check("lc-milvus-auto-ids-int64-timestamps", [type(i).__name__ for i in ids], ["int", "int"])
    check("lc-milvus-auto-ids-consecutive", ids[1] - ids[0], 1)
    check(
        "lc-milvus-default-index-autoindex-l2",
        [
            (i["index_param"]["index_type"], i["index_param"]["metric_type"])
            for i in vs._get_indexes()
        ],
        [("AUTOINDEX", "L2")],
    )
    fields = [
        (f["name"], f["type"].name)
        for f in vs.client.describe_collection("default_index")["fields"]
    ]
    check(
        "lc-milvus-schema-from-first-batch",
        fields,
        [
            ("text", "VARCHAR"),
            ("pk", "INT64"),
            ("vector", "FLOAT_VECTOR"),
            ("color", "VARCHAR"),
            ("n", "INT64"),
        ],
    )
    check_error(
        "lc-milvus-later-missing-key",
        error_of(lambda: vs.add_texts(["c"], metadatas=[{"color": "x"}])),
        "DataNotMatchException",
        "<DataNotMatchException: (code=1, message=Insert missed an field `n`",
    )
    check_error(
        "lc-milvus-later-type-change",
        error_of(lambda: vs.add_texts(["d"], metadatas=[{"color": "x", "n": "3"}])),
        "DataNotMatchException",
        "<DataNotMatchException: (code=1, message=The Input data type "
        "is inconsistent with defined schema, {n} field should be a int64",
    )
    vs.add_texts(["c"], metadatas=[{"color": "x", "n": 3, "other": 1}])
    extra = [d.metadata for d in vs.similarity_search("q", k=5, expr='color == "x"')]
    check("lc-milvus-extra-key-dropped", [sorted(m) for m in extra], [["color", "n", "pk"]])
    check(
        "lc-milvus-filter-expr-string",
        [d.page_content for d in vs.similarity_search("q", k=5, expr='color == "red"')],
        ["a"],
    )
    check_error(
        "lc-milvus-filter-bad-expr",
        error_of(lambda: vs.similarity_search("q", k=5, expr="color = ")),
        "MilvusException",
        "<MilvusException: (code=2000, message= => expr type check failed, actual type: VARCHAR",
    )
    check_error(
        "lc-milvus-filter-dict-kwarg-typeerror",
        error_of(lambda: vs.similarity_search("q", k=5, filter={"color": "red"})),
        "TypeError",
        "pymilvus.milvus_client.milvus_client.MilvusClient.search() got multiple values for "
        "keyword argument 'filter'",
    )
    check_error(
        "lc-milvus-k-0",
        error_of(lambda: vs.similarity_search("q", k=0)),
        "ParamError",
        "<ParamError: (code=1, message=`limit` value 0 is illegal)>",
    )
    check("lc-milvus-delete-missing-silent", error_of(lambda: vs.delete(["nope"])), None)
    check_error(
        "lc-milvus-get-by-ids-not-implemented",
        error_of(lambda: vs.get_by_ids(["x"])),
        "NotImplementedError",
        "Milvus does not yet support get_by_ids.",
    )
    check_error(
        "lc-milvus-duplicate-ids-one-batch",
        error_of(
            lambda: vs.add_texts(
                ["x", "y"], metadatas=[{"color": "r", "n": 1}] * 2, ids=["dup", "dup"]
            )
        ),
        "KeyError",
        "'x'",
    )
    dyn = Milvus(emb, connection_args=conn, collection_name="dynamic", enable_dynamic_field=True)
    dyn.add_texts(["a", "b", "c"], metadatas=[{"color": "red", "n": 1}, {"color": "blue"}, {}])
    for expr, want in [
        ('color == "red"', "a"),
        ('color != "red"', "bc"),
        ("n == 1.0", "a"),
    ]:
        got = "".join(sorted(d.page_content for d in dyn.similarity_search("q", k=5, expr=expr)))
        check(f"lc-milvus-dynamic-field-filter [{expr}]", got, want)


if __name__ == "__main__":
    main()
