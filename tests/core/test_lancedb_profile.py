"""The lancedb profile without LanceDB installed: its writes, schema, SQL reader and dict filters.

Each expectation here is a measured fact of docs/engines/lancedb.md (the fidelity suite compares
the same behaviour with LanceDB itself on drawn cases); these tests keep the core's behaviour
pinned where the engine is not installed.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from placeborag_core import FakeVectorStore
from placeborag_core.backends import PROFILES, PayloadLayout
from placeborag_core.backends.lancedb.arrow import ArrowInvalid, ArrowTypeError, infer_column
from placeborag_core.backends.lancedb.filters import ENGINE_LAYOUT, SqlFilter, where_to_sql
from placeborag_core.backends.lancedb.profile import LanceDimensionError
from placeborag_core.errors import FilterError

V = [1.0, 0.0]
PATH = "/root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f"


def sql(text: str) -> Any:
    reader = PROFILES["lancedb"].native_filter
    assert reader is not None
    return reader(text, ENGINE_LAYOUT).where


def store(metric: str = "l2") -> FakeVectorStore:
    s = FakeVectorStore(profile="lancedb", metric=metric)
    s.upsert_many(
        [
            ("r1", None, {"color": "red", "n": 1, "tags": ["x", "y"], "flag": None}, [1.0, 0.0]),
            ("r2", None, {"color": "blue", "n": 5}, [1.0, 1.0]),
            ("r3", None, {"n": 10}, [1.0, 2.0]),
            ("r4", None, {"color": "green"}, [1.0, 3.0]),
            ("r8", None, {"flag": True, "n": 1.0}, [1.0, 4.0]),
            ("r9", None, {"flag": False, "color": ""}, [1.0, 5.0]),
        ]
    )
    return s


def ids(s: FakeVectorStore, where: Any = None, k: int = 10, **kw: Any) -> list[str]:
    return [m.id for m in s.query(V, k, where=where, **kw)]


def test_scores_are_squared_l2_one_minus_cos_and_one_minus_dot() -> None:
    docs = {"same": [1.0, 0.0, 0.0], "twice": [2.0, 0.0, 0.0], "c34": [3.0, 4.0, 0.0]}
    for metric, want in (
        ("l2", {"same": 0.0, "twice": 1.0, "c34": 20.0}),
        ("cosine", {"same": 0.0, "twice": 0.0, "c34": 0.4}),
        ("dot", {"same": 0.0, "twice": -1.0, "c34": -2.0}),
    ):
        s = FakeVectorStore(profile="lancedb", metric=metric)
        s.upsert_many([(i, None, {}, v) for i, v in docs.items()])
        got = {m.id: m.score for m in s.query([1.0, 0.0, 0.0], 5)}
        assert got == pytest.approx(want, abs=1e-6), metric


def test_zero_vectors_leave_a_cosine_search_and_nan_queries_match_nothing() -> None:
    s = FakeVectorStore(profile="lancedb", metric="cosine")
    s.upsert_many([("a", None, {}, [1.0, 0.0]), ("zero", None, {}, [0.0, 0.0])])
    assert ids(s) == ["a"]
    assert s.query([0.0, 0.0], 2) == []
    assert s.query([float("nan"), 0.0], 2) == []


def test_k_rules() -> None:
    s = store()
    for k in (0, -1, None):
        with pytest.raises(ValueError, match=r"^Limit is required for ANN/KNN queries$"):
            s.query(V, k)
    with pytest.raises(ValueError, match=r"1 validation error for Query"):
        s.query(V, 1.5)  # type: ignore[arg-type]


def test_merge_insert_moves_updated_rows_to_the_end_and_merges_the_written_columns() -> None:
    s = FakeVectorStore(profile="lancedb")
    s.upsert_many([(i, None, {"n": k, "s": "x"}, V) for k, i in enumerate("abcde")])
    s.upsert_many([("c", None, {"n": 9}, V), ("z", None, {"n": 9}, V), ("a", None, {"s": None}, V)])
    assert s.ids() == ["b", "d", "e", "c", "a", "z"]
    assert s.get("c") is not None
    assert s.get("c").metadata == {"n": 9, "s": "x"}
    # the batch's columns are its first row's keys: a's "s" is dropped, its "n" set to NULL
    assert s.get("a").metadata == {"n": None, "s": "x"}  # type: ignore[union-attr]
    assert s.get("z").metadata == {"n": 9, "s": None}  # type: ignore[union-attr]


def test_append_keeps_duplicate_ids_and_delete_removes_every_row() -> None:
    s = FakeVectorStore(profile="lancedb")
    s.append_many([("a", None, {"n": 1}, V), ("b", None, {"n": 2}, V)])
    s.append_many([("a", None, {"n": 3}, [0.0, 1.0]), ("a", None, {"n": 4}, V)])
    assert s.ids() == ["a", "b", "a", "a"]
    assert len(s) == 4
    assert [(m.id, m.metadata["n"]) for m in s.query(V, 10)] == [
        ("a", 1), ("b", 2), ("a", 4), ("a", 3),
    ]  # fmt: skip
    picks = s.max_marginal_relevance(V, 4, fetch_k=4, lambda_mult=1.0)
    assert [(m.id, m.metadata["n"]) for m in picks] == [("a", 1), ("b", 2), ("a", 4), ("a", 3)]
    s.upsert_many([("a", None, {"n": 7}, V)])  # merge_insert updates every copy
    assert list(s.snapshot()[2]) == [{"n": 2}, {"n": 7}, {"n": 7}, {"n": 7}]
    assert s.delete(["a"]) == 1
    assert s.ids() == ["b"]


def test_a_repeated_stored_id_in_an_upsert_is_ambiguous_a_new_one_is_inserted_twice() -> None:
    s = FakeVectorStore(profile="lancedb")
    s.upsert_many([("a", None, {}, V)])
    s.upsert_many([("q", None, {}, V), ("q", None, {}, V)])
    assert s.ids() == ["a", "q", "q"]
    with pytest.raises(ValueError, match=r'Ambiguous merge inserts .* \(id = "a"\)'):
        s.upsert_many([("a", None, {}, V), ("a", None, {}, V)])


def test_a_filtered_delete_of_many_rows_compacts_only_after_every_row_went() -> None:
    # Enough rows go for the partition to compact; row numbers must stay valid until the end,
    # or the ids reached after a compaction lose the wrong rows (or none).
    s = FakeVectorStore(profile="lancedb")
    s.upsert_many([(f"r{i}", None, {"n": i}, V) for i in range(3000)])
    s.append_many([(f"d{j}", "keep", {"n": 5000}, V) for j in range(10)])
    s.append_many([(f"d{j}", "drop", {"n": 0}, V) for j in range(10)])
    assert s.delete(where={"n": {"$lt": 2000}}) == 2010
    assert len(s) == 1010
    assert {r.text for r in s.select(where={"n": 5000})} == {"keep"}


def test_other_profiles_have_no_append() -> None:
    with pytest.raises(ValueError, match="keys records by id: it has no append write"):
        FakeVectorStore(profile="chroma").append_many([("a", None, {}, V)])


def test_the_first_row_names_the_columns_and_later_writes_are_cast() -> None:
    s = FakeVectorStore(profile="lancedb")
    s.upsert_many([("a", None, {"i": 1}, V), ("b", None, {"i": 2, "m": 1}, V)])
    assert s.get("b").metadata == {"i": 2}  # type: ignore[union-attr]  # m dropped
    s.append_many([("c", None, {"i": 2.5}, V)])  # add truncates
    assert s.get("c").metadata == {"i": 2}  # type: ignore[union-attr]
    with pytest.raises(RuntimeError, match=r"Float value 2\.500000 was truncated"):
        s.upsert_many([("d", None, {"i": 2.5}, V)])  # merge_insert refuses
    with pytest.raises(ValueError, match="field 'x1' does not exist in table schema"):
        s.append_many([("d", None, {"x1": 1}, V)])
    with pytest.raises(ValueError, match="Field 'x1' not found in target schema"):
        s.upsert_many([("d", None, {"x1": 1}, V)])
    assert s.ids() == ["a", "b", "c"]


def test_an_overwrite_replaces_the_rows_and_the_schema() -> None:
    # table.add(mode="overwrite") (langchain-community LanceDB's default mode)
    s = FakeVectorStore(profile="lancedb")
    s.append_many([("a", None, {"i": 1}, V), ("b", None, {"i": 2}, V)])
    s.append_many([("c", None, {"x": "s"}, V)], replace=True)
    assert s.ids() == ["c"]
    assert s.get("c").metadata == {"x": "s"}  # type: ignore[union-attr]
    with pytest.raises(ValueError, match="field 'i' does not exist in table schema"):
        s.append_many([("d", None, {"i": 1}, V)])


def test_a_delete_by_filter_removes_the_matching_rows_only() -> None:
    # LanceDB has no primary key: table.delete(where) drops the rows the filter matches
    s = FakeVectorStore(profile="lancedb")
    s.append_many([("a", None, {"n": 1}, V), ("b", None, {"n": 2}, V), ("a", None, {"n": 3}, V)])
    assert s.delete(where=sql("n >= 3")) == 1
    assert [(m.id, m.metadata["n"]) for m in s.query(V, 5)] == [("a", 1), ("b", 2)]
    assert s.ids() == ["a", "b"]
    assert s.delete(where=sql("n <= 2")) == 2
    assert s.ids() == []


def test_pyarrow_inference_errors() -> None:
    with pytest.raises(ArrowTypeError, match="Expected integer, got bool"):
        infer_column([1, True, 1.5])
    assert infer_column([1, 1.5, True]).pyarrow == "double"
    with pytest.raises(ArrowInvalid, match="cannot mix list and non-list"):
        infer_column([1, ["x"]])


def test_sql_filter_results_with_three_valued_logic() -> None:
    s = store()
    assert ids(s, sql("color = 'red'")) == ["r1"]
    assert ids(s, sql("color != 'red'")) == ["r2", "r4", "r9"]
    assert ids(s, sql("NOT (color = 'red')")) == ["r2", "r4", "r9"]
    assert ids(s, sql("n = 1")) == ["r1", "r8"]
    assert ids(s, sql("color IN ('red', NULL)")) == ["r1"]
    assert ids(s, sql("color NOT IN ('red', NULL)")) == []
    assert ids(s, sql("flag IS NOT FALSE")) == ["r1", "r2", "r3", "r4", "r8"]
    assert ids(s, sql("array_has(tags, 'y') OR n BETWEEN 4 AND 10")) == ["r1", "r2", "r3"]
    assert ids(s, sql("color LIKE 'r%' OR color ILIKE 'G%'")) == ["r1", "r4"]
    assert ids(s, sql("COLOR = 'red' junk")) == ["r1"]


def test_post_filter_per_query_returns_fewer_than_k() -> None:
    s = store()
    assert ids(s, sql("color = 'green'"), k=1) == ["r4"]
    assert ids(s, sql("color = 'green'"), k=1, filter_mode="post") == []


@pytest.mark.parametrize(
    ("where", "message"),
    [
        (
            "flag = 1",
            (
                "Invalid input, Error resolving filter expression flag = 1: Invalid user input: "
                "Received literal Int64(1) and could not convert to literal of type 'Boolean', "
                f"{PATH}/lance-datafusion-13.0.0/src/logical_expr.rs:23:88"
            ),
        ),
        (
            "nosuch = 1",
            (
                "Invalid input, Schema error: No field named nosuch. Valid fields are `id`, "
                "`vector`, `color`, `n`, `tags`, `flag`."
            ),
        ),
        (
            "n >",
            (
                "Invalid input, Error parsing statement: SELECT 1 FROM t WHERE n > (sql parser "
                "error: Expected: an expression, found: EOF)"
            ),
        ),
        ("n", "Invalid input, The filter n does not return a boolean"),
        ("n <=> 1", "Invalid input, Operator <=> is not supported"),
    ],
)
def test_sql_errors_carry_lances_messages(where: str, message: str) -> None:
    with pytest.raises(FilterError) as raised:
        ids(store(), sql(where))
    assert str(raised.value) == message


def test_execution_casts_fail_as_the_engine_does() -> None:
    with pytest.raises(RuntimeError, match="Cannot cast string 'red' to value of Int64 type"):
        ids(store(), sql("NOT (color > 1)"))


def test_unsupported_sql_says_so() -> None:
    with pytest.raises(NotImplementedError, match="CASE is not supported by placeborag"):
        SqlFilter("CASE WHEN n = 1 THEN true END")
    with pytest.raises(NotImplementedError, match=r"lower\(\) is not supported"):
        ids(store(), sql("lower(color) = 'red'"))


def test_dict_filters_are_translated_to_sql() -> None:
    s = store()
    assert where_to_sql({"n": {"$gt": 2}, "color": "blue"}) == "(n > 2) AND (color = 'blue')"
    assert ids(s, {"color": {"$ne": "red"}}) == ["r2", "r4", "r9"]
    assert ids(s, {"$not": {"color": "red"}}) == ["r2", "r4", "r9"]
    assert ids(s, {"tags": {"$contains": "x"}}) == ["r1"]
    with pytest.raises(FilterError, match="could not convert to literal of type 'Float64'"):
        ids(s, {"n": "1"})


def test_struct_layout_reads_metadata_prefix_and_text() -> None:
    layout = PayloadLayout(
        metadata_prefix="metadata.",
        text_key="text",
        table_columns=("vector", "id", "text", "{metadata}"),
    )
    s = FakeVectorStore(profile="lancedb")
    s.upsert_many([("a", "hello", {"color": "red"}, V), ("b", "bye", {"color": "blue"}, V)])
    reader = PROFILES["lancedb"].native_filter
    assert reader is not None
    where = reader("metadata.color = 'red' OR text = 'bye'", layout).where
    assert ids(s, where) == ["a", "b"]
    with pytest.raises(
        FilterError, match=r"Valid fields are `vector`, `id`, `text`, `metadata`.`color`"
    ):
        ids(s, reader("color = 'red'", layout).where)


def test_wrong_widths_raise_an_error_of_both_kinds_lancedb_uses() -> None:
    s = store()
    with pytest.raises(LanceDimensionError) as raised:
        s.upsert_many([("z", None, {}, np.ones(3))])
    assert isinstance(raised.value, ValueError)
    assert isinstance(raised.value, RuntimeError)
