"""Probe: llama-index ``MilvusVectorStore`` on the Milvus 2.5 core (milvus-lite 2.5.1): scores,
the expression strings it builds from ``MetadataFilters``, and writes.

llama-index-vector-stores-milvus 1.2.0 with pymilvus 2.6.9. The store is built with
``db_name="default"`` (pymilvus 2.6.9 otherwise reads the first path segment of the file URI as a
database name) and ``use_async_client=False`` (its AsyncMilvusClient refuses to start outside a
running event loop). Nodes are embedded by a table: cos(q, a..f) = 1, .8, .6, 0, -.6, -1; g..j
lie at 0. Facts:
docs/integrations/new_integrations.md#llamaindex-milvusvectorstore-li_milvus_integrationpy.

Run: python tests/fidelity/probes/li_milvus_integration.py
"""

from __future__ import annotations

import logging
import os
import shutil
import tempfile
import warnings
from typing import Any

from _probe import Facts, raised
from _probe_geometry import META as TABLE_META
from _probe_geometry import UNIT, last_line, li_embedding

warnings.simplefilter("ignore")  # milvus-lite 2.5.1 imports the deprecated pkg_resources
logging.disable(logging.CRITICAL)

from llama_index.core import StorageContext, VectorStoreIndex  # noqa: E402
from llama_index.core.indices.query.embedding_utils import (  # noqa: E402
    get_top_k_mmr_embeddings,
)
from llama_index.core.schema import TextNode  # noqa: E402
from llama_index.core.vector_stores import (  # noqa: E402
    FilterCondition,
    FilterOperator,
    MetadataFilter,
    MetadataFilters,
)
from llama_index.core.vector_stores.types import VectorStoreQuery  # noqa: E402
from llama_index.vector_stores.milvus import MilvusVectorStore  # noqa: E402
from milvus_lite.server_manager import server_manager_instance  # noqa: E402

facts = Facts(
    "llama-index MilvusVectorStore on the Milvus 2.5 core",
    "llama-index-vector-stores-milvus",
    "milvus-lite",
    "pymilvus",
)
Op = FilterOperator
META: dict[str, dict[str, Any]] = {
    **TABLE_META,
    "g": {"n": 1.0, "flag": True},
    "h": {"flag": 1, "n": "1"},
    "i": {"tags": ["x", "y"], "color": "red"},
    "j": {},
}


def vector(text: str) -> list[float]:
    """A text's vector: the ``UNIT`` entry of its last line, e4 for any other (g..j)."""
    return list(UNIT.get(last_line(text), [0.0, 0.0, 0.0, 1.0]))


INSENSITIVE = (
    'Operator FilterOperator.TEXT_MATCH_INSENSITIVE ("text_match_insensitive") is not supported '
    "by Milvus."
)


def one(key: str, value: Any, op: FilterOperator = Op.EQ) -> MetadataFilters:
    return MetadataFilters(filters=[MetadataFilter(key=key, value=value, operator=op)])


def scores_and_filters(store: Any) -> None:
    nodes = [TextNode(text=t, id_=t, metadata=dict(m)) for t, m in META.items()]
    want = {
        "IP": (list("abcihgd"), [1.0, 0.800000011920929, 0.6000000238418579, 0.0]),
        "COSINE": (list("abcihgd"), [1.0, 0.800000011920929, 0.6000000238418579, 0.0]),
        "L2": (list("abcdghi"), [0.0, 0.40000003576278687, 0.800000011920929, 2.0]),
    }
    for metric, (ids, scores) in want.items():
        vs = store(collection_name=f"c_{metric}", similarity_metric=metric, overwrite=True)
        index = VectorStoreIndex(
            nodes,
            storage_context=StorageContext.from_defaults(vector_store=vs),
            embed_model=li_embedding(vector),
        )
        got = index.as_retriever(similarity_top_k=7).retrieve("q")
        observed = [[n.node.text for n in got], [n.score for n in got][:4]]
        facts.check(f"li-milvus-score-{metric.lower()}", observed == [ids, scores], observed)
    default = store(collection_name="c_IP")
    facts.check("li-milvus-default-metric-ip", default.similarity_metric == "IP", "IP")
    index = VectorStoreIndex.from_vector_store(default, embed_model=li_embedding(vector))

    def run(filters: MetadataFilters) -> Any:
        def go() -> str:
            got = index.as_retriever(similarity_top_k=20, filters=filters).retrieve("q")
            return "".join(sorted(n.node.text for n in got))

        kind, text = raised(go)
        return go() if kind is None else (kind.__name__, text)

    two = [
        MetadataFilter(key="color", value="red"),
        MetadataFilter(key="n", value=1, operator=Op.GT),
    ]
    cases: dict[str, tuple[MetadataFilters, Any]] = {
        "li-milvus-filter-eq": (one("color", "red"), "acfi"),
        "li-milvus-filter-eq-int-float": (one("n", 1.0), "ag"),
        "li-milvus-filter-eq-bool-is-not-int": (one("flag", 1), "h"),
        "li-milvus-filter-ne-missing-matches": (one("color", "red", Op.NE), "bdeghj"),
        "li-milvus-filter-range": (one("n", 3, Op.GTE), "cdef"),
        "li-milvus-filter-range-str-vs-int": (one("color", 3, Op.GT), ""),
        "li-milvus-filter-nin-missing-matches": (one("color", ["red", "green"], Op.NIN), "beghj"),
        "li-milvus-filter-any-all-contains": (one("tags", ["x", "y"], Op.ALL), "i"),
        "li-milvus-filter-text-match-prefix": (one("color", "re", Op.TEXT_MATCH), "acfi"),
        "li-milvus-filter-is-empty-everything": (one("color", None, Op.IS_EMPTY), "abcdefghij"),
        "li-milvus-filter-and-or": (MetadataFilters(filters=two), "cf"),
        "li-milvus-filter-not-one-ignored": (
            MetadataFilters(filters=two[:1], condition=FilterCondition.NOT), "acfi"
        ),
        "li-milvus-filter-not-two-keeps-first": (
            MetadataFilters(filters=two, condition=FilterCondition.NOT), "acfi"
        ),
        "li-milvus-filter-text-match-insensitive-rejected": (
            one("color", "RE", Op.TEXT_MATCH_INSENSITIVE),
            ("ValueError", INSENSITIVE),
        ),
        "li-milvus-filter-condition-none": (
            MetadataFilters(filters=two[:1], condition=None),
            ("AttributeError", "'NoneType' object has no attribute 'value'"),
        ),
    }  # fmt: skip
    for fact, (filters, expected) in cases.items():
        got = run(filters)
        facts.check(fact, got == expected, got)
    typed_columns(run)


def invalid(expr: str, code: int = 1100) -> str:
    """The message pymilvus raises for an expression the engine rejects."""
    if code == 1100:
        return f"<MilvusException: (code=1100, message=Invalid expr: {expr}: invalid parameter)>"
    return f"<MilvusException: (code={code}, message="


def typed_columns(run: Any) -> None:
    """``doc_id`` and ``text`` are VARCHAR fields of the collection (``_add_fields_to_schema``),
    not keys of the dynamic JSON field: the engine type-checks expressions on them."""
    doc_id = {
        "doc_id == 1": run(one("doc_id", 1)),
        "doc_id > 1.5": run(one("doc_id", 1.5, Op.GT)),
        "doc_id != 1": run(one("doc_id", 1, Op.NE)),
        "array_contains_any(doc_id, ['x'])": run(one("doc_id", ["x"], Op.ANY)),
        "array_contains_all(doc_id, ['x'])": run(one("doc_id", ["x"], Op.ALL)),
        "array_contains(doc_id, 'x')": run(one("doc_id", "x", Op.CONTAINS)),
        "array_length(doc_id) == 0": run(one("doc_id", None, Op.IS_EMPTY)),
    }
    in_ints = run(one("doc_id", [1, 2], Op.IN))
    facts.check(
        "li-milvus-filter-doc-id-typed",
        all(got == ("MilvusException", invalid(expr)) for expr, got in doc_id.items())
        and in_ints[0] == "MilvusException"
        and in_ints[1].startswith(invalid("", 2000))
        and "Assert" in in_ints[1],
        f"doc_id is VARCHAR: {doc_id}; doc_id in [1, 2]: {in_ints[1][:120]}",
    )
    text = {
        "like": run(one("text", "a", Op.TEXT_MATCH)),
        "== 'b'": run(one("text", "b")),
        "== 1": run(one("text", 1)),
        "is_empty": run(one("text", None, Op.IS_EMPTY)),
    }
    facts.check(
        "li-milvus-filter-text-typed",
        text
        == {
            "like": "a",
            "== 'b'": "b",
            "== 1": ("MilvusException", invalid("text == 1")),
            "is_empty": ("MilvusException", invalid("array_length(text) == 0")),
        },
        f"the key text names the node text (a VARCHAR field): {text}",
    )


def writes(vs: MilvusVectorStore) -> None:
    vs.add([TextNode(text="a", id_="n1", metadata={"k": 1}, embedding=UNIT["a"])])
    vs.add([TextNode(text="b", id_="n1", metadata={"k": 2}, embedding=UNIT["b"])])
    got = [(n.node_id, n.text) for n in vs.get_nodes(node_ids=["n1"])]
    facts.check("li-milvus-add-existing-node-id-get-shows-new", got == [("n1", "b")], got)
    res = vs.query(VectorStoreQuery(query_embedding=UNIT["q"], similarity_top_k=5))
    seen = [res.ids, res.similarities]
    facts.check("li-milvus-add-existing-node-id-search-best-copy", seen == [["n1"], [1.0]], seen)
    got_k0 = raised(
        lambda: vs.query(VectorStoreQuery(query_embedding=UNIT["q"], similarity_top_k=0))
    )
    facts.check(
        "li-milvus-k-0",
        got_k0[0] is not None and "`limit` value 0 is illegal" in got_k0[1],
        got_k0[1],
    )
    add = raised(lambda: vs.add([TextNode(text="z", id_="z", embedding=[1.0, 0.0])]))
    facts.check(
        "li-milvus-wrong-dimension-add",
        add[0] is not None and "the length(2) of float data should divide the dim(4)" in add[1],
        add[1],
    )
    query = raised(
        lambda: vs.query(VectorStoreQuery(query_embedding=[1.0, 0.0], similarity_top_k=1))
    )
    facts.check(
        "li-milvus-wrong-dimension-query",
        query[0] is not None and "vector dimension mismatch" in query[1],
        query[1][:100],
    )
    deleted = raised(lambda: vs.delete_nodes(["nope"]))
    facts.check("li-milvus-delete-missing-silent", deleted[0] is None, deleted)
    nested = raised(
        lambda: vs.add(
            [TextNode(text="n", id_="nested", metadata={"d": {"x": 1}}, embedding=UNIT["a"])]
        )
    )
    facts.check("li-milvus-nested-metadata-accepted", nested[0] is None, nested)


MMR_QUERY = [0.95, 0.2, 0.3, 0.1]
"""An MMR query no stored vector equals, so the objectives after the first pick differ."""


def mmr(vs: MilvusVectorStore) -> None:
    """MMR mode: what ``NodeWithScore.score`` holds, and a prefetch with fewer than top_k."""
    texts = ["a", "b", "c", "d", "e", "f"]
    vs.add([TextNode(text=t, id_=t, embedding=UNIT[t]) for t in texts])
    mode = {"similarity_top_k": 3, "mode": "mmr"}
    res = vs.query(VectorStoreQuery(query_embedding=MMR_QUERY, **mode))  # type: ignore[arg-type]
    objectives, picks = get_top_k_mmr_embeddings(
        MMR_QUERY, [UNIT[t] for t in texts], similarity_top_k=3, embedding_ids=texts
    )
    seen = [res.ids, res.similarities]
    facts.check(
        "li-milvus-mmr-score-objective",
        res.ids == picks
        and all(abs(a - b) < 1e-6 for a, b in zip(res.similarities, objectives, strict=True)),
        seen,
    )
    by_query = vs.query(VectorStoreQuery(query_embedding=MMR_QUERY, mmr_threshold=0.1, **mode)).ids  # type: ignore[arg-type]
    by_keyword = vs.query(
        VectorStoreQuery(query_embedding=MMR_QUERY, **mode),  # type: ignore[arg-type]
        mmr_threshold=0.1,
    ).ids
    facts.check(
        "li-milvus-mmr-threshold-keyword-only",
        by_query == res.ids and by_keyword != res.ids,
        f"VectorStoreQuery(mmr_threshold=0.1) ignored: {by_query}; the keyword counts: "
        f"{by_keyword}",
    )
    plain = vs.query(VectorStoreQuery(query_embedding=MMR_QUERY, similarity_top_k=3)).ids
    outside = [
        vs.query(VectorStoreQuery(query_embedding=MMR_QUERY, similarity_top_k=3), mmr_threshold=t)
        for t in (1.5, -0.1, "x")
    ]
    wide = vs.query(VectorStoreQuery(query_embedding=MMR_QUERY, **mode), mmr_threshold=1.5)  # type: ignore[arg-type]
    wide_objectives, wide_picks = get_top_k_mmr_embeddings(
        MMR_QUERY,
        [UNIT[t] for t in texts],
        similarity_top_k=3,
        embedding_ids=texts,
        mmr_threshold=1.5,
    )
    facts.check(
        "li-milvus-mmr-threshold-unchecked",
        all(r.ids == plain for r in outside)
        and wide.ids == wide_picks
        and all(abs(a - b) < 1e-6 for a, b in zip(wide.similarities, wide_objectives, strict=True)),
        f"outside MMR mode mmr_threshold is ignored, whatever it is ({plain}); MMR mode takes "
        f"1.5 unchecked: {wide.ids}, {wide.similarities}",
    )
    few = one("id", ["a", "b"], Op.IN)
    res = vs.query(VectorStoreQuery(query_embedding=MMR_QUERY, filters=few, **mode))  # type: ignore[arg-type]
    objectives, picks = get_top_k_mmr_embeddings(
        MMR_QUERY, [UNIT["a"], UNIT["b"]], similarity_top_k=3, embedding_ids=["a", "b"]
    )
    seen = [res.ids, res.similarities]
    facts.check(
        "li-milvus-mmr-fewer-than-top-k-no-fallback",
        res.ids == picks
        and all(abs(a - b) < 1e-6 for a, b in zip(res.similarities, objectives, strict=True)),
        seen,
    )


def node_calls(store: Any) -> None:
    """``get_nodes``, ``delete_nodes`` and ``clear`` (nodes a..f, color as in the table)."""

    def filled(name: str) -> MilvusVectorStore:
        vs = store(collection_name=name, overwrite=True)
        vs.add(
            [
                TextNode(text=t, id_=t, metadata=dict(TABLE_META[t]), embedding=UNIT[t])
                for t in "abcdef"
            ]
        )
        return vs

    def left(vs: MilvusVectorStore) -> str:
        return "".join(sorted(n.node_id for n in vs.get_nodes(filters=one("n", 0, Op.GT))))

    vs = filled("n")
    for fact, call, expected in [
        ("li-milvus-get-nodes-no-arguments", vs.get_nodes,
         ("ValueError", "Either node_ids or filters must be provided.")),
        ("li-milvus-get-nodes-ids-and-filters",
         lambda: vs.get_nodes(["a"], filters=one("color", "red")),
         ("ValueError", "Only one of node_ids or filters can be provided.")),
    ]:  # fmt: skip
        got = raised(call)
        facts.check(fact, (got[0].__name__ if got[0] else None, got[1]) == expected, got)
    got = raised(lambda: vs.get_nodes([]))
    facts.check(
        "li-milvus-get-nodes-empty-ids-raises",
        got[0] is not None and got[0].__name__ == "MilvusException",
        got,
    )
    nodes = vs.get_nodes(["b"])
    facts.check(
        "li-milvus-get-nodes-with-embedding",
        [n.embedding for n in nodes] == [[0.800000011920929, 0.6000000238418579, 0.0, 0.0]],
        [n.embedding for n in nodes],
    )
    # ids and filters: the ids become one more filter under the filters' condition
    red_or = MetadataFilters(
        filters=[MetadataFilter(key="color", value="green"), MetadataFilter(key="n", value=5)],
        condition=FilterCondition.OR,
    )
    vs.delete_nodes(["a", "b"], filters=red_or)
    facts.check("li-milvus-delete-nodes-ids-or-filters-union", left(vs) == "cf", left(vs))
    vs = filled("n2")
    vs.delete_nodes(["a", "b"], filters=one("color", "red"))
    facts.check("li-milvus-delete-nodes-ids-and-filters-both", left(vs) == "bcdef", left(vs))
    for fact, call in [
        ("li-milvus-delete-nodes-empty-ids-raises", lambda: vs.delete_nodes([])),
        ("li-milvus-delete-nodes-no-arguments-raises", vs.delete_nodes),
    ]:
        got = raised(call)
        facts.check(
            fact,
            got[0] is not None and got[0].__name__ == "ParamError" and left(vs) == "bcdef",
            got,
        )
    vs.clear()
    got = raised(lambda: vs.query(VectorStoreQuery(query_embedding=UNIT["q"], similarity_top_k=1)))
    facts.check(
        "li-milvus-clear-drops-the-collection",
        got[0] is not None and got[0].__name__ == "MilvusException",
        got,
    )
    after_clear(vs)


def after_clear(vs: MilvusVectorStore) -> None:
    """Each call on a store whose ``clear()`` dropped its collection (``n2``): what it raises."""

    def shown(call: Any) -> Any:
        kind, text = raised(call)
        return None if kind is None else (kind.__name__, text)

    def query(embedding: list[float] | None) -> Any:
        return vs.query(VectorStoreQuery(query_embedding=embedding, similarity_top_k=3))

    missing = "<MilvusException: (code=100, message=collection not found)>"
    describe = "<DescribeCollectionException: (code=100, message=collection not found)>"
    schema = "<MilvusException: (code=100, message=Can not find n2's schema: collection not found)>"
    calls: list[tuple[str, Any, Any]] = [
        ("li-milvus-after-clear-query", lambda: query(UNIT["q"]), ("MilvusException", schema)),
        ("li-milvus-after-clear-query-no-embedding", lambda: query(None),
         ("ParamError", "<ParamError: (code=1, message=`search_data` value [None] is illegal)>")),
        ("li-milvus-after-clear-get-nodes-ids", lambda: vs.get_nodes(["a"]),
         ("DescribeCollectionException", describe)),
        ("li-milvus-after-clear-get-nodes-filters",
         lambda: vs.get_nodes(filters=one("n", 0, Op.GT)), ("MilvusException", missing)),
        ("li-milvus-after-clear-delete-nodes", lambda: vs.delete_nodes(["a"]),
         ("MilvusException", missing)),
        ("li-milvus-after-clear-delete", lambda: vs.delete("x"), ("MilvusException", missing)),
        ("li-milvus-after-clear-clear-again", vs.clear, None),
    ]  # fmt: skip
    for fact, call, expected in calls:
        got = shown(call)
        facts.check(fact, got == expected, got)
    added = shown(lambda: vs.add([TextNode(text="d", id_="d", embedding=UNIT["d"])]))
    later = [shown(lambda: query(UNIT["q"])), shown(lambda: vs.get_nodes(["d"]))]
    facts.check(
        "li-milvus-after-clear-add",
        added == ("DescribeCollectionException", describe)
        and later == [("MilvusException", schema), ("DescribeCollectionException", describe)],
        f"add: {added}; then query, get_nodes: {later}",
    )


def call_kwargs(vs: MilvusVectorStore) -> None:
    """The per-call keywords the integration reads, at their no-op values."""
    import inspect

    nodes = [TextNode(text=t, id_=t, embedding=UNIT[t]) for t in "abc"]
    added = vs.add(nodes[:2], force_flush=True, milvus_partition_name=None)
    added += vs.add(nodes[2:], force_flush=False)
    top = VectorStoreQuery(query_embedding=UNIT["q"], similarity_top_k=3)
    plain = vs.query(top).ids
    scoped = vs.query(top, milvus_partition_names=None).ids
    got = [n.node_id for n in vs.get_nodes(["a", "b"], milvus_partition_names=None)]
    vs.delete_nodes(["a"], milvus_partition_name=None)
    vs.delete("x", milvus_partition_name=None)
    left = sorted(n.node_id for n in vs.get_nodes(["a", "b", "c"]))
    source = inspect.getsource(MilvusVectorStore.async_add)
    facts.check(
        "li-milvus-call-kwargs",
        added == ["a", "b", "c"]
        and plain == scoped == ["a", "b", "c"]
        and sorted(got) == ["a", "b"]
        and left == ["b", "c"]
        and 'raise NotImplementedError("force_flush is not supported in async mode.")' in source,
        f"add(force_flush=True/False, milvus_partition_name=None) -> {added}; query and "
        f"get_nodes with milvus_partition_names=None: {scoped}, {got}; delete_nodes and delete "
        f"with milvus_partition_name=None leave {left}; async_add raises for a true force_flush "
        "(after inserting, read from the source)",
    )


def nan_query(vs: MilvusVectorStore) -> None:
    """A NaN in the query vector: milvus-lite answers nothing."""
    vs.add([TextNode(text=t, id_=t, embedding=UNIT[t]) for t in "abc"])
    nan = float("nan")
    got = [
        vs.query(VectorStoreQuery(query_embedding=q, similarity_top_k=2))
        for q in ([nan] * 4, [nan, *UNIT["q"][1:]])
    ]
    facts.check(
        "li-milvus-nan-query",
        all(r.ids == [] and r.similarities == [] and r.nodes == [] for r in got),
        f"a NaN in the query vector answers nothing, no error: {[(r.ids, r.nodes) for r in got]}",
    )


INF_NODES = {
    "a": [1.0, 0.0, 0.0, 0.0],
    "b": [0.8, 0.6, 0.0, 0.0],
    "c": [0.6, 0.8, 0.0, 0.0],
    "d": [0.0, 0.0, 0.0, 1.0],
    "e": [0.0, 0.0, 1.0, 0.0],
    "f": [0.5, 0.0, 0.0, 0.5],
    "g": [-1.0, 0.0, 0.0, 0.0],
}


def inf_query(store: Any) -> None:
    """An infinite component in the query vector: under IP the nodes whose inner product is
    +inf, the first top_k in insertion order answered in reverse; nothing under COSINE/L2."""
    inf = float("inf")
    got: dict[str, dict[tuple[tuple[float, ...], int], tuple[list[str], list[float]]]] = {}
    for metric in ("IP", "COSINE", "L2"):
        vs = store(
            collection_name=f"inf_{metric.lower()}", overwrite=True, similarity_metric=metric
        )
        vs.add([TextNode(text=t, id_=t, embedding=e) for t, e in INF_NODES.items()])
        got[metric] = {}
        for q in ([inf, 0.0, 0.0, 0.0], [-inf, 0.0, 0.0, 0.0], [inf, inf, 0.0, 0.0]):
            for k in (1, 2, 9):
                r = vs.query(VectorStoreQuery(query_embedding=q, similarity_top_k=k))
                got[metric][(tuple(q), k)] = (list(r.ids or []), list(r.similarities or []))
    ip = {(q[:2], k): ids for (q, k), (ids, _) in got["IP"].items()}
    facts.check(
        "li-milvus-inf-query",
        ip
        == {
            ((inf, 0.0), 1): ["a"],
            ((inf, 0.0), 2): ["b", "a"],
            ((inf, 0.0), 9): ["f", "c", "b", "a"],
            ((-inf, 0.0), 1): ["g"],
            ((-inf, 0.0), 2): ["g"],
            ((-inf, 0.0), 9): ["g"],
            ((inf, inf), 1): ["b"],
            ((inf, inf), 2): ["c", "b"],
            ((inf, inf), 9): ["c", "b"],
        }
        and all(s == inf for _, scores in got["IP"].values() for s in scores)
        and all(r == ([], []) for m in ("COSINE", "L2") for r in got[m].values()),
        "an infinite component in the query vector raises nothing: IP answers the nodes whose "
        "inner product is +inf (NaN and -inf ones dropped), the first top_k in insertion order "
        f"in reverse, scored inf: {ip}; COSINE and L2 answer nothing",
    )


def main() -> None:
    root = tempfile.mkdtemp(prefix="placeborag-li-milvus-probe-")
    os.environ["GLOG_log_dir"] = root  # noqa: SIM112 - glog's own variable: no logs in /tmp
    uri = os.path.join(root, "m.db")

    def store(**kw: Any) -> MilvusVectorStore:
        return MilvusVectorStore(uri=uri, dim=4, db_name="default", use_async_client=False, **kw)

    try:
        scores_and_filters(store)
        writes(store(collection_name="w", overwrite=True))
        mmr(store(collection_name="mmr", overwrite=True))
        node_calls(store)
        call_kwargs(store(collection_name="kw", overwrite=True))
        nan_query(store(collection_name="nan", overwrite=True))
        inf_query(store)
    finally:
        server_manager_instance.release_all()
        shutil.rmtree(root, ignore_errors=True)
    facts.done()


if __name__ == "__main__":
    main()
