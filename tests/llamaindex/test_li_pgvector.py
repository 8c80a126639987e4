"""The pgvector row: ``PlaceboVectorStore(profile="pgvector")`` as llama-index's ``PGVectorStore``.

Facts: docs/integrations/new_integrations.md (li-pgvector-*), measured by
tests/fidelity/probes/li_pgvector.py and compared at random by
tests/fidelity/test_llamaindex_pgvector.py on PostgreSQL; here they are asserted without a server.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from llama_index.core.schema import TextNode
from llama_index.core.vector_stores.types import (
    FilterCondition,
    FilterOperator,
    MetadataFilter,
    MetadataFilters,
    VectorStoreQuery,
    VectorStoreQueryMode,
)

from placeborag_core import FilterError
from placeborag_core.backends.pgvector.sqltext import PgvectorCastError, float8in
from placeborag_llamaindex import PlaceboVectorStore

Q = [1.0, 0.0, 0.0, 0.0]
ROWS: dict[str, tuple[list[float], dict[str, Any]]] = {
    "a": ([1.0, 0.0, 0.0, 0.0], {"color": "red", "n": 1, "price": 1.5}),
    "b": ([0.8, 0.6, 0.0, 0.0], {"color": "blue", "n": 2}),
    "c": ([0.6, 0.8, 0.0, 0.0], {"color": "red", "n": 3}),
    "d": ([0.0, 1.0, 0.0, 0.0], {"color": "green", "n": 5}),
    "g": ([0.0, 0.0, 0.0, 1.0], {"n": 1.0}),
    "h": ([0.0, 0.0, 0.0, 1.0], {"n": "1"}),
    "i": ([0.0, 0.0, 0.0, 1.0], {"tags": ["x", "y"], "color": "red"}),
    "j": ([0.0, 0.0, 0.0, 1.0], {}),
}


def store(*letters: str) -> PlaceboVectorStore:
    s = PlaceboVectorStore(profile="pgvector")
    s.add([TextNode(id_=k, text=k, embedding=ROWS[k][0], metadata=dict(ROWS[k][1]))
           for k in letters or ROWS])  # fmt: skip
    return s


def one(key: str, value: Any, op: FilterOperator = FilterOperator.EQ) -> MetadataFilters:
    return MetadataFilters(filters=[MetadataFilter(key=key, value=value, operator=op)])


def hits(s: PlaceboVectorStore, filters: MetadataFilters | None = None, k: int = 20) -> str:
    result = s.query(VectorStoreQuery(query_embedding=Q, similarity_top_k=k, filters=filters))
    return "".join(sorted(result.ids))


def test_score_is_one_minus_the_cosine_distance() -> None:
    result = store().query(VectorStoreQuery(query_embedding=Q, similarity_top_k=3))
    assert result.ids == ["a", "b", "c"]
    assert result.similarities == pytest.approx([1.0, 0.8, 0.6])


def test_only_cosine_is_offered() -> None:
    assert PlaceboVectorStore(profile="pgvector", metric="cosine").facts.profile == "pgvector"
    with pytest.raises(ValueError, match="PGVectorStore always queries with cosine"):
        PlaceboVectorStore(profile="pgvector", metric="l2")


@pytest.mark.parametrize(
    ("filters", "expected"),
    [
        (one("color", "red"), "aci"),
        (one("n", 1), "agh"),  # numeric: 1, 1.0 and "1" cast to the same float
        (one("n", "1"), "agh"),
        (one("n", 1.0), "agh"),
        (one("price", 1.5), "a"),
        (one("color", "red", FilterOperator.NE), "bd"),  # a missing key matches nothing
        (one("missing", "x", FilterOperator.NE), ""),
        (one("n", 3, FilterOperator.GT), "d"),
        (one("n", 3, FilterOperator.LTE), "abcgh"),
        (one("color", ["red", "green"], FilterOperator.IN), "acdi"),
        (one("n", [1, 2], FilterOperator.IN), "abh"),  # IN compares text: "1.0" is not "1"
        (one("color", ["red", "green"], FilterOperator.NIN), "b"),
        (one("tags", ["x"], FilterOperator.ANY), "i"),
        (one("tags", ["x", "y"], FilterOperator.ALL), "i"),
        (one("tags", "x", FilterOperator.CONTAINS), "i"),
        (one("color", "re%", FilterOperator.TEXT_MATCH), "acdi"),  # '%re%%': green too
        (one("color", "RE", FilterOperator.TEXT_MATCH_INSENSITIVE), "acdi"),
        (one("color", None, FilterOperator.IS_EMPTY), "ghj"),
        (
            MetadataFilters(
                filters=[MetadataFilter(key="color", value="green"),
                         MetadataFilter(key="n", value=1)],
                condition=FilterCondition.OR,
            ),
            "adgh",
        ),
    ],
)  # fmt: skip
def test_filters_are_the_sql_the_store_writes(filters: MetadataFilters, expected: str) -> None:
    # li-pgvector-filter-* rows (the probe's rows b, e, f are left out here)
    assert hits(store(), filters) == expected


def test_a_numeric_filter_fails_on_a_stored_text_that_is_no_number() -> None:
    s = store("a", "b", "i")
    s.add([TextNode(id_="t", text="t", embedding=Q, metadata={"n": True})])
    with pytest.raises(PgvectorCastError, match='double precision: "true"'):
        hits(s, one("n", 1))
    assert hits(s, one("color", "red")) == "ai"  # the error depends on the data read


def test_the_cheaper_condition_is_evaluated_first() -> None:
    s = store("a", "b")
    s.add([TextNode(id_="t", text="t", embedding=Q, metadata={"n": "abc"})])
    both = [MetadataFilter(key="n", value=1, operator=FilterOperator.GT),
            MetadataFilter(key="color", value=None, operator=FilterOperator.IS_EMPTY)]  # fmt: skip
    # IS NULL (cost 1) before the cast (cost 4): t has no color, so its cast is reached
    with pytest.raises(PgvectorCastError):
        hits(s, MetadataFilters(filters=both))
    both[1] = MetadataFilter(key="color", value="red")
    # color = 'red' (cost 2) before the cast: t has no color, its cast is never reached
    assert hits(s, MetadataFilters(filters=both)) == ""
    # equal costs: "expression = constant" goes last (an equivalence class), n > 1 first
    both[1] = MetadataFilter(key="price", value=1.5)
    with pytest.raises(PgvectorCastError):
        hits(s, MetadataFilters(filters=[both[1], both[0]]))
    inside = MetadataFilters(filters=[both[1], MetadataFilters(filters=[both[0]])],
                             condition=FilterCondition.OR)  # fmt: skip
    with pytest.raises(PgvectorCastError):
        hits(s, inside)


def test_node_ids_restrict_before_the_cast() -> None:
    s = store("a", "b")
    s.add([TextNode(id_="t", text="t", embedding=Q, metadata={"n": "abc"})])
    filters = one("n", 0, FilterOperator.GT)
    assert [n.node_id for n in s.get_nodes(node_ids=["a"], filters=filters)] == ["a"]
    many = ["a", *[f"x{i}" for i in range(9)]]  # ten ids: n/2 = 5 > the cast's 4
    with pytest.raises(PgvectorCastError):
        s.get_nodes(node_ids=many, filters=filters)


@pytest.mark.parametrize(
    ("filters", "message"),
    [
        (MetadataFilters(filters=[MetadataFilter(key="n", value=1)], condition=FilterCondition.NOT),
         "Invalid condition: FilterCondition.NOT. Must be one of ['or', 'and']"),
        (MetadataFilters(filters=[MetadataFilter(key="n", value=1)], condition=None),
         "Invalid condition: None. Must be one of ['or', 'and']"),
    ],
)  # fmt: skip
def test_not_and_none_conditions_raise_as_the_store_does(
    filters: MetadataFilters, message: str
) -> None:
    with pytest.raises(ValueError, match="Invalid condition") as caught:
        hits(store(), filters)
    assert str(caught.value) == message


@pytest.mark.parametrize(
    "filters",
    [
        one("color", "it's"),  # a quote in a pasted value
        one("co'lor", "red"),
        one("color", " :name"),  # SQLAlchemy takes :name for a bind parameter
        one("color", [], FilterOperator.IN),  # IN ()
        one("tags", [], FilterOperator.ANY),  # array[]
        one("n", "nan"),  # written nan: no such column
        one("tags", 'x"y', FilterOperator.CONTAINS),  # '["x"y"]' is no JSON
    ],
)
def test_what_postgresql_rejects_whatever_the_data_raises_filter_error(
    filters: MetadataFilters,
) -> None:
    with pytest.raises(FilterError, match="pastes filter keys and values into its SQL"):
        hits(store(), filters)


def test_python_errors_of_the_translation_are_the_same() -> None:
    with pytest.raises(TypeError):
        hits(store(), one("n", 1, FilterOperator.IN))  # 'int' object is not iterable
    with pytest.raises(TypeError):
        hits(store(), one("n", [1, 2]))  # float() of a list
    assert hits(store(), one("color", "red", FilterOperator.IN)) == ""  # 'r', 'e', 'd'


def test_float8in_is_postgresql_input() -> None:
    assert float8in(" 7 ") == 7.0
    assert float8in("0x10") == 16.0
    assert math.isnan(float8in("NaN"))
    assert float8in("-Infinity") == -math.inf
    for text in ("1_000", "true", "", "[1, 2]", "1e"):
        with pytest.raises(PgvectorCastError, match="invalid input syntax"):
            float8in(text)
    with pytest.raises(PgvectorCastError, match="out of range"):
        float8in("1e400")


def test_get_and_delete_nodes_conventions() -> None:
    s = store("a", "b", "c")
    with pytest.raises(AssertionError, match="Either node_ids or filters must be provided"):
        s.get_nodes()
    assert [n.node_id for n in s.get_nodes(node_ids=[])] == ["a", "b", "c"]
    assert s.get_nodes(node_ids=["a"])[0].embedding == ROWS["a"][0]
    s.delete_nodes()  # neither ids nor filters: nothing happens
    s.delete_nodes(node_ids=[])
    assert len(s.get_nodes(node_ids=[])) == 3
    s.delete_nodes(node_ids=[], filters=one("color", "red"))  # [] is no restriction
    assert [n.node_id for n in s.get_nodes(node_ids=[])] == ["b"]


def test_doc_ids_and_node_ids_of_a_query_are_ignored() -> None:
    result = store().query(VectorStoreQuery(query_embedding=Q, similarity_top_k=2, node_ids=["d"]))
    assert result.ids == ["a", "b"]


def test_a_query_without_embedding_lists_rows_with_score_0() -> None:
    result = store("a", "b").query(VectorStoreQuery(query_embedding=None, similarity_top_k=5))
    assert result.ids == ["a", "b"]
    assert result.similarities == [0, 0]


def test_the_query_mmr_threshold_wins_over_the_keyword() -> None:
    s = store()
    query = VectorStoreQuery(query_embedding=Q, similarity_top_k=2,
                             mode=VectorStoreQueryMode.MMR, mmr_threshold=1.0)  # fmt: skip
    assert s.query(query, mmr_threshold=0.0).ids == s.query(query).ids == ["a", "b"]


MMR_QUERY = [0.95, 0.2, 0.3, 0.1]


def test_mmr_scores_are_the_mmr_objectives() -> None:
    # li-pgvector-mmr-score-objective: the objectives of llama-index's own MMR, not 1 - distance
    from llama_index.core.indices.query.embedding_utils import get_top_k_mmr_embeddings

    letters = ["a", "b", "c", "d"]
    result = store(*letters).query(
        VectorStoreQuery(query_embedding=MMR_QUERY, similarity_top_k=3, mode="mmr")
    )
    stored = [[float(np.float32(x)) for x in ROWS[k][0]] for k in letters]  # float4 column
    objectives, picks = get_top_k_mmr_embeddings(
        MMR_QUERY, stored, similarity_top_k=3, embedding_ids=letters
    )
    assert result.ids == picks
    assert result.similarities == pytest.approx(objectives, abs=1e-7)  # exact cosines: 5e-9 off


def test_mmr_with_fewer_candidates_than_top_k_is_a_plain_search() -> None:
    # li-pgvector-mmr-fewer-than-top-k-plain: plain ids and 1 - distance scores
    s = store("a", "b", "c", "d")
    mmr = VectorStoreQuery(query_embedding=MMR_QUERY, similarity_top_k=3, mode="mmr",
                           filters=one("n", 2, FilterOperator.LTE))  # fmt: skip
    plain = VectorStoreQuery(query_embedding=MMR_QUERY, similarity_top_k=3,
                             filters=one("n", 2, FilterOperator.LTE))  # fmt: skip
    assert s.query(mmr).similarities == s.query(plain).similarities


def test_index_tuning_keywords_are_accepted_and_change_nothing() -> None:
    query = VectorStoreQuery(query_embedding=Q, similarity_top_k=2)
    assert store().query(query, ivfflat_probes=10, hnsw_ef_search=40).ids == ["a", "b"]


@pytest.mark.parametrize("argument", ["hybrid_search", "hnsw_kwargs", "connection_string"])
def test_server_arguments_raise_not_implemented(argument: str) -> None:
    with pytest.raises(NotImplementedError, match=argument):
        PlaceboVectorStore(profile="pgvector", **{argument: True})


@pytest.mark.parametrize("mode", [VectorStoreQueryMode.HYBRID, VectorStoreQueryMode.TEXT_SEARCH])
def test_hybrid_and_text_search_raise_not_implemented(mode: VectorStoreQueryMode) -> None:
    query = VectorStoreQuery(query_embedding=Q, query_str="red", similarity_top_k=2, mode=mode)
    with pytest.raises(NotImplementedError, match="PGVectorStore's hybrid_search"):
        store().query(query)
