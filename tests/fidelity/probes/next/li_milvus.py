"""Probe: llama-index ``MilvusVectorStore`` on Milvus Lite -- scores, MetadataFilters, writes.

Integration: llama-index-vector-stores-milvus 1.2.0 with pymilvus 2.6.9 and milvus-lite 3.x.
The store is built with ``db_name="default"`` (pymilvus 2.6.9 otherwise reads the first path
segment of the file URI as a database name) and ``use_async_client=False`` (its
AsyncMilvusClient refuses to start outside a running event loop). Unit-vector table embedding
from _probe_common. Run: python tests/fidelity/probes/li_milvus.py
"""

from __future__ import annotations

import logging
import time
from typing import Any

import _probe_common as common
from _probe_common import META, check, check_error, error_of, finish, li_embedding, scratch_dir
from llama_index.core import StorageContext, VectorStoreIndex
from llama_index.core.schema import TextNode
from llama_index.core.vector_stores import (
    FilterCondition,
    FilterOperator,
    MetadataFilter,
    MetadataFilters,
)
from llama_index.core.vector_stores.types import VectorStoreQuery
from llama_index.vector_stores.milvus import MilvusVectorStore
from milvus_lite.server_manager import server_manager_instance

STARTED = time.perf_counter()
logging.disable(logging.CRITICAL)
EXTRA: dict[str, dict[str, Any]] = {
    "g": {"n": 1.0, "flag": True},
    "h": {"flag": 1, "n": "1"},
    "i": {"tags": ["x", "y"], "color": "red"},
    "j": {},
}
Op = FilterOperator


def one(key: str, value: Any, op: FilterOperator = Op.EQ) -> MetadataFilters:
    return MetadataFilters(filters=[MetadataFilter(key=key, value=value, operator=op)])


def main() -> None:
    for t in EXTRA:
        common.UNIT[t] = [0.0, 0.0, 0.0, 1.0]
    with scratch_dir("li-milvus") as root:
        uri = str(root / "m.db")

        def store(**kw: Any) -> MilvusVectorStore:
            return MilvusVectorStore(
                uri=uri, dim=4, db_name="default", use_async_client=False, **kw
            )

        try:
            scores_and_filters(store)
            writes(store(collection_name="w", overwrite=True))
        finally:
            server_manager_instance.release_all()
    finish(STARTED)


def scores_and_filters(store: Any) -> None:
    nodes = [
        TextNode(text=t, id_=t, metadata=dict(META.get(t, EXTRA.get(t, {}))))
        for t in [*META, *EXTRA]
    ]
    want = {
        "IP": [1.0, 0.800000011920929, 0.6000000238418579, 0.0],
        "COSINE": [1.0, 0.800000011920929, 0.6000000238418579, 0.0],
        "L2": [0.0, 0.4000000059604645, 0.7999999523162842, 1.9999998807907104],
    }
    index = None
    for metric, scores in want.items():
        vs = store(collection_name=f"c_{metric}", similarity_metric=metric, overwrite=True)
        index = VectorStoreIndex(
            nodes,
            storage_context=StorageContext.from_defaults(vector_store=vs),
            embed_model=li_embedding(),
        )
        got = index.as_retriever(similarity_top_k=7).retrieve("q")
        check(
            f"li-milvus-score-{metric.lower()}-raw-engine-value",
            [[n.node.text for n in got], [n.score for n in got][:4]],
            [["a", "b", "c", "d", "g", "h", "j"], scores],
        )
    default = store(collection_name="c_IP")
    check("li-milvus-default-metric-ip", default.similarity_metric, "IP")
    index = VectorStoreIndex.from_vector_store(default, embed_model=li_embedding())

    def run(filters: MetadataFilters) -> Any:
        def go() -> str:
            got = index.as_retriever(similarity_top_k=20, filters=filters).retrieve("q")
            return "".join(sorted(n.node.text for n in got))

        return error_of(go) or go()

    cases: list[tuple[str, MetadataFilters, str]] = [
        ("color==red", one("color", "red"), "acfi"),
        ("n==1", one("n", 1), "ag"),
        ("n==1.0", one("n", 1.0), "ag"),
        ("n=='1'", one("n", "1"), "h"),
        ("flag==1", one("flag", 1), "gh"),
        ("price==1.5", one("price", 1.5), "a"),
        ("color!=red", one("color", "red", Op.NE), "bde"),
        ("missing!=x", one("missing", "x", Op.NE), ""),
        ("n>3", one("n", 3, Op.GT), "def"),
        ("n>=3", one("n", 3, Op.GTE), "cdef"),
        ("n<3", one("n", 3, Op.LT), "abg"),
        ("n<=3", one("n", 3, Op.LTE), "abcg"),
        ("color>3", one("color", 3, Op.GT), ""),
        ("color in [red,green]", one("color", ["red", "green"], Op.IN), "acdfi"),
        ("n in [1,2]", one("n", [1, 2], Op.IN), "abg"),
        ("color nin [red,green]", one("color", ["red", "green"], Op.NIN), "beghj"),
        ("tags any [x]", one("tags", ["x"], Op.ANY), "i"),
        ("tags all [x,y]", one("tags", ["x", "y"], Op.ALL), "i"),
        ("tags contains x", one("tags", "x", Op.CONTAINS), "i"),
        ("color text_match re", one("color", "re", Op.TEXT_MATCH), "acfi"),
        ("color is_empty", one("color", None, Op.IS_EMPTY), "abcdefghij"),
        (
            "AND[color==red, n>1]",
            MetadataFilters(
                filters=[
                    MetadataFilter(key="color", value="red"),
                    MetadataFilter(key="n", value=1, operator=Op.GT),
                ]
            ),
            "cf",
        ),
        (
            "OR[color==green, n==1]",
            MetadataFilters(
                filters=[
                    MetadataFilter(key="color", value="green"),
                    MetadataFilter(key="n", value=1),
                ],
                condition=FilterCondition.OR,
            ),
            "adg",
        ),
        (
            "NOT[color==red] (NOT ignored)",
            MetadataFilters(
                filters=[MetadataFilter(key="color", value="red")], condition=FilterCondition.NOT
            ),
            "acfi",
        ),
    ]
    for name, filters, want_ids in cases:
        check(f"li-milvus-filter {name}", run(filters), want_ids)
    check_error(
        "li-milvus-filter text_match_insensitive",
        run(one("color", "RE", Op.TEXT_MATCH_INSENSITIVE)),
        "ValueError",
        'Operator FilterOperator.TEXT_MATCH_INSENSITIVE ("text_match_insensitive") is not '
        "supported by Milvus.",
    )
    check_error(
        "li-milvus-filter condition None",
        run(MetadataFilters(filters=[MetadataFilter(key="color", value="red")], condition=None)),
        "AttributeError",
        "'NoneType' object has no attribute 'value'",
    )


def writes(vs: MilvusVectorStore) -> None:
    unit = common.UNIT
    vs.add([TextNode(text="a", id_="n1", metadata={"k": 1}, embedding=unit["a"])])
    vs.add([TextNode(text="b", id_="n1", metadata={"k": 2}, embedding=unit["b"])])
    check(
        "li-milvus-add-existing-node-id-replaces-lite3",
        [(n.node_id, n.text) for n in vs.get_nodes(node_ids=["n1"])],
        [("n1", "b")],
    )
    res = vs.query(VectorStoreQuery(query_embedding=unit["q"], similarity_top_k=5))
    check("li-milvus-query-after-readd", [res.ids, res.similarities], [["n1"], [0.800000011920929]])
    vs.add(
        [
            TextNode(text="a", id_="dd", embedding=unit["a"]),
            TextNode(text="b", id_="dd", embedding=unit["b"]),
        ]
    )
    check(
        "li-milvus-duplicate-ids-one-batch-last-wins-lite3",
        [(n.node_id, n.text) for n in vs.get_nodes(node_ids=["dd"])],
        [("dd", "b")],
    )
    check_error(
        "li-milvus-k-0",
        error_of(lambda: vs.query(VectorStoreQuery(query_embedding=unit["q"], similarity_top_k=0))),
        "ParamError",
        "<ParamError: (code=1, message=`limit` value 0 is illegal)>",
    )
    check_error(
        "li-milvus-wrong-dimension-add",
        error_of(lambda: vs.add([TextNode(text="z", id_="z", embedding=[1.0, 0.0])])),
        "MilvusException",
        "<MilvusException: (code=6, message=vector field 'embedding' expected dim 4, got 2)>",
    )
    err = error_of(
        lambda: vs.query(VectorStoreQuery(query_embedding=[1.0, 0.0], similarity_top_k=1))
    )
    check(
        "li-milvus-wrong-dimension-query-lite3-numpy-message",
        [err[0], "mismatch in its core dimension" in err[1]],
        ["MilvusException", True],
    )
    check("li-milvus-delete-missing-silent", error_of(lambda: vs.delete_nodes(["nope"])), None)
    check(
        "li-milvus-nested-metadata-accepted",
        error_of(
            lambda: vs.add(
                [TextNode(text="n", id_="nested", metadata={"d": {"x": 1}}, embedding=unit["a"])]
            )
        ),
        None,
    )


if __name__ == "__main__":
    main()
