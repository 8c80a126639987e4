"""Probe: llama-index ``LanceDBVectorStore`` -- scores, MetadataFilters translation, writes.

Integration: llama-index-vector-stores-lancedb 0.6.0 on lancedb 0.40 (embedded, tmp dir). Nodes go
through ``VectorStoreIndex`` with the unit-vector table embedding from _probe_geometry.
Run: python tests/fidelity/probes/li_lancedb.py
"""

from __future__ import annotations

import re
import time
import warnings
from typing import Any

import _probe_geometry as common
from _llamaindex import filters as conditions
from _llamaindex import one
from _probe import check, check_error, error_of, finish, scratch_dir
from _probe_geometry import META, li_embedding
from llama_index.core import StorageContext, VectorStoreIndex
from llama_index.core.schema import TextNode
from llama_index.core.vector_stores import (
    FilterCondition,
    FilterOperator,
    MetadataFilter,
    MetadataFilters,
)
from llama_index.core.vector_stores.types import VectorStoreQuery
from llama_index.vector_stores.lancedb import LanceDBVectorStore

STARTED = time.perf_counter()
_OPERATORS = (("!=", "-ne-"), ("==", "-eq-"), (">=", "-gte-"), ("<=", "-lte-"), (">", "-gt-"),
              ("<", "-lt-"))  # fmt: skip


def _slug(name: str) -> str:
    """A filter case's name as a fact id part (``n>=3`` -> ``n-gte-3``)."""
    for op, word in _OPERATORS:
        name = name.replace(op, word)
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


EXTRA: dict[str, dict[str, Any]] = {"g": {"n": 1.0, "color": "x"}, "h": {"n": 2, "color": "y"}}
Op = FilterOperator


def main() -> None:
    for t in EXTRA:
        common.UNIT[t] = [0.0, 0.0, 0.0, 1.0]
    with warnings.catch_warnings(), scratch_dir("li-lancedb") as root:
        warnings.simplefilter("ignore")
        uri = str(root / "db")
        vs = LanceDBVectorStore(uri=uri, table_name="t")
        check(
            "li-lancedb-defaults",
            [vs.mode, vs.query_type, vs.nprobes, vs.refine_factor],
            ["overwrite", "vector", 20, None],
        )
        nodes = [
            TextNode(text=t, id_=t, metadata=dict(META.get(t, EXTRA.get(t, {}))))
            for t in [*META, *EXTRA]
        ]
        index = VectorStoreIndex(
            nodes,
            storage_context=StorageContext.from_defaults(vector_store=vs),
            embed_model=li_embedding(),
        )
        retrieval(index)
        check(
            "li-lancedb-metadata-struct-double-for-int-and-float",
            str(vs.table.schema.field("metadata").type.field("n").type),
            "double",
        )
        ne = LanceDBVectorStore(uri=uri, table_name="ne")
        ne_index = VectorStoreIndex(
            [
                TextNode(text=t, id_=t, metadata={"color": c})
                for t, c in (("a", "red"), ("b", "darkred"), ("c", "blue"))
            ],
            storage_context=StorageContext.from_defaults(vector_store=ne),
            embed_model=li_embedding(),
        )
        got = ne_index.as_retriever(
            similarity_top_k=5, filters=one("color", "red", Op.NE)
        ).retrieve("q")
        check("li-lancedb-ne-is-not-like-substring", [n.node.text for n in got], ["c"])
        writes(LanceDBVectorStore(uri=uri, table_name="w"))
    finish(STARTED)


def retrieval(index: VectorStoreIndex) -> None:
    got = index.as_retriever(similarity_top_k=8).retrieve("q")
    check(
        "li-lancedb-score-exp-minus-l2-squared",
        [(n.node.text, n.score) for n in got],
        [
            ("a", 1.0),
            ("b", 0.6703200340270996),
            ("c", 0.4493289291858673),
            ("d", 0.1353352814912796),
            ("g", 0.1353352814912796),
            ("h", 0.1353352814912796),
            ("e", 0.04076218977570534),
            ("f", 0.018315639346837997),
        ],
    )

    def run(filters: MetadataFilters, k: int = 20) -> Any:
        def go() -> str:
            found = index.as_retriever(similarity_top_k=k, filters=filters).retrieve("q")
            return "".join(sorted(n.node.text for n in found))

        return error_of(go) or go()

    cases: list[tuple[str, MetadataFilters, str]] = [
        ("color==red", one("color", "red"), "acf"),
        ("n==1", one("n", 1), "ag"),
        ("n==1.0", one("n", 1.0), "ag"),
        ("price==1.5", one("price", 1.5), "a"),
        ("color!=red", one("color", "red", Op.NE), "bdegh"),
        ("n>3", one("n", 3, Op.GT), "def"),
        ("n>=3", one("n", 3, Op.GTE), "cdef"),
        ("n<3", one("n", 3, Op.LT), "abgh"),
        ("n<=3", one("n", 3, Op.LTE), "abcgh"),
        ("color in [red,green]", one("color", ["red", "green"], Op.IN), "acdf"),
        ("n in [1,2]", one("n", [1, 2], Op.IN), "abgh"),
        ("color text_match re", one("color", "re", Op.TEXT_MATCH), "acdf"),
        ("AND[color==red, n>1]", conditions(("color", "==", "red"), ("n", ">", 1)), "cf"),
        (
            "OR[color==green, n==1]",
            conditions(("color", "==", "green"), ("n", "==", 1), condition="or"),
            "adg",
        ),
        (
            "NOT[color==red] (NOT ignored)",
            MetadataFilters(
                filters=[MetadataFilter(key="color", value="red")], condition=FilterCondition.NOT
            ),
            "acf",
        ),
        (
            "condition None (treated as AND)",
            MetadataFilters(filters=[MetadataFilter(key="color", value="red")], condition=None),
            "acf",
        ),
    ]
    for name, filters, want in cases:
        check(f"li-lancedb-filter-{_slug(name)}", run(filters), want)
    check(
        "li-lancedb-prefilter-top1",
        [run(one("color", "blue"), k=1), run(one("color", "green"), k=1)],
        ["b", "d"],
    )
    for op in (Op.NIN, Op.CONTAINS, Op.IS_EMPTY):
        check(
            f"li-lancedb-filter-unsupported-{op.value.replace('_', '-')}",
            run(one("color", ["x"] if op == Op.NIN else "x", op)),
            ("KeyError", f"<FilterOperator.{op.name}: '{op.value}'>"),
        )
    check_error(
        "li-lancedb-filter-missing-key",
        run(one("missing", "x", Op.NE)),
        "ValueError",
        "Invalid input, Schema error: No field named missing.",
    )
    check_error(
        "li-lancedb-filter-str-on-double",
        run(one("n", "1")),
        "ValueError",
        "Invalid input, Error resolving filter expression metadata.n = '1': Invalid user "
        'input: Received literal Utf8("1")',
    )
    check_error(
        "li-lancedb-filter-int-on-string",
        run(one("color", 3, Op.GT)),
        "ValueError",
        "Invalid input, Error resolving filter expression metadata.color > 3",
    )


def writes(vs: LanceDBVectorStore) -> None:
    unit = common.UNIT
    vs.add([TextNode(text="a", id_="n1", metadata={"k": 1}, embedding=unit["a"])])
    vs.add([TextNode(text="b", id_="n1", metadata={"k": 1}, embedding=unit["b"])])
    check("li-lancedb-add-existing-node-id-appends", vs.table.count_rows(), 2)
    res = vs.query(VectorStoreQuery(query_embedding=unit["q"], similarity_top_k=5))
    check(
        "li-lancedb-query-returns-duplicates",
        [res.ids, res.similarities],
        [["n1", "n1"], [1.0, 0.6703200340270996]],
    )
    check_error(
        "li-lancedb-k-0",
        error_of(lambda: vs.query(VectorStoreQuery(query_embedding=unit["q"], similarity_top_k=0))),
        "ValueError",
        "Limit is required for ANN/KNN queries",
    )
    check_error(
        "li-lancedb-wrong-dimension-query",
        error_of(
            lambda: vs.query(VectorStoreQuery(query_embedding=[1.0, 0.0], similarity_top_k=1))
        ),
        "ValueError",
        "Invalid input, query dim(2) doesn't match the column vector vector dim(4)",
    )
    check_error(
        "li-lancedb-new-metadata-key",
        error_of(
            lambda: vs.add(
                [TextNode(text="z", id_="z2", metadata={"other": 1}, embedding=unit["a"])]
            )
        ),
        "ValueError",
        "Invalid input, field 'other' does not exist in table schema",
    )
    backticks = "Invalid input, Error optimizing sql filter: id in (`n1`)"
    check_error(
        "li-lancedb-get-nodes-broken-backticks",
        error_of(lambda: vs.get_nodes(node_ids=["n1"])),
        "ValueError",
        backticks,
    )
    check_error(
        "li-lancedb-delete-nodes-broken-backticks",
        error_of(lambda: vs.delete_nodes(["n1"])),
        "ValueError",
        backticks,
    )
    check_error(
        "li-lancedb-delete-ref-doc-unquoted",
        error_of(lambda: vs.delete("nope")),
        "ValueError",
        "Invalid input, Schema error: No field named nope.",
    )


if __name__ == "__main__":
    main()
